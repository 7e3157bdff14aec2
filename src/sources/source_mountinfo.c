/*
 * Mount source for every kernel: /proc/self/mountinfo signals POLLPRI when the
 * namespace's mount table changed; the table is then re-read (libmount parses the lines that
 * changed) and diffed against the cache. Cost is O(table) per wake-up and bursts coalesce:
 * what happened between two reads is inferred from the difference.
 *
 * The table is read again through the fd that is polled: with -N it is
 * /proc/PID/mountinfo, which holds the namespace and the process's root from
 * its open on, after that process has gone too. So when that root changes
 * (pivot_root(2) moves the root mount), the fd is opened again, and the next
 * read names every mount from the new root.
 *
 * Where the output names processes, the process capture is loaded beside it, as beside fanotify:
 * the table says nothing of who changed it, so a change is named only where exactly one captured
 * call can have made it (capjoin.c, with no pid) and that call can have made no other change of
 * the read; a flip, where exactly one flip call can have changed that mount. Either call must have
 * ended well: the calls under way that may be behind a change of the read are waited for first
 * (capture_await()). A call is kept until a read of the table that began after it ended, which
 * shows its change.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/sysmacros.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <err.h>

#include "capjoin.h"
#include "debug.h"
#include "capture.h"
#include "compat.h"
#include "mibyid.h"
#include "mitext.h"
#include "mntns.h"
#include "mount_events.h"
#include "mount_wait.h"
#include "path.h"
#include "source.h"
#include "who.h"
#include "xalloc.h"

#define MAX_REREADS	8

/* FD_NS: -N, the pidfd of the process followed; FD_CAP: the capture's ring */
enum { FD_TABLE, FD_NS, FD_CAP };

/* A change of the last diff, and the captured call behind it (NULL: none known). */
struct mi_seen {
	struct mounttab_change ch;
	const struct capjoin_call *call;
};

struct mountinfo {
	struct mounttab tab;
	int table_fd;		/* the mountinfo file: read whole, and its signal polled */
	struct mitext text;	/* the file's text that tab was read from, and the next read */
	struct mntns_root_id root;	/* the root the table's fd names mounts from */
	int procfd;			/* ours: /proc, which the new root may not have */
	struct capture *cap;		/* the process capture; NULL: none */
	uint64_t mnt_ns;		/* our mount namespace (its inode), for the capture */
	struct mi_seen *seen;		/* with the capture: the changes of a diff */
	size_t nseen, seen_cap;
	struct mibyid *byid;		/* the table kept by id (mibyid.c); NULL: read whole */
};

/* Whether the table changed since the last poll of fd (consumes the signal). */
static bool
mi_changed(int fd)
{
	struct pollfd p = { fd, POLLPRI, 0 };
	int r;

	while ((r = poll(&p, 1, 0)) < 0 && errno == EINTR)
		;
	return r > 0 && (p.revents & (POLLPRI | POLLERR));
}

/*
 * A read of a large table is not atomic: a change during the read can tear it.
 * Such a change also raises POLLPRI, so read again until a read saw no change.
 * After the last read allowed the signal is left up, not consumed: a change
 * made during that read wakes the loop for another.
 */
static int
mi_read_stable(struct mountinfo *mi, struct mounttab *t, const struct mounttab *old)
{
	int i;

	for (i = 1;; i++) {
		mounttab_clear(t);
		if ((mi->byid && mibyid_whole_begin(mi->byid, mi->cap) < 0) ||
		    mitext_read(&mi->text, mi->table_fd, t, old) < 0 ||
		    (mi->byid && mibyid_whole_end(mi->byid, t) < 0))
			return -1;
		if (i == MAX_REREADS || !mi_changed(mi->table_fd))
			return 0;
	}
}

