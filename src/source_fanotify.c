/*
 * Mount source for Linux 6.15+: fanotify mount-namespace records (FAN_MNT_ATTACH, FAN_MNT_DETACH;
 * a move is one record with both bits) name each mount by its 64-bit unique id. statmount(2)
 * describes an attached mount, the cache a detached one, so an event costs O(1) in the size of
 * the table. A mount that is gone before statmount(2) could read it is known by its id alone: it
 * is counted in a transient record, never placed at a path.
 *
 * With -N the mark is on that namespace's nsfs file, statmount(2) reads the namespace by its id,
 * the signal is /proc/PID/mountinfo of the process followed there, and that process's pidfd
 * tells when the namespace may be gone (mntns.c).
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fanotify.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "buf.h"
#include "capture.h"
#include "compat.h"
#include "fan_decode.h"
#include "fangroup.h"
#include "mntns.h"
#include "mount_events.h"
#include "mount_wait.h"
#include "path.h"
#include "rescan.h"
#include "source.h"
#include "statmount.h"
#include "xalloc.h"
#include "who.h"

/*
 * fanotify says nothing of remounts and attribute changes, but every change of the table raises
 * POLLPRI on /proc/self/mountinfo (the signal): when a re-read of the watched mounts' options (a
 * re-scan) is made is rescan.h's rule. A remount of a mount that is unmounted before the re-scan
 * is not seen: statmount(2) no longer finds it, and its unmount reports the options watchq last
 * reported.
 */
#define RESTART_STEP	32		/* mounts between looks at the signal in a prompt re-scan */
#define FLIP_WAITS	5		/* milliseconds a flip call under way is awaited */
#define RECORD_WAIT_NS	200000L		/* how long a signal alone awaits its record */

/*
 * The loop drains the fds in this order. The signal comes first, so that a wake-up for both reads
 * the records with the signal they come with. FD_NS: with -N, the pidfd of the process followed.
 * FD_CAP: the capture's ring, read with the records whichever of the two woke us.
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
	int signal_fd;			/* the mountinfo fd, also while it is not polled */
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
 * The context of fan_on_change(). Each record names the process behind it. A change is credited
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

static void
fan_arm_timer(struct source *src, long long ns)
{
	struct itimerspec its = { { 0, 0 },
	    { (time_t)(ns / 1000000000LL), (long)(ns % 1000000000LL) } };

	if (ns <= 0)
		its.it_value = (struct timespec){ 0, 1 };
	timerfd_settime(src->pfd[FD_TIMER].fd, 0, &its, NULL);
}

/* Where a path lies from a watched directory. */
enum fan_place {
	FAN_IN_WATCH,		/* at or below it: in the watched subtree */
	FAN_HOLDS_WATCH,	/* at or above it: a mount there holds the directory */
};

/* Whether path lies at place from some live watch's directory. */
static bool
fan_watched(const struct source *src, const char *path, enum fan_place place)
{
	const char *dir;
	size_t i;

	for (i = 0; i < src->nwatches; i++) {
		if (!src->watches[i].alive)
			continue;
		dir = src->watches[i].w->path;
		if (place == FAN_IN_WATCH ? path_within(dir, path) : path_within(path, dir))
			return true;
	}
	return false;
}

static enum who_kind
fan_who_kind(enum mounttab_change_kind kind)
{
	return kind == MOUNTTAB_MOUNT ? WHO_ATTACH :
	    kind == MOUNTTAB_UNMOUNT ? WHO_DETACH : WHO_MOVE;
}

static void
fan_on_change(void *p, const struct mounttab_change *ch)
{
	const struct fan_credit *cr = p;
	struct source *src = cr->src;
	struct fan *f = src->priv;
	bool went = ch->kind == MOUNTTAB_UNMOUNT || ch->kind == MOUNTTAB_MOVE;
	bool came = ch->kind == MOUNTTAB_MOUNT || ch->kind == MOUNTTAB_MOVE;

	/* The change the record stands for: the capture's call behind it is joined by its path. */
	if (cr->who && ch->kind == cr->kind && ch->kind != MOUNTTAB_REMOUNT)
		who_at(cr->who, fan_who_kind(ch->kind), ch->new ? ch->new->target : ch->old->target,
		    mounttab_parent_shared(&f->tab, ch->new) ||
		    mounttab_parent_shared(&f->tab, ch->old));
	if (ch->kind == MOUNTTAB_REMOUNT && cr->kind == MOUNTTAB_REMOUNT) {
		mount_events_remount_by(src, ch, cr->opts ? cr->who : NULL,
		    cr->props && !mount_events_was_slave(ch->old) ? cr->who : NULL);
		return;
	}

	/* A watched directory goes with a mount that held it, or under one mounted over it. */
	if ((went && fan_watched(src, ch->old->target, FAN_HOLDS_WATCH)) ||
	    (came && fan_watched(src, ch->new->target, FAN_HOLDS_WATCH)))
		f->recheck_dirs = true;
	mount_events_change_by(src, ch, ch->kind == cr->kind ? cr->who : NULL);
}

static void
fan_add_transient(struct fan *f, uint64_t id)
{
	mounttab_ids_push(&f->transient, id);
}

/* Whether id's attach was counted as transient; if so, forget it (its detach comes only once). */
static bool
fan_take_unseen(struct fan *f, uint64_t id)
{
	size_t i;

	for (i = 0; i < f->unseen.n; i++) {
		if (f->unseen.v[i] == id) {
			f->unseen.v[i] = f->unseen.v[--f->unseen.n];
			return true;
		}
	}
	return false;
}

/* One transient record for the drain: each id once (its attach and its detach both named it). */
static void
fan_flush_transient(struct source *src)
{
	struct fan *f = src->priv;

	if (f->transient.n == 0)
		return;
	mounttab_ids_unique(&f->transient);
	mount_events_transient(src, f->transient.v, f->transient.n);
	f->transient.n = 0;
}

/* The context of fan_on_below(): the record's credit and the mount it attached. */
struct fan_below {
	struct fan_credit *cr;
	uint64_t top;
};

/*
 * A mount attached beneath another (move_mount(2) with MOVE_MOUNT_BENEATH) becomes the parent of
 * the mount that was on top there, and the kernel queues a record for the attached mount alone.
 * So a mount below the attached one that the cache does not place below it has a new parent: it
 * is read again. So is one without a path (outside the root of the process followed): its mount
 * may have moved it into sight. One that is not cached has its own attach record on the way.
 */
