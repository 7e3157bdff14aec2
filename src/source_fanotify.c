/*
 * Mount source for Linux 6.15+: fanotify mount-namespace events
 * (FAN_MNT_ATTACH/DETACH, one per mount, never merged) name each mount by its
 * 64-bit unique id; statmount(2) describes an attached mount, the cache
 * describes a detached one. Cost per event is O(1) in the size of the table.
 *
 * fanotify says nothing of remounts and attribute changes. For readonly and
 * setattr events the /proc/self/mountinfo POLLPRI signal is kept as a hint: a
 * signal that no attach or detach explains (within SETTLE) can only be such a
 * change, so the mounts inside the watched subtrees are re-statmount'ed then.
 * A signal that coincides with topology events may hide one, so a re-scan is
 * owed, and is paid when the source has been idle for IDLE, or once as many
 * events have gone by as the last re-scan cost statmounts: amortised, a
 * re-scan adds at most one statmount per event, whatever the size of the
 * table. A remount of a mount that is unmounted before the re-scan is paid is
 * not seen (as with mountinfo, whose reads merge what happens between them).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fanotify.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "buf.h"
#include "compat.h"
#include "fan_decode.h"
#include "mount_events.h"
#include "path.h"
#include "source.h"
#include "statmount.h"
#include "util.h"

#define SETTLE_NS	5000000L	/* how late a topology event may follow its signal */
#define IDLE_NS		100000000L	/* quiet time before an owed re-scan */

enum { FD_FAN, FD_TIMER, FD_MOUNTINFO };

struct fan {
	struct mounttab tab;
	struct kmount km;
	bool want_attrs;		/* readonly or setattr events are wanted: re-scan */
	bool overflow;			/* the kernel queue overflowed: resync */
	bool settling;			/* a mountinfo signal waits for SETTLE */
	bool explained;			/* topology events came with that signal */
	bool owed;			/* a re-scan is owed */
	bool lost_mounts;		/* a detach or move since the last removal check */
	unsigned long long since_signal, since_scan;
	size_t scan_cost;		/* mounts the last re-scan looked at */
	struct timespec last_event;
	unsigned char buf[65536] __attribute__((aligned(8)));
};

static long long
ns_since(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (long long)(now.tv_sec - t->tv_sec) * 1000000000LL + (now.tv_nsec - t->tv_nsec);
}

static void
arm(struct source *src, long long ns)
{
	struct itimerspec its = { { 0, 0 }, { (time_t)(ns / 1000000000LL), (long)(ns % 1000000000LL) } };

	if (its.it_value.tv_sec == 0 && its.it_value.tv_nsec == 0)
		its.it_value.tv_nsec = 1;
	timerfd_settime(src->pfd[FD_TIMER].fd, 0, &its, NULL);
}

static void
emit(struct source *src, enum mnt_change_kind kind, const struct mnt_entry *old, const struct mnt_entry *new)
{
	struct mnt_change ch = { kind, old, new };

	mount_events_change(src, &ch);
}

/* What is known of a mount statmount can no longer see: its id. */
static struct mnt_entry *
stub(uint64_t id)
{
	return mnt_entry_new(id, 0, 0, "", "", "", "", "", "");
}

/* A moved mount takes its submounts along: rewrite their paths and report each. */
static void
move_children(struct source *src, const char *from, const char *to)
{
	struct fan *f = src->priv;
	size_t i, n = strlen(from), cnt = 0;
	uint64_t *ids = xcalloc(f->tab.count, sizeof(*ids));
	struct mnt_entry *old, *new;
	struct buf b = { 0 };

	for (i = 0; i < f->tab.cap; i++) {
		old = f->tab.slot[i];
		if (old && strncmp(old->target, from, n) == 0 && old->target[n] == '/')
			ids[cnt++] = old->id;
	}
	for (i = 0; i < cnt; i++) {
		old = mounttab_find(&f->tab, ids[i]);
		buf_reset(&b);
		buf_adds(&b, to);
		buf_adds(&b, old->target + n);
		new = mnt_entry_new(old->id, old->parent_id, old->dev, b.data, old->source,
		    old->fstype, old->root, old->vfs_opts, old->fs_opts);
		emit(src, MNT_CH_MOVE, old, new);
		mounttab_insert(&f->tab, new);
	}
	buf_free(&b);
	free(ids);
}

