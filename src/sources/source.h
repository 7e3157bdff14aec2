#ifndef WATCHQ_SOURCE_H
#define WATCHQ_SOURCE_H

#include <stdbool.h>
#include <poll.h>
#include <stddef.h>

#include "config.h"
#include "event.h"

struct capture;
struct ioloop;
struct ioloop_io;

#define SOURCE_MAX_FDS	5

struct source;

/* One kernel mechanism behind the loop: a backend's operations. */
struct source_ops {
	/*
	 * Establish every watch of the source; -1 with errno set, ENOSYS (src->cause the reason)
	 * when this kernel or our privileges lack the mechanism.
	 */
	int (*open)(struct source *src);
	/*
	 * Consume everything ready on the fd of slot i (src->io[i]) and emit the events; -1 with
	 * errno set only for a system error: a record that cannot be trusted is a loss and a
	 * resync.
	 */
	int (*drain)(struct source *src, size_t i);
	/* Emit present records for the current state (--initial); NULL if the source has none. */
	void (*present)(struct source *src);
	/*
	 * Whether wait condition c holds now (an enum wait_state), as this source sees it; NULL if
	 * it judges none.
	 */
	int (*check)(struct source *src, const struct cond *c);
	/*
	 * Emit as a present record what meets condition c now (a condition that prints it);
	 * whether there was one. NULL if it shows none.
	 */
	bool (*show)(struct source *src, const struct cond *c);
	/*
	 * Look again whether the object of each live watch still exists, reporting each gone
	 * (source_gone); NULL if its watches have no path.
	 */
	void (*removals)(struct source *src);
	/*
	 * A capture shared by several sources (-N all's) saw a call that may have changed what this
	 * source watches without a record of its own: look again. NULL if no source needs it.
	 */
	void (*poke)(struct source *src);
	/* Release everything. */
	void (*close)(struct source *src);
};

/* One backend: a row of the table --backend, the fallback order and the readiness line follow. */
struct backend {
	const char *name;		/* as --backend spells it */
	enum ev_type type;		/* the source it serves */
	const struct source_ops *ops;
	/* What the kernel and privileges must offer: the fallback line and exit 69 */
	const char *needs;
	bool says_cause;		/* needs is followed by the reason open failed */
	bool choosable;			/* --backend may name it */
	/* A polled backend: what polling misses, said when falling back to it */
	const char *misses;
	const char *fails;		/* what a failed open names: err(3)'s prefix */
};

/*
 * One fd a source has polled, by slot: the backend names its slots and keeps the fds it owns in
 * fields of its own; it sets a slot with source_poll(). Where the source is in a loop
 * (source_attach), the slot has a handle there whose callback drains the slot.
 */
struct source_io {
	struct source *src;
	int fd;			/* -1: paused */
	short events;		/* POLLIN, or POLLPRI for the mountinfo signal */
	struct ioloop_io *h;
};

/* A watch of a source and its liveness. */
struct source_watch {
	const struct watch *w;
	bool alive;
};

struct source {
	const struct backend *backend;
	struct mntns *ns;	/* mounts with -N: the namespace watched (NULL: ours) */
	const char *backend_label;	/* what the readiness line names; NULL: backend->name */
	char label[48];			/* its room, where it is made (source_label_capture) */
	const struct config *cfg;
	struct sink *sink;
	struct source_io io[SOURCE_MAX_FDS];	/* by slot */
	struct ioloop *loop;	/* where io has its handles, or NULL */
	struct source_watch *watches;	/* the config's watches of this source's type */
	size_t nwatches;
	int cause;		/* why open failed with ENOSYS: an errno value */
	void *priv;
};

/* Backends, in fallback order within each source type, ended by a NULL name. */
extern const struct backend source_backends[];

/* The readiness line names base with the capture c and how it is attached:
 * "fanotify+bpf:fentry". */
void source_label_capture(struct source *src, const char *base, const struct capture *c);
/* The source word for type ("mounts"). */
const char *source_word(enum ev_type type);
/* The source a command-line word names, or NULL. */
const struct event_source *source_find(const char *word);
/* The backend --backend=name names, or NULL. */
const struct backend *source_backend_find(const char *name);
/* Whether backend be serves sources of type. */
bool source_backend_serves(const struct backend *be, enum ev_type type);