static void
fan_on_below(void *p, uint64_t id)
{
	struct fan_below *b = p;
	struct fan *f = b->cr->src->priv;
	struct mounttab_entry *e = mounttab_find(&f->tab, id), *new;

	if (e == NULL || (mounttab_below(&f->tab, e, b->top) && e->target[0] != '\0'))
		return;
	if ((new = statmount_one(&f->sm, id)) != NULL)
		mounttab_update(&f->tab, new, fan_on_change, b->cr);
}

/*
 * Whether a mount just attached, that was in sight before, may have mounts below it that the
 * cache places elsewhere (see fan_on_below()): only if the cache has another mount with the same
 * parent at the same mount point, as the mount that was on top there is after an attach beneath
 * it. listmount(2) of a mount's children costs the size of the whole namespace; the cache is
 * asked instead, without a look at the path, which would hold the mount for a moment and make a
 * concurrent umount(2) of it fail with EBUSY.
 */
static bool
fan_covered(struct source *src, uint64_t id)
{
	struct fan *f = src->priv;
	const struct mounttab_entry *e = mounttab_find(&f->tab, id);

	return e == NULL || mounttab_has_twin(&f->tab, e);
}

static void
fan_add_id(void *p, uint64_t id)
{
	mounttab_ids_push(p, id);
}

static bool
fan_ids_have(const struct mounttab_ids *ids, uint64_t id)
{
	size_t i;

	for (i = 0; i < ids->n; i++)
		if (ids->v[i] == id)
			return true;
	return false;
}

/* Replace the cached mount new->id by new, reporting what differs; one that moved or went
 * meanwhile is left to its record. */
static void
fan_update_still(struct fan *f, struct mounttab_entry *new, struct fan_credit *cr)
{
	const struct mounttab_entry *old = mounttab_find(&f->tab, new->id);

	if (old && strcmp(old->target, new->target) == 0 && old->parent_id == new->parent_id)
		mounttab_update(&f->tab, new, fan_on_change, cr);
	else
		mounttab_entry_free(new);
}

/* Read a cached mount again and report what differs, made by someone unknown. */
static void
fan_reread(void *p, uint64_t id)
{
	struct source *src = p;
	struct fan *f = src->priv;
	struct fan_credit cr = { src, NULL, MOUNTTAB_MOUNT, false, false };
	struct mounttab_entry *new;

	if (mounttab_find(&f->tab, id) != NULL && (new = statmount_one(&f->sm, id)) != NULL)
		fan_update_still(f, new, &cr);
}

/*
 * Propagation that changes without a record or a call of its own. A mount that leaves peer group
 * g (unmounted, made private or a slave) hands g's slaves to another peer, or to g's master, or
 * frees them: its peers and slaves are read again (none: at no cost). A mount moved under a
 * shared one becomes shared with every mount below it: those are read again, as after any move
 * that changed the moved mount's propagation.
 */
static void
fan_reread_group(struct source *src, uint64_t g)
{
	struct fan *f = src->priv;

	mounttab_each_in_group(&f->tab, g, fan_reread, src);
}

static void
fan_reread_below(struct source *src, uint64_t top)
{
	struct fan *f = src->priv;
	struct mounttab_ids ids = { NULL, 0, 0 };
	size_t i;

	for (i = 0; i < f->tab.cap; i++)
		if (f->tab.slot[i] && f->tab.slot[i]->id != top &&
		    mounttab_below(&f->tab, f->tab.slot[i], top))
			fan_add_id(&ids, f->tab.slot[i]->id);
	for (i = 0; i < ids.n; i++)
		fan_reread(src, ids.v[i]);
	free(ids.v);
}

/* An attach of id; new: the mount as read already, or NULL to read it here. */
static void
fan_on_attach(struct fan_credit *cr, uint64_t id, struct mounttab_entry *new)
{
	struct fan *f = cr->src->priv;
	struct mounttab_entry *old, *up;
	struct mounttab_change ch;
	bool unseen, spread;

	if (new == NULL)
		new = statmount_one(&f->sm, id);
	if (new == NULL) {
		/*
		 * Gone before we could look; its detach record follows. A known
		 * mount that moved and went is reported unmounted from where the
		 * cache has it; an unknown one is transient.
		 */
		if (mounttab_find(&f->tab, id) == NULL) {
			fan_add_transient(f, id);
			mounttab_ids_push(&f->unseen, id);
		}
		return;
	}
	/*
	 * A root moved (pivot_root(2)) moves every path: the whole table is read again, once the
	 * roots have changed too (mntns_root_settle()).
	 */
	if ((old = mounttab_find(&f->tab, id)) != NULL &&
	    (strcmp(old->target, "/") == 0) != (strcmp(new->target, "/") == 0)) {
		f->root_moved = true;
		mounttab_entry_free(new);
		return;
	}
	/* Moved into sight: the mounts on it come with it, without records of their own. */
	unseen = old != NULL && old->target[0] == '\0';
	if (old == NULL) {
		ch = (struct mounttab_change){ MOUNTTAB_MOUNT, NULL, new };
		fan_on_change(cr, &ch);
		mounttab_insert(&f->tab, new);
	} else {
		/* A move, or an attach the first read saw: report what differs from the last. */
		spread = strcmp(old->propagation, new->propagation) != 0 ||
		    ((up = mounttab_find(&f->tab, new->parent_id)) && mounttab_peer_group(up));
		mounttab_update(&f->tab, new, fan_on_change, cr);
		if (spread)
			fan_reread_below(cr->src, id);
	}
	/* Gone meanwhile (ENOENT): its detach record follows. */
	if (unseen || fan_covered(cr->src, id))
		(void)statmount_each_below(&f->sm, id, fan_on_below, &(struct fan_below){ cr, id });
}

static void
fan_on_detach(struct fan_credit *cr, uint64_t id)
{
	struct fan *f = cr->src->priv;
	struct mounttab_entry *old = mounttab_remove(&f->tab, id);
	struct mounttab_change ch = { MOUNTTAB_UNMOUNT, old, NULL };

	if (old == NULL) {
		/* Its attach may have been counted in an earlier drain's transient record. */
		if (!fan_take_unseen(f, id))
			fan_add_transient(f, id);
		return;
	}
	fan_on_change(cr, &ch);
	fan_reread_group(cr->src, mounttab_peer_group(old));
	mounttab_entry_free(old);
}

