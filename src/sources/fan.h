#ifndef WATCHQ_FAN_H
#define WATCHQ_FAN_H

/*
 * The fanotify mount source's parts (private to source_fanotify.c, fan_table.c, fan_flip.c and
 * fan_feed.c): the source's state, the mount table it keeps from records and re-reads
 * (fan_table_), the flip calls the capture saw (fan_flip_), and the feeds its records come from,
 * its own group or -N all's one group (fan_feed_).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "capture.h"
#include "fan_decode.h"
#include "fangroup.h"
#include "mounttab.h"
#include "rescan.h"
#include "source.h"
#include "statmount.h"
#include "who.h"

#define RESTART_STEP	32		/* mounts between looks at the signal in a prompt re-scan */
#define FLIP_WAITS	5		/* milliseconds a flip call under way is awaited */
#define RECORD_WAIT_NS	200000L		/* how long a signal alone awaits its record */

/*
 * The slots, which the loop drains in this order (their handles' order of addition). The signal
 * comes first, so that a wake-up for both reads the records with the signal they come with.
 * FD_NS: with -N, the pidfd of the process followed. FD_CAP: the capture's ring, read with the
 * records whichever of the two woke us.
 */
enum { FD_MOUNTINFO, FD_FAN, FD_TIMER, FD_NS, FD_CAP };

struct fan {
	struct mounttab tab;
	struct statmount_buf sm;
	bool want_attrs;		/* readonly or setattr events are wanted: re-scan */
	bool overflow;			/* the kernel queue overflowed: resync */
	bool root_moved;		/* a mount moved from or to "/" (pivot_root) */
	struct mntns_root_id root;	/* the root statmount(2) names mount points from */
	struct rescan rs;		/* when the watched mounts are read again */
	/*
	 * With the capture: since the last re-scan began, a change the records and the capture may
	 * not account for (a flip call whose mounts it could not tell, or calls it lost).
	 */
	bool unsure;
	bool sb_elsewhere;		/* and a superblock was remounted from another namespace */
	unsigned long long losses;	/* the capture's, as of the last re-scan */
	/*
	 * -N all with its capture (ns_cap, not ours): its count of calls that may change a mount of
	 * this namespace without a record, as of the last re-read (fan_ns_sure()).
	 */
	struct capture *ns_cap;
	uint64_t ns_ino;
	unsigned long long ns_flips;
	unsigned long long flips_read;	/* flip calls whose mounts were read again */
	bool tab_owed;			/* the first read of the table is owed (a state wait) */
	/*
	 * Since the last removal check, a mount that held a watched directory went or moved, or one
	 * came over it: the watched directories are checked again.
	 */
	bool recheck_dirs;
	/* The fds the source owns, closed by name (src->io's slots only show them to the loop) */
	int signal_fd;			/* the mountinfo fd, also while it is not polled */
	int fan_fd;			/* our own group (not with -N all's); -1: none */
	int timer_fd;			/* an owed re-scan is due */
	struct mounttab_ids transient;	/* this drain's mounts gone before they could be read */
	struct mounttab_ids unseen;	/* transient at their attach: their detach is no news */
	size_t read_size;		/* bytes of buf one read(2) may fill */
	struct who_proc proc;		/* where the names of processes are read */
	/* -N all: the one group of every namespace (its records routed to this member); NULL: our
	 * own group, FD_FAN */
	struct fangroup *group;
	struct fangroup_member member;
	unsigned long long records;	/* records acted on */
	/* -N all's capture: its count of propagation calls of the namespace before the group's mark
	 * was placed; props_unsure: one was under way then (fan_member_spreads()) */
	unsigned long long ns_props;
	bool props_unsure;
	unsigned long long records_woke;	/* as of the end of the last fan_on_wake() */
	struct capture *cap;		/* the process capture; NULL: none */
	bool cap_loss_said;		/* its first loss has been said on stderr */
	unsigned char buf[65536] __attribute__((aligned(8)));
};

/*
 * The context of fan_table_change(). Each record names the process behind it. A change is credited
 * to that process only when it is the change the record stands for: an attach that shows as a
 * mount, a detach as an unmount, a move as a move (of the mount and its submounts). What a record
 * only reveals (a move found on an attach, a remount) was made by someone else, unknown.
 */
struct fan_credit {
	struct source *src;
	struct who *who;		/* the record's process; NULL for a re-scan or a resync */
	enum mounttab_change_kind kind;	/* the change the record stands for */
	bool opts, props;		/* a flip call's: what it may have changed */
};

