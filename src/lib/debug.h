#ifndef WATCHQ_DEBUG_H
#define WATCHQ_DEBUG_H

/*
 * A trace of the decisions that are otherwise invisible outside a debugger, as LIBMOUNT_DEBUG
 * gives libmount's: WATCHQ_DEBUG=AREA[,AREA...] (or all) writes one line per decision of those
 * areas to standard error, "watchq: debug: AREA: ...". The areas are debug_areas[].
 */
enum debug_area {
	DEBUG_FANOTIFY = 1u << 0,	/* records read and resyncs */
	DEBUG_RESCAN = 1u << 1,		/* why a re-read of the watched mounts ran, was owed or held */
	DEBUG_CAPTURE = 1u << 2,	/* what the process capture said of a record or a flip */
	DEBUG_GROUP = 1u << 3,		/* where -N all's one group routed a record */
	DEBUG_MOUNTINFO = 1u << 4,	/* the mountinfo backend's re-reads */
	DEBUG_NS = 1u << 5,		/* -N all: namespaces found and gone */
	DEBUG_KEYS = 1u << 6,		/* keys followed below the watched ones, and dropped */
};

struct debug_name {
	const char *name;
	unsigned area;
	const char *what;
};

/* Every area by name, ended by a NULL name. */
extern const struct debug_name debug_areas[];
/* The areas WATCHQ_DEBUG asked for (debug_init()). */
extern unsigned debug_mask;

/*
 * Read WATCHQ_DEBUG; on an unknown area say so on one line and exit 64; on "help" list the areas
 * on standard output and exit 0.
 */
void debug_init(void);
/* Write one line of area (one bit) to standard error. */
void debug_print(unsigned area, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define DEBUG(area, ...) do { \
	if (debug_mask & (area)) \
		debug_print((area), __VA_ARGS__); \
} while (0)

#endif