/* The change a record stands for: a move has both bits. */
static enum mounttab_change_kind
fan_record_kind(const struct fan_rec *r)
{
	if ((r->mask & FAN_MNT_ATTACH) && (r->mask & FAN_MNT_DETACH))
		return MOUNTTAB_MOVE;
	return r->mask & FAN_MNT_ATTACH ? MOUNTTAB_MOUNT : MOUNTTAB_UNMOUNT;
}

/* Act on r; new: for an attach, the mount as read already, or NULL. */
static void
fan_act(struct source *src, const struct fan_rec *r, struct mounttab_entry *new)
{
	struct fan *f = src->priv;
	struct who who;
	struct fan_credit cr = { src, &who, fan_record_kind(r), false, false };

	/* The pidfd is ours to close, whatever becomes of the record. */
	who_init(&who, &f->proc, r->pid, r->pidfd);
	if (r->mask & FAN_Q_OVERFLOW)
		f->overflow = true;
	/* After an overflow the resync will tell. */
	if (r->has_id && !f->overflow && !f->root_moved) {
		f->rs.since_scan++;
		f->records++;
		if (r->mask & FAN_MNT_ATTACH)
			fan_on_attach(&cr, r->mnt_id, new);
		else if (r->mask & FAN_MNT_DETACH)
			fan_on_detach(&cr, r->mnt_id);
	} else {
		mounttab_entry_free(new);
	}
	who_done(&who);
}

static void
fan_on_record(void *p, const struct fan_rec *r)
{
	fan_act(p, r, NULL);
}

/*
 * The mounts a flip call changed: the one it named (by its path, as the cache has it now),
 * those below it for a recursive call, every one of its superblock for a remount or a
 * reconfigure. None if the capture could not tell which.
 */
static void
fan_flip_targets(struct fan *f, const struct capture_call *call, struct mounttab_ids *ids)
{
	struct mounttab_entry *e;
	uint64_t id = 0;
	dev_t dev;
	size_t i;

	/*
	 * A path a remount, mount_setattr(2) or propagation change succeeded on is the root of a
	 * mount: the one on top there, as the cache has it where the path is spelled as the kernel
	 * spells mount points (mount(8) passes it so). It is not looked up: a look holds the mount
	 * for a moment and makes a concurrent umount(2) of it fail with EBUSY.
	 */
	if (call->target == CAPTURE_TARGET_PATH && (e = mounttab_top_at(&f->tab, call->path)))
		id = e->id;
	else if (call->target == CAPTURE_TARGET_MOUNT)
		id = call->mnt_id;
	if (call->target == CAPTURE_TARGET_SB) {
		dev = makedev(call->major, call->minor);
	} else if (call->sb && (e = mounttab_find(&f->tab, id)) != NULL) {
		dev = e->dev;
	} else {
		if (id != 0)
			fan_add_id(ids, id);
		if (id != 0 && call->subtree)
			(void)statmount_each_below(&f->sm, id, fan_add_id, ids);
		return;
	}
	for (i = 0; i < f->tab.cap; i++)
		if (f->tab.slot[i] && f->tab.slot[i]->dev == dev)
			fan_add_id(ids, f->tab.slot[i]->id);
}

/*
 * Whether flip call o may have changed a mount of ids: a call on one mount, of ours, or on one
 * superblock, of theirs; a remount of a superblock anywhere; a call in our namespace on a mount
 * of ids, or on one the cache cannot tell. A bind remount or a propagation change made in another
 * namespace changes that namespace's mounts only.
 */
static bool
fan_flip_may_touch(struct fan *f, const struct capture_call *o, const struct mounttab_ids *ids)
{
	const struct mounttab_entry *e;
	size_t i;

	if (o->target == CAPTURE_TARGET_MOUNT)
		return mounttab_find(&f->tab, o->mnt_id) != NULL;
	if (o->target == CAPTURE_TARGET_SB) {
		for (i = 0; i < ids->n; i++)
			if ((e = mounttab_find(&f->tab, ids->v[i])) &&
			    e->dev == makedev(o->major, o->minor))
				return true;
		return false;
	}
	if (o->sb || !o->elsewhere)
		return o->sb || o->subtree || o->target != CAPTURE_TARGET_PATH ||
		    (e = mounttab_top_at(&f->tab, o->path)) == NULL || fan_ids_have(ids, e->id);
	return false;
}

/* Whether call alone may have changed the mounts ids: no other flip call kept, ended or not, may
 * have, and none was missed. */
static bool
fan_flip_alone(struct fan *f, const struct capture_call *call, const struct mounttab_ids *ids)
{
	size_t i;

	if (capture_flips_lost(f->cap))
		return false;
	for (i = 0; i < capture_nflips(f->cap); i++)
		if (capture_flip(f->cap, i) != call &&
		    fan_flip_may_touch(f, capture_flip(f->cap, i), ids))
			return false;
	return true;
}

/*
 * Read again at once the mounts a flip call that succeeded changed, and report what differs, said
 * to be made by its process only if no other flip call that may have changed them was under way
 * or unread: the capture is read again after the mounts, for calls begun before then. A mount
 * that moved meanwhile is left to its record. Whether the capture told which mounts it changed.
 */
static bool
fan_flip(struct source *src, const struct capture_call *call)
{
	struct fan *f = src->priv;
	struct mounttab_ids ids = { NULL, 0, 0 };
	struct mounttab_entry **news, *old;
	struct fan_credit cr = { src, NULL, MOUNTTAB_REMOUNT, call->opts, call->props };
	uint64_t *groups;
	struct who who;
	size_t i;
	bool told;

	fan_flip_targets(f, call, &ids);
	told = ids.n > 0;
	news = xcalloc(ids.n + 1, sizeof(*news));
	groups = xcalloc(ids.n + 1, sizeof(*groups));
	for (i = 0; i < ids.n; i++)
		if ((old = mounttab_find(&f->tab, ids.v[i])) != NULL) {
			groups[i] = call->props ? mounttab_peer_group(old) : 0;
			news[i] = statmount_one(&f->sm, ids.v[i]);
		}
	capture_drain(f->cap);
	/*
	 * Since the last re-scan a change may have been made that the cache does not show (a flip
	 * whose mounts the capture could not tell, a remount of a superblock from another
	 * namespace): a difference read now may be that one's, so the call is not named.
	 */
	if (call->tgid > 0 && !f->unsure && !f->sb_elsewhere &&
	    capture_losses(f->cap) == f->losses && fan_flip_alone(f, call, &ids)) {
		who_known(&who, call->tgid, call->uid, call->comm);
		cr.who = &who;
	}
	for (i = 0; i < ids.n; i++)
		if (news[i] != NULL)
			fan_update_still(f, news[i], &cr);
	for (i = 0; i < ids.n; i++)
		fan_reread_group(src, groups[i]);
	free(groups);
	free(news);
	free(ids.v);
	return told;
}

