#ifndef WATCHQ_RESCAN_H
#define WATCHQ_RESCAN_H

#include <stdbool.h>
#include <stddef.h>

/*
 * When the fanotify mount source reads the options of its watched mounts again (a re-scan), as a
 * pure rule of a state and what a wake-up brought; times are CLOCK_MONOTONIC nanoseconds, given.
 *
 * fanotify says nothing of remounts and attribute changes, but every change of the table raises
 * POLLPRI on /proc/self/mountinfo (the signal), so a signal may stand for one. When the watched
 * subtrees hold at most RESCAN_PROMPT_MAX mounts, a signal that no record explains is re-scanned at
 * once. Any other signal makes a re-scan owed. It is paid once the source has been idle for
 * RESCAN_IDLE_NS, or once RESCAN_RATIO times as many events have gone by as the last re-scan cost
 * statmounts (at most 1/RESCAN_RATIO statmount per event whatever the size of the table), and at
 * the latest once it has been owed for RESCAN_OWED_MAX_NS, at every size: a change is re-read
 * within RESCAN_OWED_MAX_NS of the signal it raised, plus one re-scan. Above RESCAN_PROMPT_MAX a
 * re-scan is not cheap: quiet pays it only RESCAN_OWED_MAX_NS after the last one began, so that
 * changes elsewhere at any pace cost at most one a second beyond what RESCAN_RATIO allows, and the
 * signal is not polled while one is owed (it could say nothing new, and each change would wake
 * watchq). Where the process capture is sure of every change (it has lost no call and told the
 * mounts of every flip call), flips are read at their calls' exits, the signal is not polled, and a
 * re-scan is only a lazy safety net: paid once quiet, or as RESCAN_RATIO allows, never at
 * RESCAN_OWED_MAX_NS. A re-scan that would read a flip call's change before its exit names the
 * process is held back for it, up to RESCAN_OWED_MAX_NS from the first one held.
 */
#define RESCAN_PROMPT_MAX	500		/* watched mounts re-scanned at once on a signal */
#define RESCAN_RATIO		4		/* events per statmount a large re-scan may cost */
#define RESCAN_IDLE_NS		100000000LL	/* quiet time before an owed re-scan */
#define RESCAN_OWED_MAX_NS	1000000000LL	/* longest a re-scan is owed; least gap of large ones */

struct rescan {
	bool owed;			/* a re-scan is owed */
	bool lazy;			/* only as a safety net (rescan_owe()) */
	/*
	 * -N all's namespaces: a lazy re-scan is paid as RESCAN_RATIO allows, not once quiet, which
	 * with events spread over many namespaces would re-read one at nearly each of its events.
	 */
	bool spread;
	long long owed_since;		/* when the re-scan owed was first owed (made strict) */
	long long last_event;		/* when a record or a flip call last came */
	long long last_scan;		/* when the last re-scan began */
	long long held_since;		/* a re-scan is held back for a flip call since; 0: none */
	unsigned long long since_scan;	/* events since the last re-scan */
	size_t scan_cost;		/* watched mounts the last re-scan looked at */
};

/* What a wake-up calls for. */
enum rescan_act {
	RESCAN_NONE,
	RESCAN_NOW,		/* re-scan now (rescan_hold() may hold it back) */
	RESCAN_OWE,		/* owe one, paid within RESCAN_OWED_MAX_NS */
	RESCAN_OWE_LAZY,	/* owe a safety net */
};

/* The clock the times above are read from. */
long long rescan_clock(void);
/* Whether the watched subtrees are small enough to re-scan at once, as the last re-scan counted. */
bool rescan_small(const struct rescan *r);
/*
 * A wake-up: whether the signal was up, whether records or flip calls came that explain it, and
 * whether the capture is sure of every change.
 */
enum rescan_act rescan_on_wake(const struct rescan *r, bool signal, bool explained, bool sure);
/*
 * Owe a re-scan (lazy: a safety net). Whether the timer is to be armed, for *arm nanoseconds from
 * now (0 or less: at once).
 */
bool rescan_owe(struct rescan *r, bool lazy, long long now, long long *arm);
/* Nanoseconds until the owed re-scan is due; 0 or less: now. */
long long rescan_owed_left(const struct rescan *r, long long now);
/* The timer fired: whether to re-scan now; else, where *arm >= 0, arm it for *arm again. */
bool rescan_on_timer(const struct rescan *r, long long now, long long *arm);
/*
 * A re-scan is due but a flip call that may change a watched mount is under way: whether to hold
 * it back (the first hold starts the RESCAN_OWED_MAX_NS it may last).
 */
bool rescan_hold(struct rescan *r, long long now);
/* A re-scan is paid now: whether one was owed (its signal is consumed before it). */
bool rescan_paid(struct rescan *r);
/* A re-scan begins at now (as do a resync's reads, with their cost). */
void rescan_began(struct rescan *r, long long now);
/* A re-scan looked at cost watched mounts. */
void rescan_done(struct rescan *r, size_t cost);
/*
 * Whether the signal is polled: not while a re-scan is owed above RESCAN_PROMPT_MAX, nor while
 * the capture is sure of every change (the records and calls wake watchq for each).
 */
bool rescan_polls_signal(const struct rescan *r, bool sure);

#endif