/* Where a path lies from a watched directory. */
enum fan_place {
	FAN_IN_WATCH,		/* at or below it: in the watched subtree */
	FAN_HOLDS_WATCH,	/* at or above it: a mount there holds the directory */
};

/* The mount table: fan_table.c. */
/* Whether path lies at place from some live watch's directory. */
bool fan_table_watched(const struct source *src, const char *path, enum fan_place place);
/* A change of the table (mounttab_diff()'s callback; p: a struct fan_credit): report it. */
void fan_table_change(void *p, const struct mounttab_change *ch);
/* Mount id went before it could be read: it goes in this drain's transient record. */
void fan_table_add_transient(struct fan *f, uint64_t id);
/* One transient record for the drain: each id once (its attach and its detach both named it). */
void fan_table_flush_transient(struct source *src);
/* Add id to the struct mounttab_ids p. */
void fan_table_add_id(void *p, uint64_t id);
/* Whether ids holds id. */
bool fan_table_ids_have(const struct mounttab_ids *ids, uint64_t id);
/* Replace the cached mount new->id by new, reporting what differs; one that moved or went
 * meanwhile is left to its record (false). */
bool fan_table_update_still(struct fan *f, struct mounttab_entry *new, struct fan_credit *cr);
/*
 * Propagation that changes without a record or a call of its own. A mount that leaves peer group
 * g (unmounted, made private or a slave) hands g's slaves to another peer, or to g's master, or
 * frees them: its peers and slaves are read again (none: at no cost). A mount moved under a
 * shared one becomes shared with every mount below it: those are read again, as after any move
 * that changed the moved mount's propagation.
 */
void fan_table_reread_group(struct source *src, uint64_t g);
/* Act on r; new: for an attach, the mount as read already, or NULL. */
void fan_table_act(struct source *src, const struct fan_rec *r, struct mounttab_entry *new);
/* fan_decode()'s callback: act on record r of the source p. */
void fan_table_record(void *p, const struct fan_rec *r);
/* How many cached mounts lie in a watched subtree. */
size_t fan_table_count_watched(const struct source *src);
/*
 * After lost events (say so) or a root moved, report the difference between the cache and a fresh
 * table. With -N, the root of the process followed is taken again: its paths are from there.
 */
int fan_table_resync(struct source *src);
/*
 * Read the options of every cached mount in a watched subtree again, and report what changed
 * since the last report. Newest first (unique ids only grow): a mount just made is the one most
 * likely to be remounted and then unmounted at once, and only a look before the unmount sees it.
 */
void fan_table_rescan(struct source *src);
/* A re-read of the table begins: it accounts for what was unsure until now. */
void fan_table_sure_from_now(struct fan *f);
/* Consume the mountinfo signal: whether it was raised since it was last consumed. */
bool fan_table_signal(struct fan *f);
/* Read the table if its first read is still owed; -1 with errno set. */
int fan_table_read_owed(struct fan *f);

/* Flip calls: fan_flip.c. */
/* Whether a flip call is under way: the signal it raised is its exit's to explain. */
bool fan_flip_open(const struct fan *f);
/*
 * Each flip call that has ended, oldest first: re-read what it changed if it succeeded. A call
 * under way has made its change when it raises the signal, and ends microseconds later: its end
 * is awaited a little (its exit record wakes the ring), so that the mount is read before another
 * call can change it again.
 */
void fan_flip_ended(struct source *src);
/*
 * Whether a flip call that may change a mount of ours is still under way once the ended ones have
 * been read: it has made its change, which its exit reads and names (fan_flip_ended()). A re-scan
 * now would find that change first and name nobody, so it waits (rescan_hold()).
 */
bool fan_flip_under_way(struct source *src);

/* Record feeds: fan_feed.c. */
/* Read the fanotify queue until it is empty, with the capture around it; as source_read_ready(). */
int fan_feed_read(struct source *src);
/*
 * The kernel raises the signal of a mount, unmount or move just before it queues the record:
 * whether a record comes within RECORD_WAIT_NS of a signal that came alone. On -N all's one
 * group, whether one of this namespace does (it is read and routed here: records of others may
 * come first); none is read while the group's members are woken (fangroup_pump()).
 */
bool fan_feed_record_soon(struct source *src);
/* A member's operations in -N all's one group. */
extern const struct fangroup_ops fan_feed_member_ops;

#endif