/* Whether a flip call is under way: the signal it raised is its exit's to explain. */
static bool
fan_flips_open(const struct fan *f)
{
	size_t i;

	for (i = 0; f->cap && i < capture_nflips(f->cap); i++)
		if (!capture_flip(f->cap, i)->done)
			return true;
	return false;
}

/*
 * Each flip call that has ended, oldest first: re-read what it changed if it succeeded. A call
 * under way has made its change when it raises the signal, and ends microseconds later: its end
 * is awaited a little (its exit record wakes the ring), so that the mount is read before another
 * call can change it again.
 */
static void
fan_on_flips(struct source *src)
{
	struct fan *f = src->priv;
	struct pollfd p = { capture_fd(f->cap), POLLIN, 0 };
	const struct capture_call *call;
	size_t i = 0;
	int n;

	for (n = 0; n < FLIP_WAITS && fan_flips_open(f); n++) {
		while (poll(&p, 1, 1) < 0 && errno == EINTR)
			;
		capture_drain(f->cap);
	}

	while (i < capture_nflips(f->cap)) {
		if (!capture_flip(f->cap, i)->done) {
			i++;
			continue;
		}
		call = capture_flip(f->cap, i);
		/*
		 * A call in another namespace changes no mount of ours but by a remount of a
		 * filesystem mounted in both, which raises no signal here: read at a re-scan.
		 */
		if (call->ok && fan_flip(src, call))
			f->flips_read++;
		else if (call->ok && !call->elsewhere)
			f->unsure = true;
		else if (call->ok && call->sb)
			f->sb_elsewhere = true;
		capture_take(f->cap, i);
	}
}

/* How many cached mounts lie in a watched subtree. */
static size_t
fan_count_watched(const struct source *src)
{
	const struct fan *f = src->priv;
	size_t i, n = 0;

	for (i = 0; i < f->tab.cap; i++)
		n += f->tab.slot[i] && fan_watched(src, f->tab.slot[i]->target, FAN_IN_WATCH);
	return n;
}

/* A re-read of the table begins: it accounts for what was unsure until now. */
static void
fan_sure_from_now(struct fan *f)
{
	bool open;

	f->unsure = false;
	f->sb_elsewhere = false;
	if (f->cap)
		f->losses = capture_losses(f->cap);
	if (f->ns_cap) {
		capture_drain(f->ns_cap);
		f->ns_flips = capture_ns_flips(f->ns_cap, f->ns_ino, &open);
	}
}

/*
 * Whether the records and the capture account for every change since the last re-read of the
 * table: the capture is loaded, has lost no call, and told the mounts of every flip call.
 */
static bool
fan_sure(const struct fan *f)
{
	return f->cap && !f->unsure && capture_losses(f->cap) == f->losses;
}

/*
 * -N all, with the capture of the calls of every namespace: whether the records account for every
 * change since the last re-read, as fan_sure() says for ours: no call that changes a mount without
 * a record of its own (a flip call made in the namespace, a remount of a superblock anywhere) has
 * ended since the last re-read or is under way, and the capture has missed none. The signal is
 * not polled meanwhile: records wake us for their changes, and -N all pokes the source when the
 * capture sees such a call (fan_poke()), which cannot tell which mounts it changed here.
 */
static bool
fan_ns_sure(struct fan *f)
{
	bool open;

	if (f->ns_cap == NULL)
		return false;
	capture_drain(f->ns_cap);
	return capture_ns_flips(f->ns_cap, f->ns_ino, &open) == f->ns_flips && !open;
}

/*
 * After lost events (say so) or a root moved, report the difference between the cache and a fresh
 * table. With -N, the root of the process followed is taken again: its paths are from there.
 */
static int
fan_resync(struct source *src)
{
	struct fan *f = src->priv;
	struct mounttab fresh = { 0 };
	struct fan_credit cr = { src, NULL, MOUNTTAB_MOUNT, false, false };

	if (f->overflow)
		source_loss(src);
	if (f->root_moved && mntns_root_settle(src->ns, &f->root) && src->ns) {
		if (mntns_reroot(src->ns) < 0)
			return -1;
		f->sm.root = src->ns->root;
	}
	f->root_moved = false;
	f->transient.n = 0;	/* the resync accounts for them */
	f->unseen.n = 0;
	fan_sure_from_now(f);
	if (statmount_read_table(&f->sm, &fresh) < 0) {
		mounttab_clear(&fresh);
		return -1;
	}
	mounttab_diff(&f->tab, &fresh, fan_on_change, &cr);
	fresh.had_shared |= f->tab.had_shared;
	mounttab_clear(&f->tab);
	f->tab = fresh;
	f->overflow = false;
	f->recheck_dirs = true;
	f->rs.scan_cost = fan_count_watched(src);
	return 0;
}

/* Consume the mountinfo signal: whether it was raised since it was last consumed. */
static bool
fan_signal_consume(struct fan *f)
{
	struct pollfd p = { f->signal_fd, POLLPRI, 0 };

	if (p.fd < 0)
		return false;
	while (poll(&p, 1, 0) < 0 && errno == EINTR)
		;
	return p.revents & (POLLPRI | POLLERR);
}

/*
 * Read the options of every cached mount in a watched subtree again, and report what changed
 * since the last report. Newest first (unique ids only grow): a mount just made is the one most
 * likely to be remounted and then unmounted at once, and only a look before the unmount sees it.
 */