static void
on_attach(struct source *src, uint64_t id)
{
	struct fan *f = src->priv;
	struct mnt_entry *old = mounttab_find(&f->tab, id), *new, *s;

	if ((new = kmount_stat(&f->km, id)) == NULL) {
		/*
		 * Gone before we could look; its detach record follows. A new mount is
		 * reported by its id now; a known one that moved and went will be
		 * reported unmounted from where the cache has it.
		 */
		if (old == NULL) {
			s = stub(id);
			emit(src, MNT_CH_MOUNT, NULL, s);
			mnt_entry_free(s);
		}
		return;
	}
	if (old == NULL) {
		emit(src, MNT_CH_MOUNT, NULL, new);
	} else if (strcmp(old->target, new->target) != 0) {
		f->lost_mounts = true;
		emit(src, MNT_CH_MOVE, old, new);
		move_children(src, old->target, new->target);
	}
	/* An attach of a mount the first read already saw is not news, nor a move back to where it was. */
	mounttab_insert(&f->tab, new);
}

static void
on_detach(struct source *src, uint64_t id)
{
	struct fan *f = src->priv;
	struct mnt_entry *old = mounttab_remove(&f->tab, id);

	if (old == NULL)
		old = stub(id);
	f->lost_mounts = true;
	emit(src, MNT_CH_UNMOUNT, old, NULL);
	mnt_entry_free(old);
}

static void
on_record(void *p, const struct fan_rec *r)
{
	struct source *src = p;
	struct fan *f = src->priv;

	if (r->mask & FAN_Q_OVERFLOW) {
		f->overflow = true;
		return;
	}
	if (!r->has_id || f->overflow)
		return;		/* after an overflow the resync will tell */
	f->since_signal++;
	f->since_scan++;
	clock_gettime(CLOCK_MONOTONIC, &f->last_event);
	/* A move is one record with both bits: an attach of a mount the cache knows. */
	if (r->mask & FAN_MNT_ATTACH)
		on_attach(src, r->mnt_id);
	else if (r->mask & FAN_MNT_DETACH)
		on_detach(src, r->mnt_id);
}

static void
on_change(void *p, const struct mnt_change *ch)
{
	struct source *src = p;

	emit(src, ch->kind, ch->old, ch->new);
}

/* After lost events: say so, then report the difference between the cache and a fresh table. */
static int
resync(struct source *src)
{
	struct fan *f = src->priv;
	struct mounttab fresh = { 0 };

	source_loss(src);
	if (kmount_read_table(&f->km, &fresh) < 0) {
		mounttab_clear(&fresh);
		return -1;
	}
	mounttab_diff(&f->tab, &fresh, on_change, src);
	mounttab_clear(&f->tab);
	f->tab = fresh;
	f->overflow = false;
	f->lost_mounts = true;
	return 0;
}

static bool
watched(const struct source *src, const char *path)
{
	size_t i;

	for (i = 0; i < src->nwatches; i++)
		if (src->watches[i].alive && path_within(src->watches[i].w->path, path))
			return true;
	return false;
}

/* Re-statmount every cached mount in a watched subtree and report option changes. */
static void
rescan(struct source *src)
{
	struct fan *f = src->priv;
	size_t i, cnt = 0;
	uint64_t *ids = xcalloc(f->tab.count, sizeof(*ids));
	struct mnt_entry *old, *new;

	for (i = 0; i < f->tab.cap; i++)
		if (f->tab.slot[i] && watched(src, f->tab.slot[i]->target))
			ids[cnt++] = f->tab.slot[i]->id;
	for (i = 0; i < cnt; i++) {
		old = mounttab_find(&f->tab, ids[i]);
		if ((new = kmount_stat(&f->km, ids[i])) == NULL)
			continue;	/* its detach event is on the way */
		if (strcmp(old->vfs_opts, new->vfs_opts) != 0 || strcmp(old->fs_opts, new->fs_opts) != 0)
			emit(src, MNT_CH_REMOUNT, old, new);
		mounttab_insert(&f->tab, new);
	}
	free(ids);
	f->owed = false;
	f->since_scan = 0;
	f->scan_cost = cnt;
}

static int
decode(void *ctx, const void *buf, size_t n)
{
	return fan_decode(buf, n, on_record, ctx);
}

static int
drain_fanotify(struct source *src)
{
	struct fan *f = src->priv;

	switch (source_read_ready(src->pfd[FD_FAN].fd, f->buf, sizeof(f->buf), decode, src)) {
	case -1:
		return -1;
	case 1:
		f->overflow = true;	/* a record we cannot trust: treat as lost */
		break;
	}
	if (f->overflow && resync(src) < 0)
		return -1;
	return 0;
}

static void
on_timer(struct source *src)
{
	struct fan *f = src->priv;
	uint64_t ticks;
	long long idle;

	while (read(src->pfd[FD_TIMER].fd, &ticks, sizeof(ticks)) < 0 && errno == EINTR)
		;
	if (f->settling) {
		f->settling = false;
		if (!f->explained && f->since_signal == 0) {
			rescan(src);
			return;
		}
		f->owed = true;
	}
	if (!f->owed)
		return;
	idle = ns_since(&f->last_event);
	if (idle >= IDLE_NS || f->since_scan >= f->scan_cost)
		rescan(src);
	else
		arm(src, IDLE_NS - idle);
}