static void
mi_on_change(void *p, const struct mounttab_change *ch)
{
	struct source *src = p;
	struct mountinfo *mi = src->priv;

	if (mi->cap == NULL) {
		mount_events_change(src, ch);
		return;
	}
	if (mi->nseen == mi->seen_cap) {
		mi->seen_cap = mi->seen_cap ? 2 * mi->seen_cap : 64;
		mi->seen = xreallocarray(mi->seen, mi->seen_cap, sizeof(*mi->seen));
	}
	mi->seen[mi->nseen++] = (struct mi_seen){ *ch, NULL };
}

/* The root the table names mounts from, as capjoin.h asks it. */
static struct capjoin_root
mi_join_root(const struct mountinfo *mi)
{
	return (struct capjoin_root){ mi->root.mnt_id, major(mi->root.dev), minor(mi->root.dev),
	    mi->root.ino };
}

/* The mount, unmount or move ch as capjoin.h asks it. */
static struct capjoin_change
mi_join_change(const struct mountinfo *mi, const struct mounttab *fresh,
    const struct mounttab_change *ch)
{
	const struct mounttab_entry *e = ch->new ? ch->new : ch->old;

	return (struct capjoin_change){ CAPJOIN_ANY_PID, 0,
	    ch->kind == MOUNTTAB_MOUNT ? CAPJOIN_ATTACH : ch->kind == MOUNTTAB_UNMOUNT ?
	    CAPJOIN_DETACH : CAPJOIN_MOVE, e->target,
	    mounttab_parent_receives(fresh, ch->new) || mounttab_parent_receives(&mi->tab, ch->old),
	    mi->mnt_ns, mi_join_root(mi) };
}

/* The captured call that alone can have made the mount, unmount or move ch; NULL if none. */
static const struct capjoin_call *
mi_call_behind(struct mountinfo *mi, const struct mounttab *fresh, const struct mounttab_change *ch)
{
	struct capjoin_change jc = mi_join_change(mi, fresh, ch);

	return capture_call_behind(mi->cap, &jc);
}

/*
 * Whether what is mounted at path may have changed since the last read: a kept call that may
 * attach, detach or move a mount there or above it (it may have ended since, and have been named),
 * or one whose place is not ours to tell (another root or namespace: propagation, a move).
 */
static bool
mi_place_unsettled(const struct mountinfo *mi, const char *path)
{
	struct capjoin_change at = { CAPJOIN_ANY_PID, 0, CAPJOIN_ATTACH, path, false, mi->mnt_ns,
	    mi_join_root(mi) };
	const struct capjoin_call *calls, *c;
	size_t i, n;

	if ((calls = capture_calls(mi->cap, &n)) == NULL)
		return true;
	for (i = 0; i < n; i++) {
		c = &calls[i];
		if ((!c->open && !c->ok) || c->kinds == 0)
			continue;
		if ((c->kinds & CAPJOIN_MOVE) || !capjoin_same_root(c, &at) || c->path[0] != '/' ||
		    path_within(c->path, path))
			return true;
	}
	return false;
}

/* Whether the top mount at path in t is of device dev, or t has none there. */
static bool
mi_top_of(const struct mounttab *t, const char *path, dev_t dev)
{
	const struct mounttab_entry *at = mounttab_top_at(t, path);

	return at == NULL || at->dev == dev;
}

/*
 * Whether flip call f may have changed mount e (whose superblock's device is dev): a call on its
 * path (or above it, recursive), on its superblock, or on one the capture could not tell. A
 * remount by path names the superblock of the mount on top there at the call: the one of the
 * last read or of this one (fresh), or any, where a call may have put another there between.
 */
static bool
mi_flip_may_touch(const struct mountinfo *mi, const struct mounttab *fresh,
    const struct capture_call *f, const struct mounttab_entry *e)
{
	if (f->elsewhere && !f->sb)
		return false;
	if (f->target == CAPTURE_TARGET_SB)
		return e->dev == makedev(f->major, f->minor);
	if (f->target != CAPTURE_TARGET_PATH)
		return true;
	if (f->sb)
		return mi_top_of(&mi->tab, f->path, e->dev) || mi_top_of(fresh, f->path, e->dev) ||
		    mi_place_unsettled(mi, f->path);
	return f->subtree ? path_within(f->path, e->target) : strcmp(f->path, e->target) == 0;
}