static void
fan_rescan(struct source *src)
{
	struct fan *f = src->priv;
	size_t i, cnt = 0;
	uint64_t *ids = xcalloc(f->tab.count + 1, sizeof(*ids)), id;
	struct fan_credit cr = { src, NULL, MOUNTTAB_MOUNT, false, false };
	struct mounttab_entry *old, *new;
	bool restarted = false;

	for (i = 0; i < f->tab.cap; i++)
		if (f->tab.slot[i] && fan_watched(src, f->tab.slot[i]->target, FAN_IN_WATCH))
			ids[cnt++] = f->tab.slot[i]->id;
	qsort(ids, cnt, sizeof(*ids), mounttab_cmp_id);
	rescan_began(&f->rs, rescan_clock());
	fan_sure_from_now(f);
	for (i = 0; i < cnt; i++) {
		/*
		 * On a change during a prompt re-scan, start again from the newest at once, not
		 * after the rest. Only once per pass, so that a stream of changes cannot keep the
		 * oldest from being looked at; a later change raises the signal for the next wake.
		 */
		if (!restarted && i > 0 && i % RESTART_STEP == 0 && cnt <= RESCAN_PROMPT_MAX &&
		    fan_signal_consume(f)) {
			restarted = true;
			i = 0;
		}
		id = ids[cnt - 1 - i];
		/* Gone: its detach record is on the way. */
		if ((old = mounttab_find(&f->tab, id)) == NULL ||
		    statmount_same_options(&f->sm, old) != 0)
			continue;
		if ((new = statmount_one(&f->sm, id)) != NULL)
			mounttab_update(&f->tab, new, fan_on_change, &cr);
	}
	free(ids);
	rescan_done(&f->rs, cnt);
}

/*
 * Poll the signal only where it may tell something new (rescan_polls_signal()): the capture is sure
 * of every change where fan_sure() or fan_ns_sure() says so.
 */
static void
fan_poll_signal(struct source *src)
{
	struct fan *f = src->priv;
	bool polled = rescan_polls_signal(&f->rs, fan_sure(f) || fan_ns_sure(f));

	src->pfd[FD_MOUNTINFO].fd = polled ? f->signal_fd : -1;
}

static void fan_owe(struct source *src, bool lazy);

/*
 * A superblock remounted from another namespace may have changed mounts of ours without a signal
 * here, and no flip here is named until they are read again (sb_elsewhere): read them now
 * (naming nobody) where that is cheap and no flip of ours is under way. Above RESCAN_PROMPT_MAX
 * it waits for the next re-scan: remounts elsewhere cost no re-scan here, flips here name nobody
 * meanwhile.
 */
static void
fan_absorb_elsewhere(struct source *src)
{
	struct fan *f = src->priv;

	if (f->sb_elsewhere && rescan_small(&f->rs) && !fan_flips_open(f))
		fan_rescan(src);
}

/*
 * Whether a flip call that may change a mount of ours is still under way once the ended ones have
 * been read: it has made its change, which its exit reads and names (fan_on_flips()). A re-scan
 * now would find that change first and name nobody, so it waits (rescan_hold()).
 */
static bool
fan_flip_under_way(struct source *src)
{
	struct fan *f = src->priv;
	const struct capture_call *o;
	size_t i;

	if (f->cap == NULL)
		return false;
	capture_drain(f->cap);
	fan_on_flips(src);
	for (i = 0; i < capture_nflips(f->cap); i++) {
		o = capture_flip(f->cap, i);
		if (o->done || (o->elsewhere && !o->sb && o->target != CAPTURE_TARGET_SB &&
		    (o->target != CAPTURE_TARGET_MOUNT || !mounttab_find(&f->tab, o->mnt_id))))
			continue;
		return rescan_hold(&f->rs, rescan_clock());
	}
	return false;
}

/*
 * Re-scan now. The signal is polled again and consumed first, so that a change after that raises
 * it again.
 */
static void
fan_rescan_now(struct source *src)
{
	struct fan *f = src->priv;

	if (fan_flip_under_way(src)) {
		if (!f->rs.owed)
			fan_owe(src, false);
		fan_arm_timer(src, FLIP_WAITS * 1000000LL);
		return;
	}
	if (rescan_paid(&f->rs))
		(void)fan_signal_consume(f);
	fan_rescan(src);
	fan_poll_signal(src);
}

/*
 * Whether the mountinfo signal is up, for readonly or setattr events; false while it is not
 * polled. A poll consumes it: the loop's poll did if it woke us for fd i, else ours does here.
 */
static bool
fan_signal_for_attrs(struct source *src, size_t i)
{
	struct fan *f = src->priv;

	if (src->pfd[FD_MOUNTINFO].fd < 0 || !f->want_attrs)
		return false;
	return i == FD_MOUNTINFO || fan_signal_consume(f);
}

/*
 * Records just read: the capture is read again before they are, so that the entry record of each
 * call that caused one is in hand when its process is named.
 */
static int
fan_decode_records(void *ctx, const void *buf, size_t n)
{
	struct source *src = ctx;
	struct fan *f = src->priv;

	if (f->cap) {
		capture_reading(f->cap);
		capture_drain(f->cap);
	}
	return fan_decode(buf, n, fan_on_record, ctx);
}

/* Read the fanotify queue until it is empty, with the capture around it; as source_read_ready(). */
static int
fan_read_queue(struct source *src)
{
	struct fan *f = src->priv;
	int r;

	if (f->group) {
		r = fangroup_read(f->group);
		f->member.pending = false;
		return r;
	}
	if (f->cap) {
		capture_drain(f->cap);
		capture_reading(f->cap);
	}
	/* A record is at most PIDFD_RECORD bytes, and a read takes every record that fits. */
	r = source_read_ready(src->pfd[FD_FAN].fd, f->buf, f->read_size, FAN_PIDFD_RECORD,
	    fan_decode_records, src);
	if (f->cap && r >= 0)
		capture_settle(f->cap);
	/* Once: the changes of the calls it missed name nobody from now on, silently. */
	if (f->cap && !f->cap_loss_said && capture_losses(f->cap) > 0) {
		f->cap_loss_said = true;
		if (!src->cfg->quiet)
			warnx("the process capture missed calls (its ring or tables were full): "
			    "the changes they made name nobody");
	}
	return r;
}

