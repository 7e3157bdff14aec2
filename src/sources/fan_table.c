/* The fanotify source's mount table: records, re-reads and resyncs into changes reported. */
#include <err.h>
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fanotify.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "compat.h"
#include "debug.h"
#include "fan.h"
#include "mount_events.h"
#include "path.h"
#include "xalloc.h"

/* Whether path lies at place from some live watch's directory. */
bool
fan_table_watched(const struct source *src, const char *path, enum fan_place place)
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

void
fan_table_change(void *p, const struct mounttab_change *ch)
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
	if ((went && fan_table_watched(src, ch->old->target, FAN_HOLDS_WATCH)) ||
	    (came && fan_table_watched(src, ch->new->target, FAN_HOLDS_WATCH)))
		f->recheck_dirs = true;
	mount_events_change_by(src, ch, ch->kind == cr->kind ? cr->who : NULL);
}

void
fan_table_add_transient(struct fan *f, uint64_t id)
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
void
fan_table_flush_transient(struct source *src)
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
		mounttab_update(&f->tab, new, fan_table_change, b->cr);
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

void
fan_table_add_id(void *p, uint64_t id)
{
	mounttab_ids_push(p, id);
}

bool
fan_table_ids_have(const struct mounttab_ids *ids, uint64_t id)
{
	size_t i;

	for (i = 0; i < ids->n; i++)
		if (ids->v[i] == id)
			return true;
	return false;
}

bool
fan_table_update_still(struct fan *f, struct mounttab_entry *new, struct fan_credit *cr)
{
	const struct mounttab_entry *old = mounttab_find(&f->tab, new->id);

	if (old && strcmp(old->target, new->target) == 0 && old->parent_id == new->parent_id) {
		mounttab_update(&f->tab, new, fan_table_change, cr);
		return true;
	}
	mounttab_entry_free(new);
	return false;
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
		fan_table_update_still(f, new, &cr);
}

/*
 * Propagation that changes without a record or a call of its own. A mount that leaves peer group
 * g (unmounted, made private or a slave) hands g's slaves to another peer, or to g's master, or
 * frees them: its peers and slaves are read again (none: at no cost). A mount moved under a
 * shared one becomes shared with every mount below it: those are read again, as after any move
 * that changed the moved mount's propagation.
 */