/* The flip call that alone can have made the remount ch; NULL if none, or more than one. */
static const struct capture_call *
mi_flip_behind(struct mountinfo *mi, const struct mounttab *fresh, const struct mounttab_change *ch)
{
	const struct capture_call *f, *one = NULL;
	size_t i;

	if (capture_flips_lost(mi->cap))
		return NULL;
	for (i = 0; i < capture_nflips(mi->cap); i++) {
		f = capture_flip(mi->cap, i);
		/* A mount that moved too may have been changed at its old place as well. */
		if ((f->done && !f->ok) || (!mi_flip_may_touch(mi, fresh, f, ch->new) &&
		    !mi_flip_may_touch(mi, fresh, f, ch->old)))
			continue;
		/* One still under way may yet fail: it is no proof, and may be behind it. */
		if (one || f->tgid <= 0 || !f->done)
			return NULL;
		one = f;
	}
	return one ? capture_flip_named(mi->cap, one) : NULL;
}

/* The read's table, for mi_open_behind(). */
struct mi_read {
	struct mountinfo *mi;
	const struct mounttab *fresh;
};

/* Whether a call still under way may be behind a change of the last diff (p: a struct mi_read). */
static bool
mi_open_behind(void *p)
{
	struct mi_read *r = p;
	struct mountinfo *mi = r->mi;
	struct capjoin_change jc;
	const struct capture_call *f;
	size_t i, k;

	for (i = 0; i < mi->nseen; i++) {
		if (mi->seen[i].ch.kind != MOUNTTAB_REMOUNT) {
			jc = mi_join_change(mi, r->fresh, &mi->seen[i].ch);
			if (capture_open_behind(mi->cap, &jc))
				return true;
			continue;
		}
		for (k = 0; k < capture_nflips(mi->cap); k++) {
			f = capture_flip(mi->cap, k);
			if (!f->done && mi_flip_may_touch(mi, r->fresh, f, mi->seen[i].ch.new))
				return true;
		}
	}
	return false;
}

/*
 * Report the changes of the last diff, each named after the call that alone can have made it. A
 * call named for one change that it could not have made twice (not recursive) names none where it
 * may be behind two.
 */
static void
mi_report_seen(struct source *src, const struct mounttab *fresh)
{
	struct mountinfo *mi = src->priv;
	const struct capture_call *f;
	struct mi_seen *s;
	struct who who;
	size_t i, k, n;

	for (i = 0; i < mi->nseen; i++)
		if (mi->seen[i].ch.kind != MOUNTTAB_REMOUNT)
			mi->seen[i].call = mi_call_behind(mi, fresh, &mi->seen[i].ch);
	for (i = 0; i < mi->nseen; i++) {
		s = &mi->seen[i];
		if (s->ch.kind == MOUNTTAB_REMOUNT) {
			if ((f = mi_flip_behind(mi, fresh, &s->ch)) == NULL) {
				mount_events_change(src, &s->ch);
				continue;
			}
			who_known(&who, f->tgid, f->uid, f->comm);
			mount_events_remount_by(src, &s->ch, f->opts ? &who : NULL,
			    f->props && !mount_events_was_slave(s->ch.old) ? &who : NULL);
			continue;
		}
		for (k = n = 0; s->call && k < mi->nseen; k++)
			n += mi->seen[k].call == s->call;
		if (s->call == NULL || (n > 1 && !s->call->below)) {
			mount_events_change(src, &s->ch);
			continue;
		}
		who_known(&who, (int32_t)s->call->tgid, s->call->uid, s->call->comm);
		mount_events_change_by(src, &s->ch, &who);
		capture_used(mi->cap, s->call);
	}
	mi->nseen = 0;
	/* The flip calls that had ended when the read began: their changes are in it. */
	capture_take_ended(mi->cap);
}