/*
 * Open the source for cfg's watches of type in mount namespace ns (NULL: ours) with cfg->backend,
 * or each backend in fallback order saying why on stderr; exits 69 (unavailable) or 1 on failure.
 */
void source_open(struct source *src, enum ev_type type, struct mntns *ns, const struct config *cfg,
    struct sink *sink);
/*
 * Open a source for watches ws[0..n) (n > 0, of one type) in ns as source_open() does, with
 * backend be (NULL: cfg's choice), but without exiting: -1 with errno set (ENOSYS: no backend
 * serves) and *why the reason, src closed.
 */
int source_open_watches(struct source *src, struct mntns *ns, const struct watch *ws, size_t n,
    const struct backend *be, const struct config *cfg, struct sink *sink, const char **why);
/* Open be with no watch as source_open() would, and close it: NULL if it serves, else why not. */
const char *source_probe(const struct backend *be);
/* Close the source and release its watch list. */
void source_close(struct source *src);

/* Consume what is ready on slot i's fd and emit the events; -1 with errno set on a system error. */
int source_drain(struct source *src, size_t i);
/* Poll fd (-1: pause the slot) for events in slot i from now: a backend sets a slot before it
 * closes the slot's fd. */
void source_poll(struct source *src, size_t i, int fd, short events);
/* Poll fd in slot i for the events it had (-1: pause it). */
void source_poll_fd(struct source *src, size_t i, int fd);
/* Pause slot i and close *fd, an fd the backend owns and polled there (-1: none), setting it -1. */
void source_close_fd(struct source *src, size_t i, int *fd);
/* What is ready on slot i's fd was served by a drain of another slot. */
void source_served(struct source *src, size_t i);
/* Give each slot of src a handle in loop l, which drains it: sourceset_add() does. */
void source_attach(struct source *src, struct ioloop *l);
/* Remove the slots' handles from the loop (none: nothing). */
void source_detach(struct source *src);
/* Emit present records for the current state (--initial), if the backend has any. */
void source_present(struct source *src);
/* See source_ops.poke; nothing for a source without it. */
void source_poke(struct source *src);
/* Where condition c stands as src sees it (an enum wait_state); WAIT_PENDING if it judges none. */
int source_check(struct source *src, const struct cond *c);
/* Emit as a present record what meets condition c now, as src sees it; whether there was one. */
bool source_show(struct source *src, const struct cond *c);
/*
 * Store in paths the path to follow for removal of each live watch, if the backend looks again at
 * them (a -N watch's reach); return how many.
 */
size_t source_removal_paths(const struct source *src, const char **paths);
/* Look again whether each live watch's object still exists, reporting each gone (source_gone). */
void source_look_again(struct source *src);

/* The backend name the readiness line and meta records name. */
const char *source_backend_name(const struct source *src);
/*
 * Clear ev and set its type, subtype and watch w (tag, target, w's source word and mount
 * namespace).
 */
void source_event_init(struct event *ev, enum ev_type type, unsigned subtype,
    const struct watch *w);
/* Send a loss record to every live watch the user named. */
void source_loss(struct source *src);
/*
 * Watch sw went away: mark it dead and, unless a wait condition added it, report its removal saying
 * what went.
 */
void source_gone(struct source *src, struct source_watch *sw, const char *what);
/* The entry for watch w, or NULL. */
struct source_watch *source_watch_of(struct source *src, const struct watch *w);
/* How many watches the user named are still alive. */
size_t source_live(const struct source *src);
/*
 * Read a non-blocking fd until it is empty, handing each read to each(ctx,
 * buf, n); -1 with errno set on a read error, 1 if each() ever returned < 0
 * (a record it could not trust), else 0. With rec_max, the fd's reads fill
 * the buffer with every record that fits: one that left room for a record
 * of rec_max bytes found the queue empty, and ends it without another read.
 */
int source_read_ready(int fd, void *buf, size_t size, size_t rec_max,
    int (*each)(void *ctx, const void *buf, size_t n), void *ctx);

extern const struct source_ops source_mountinfo_ops;
extern const struct source_ops source_fanotify_ops;
extern const struct source_ops source_watchqueue_ops;
extern const struct source_ops source_keypoll_ops;
extern const struct source_ops source_sb_ops;

#endif