/* Read the records and the calls, and act on them; -1 with errno set. */
static int
fan_take_changes(struct source *src)
{
	struct fan *f = src->priv;

	switch (fan_read_queue(src)) {
	case -1:
		return -1;
	case 1:
		f->overflow = true;	/* a record we cannot trust: treat as lost */
		break;
	}
	if (f->overflow || f->root_moved) {
		if (fan_resync(src) < 0)
			return -1;
	} else {
		fan_flush_transient(src);
	}
	if (f->cap) {
		fan_on_flips(src);
		fan_absorb_elsewhere(src);
	}
	return 0;
}

/*
 * The kernel raises the signal of a mount, unmount or move just before it queues the record:
 * whether a record comes within RECORD_WAIT_NS of a signal that came alone. On -N all's one
 * group, whether one of this namespace does (it is read and routed here: records of others may
 * come first); none is read while the group's members are woken (fangroup_pump()).
 */
static bool
fan_record_soon(struct source *src)
{
	struct fan *f = src->priv;
	struct pollfd p = { f->group ? f->group->fd : src->pfd[FD_FAN].fd, POLLIN, 0 };
	unsigned long long was = f->records;
	struct timespec wait;
	long long start = rescan_clock(), left;

	if (f->group && f->group->pumping)
		return false;
	while ((left = RECORD_WAIT_NS - (rescan_clock() - start)) > 0) {
		wait = (struct timespec){ 0, left };
		p.revents = 0;
		if (ppoll(&p, 1, &wait, NULL) < 0 && errno == EINTR)
			continue;
		if (!(p.revents & POLLIN))
			return false;
		/* A failed read is the next one's error. */
		if (f->group == NULL || fangroup_read(f->group) < 0 || f->records != was)
			return true;
	}
	return false;
}

/* Owe a re-scan (lazy: a safety net), and arm the timer for it (rescan_owe()). */
static void
fan_owe(struct source *src, bool lazy)
{
	struct fan *f = src->priv;
	long long arm;

	if (rescan_owe(&f->rs, lazy, rescan_clock(), &arm))
		fan_arm_timer(src, arm);
}

/*
 * Whichever fd woke us, read both the signal and the records, so that one change wakes watchq
 * once. The signal is consumed first, so that a change after that raises it again. Every mount,
 * unmount and move raises it too, with a record queued just after. A signal that comes with
 * records is taken to be theirs (it is one bit) and only makes a re-scan owed. A signal that comes
 * alone stands for a remount or an attribute change (or another change without a record, such as
 * propagation), and small subtrees are re-read at once, unless a record comes within
 * RECORD_WAIT_NS: the kernel queues it just after the signal. With the capture sure of every
 * change (fan_sure()), the signal is not polled: the records and calls that wake watchq stand for
 * it, and owe only a lazy re-scan, at any size.
 */
static int
fan_on_wake(struct source *src, size_t i)
{
	struct fan *f = src->priv;
	bool signal = fan_signal_for_attrs(src, i), explained, sure;
	/* Records may have been routed here since (fangroup.c): they count as this wake's. */
	unsigned long long before = f->records_woke, flips = f->flips_read;

	if (fan_take_changes(src) < 0)
		return -1;
	src->pfd[FD_FAN].revents = 0;	/* served, whichever fd woke us */
	src->pfd[FD_CAP].revents = 0;
	explained = f->records != before || f->flips_read != flips || fan_flips_open(f);
	if (signal && !explained && rescan_small(&f->rs) && !fan_sure(f) && fan_record_soon(src)) {
		if (fan_take_changes(src) < 0)
			return -1;
		explained = f->records != before || f->flips_read != flips;
	}
	/* The signal of a record just read may have come after ours was consumed: it is theirs. */
	if (explained && fan_signal_for_attrs(src, FD_FAN))
		signal = true;
	if (explained)
		f->rs.last_event = rescan_clock();
	/* While the capture is sure, the records and calls that woke us stand for the signal. */
	sure = fan_sure(f);
	if (!sure && explained && f->ns_cap && f->want_attrs) {
		sure = fan_ns_sure(f);
		/* A call the records do not account for: as a signal that came with them. */
		signal |= !sure;
	}
	signal |= sure && explained && f->want_attrs;
	switch (rescan_on_wake(&f->rs, signal, explained, sure)) {
	case RESCAN_NOW:
		fan_rescan_now(src);
		break;
	case RESCAN_OWE:
		fan_owe(src, false);
		break;
	case RESCAN_OWE_LAZY:
		fan_owe(src, true);
		break;
	case RESCAN_NONE:
		break;
	}
	fan_poll_signal(src);
	f->records_woke = f->records;
	return 0;
}

static void
fan_on_timer(struct source *src)
{
	struct fan *f = src->priv;
	uint64_t ticks;
	long long arm;

	while (read(src->pfd[FD_TIMER].fd, &ticks, sizeof(ticks)) < 0 && errno == EINTR)
		;
	if (rescan_on_timer(&f->rs, rescan_clock(), &arm))
		fan_rescan_now(src);
	else if (arm >= 0)
		fan_arm_timer(src, arm);
}

/* The namespace is gone: stop polling and close every fd (the mountinfo fd would keep it alive). */
static void
fan_ns_gone(struct source *src)
{
	struct fan *f = src->priv;
	size_t i;

	if (f->group)
		fangroup_leave(f->group, &f->member);
	f->group = NULL;
	for (i = 0; i < src->nfds; i++)
		if (i != FD_MOUNTINFO && i != FD_NS && i != FD_CAP && src->pfd[i].fd >= 0)
			close(src->pfd[i].fd);
	if (f->signal_fd >= 0)
		close(f->signal_fd);
	for (i = 0; i < src->nfds; i++)
		src->pfd[i].fd = -1;
	f->signal_fd = -1;
	f->rs.owed = false;
}

/* Read the table if its first read is still owed; -1 with errno set. */
static int
fan_read_owed(struct fan *f)
{
	if (!f->tab_owed)
		return 0;
	if (statmount_read_table(&f->sm, &f->tab) < 0)
		return -1;
	f->tab_owed = false;
	return 0;
}