/*
 * Load the capture where the output names processes (a monitor or an event wait, our own
 * namespace) and we are privileged. Where it cannot load (a kernel without BTF, as many that have
 * no fanotify mount events), the readiness line says so by its backend alone: the backend every
 * kernel has is not to greet each run with a warning.
 */
static void
mi_open_capture(struct source *src)
{
	const struct config *cfg = src->cfg;
	struct mountinfo *mi = src->priv;
	char why[256];

	if (cfg->no_bpf || src->ns || !cfg->show_who ||
	    (cfg->mode != MODE_MONITOR && cfg->mode != MODE_WAIT_EVENT) || !capture_privileged())
		return;
	if ((mi->cap = capture_open(CAPTURE_MOUNT_CALLS, why, sizeof(why))) == NULL)
		return;
	mi->mnt_ns = mntns_self_ino();
	source_label_capture(src, "mountinfo", mi->cap);
	source_poll(src, FD_CAP, capture_fd(mi->cap), POLLIN);
}

/* With the capture, keep the table by id where the kernel lets us (mibyid.c). */
static void
mi_open_byid(struct mountinfo *mi)
{
	if (mi->cap == NULL)
		return;
	mi->byid = xcalloc(1, sizeof(*mi->byid));
	if (mibyid_open(mi->byid) == 0)
		return;
	DEBUG(DEBUG_MOUNTINFO, "the table is read whole: %s", strerror(errno));
	mibyid_close(mi->byid);
	free(mi->byid);
	mi->byid = NULL;
}

static int
mi_open(struct source *src)
{
	struct mountinfo *mi = xcalloc(1, sizeof(*mi));

	src->priv = mi;
	mi->table_fd = -1;
	mi->procfd = src->ns ? -1 : open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
	/* Open before the first read: every change after it raises POLLPRI. */
	if ((mi->table_fd = mntns_mountinfo(src->ns)) < 0)
		return -1;
	source_poll(src, FD_TABLE, mi->table_fd, POLLPRI);
	/* Before the first read: a call that ends after it shows in a later one. */
	mi_open_capture(src);
	/* Failing that, ours is opened again at the first change, and -N keeps its first root. */
	(void)mntns_root_id(src->ns, &mi->root);
	mi_open_byid(mi);
	if (mi->cap)
		capture_begin_read(mi->cap);
	if (mi_read_stable(mi, &mi->tab, NULL) < 0)
		return -1;
	mitext_take(&mi->text);
	if (src->ns)
		source_poll(src, FD_NS, src->ns->pidfd, POLLIN);
	return 0;
}

/*
 * Open the table again where the root it names mounts from has changed (with settle, once it has:
 * see mntns_root_settle()); whether it did, or -1 with errno set.
 */