void
fan_table_reread_group(struct source *src, uint64_t g)
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
			fan_table_add_id(&ids, f->tab.slot[i]->id);
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
			fan_table_add_transient(f, id);
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
		fan_table_change(cr, &ch);
		mounttab_insert(&f->tab, new);
	} else {
		/* A move, or an attach the first read saw: report what differs from the last. */
		spread = strcmp(old->propagation, new->propagation) != 0 ||
		    ((up = mounttab_find(&f->tab, new->parent_id)) && mounttab_peer_group(up));
		mounttab_update(&f->tab, new, fan_table_change, cr);
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
			fan_table_add_transient(f, id);
		return;
	}
	fan_table_change(cr, &ch);
	fan_table_reread_group(cr->src, mounttab_peer_group(old));
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
void
fan_table_act(struct source *src, const struct fan_rec *r, struct mounttab_entry *new)
{
	struct fan *f = src->priv;
	struct who who;
	struct fan_credit cr = { src, &who, fan_record_kind(r), false, false };

	/* The pidfd is ours to close, whatever becomes of the record. */
	who_init(&who, &f->proc, r->pid, r->pidfd);
	DEBUG(DEBUG_FANOTIFY, "record: %s%s%s mount %llu, pid %d%s", r->mask & FAN_MNT_ATTACH ?
	    "attach" : "", (r->mask & FAN_MNT_ATTACH) && (r->mask & FAN_MNT_DETACH) ? "+" : "",
	    r->mask & FAN_MNT_DETACH ? "detach" : "", (unsigned long long)r->mnt_id, (int)r->pid,
	    r->mask & FAN_Q_OVERFLOW ? ", the queue overflowed" : "");
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

void
fan_table_record(void *p, const struct fan_rec *r)
{
	fan_table_act(p, r, NULL);
}

/* How many cached mounts lie in a watched subtree. */
size_t
fan_table_count_watched(const struct source *src)
{
	const struct fan *f = src->priv;
	size_t i, n = 0;

	for (i = 0; i < f->tab.cap; i++)
		n += f->tab.slot[i] && fan_table_watched(src, f->tab.slot[i]->target, FAN_IN_WATCH);
	return n;
}

/*
 * After lost events (say so) or a root moved, report the difference between the cache and a fresh
 * table. With -N, the root of the process followed is taken again: its paths are from there.
 */
int
fan_table_resync(struct source *src)
{
	struct fan *f = src->priv;
	struct mounttab fresh = { 0 };
	struct fan_credit cr = { src, NULL, MOUNTTAB_MOUNT, false, false };

	DEBUG(DEBUG_FANOTIFY, "resync: %s", f->overflow ? "records lost" : "a root moved");
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
	fan_table_sure_from_now(f);
	if (statmount_read_table(&f->sm, &fresh) < 0) {
		mounttab_clear(&fresh);
		return -1;
	}
	mounttab_diff(&f->tab, &fresh, fan_table_change, &cr);
	fresh.had_shared |= f->tab.had_shared;
	mounttab_clear(&f->tab);
	f->tab = fresh;
	f->overflow = false;
	f->recheck_dirs = true;
	f->rs.scan_cost = fan_table_count_watched(src);
	return 0;
}

/*
 * Read the options of every cached mount in a watched subtree again, and report what changed
 * since the last report. Newest first (unique ids only grow): a mount just made is the one most
 * likely to be remounted and then unmounted at once, and only a look before the unmount sees it.
 */
void
fan_table_rescan(struct source *src)
{
	struct fan *f = src->priv;
	size_t i, cnt = 0;
	uint64_t *ids = xcalloc(f->tab.count + 1, sizeof(*ids)), id;
	struct fan_credit cr = { src, NULL, MOUNTTAB_MOUNT, false, false };
	struct mounttab_entry *old, *new;
	bool restarted = false;

	for (i = 0; i < f->tab.cap; i++)
		if (f->tab.slot[i] && fan_table_watched(src, f->tab.slot[i]->target, FAN_IN_WATCH))
			ids[cnt++] = f->tab.slot[i]->id;
	qsort(ids, cnt, sizeof(*ids), mounttab_cmp_id);
	rescan_began(&f->rs, rescan_clock());
	fan_table_sure_from_now(f);
	for (i = 0; i < cnt; i++) {
		/*
		 * On a change during a prompt re-scan, start again from the newest at once, not
		 * after the rest. Only once per pass, so that a stream of changes cannot keep the
		 * oldest from being looked at; a later change raises the signal for the next wake.
		 */
		if (!restarted && i > 0 && i % RESTART_STEP == 0 && cnt <= RESCAN_PROMPT_MAX &&
		    fan_table_signal(f)) {
			restarted = true;
			i = 0;
		}
		id = ids[cnt - 1 - i];
		/* Gone: its detach record is on the way. */
		if ((old = mounttab_find(&f->tab, id)) == NULL ||
		    statmount_same_options(&f->sm, old) != 0)
			continue;
		if ((new = statmount_one(&f->sm, id)) != NULL)
			mounttab_update(&f->tab, new, fan_table_change, &cr);
	}
	free(ids);
	rescan_done(&f->rs, cnt);
	DEBUG(DEBUG_RESCAN, "re-read %zu watched mounts%s", cnt, restarted ? ", restarted once" : "");
}

/* A re-read of the table begins: it accounts for what was unsure until now. */
void
fan_table_sure_from_now(struct fan *f)
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

/* Consume the mountinfo signal: whether it was raised since it was last consumed. */
bool
fan_table_signal(struct fan *f)
{
	struct pollfd p = { f->signal_fd, POLLPRI, 0 };

	if (p.fd < 0)
		return false;
	while (poll(&p, 1, 0) < 0 && errno == EINTR)
		;
	return p.revents & (POLLPRI | POLLERR);
}

/* Read the table if its first read is still owed; -1 with errno set. */
int
fan_table_read_owed(struct fan *f)
{
	if (!f->tab_owed)
		return 0;
	if (statmount_read_table(&f->sm, &f->tab) < 0)
		return -1;
	f->tab_owed = false;
	return 0;
}
