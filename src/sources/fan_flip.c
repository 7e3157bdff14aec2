/*
 * The flip calls the capture saw (remounts, mount_setattr(2), propagation changes): the mounts each
 * changed, read again at its exit and named after it when it alone can have changed them.
 */
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
			fan_table_add_id(ids, id);
		if (id != 0 && call->subtree)
			(void)statmount_each_below(&f->sm, id, fan_table_add_id, ids);
		return;
	}
	for (i = 0; i < f->tab.cap; i++)
		if (f->tab.slot[i] && f->tab.slot[i]->dev == dev)
			fan_table_add_id(ids, f->tab.slot[i]->id);
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
		    (e = mounttab_top_at(&f->tab, o->path)) == NULL || fan_table_ids_have(ids, e->id);
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
fan_flip_read(struct source *src, const struct capture_call *call)
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
	DEBUG(DEBUG_CAPTURE, "flip call by pid %d (%s): %zu mounts read again, %s", (int)call->tgid,
	    call->comm, ids.n, ids.n == 0 ? "none cached" : cr.who ? "its process named" :
	    "nobody named (another call may have changed them)");
	/*
	 * A mount that moved meanwhile is left to its record, but the mounts below it have none:
	 * they move in the cache as they were, and what the call changed there is not read. Until
	 * the next re-scan, a later call's read would find it and take it for its own.
	 */
	for (i = 0; i < ids.n; i++)
		if (news[i] != NULL && !fan_table_update_still(f, news[i], &cr))
			f->unsure = true;
	for (i = 0; i < ids.n; i++)
		fan_table_reread_group(src, groups[i]);
	free(groups);
	free(news);
	free(ids.v);
	return told;
}

/* Whether a flip call is under way: the signal it raised is its exit's to explain. */
bool
fan_flip_open(const struct fan *f)
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
void
fan_flip_ended(struct source *src)
{
	struct fan *f = src->priv;
	struct pollfd p = { capture_fd(f->cap), POLLIN, 0 };
	const struct capture_call *call;
	size_t i = 0;
	int n;

	for (n = 0; n < FLIP_WAITS && fan_flip_open(f); n++) {
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
		if (call->ok && fan_flip_read(src, call))
			f->flips_read++;
		else if (call->ok && !call->elsewhere)
			f->unsure = true;
		else if (call->ok && call->sb)
			f->sb_elsewhere = true;
		capture_take(f->cap, i);
	}
}

/*
 * Whether a flip call that may change a mount of ours is still under way once the ended ones have
 * been read: it has made its change, which its exit reads and names (fan_flip_ended()). A re-scan
 * now would find that change first and name nobody, so it waits (rescan_hold()).
 */
bool
fan_flip_under_way(struct source *src)
{
	struct fan *f = src->priv;
	const struct capture_call *o;
	size_t i;

	if (f->cap == NULL)
		return false;
	capture_drain(f->cap);
	fan_flip_ended(src);
	for (i = 0; i < capture_nflips(f->cap); i++) {
		o = capture_flip(f->cap, i);
		if (o->done || (o->elsewhere && !o->sb && o->target != CAPTURE_TARGET_SB &&
		    (o->target != CAPTURE_TARGET_MOUNT || !mounttab_find(&f->tab, o->mnt_id))))
			continue;
		return rescan_hold(&f->rs, rescan_clock());
	}
	return false;
}