static int
fan_drain(struct source *src, size_t i)
{
	struct fan *f = src->priv;

	if (fan_read_owed(f) < 0)
		return -1;
	if (i == FD_NS) {
		if (mount_events_ns_exited(src))
			fan_ns_gone(src);
		else
			src->pfd[FD_NS].fd = src->ns->pidfd;
		return 0;
	}
	if (i == FD_TIMER)
		fan_on_timer(src);
	else if (fan_on_wake(src, i) < 0)
		return -1;
	/* Only a mount change that took a watched directory away or covered it can remove it. */
	if (f->recheck_dirs)
		mount_events_removals(src);
	f->recheck_dirs = false;
	return 0;
}

/* The member of -N all's one group (fangroup.c): each record routed to it, and its wake. */
static bool
fan_member_holds(void *p, uint64_t id)
{
	struct source *src = p;
	struct fan *f = src->priv;

	return mounttab_find(&f->tab, id) != NULL;
}

static bool
fan_member_take(void *p, const struct fan_rec *r)
{
	struct source *src = p;
	struct fan *f = src->priv;
	struct mounttab_entry *new = NULL;

	/* A failed read is the next drain's error; one leaving needs no table. */
	if (!f->member.leaving)
		(void)fan_read_owed(f);
	/* A mount attached (or moved) is in this namespace if statmount(2) finds it here: read it
	 * once. */
	if (r->has_id && (r->mask & FAN_MNT_ATTACH) && mounttab_find(&f->tab, r->mnt_id) == NULL &&
	    (new = statmount_one(&f->sm, r->mnt_id)) == NULL)
		return false;
	if (f->member.leaving) {
		mounttab_entry_free(new);
		if (r->pidfd >= 0)
			close(r->pidfd);
		return true;
	}
	fan_act(src, r, new);
	return true;
}

static void
fan_member_transient(void *p, uint64_t id)
{
	struct source *src = p;
	struct fan *f = src->priv;

	/* A record of this namespace, as for a group of its own: its signal is explained. */
	f->rs.since_scan++;
	f->records++;
	fan_add_transient(f, id);
}

static bool
fan_member_spreads(void *p)
{
	struct source *src = p;
	struct fan *f = src->priv;
	bool open;

	/*
	 * Once and for all, not as of the last re-read: a re-read may come after calls whose
	 * records are still unread (a copy made under a mount made private since).
	 */
	if (f->tab.had_shared || f->ns_cap == NULL || f->props_unsure)
		return true;
	return capture_ns_props(f->ns_cap, f->ns_ino, &open) != f->ns_props || open;
}

static int
fan_member_wake(void *p)
{
	return fan_drain(p, FD_FAN);
}

static const struct fangroup_ops fan_member_ops = {
	.holds = fan_member_holds,
	.take = fan_member_take,
	.transient = fan_member_transient,
	.spreads = fan_member_spreads,
	.wake = fan_member_wake,
};

static bool
wants_attrs(const struct config *cfg)
{
	struct event rec = { .type = EV_MOUNT };

	rec.subtype = MOUNT_READONLY;
	if (filter_match(&cfg->filter, &rec))
		return true;
	rec.subtype = MOUNT_WRITABLE;
	if (filter_match(&cfg->filter, &rec))
		return true;
	rec.subtype = MOUNT_PROPAGATION;
	if (filter_match(&cfg->filter, &rec))
		return true;
	rec.subtype = MOUNT_SETATTR;
	return filter_match(&cfg->filter, &rec);
}

/*
 * A kernel without the calls or the mark, or without our privilege there: another backend serves,
 * and src->cause says why.
 */
static int
fan_unavailable(struct source *src)
{
	if (errno != EINVAL && errno != EPERM && errno != ENOSYS && errno != EACCES)
		return -1;
	src->cause = errno;
	errno = ENOSYS;
	return -1;
}

/*
 * Open the fanotify group and mark the namespace: ours by its /proc file, another by the nsfs
 * file -N opened; -1 with errno set. A pidfd per record names its process for sure; without them
 * (they need CAP_SYS_ADMIN) records still carry pids, where the kernel shows them. Each costs the
 * kernel a file and us a close: none is asked for where the output shows nobody (state waits,
 * -qq, a --format without %P, %u or %c).
 */
static int
fan_open_group(struct source *src)
{
	struct fan *f = src->priv;
	int fd;

	if (src->ns && src->ns->group) {
		/* -N all: a member of the one group, which -N all polls (FD_FAN stays empty). */
		f->member = (struct fangroup_member){ &fan_member_ops, src, src->ns->ino,
		    &f->tab.top_id, -1, false, false };
		if (fangroup_join(src->ns->group, &f->member, src->ns->nsfd) < 0)
			return -1;
		f->group = src->ns->group;
		/* -N all's capture notes the processes' calls where it has the one group. */
		f->proc.cap = f->group->cap;
		if (f->proc.cap)
			who_proc_cgroups(&f->proc);
		return 0;
	}
	fd = fangroup_init_fd(src->cfg->show_who, &f->read_size, sizeof(f->buf));
	src->pfd[FD_FAN] = (struct pollfd){ fd, POLLIN, 0 };
	if (fd < 0)
		return -1;
	return fangroup_mark(fd, true, src->ns ? src->ns->nsfd : AT_FDCWD,
	    src->ns ? NULL : "/proc/self/ns/mnt");
}

/* Whether a condition waits for a read-only flip, which only the mountinfo signal shows. */
static bool
waits_for_flip(const struct config *cfg)
{
	size_t i;

	for (i = 0; i < cfg->nconds; i++)
		if (cfg->conds[i].kind == COND_READONLY || cfg->conds[i].kind == COND_WRITABLE)
			return true;
	return false;
}

/* Whether the run is a state wait for mount points only, which statx(2) of the paths answers. */
static bool
fan_waits_for_paths(const struct source *src)
{
	const struct config *cfg = src->cfg;
	size_t i;

	if (cfg->mode != MODE_WAIT_STATE || src->nwatches > 0)
		return false;
	for (i = 0; i < cfg->nconds; i++)
		if (cfg->conds[i].kind != COND_MOUNT && cfg->conds[i].kind != COND_UNMOUNT)
			return false;
	return true;
}

/* Open the mountinfo signal where remounts or attribute changes are wanted; -1 with errno set. */
static int
fan_open_signal(struct source *src)
{
	struct fan *f = src->priv;

	f->want_attrs = wants_attrs(src->cfg);
	if (!f->want_attrs && !waits_for_flip(src->cfg))
		return 0;
	f->signal_fd = mntns_mountinfo(src->ns);
	src->pfd[FD_MOUNTINFO] = (struct pollfd){ f->signal_fd, POLLPRI, 0 };
	return f->signal_fd < 0 ? -1 : 0;
}