static void
on_signal(struct source *src)
{
	struct fan *f = src->priv;

	if (!f->want_attrs)
		return;		/* the wake-up alone serves wait --readonly/--writable */
	if (!f->settling) {
		f->explained = f->since_signal > 0;
		f->settling = true;
		arm(src, SETTLE_NS);
	} else {
		f->explained = f->explained || f->since_signal > 0;
	}
	f->since_signal = 0;
}

static int
fan_drain(struct source *src, size_t i)
{
	struct fan *f = src->priv;

	switch (i) {
	case FD_FAN:
		if (drain_fanotify(src) < 0)
			return -1;
		break;
	case FD_TIMER:
		on_timer(src);
		break;
	case FD_MOUNTINFO:
		on_signal(src);
		break;
	}
	/* A watched directory can only vanish with a mount that went away or moved. */
	if (f->lost_mounts)
		mount_events_removals(src);
	f->lost_mounts = false;
	return 0;
}

static bool
wants_attrs(const struct config *cfg)
{
	struct event rec = { .type = EV_MOUNT };

	rec.subtype = MOUNT_READONLY;
	if (filter_match(&cfg->filter, &rec))
		return true;
	rec.subtype = MOUNT_SETATTR;
	return filter_match(&cfg->filter, &rec);
}

/* Kernels without the calls, or without the mark, or without our privilege there: another backend serves. */
static int
unavailable(struct source *src)
{
	if (errno != EINVAL && errno != EPERM && errno != ENOSYS && errno != EACCES)
		return -1;
	src->cause = errno;
	errno = ENOSYS;
	return -1;
}

static int
fan_open(struct source *src)
{
	struct fan *f = xcalloc(1, sizeof(*f));
	const struct config *cfg = src->cfg;
	bool need_signal = false;
	size_t i;
	int fd;

	src->priv = f;
	src->nfds = SOURCE_MAX_FDS;
	if (kmount_probe() < 0)
		return unavailable(src);
	fd = fanotify_init(FAN_CLASS_NOTIF | FAN_REPORT_MNT | FAN_CLOEXEC | FAN_NONBLOCK, O_RDONLY);
	src->pfd[FD_FAN] = (struct pollfd){ fd, POLLIN, 0 };
	if (fd < 0)
		return unavailable(src);
	if (fanotify_mark(fd, FAN_MARK_ADD | FAN_MARK_MNTNS, FAN_MNT_ATTACH | FAN_MNT_DETACH,
	    AT_FDCWD, "/proc/self/ns/mnt") < 0)
		return unavailable(src);
	src->pfd[FD_TIMER] = (struct pollfd){ timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK), POLLIN, 0 };
	if (src->pfd[FD_TIMER].fd < 0)
		return -1;
	/* Remounts and attribute changes show only here; open it before the first read. */
	f->want_attrs = wants_attrs(cfg);
	for (i = 0; i < cfg->nconds; i++)
		if (cfg->conds[i].kind == COND_READONLY || cfg->conds[i].kind == COND_WRITABLE)
			need_signal = true;
	if (f->want_attrs || need_signal) {
		src->pfd[FD_MOUNTINFO] = (struct pollfd){ open(PATH_MOUNTINFO, O_RDONLY | O_CLOEXEC), POLLPRI, 0 };
		if (src->pfd[FD_MOUNTINFO].fd < 0)
			return -1;
	}
	/* The mark is in place: whatever changes from here on is queued. */
	if (kmount_read_table(&f->km, &f->tab) < 0)
		return -1;
	for (i = 0; i < f->tab.cap; i++)
		if (f->tab.slot[i] && watched(src, f->tab.slot[i]->target))
			f->scan_cost++;
	return 0;
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

	for (i = 0; i < src->nfds; i++)
		if (src->pfd[i].fd >= 0)
			close(src->pfd[i].fd);
	src->nfds = 0;
	if (f) {
		mounttab_clear(&f->tab);
		kmount_free(&f->km);
		free(f);
	}
	src->priv = NULL;
}

static int
fan_check(struct source *src, const struct cond *c)
{
	struct fan *f = src->priv;

	return mount_events_check(&f->tab, c);
}

const struct source_ops source_fanotify_ops = {
	.open = fan_open,
	.drain = fan_drain,
	.present = fan_present,
	.check = fan_check,
	.removals = mount_events_removals,
	.close = fan_close,
};