static int
mi_follow_root(struct source *src, bool settle)
{
	struct mountinfo *mi = src->priv;
	struct mntns_root_id now = mi->root;
	int fd;

	if (settle ? !mntns_root_settle(src->ns, &now) :
	    mntns_root_id(src->ns, &now) < 0 || mntns_root_same(&mi->root, &now))
		return 0;
	if (src->ns)
		fd = mntns_reroot(src->ns) < 0 ? -1 : mntns_mountinfo(src->ns);
	else
		fd = openat(mi->procfd, "self/mountinfo", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	source_poll_fd(src, FD_TABLE, fd);
	close(mi->table_fd);
	mi->table_fd = fd;
	mi->root = now;
	return 1;
}

/* Whether a mount the table had at "/" has another parent in fresh, or none: the root moved. */
static bool
mi_root_moved(const struct mounttab *t, const struct mounttab *fresh)
{
	const struct mounttab_entry *n;
	size_t i;

	for (i = 0; i < t->cap; i++) {
		if (t->slot[i] == NULL || strcmp(t->slot[i]->target, "/") != 0)
			continue;
		n = mounttab_find(fresh, t->slot[i]->id);
		if (n == NULL || n->parent_id != t->slot[i]->parent_id)
			return true;
	}
	return false;
}

/* Read the table into fresh, from the root as it is once a root change is over; -1 on error. */
static int
mi_read_rooted(struct source *src, struct mounttab *fresh)
{
	struct mountinfo *mi = src->priv;
	int r;

	if (mi_follow_root(src, false) < 0 ||
	    mi_read_stable(mi, fresh, &mi->tab) < 0)
		return -1;
	if (!mi_root_moved(&mi->tab, fresh))
		return 0;
	if ((r = mi_follow_root(src, true)) <= 0)
		return r;
	return mi_read_stable(mi, fresh, &mi->tab);
}

/* Name the changes of the last read after the calls behind them (fresh: the table after it). */
static void
mi_report(struct source *src, const struct mounttab *fresh)
{
	struct mountinfo *mi = src->priv;

	capture_await(mi->cap, mi_open_behind, &(struct mi_read){ mi, fresh });
	mi_report_seen(src, fresh);
	capture_settle(mi->cap);
}

static int
mi_drain(struct source *src, size_t i)
{
	struct mountinfo *mi = src->priv;
	struct mounttab fresh = { 0 };
	int r;

	if (i == FD_NS) {
		/* The namespace is gone: close the table's fd, which would keep it alive. */
		if (mount_events_ns_exited(src))
			source_close_fd(src, FD_TABLE, &mi->table_fd);
		/* The process followed may be another: its pidfd (-1 where none is left). */
		source_poll_fd(src, FD_NS, src->ns->pidfd);
		return 0;
	}

	if (i == FD_CAP) {
		/* Kept until a read of the table shows their changes. */
		capture_drain(mi->cap);
		return 0;
	}
	if (mi->cap)
		capture_begin_read(mi->cap);
	if (mi->byid && (r = mibyid_step(mi->byid, &mi->tab, mi->cap, mi->mnt_ns, mi->table_fd,
	    &mi->text, mi_on_change, src)) != 0) {
		if (r < 0)
			return -1;
		mi_report(src, &mi->tab);
		mibyid_finish(mi->byid, &mi->tab);
		mount_events_removals(src);
		return 0;
	}
	if (mi_read_rooted(src, &fresh) < 0) {
		mounttab_clear(&fresh);
		return -1;
	}
	DEBUG(DEBUG_MOUNTINFO, "re-read the table: %zu mounts, %zu before", fresh.count,
	    mi->tab.count);
	mounttab_diff(&mi->tab, &fresh, mi_on_change, src);
	if (mi->cap)
		mi_report(src, &fresh);
	mounttab_clear(&mi->tab);
	mi->tab = fresh;
	mitext_take(&mi->text);
	mount_events_removals(src);
	return 0;
}

static void
mi_present(struct source *src)
{
	struct mountinfo *mi = src->priv;

	mount_events_present(src, &mi->tab);
}

static void
mi_close(struct source *src)
{
	struct mountinfo *mi = src->priv;

	if (mi) {
		source_close_fd(src, FD_TABLE, &mi->table_fd);
		source_poll_fd(src, FD_CAP, -1);
		capture_close(mi->cap);
		if (mi->byid)
			mibyid_close(mi->byid);
		free(mi->byid);
		free(mi->seen);
		if (mi->procfd >= 0)
			close(mi->procfd);
		mounttab_clear(&mi->tab);
		mitext_free(&mi->text);
		free(mi);
	}
	src->priv = NULL;
}

static int
mi_check(struct source *src, const struct cond *c)
{
	struct mountinfo *mi = src->priv;

	return mount_wait_check(src, &mi->tab, c);
}

static bool
mi_show(struct source *src, const struct cond *c)
{
	struct mountinfo *mi = src->priv;

	return mount_wait_show(src, &mi->tab, c);
}

const struct source_ops source_mountinfo_ops = {
	.open = mi_open,
	.drain = mi_drain,
	.present = mi_present,
	.check = mi_check,
	.show = mi_show,
	.removals = mount_events_removals,
	.close = mi_close,
};