/*
 * Whether the run loads the capture: where its output names the process behind a change, or where
 * flips are reported from more watched mounts than a re-scan reads at once (the capture reads the
 * mount a call changed). Not with -N: the capture numbers processes as our pid namespace does, and
 * resolves paths in our namespace.
 */
static bool
fan_wants_capture(const struct source *src)
{
	const struct config *cfg = src->cfg;
	const struct fan *f = src->priv;

	if (cfg->no_bpf || src->ns || (cfg->mode != MODE_MONITOR && cfg->mode != MODE_WAIT_EVENT))
		return false;
	return cfg->show_who || (f->want_attrs && !rescan_small(&f->rs));
}

/* Load the capture where it is wanted; where it cannot, say why where the readiness line is. */
static void
fan_open_capture(struct source *src)
{
	struct fan *f = src->priv;
	char why[256];

	if (!fan_wants_capture(src))
		return;
	if ((f->cap = capture_open(CAPTURE_MOUNT_CALLS, why, sizeof(why))) == NULL) {
		if (!src->cfg->quiet)
			warnx("no process capture: %s", why);
		return;
	}
	f->proc.cap = f->cap;
	src->backend_label = "fanotify+bpf";
	src->pfd[FD_CAP] = (struct pollfd){ capture_fd(f->cap), POLLIN, 0 };
}

static int
fan_open(struct source *src)
{
	struct fan *f = xcalloc(1, sizeof(*f));

	src->priv = f;
	src->nfds = SOURCE_MAX_FDS;
	f->signal_fd = -1;
	f->proc = (struct who_proc){ NULL, src->ns ? src->ns->ino : mntns_self_ino(), &f->root, -1,
	    NULL };
	if (statmount_probe() < 0)
		return fan_unavailable(src);
	/* Another namespace's mounts are read by its id (Linux 6.11). */
	if (src->ns && src->ns->id == 0) {
		errno = ENOSYS;
		return fan_unavailable(src);
	}
	/* -N all: the propagation calls of the namespace are counted from before its mark. */
	if (src->ns && src->ns->cap) {
		capture_drain(src->ns->cap);
		f->ns_props = capture_ns_props(src->ns->cap, src->ns->ino, &f->props_unsure);
	}
	if (fan_open_group(src) < 0)
		return fan_unavailable(src);
	if (src->ns) {
		f->sm.ns_id = src->ns->id;
		f->sm.root = src->ns->root;
	}
	/* Failing that, a root move still re-reads the table, but -N keeps its first root. */
	(void)mntns_root_id(src->ns, &f->root);
	src->pfd[FD_TIMER] = (struct pollfd){ 
	    timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK), POLLIN, 0 };
	if (src->pfd[FD_TIMER].fd < 0)
		return -1;
	/* Remounts and attribute changes show only on the signal: open it before the first read. */
	if (fan_open_signal(src) < 0)
		return -1;
	/* Where the capture of -N all says what it saw, from before the table is read. */
	if (src->ns && src->ns->cap) {
		f->ns_cap = src->ns->cap;
		f->rs.spread = true;
		f->ns_ino = src->ns->ino;
		fan_sure_from_now(f);
	}
	/*
	 * The mark is in place: whatever changes from here on is queued. A wait for mount
	 * points asks statx(2) of its paths first: the table, read only when statx cannot
	 * answer or before the first change is drained, is often never needed.
	 */
	f->tab_owed = true;
	if (!fan_waits_for_paths(src) && fan_read_owed(f) < 0)
		return -1;
	f->rs.scan_cost = fan_count_watched(src);
	if (src->ns)
		src->pfd[FD_NS] = (struct pollfd){ src->ns->pidfd, POLLIN, 0 };
	fan_open_capture(src);
	fan_poll_signal(src);
	return 0;
}

/*
 * -N all's capture saw a call that may have changed mounts of this namespace without a record
 * (fan_ns_sure()): read them again as for a signal that came alone, unless the records read since
 * the last re-read accounted for it.
 */
static void
fan_poke(struct source *src)
{
	struct fan *f = src->priv;

	if (f == NULL || f->ns_cap == NULL || !f->want_attrs || f->signal_fd < 0 || f->tab_owed ||
	    fan_ns_sure(f))
		return;
	if (rescan_small(&f->rs))
		fan_rescan_now(src);
	else
		fan_owe(src, false);
	fan_poll_signal(src);
}

static void
fan_present(struct source *src)
{
	struct fan *f = src->priv;

	mount_events_present(src, &f->tab);
}

static void
fan_close(struct source *src)
{
	struct fan *f = src->priv;
	size_t i;

	if (f && f->group)
		fangroup_leave(f->group, &f->member);
	for (i = 0; i < src->nfds; i++)
		if (src->pfd[i].fd >= 0 && i != FD_MOUNTINFO && i != FD_NS && i != FD_CAP)
			close(src->pfd[i].fd);
	src->nfds = 0;
	if (f) {
		capture_close(f->cap);
		if (f->signal_fd >= 0)
			close(f->signal_fd);
		who_proc_close(&f->proc);
		mounttab_clear(&f->tab);
		statmount_free(&f->sm);
		free(f->transient.v);
		free(f->unseen.v);
		free(f);
	}
	src->priv = NULL;
}

static int
fan_check(struct source *src, const struct cond *c)
{
	struct fan *f = src->priv;
	int s;

	if (f->tab_owed && (s = mount_wait_statx(src->ns, c)) >= 0)
		return s;
	/* A failed read is the next drain's error. */
	if (fan_read_owed(f) < 0)
		return WAIT_PENDING;
	return mount_wait_check(src, &f->tab, c);
}

static bool
fan_show(struct source *src, const struct cond *c)
{
	struct fan *f = src->priv;

	return fan_read_owed(f) == 0 && mount_wait_show(src, &f->tab, c);
}

const struct source_ops source_fanotify_ops = {
	.open = fan_open,
	.drain = fan_drain,
	.present = fan_present,
	.check = fan_check,
	.show = fan_show,
	.removals = mount_events_removals,
	.poke = fan_poke,
	.close = fan_close,
};
