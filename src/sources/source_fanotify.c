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
#include <stdio.h>
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
#include "debug.h"
#include "fan.h"
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




/* What a debug line names the source by: its namespace's inode with -N, else "ours". */
static const char *
fan_label(const struct source *src)
{
	static char label[32];

	if (src->ns == NULL)
		return "ours";
	snprintf(label, sizeof(label), "mnt:[%llu]", (unsigned long long)src->ns->ino);
	return label;
}

static void
fan_arm_timer(struct source *src, long long ns)
{
	struct itimerspec its = { { 0, 0 },
	    { (time_t)(ns / 1000000000LL), (long)(ns % 1000000000LL) } };

	if (ns <= 0)
		its.it_value = (struct timespec){ 0, 1 };
	timerfd_settime(((struct fan *)src->priv)->timer_fd, 0, &its, NULL);
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
 * Poll the signal only where it may tell something new (rescan_polls_signal()): the capture is sure
 * of every change where fan_sure() or fan_ns_sure() says so.
 */
static void
fan_poll_signal(struct source *src)
{
	struct fan *f = src->priv;
	bool polled = rescan_polls_signal(&f->rs, fan_sure(f) || fan_ns_sure(f));

	source_poll_fd(src, FD_MOUNTINFO, polled ? f->signal_fd : -1);
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

	if (f->sb_elsewhere && rescan_small(&f->rs) && !fan_flip_open(f))
		fan_table_rescan(src);
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
		DEBUG(DEBUG_RESCAN, "%s: re-read held back: a flip call is under way", fan_label(src));
		if (!f->rs.owed)
			fan_owe(src, false);
		fan_arm_timer(src, FLIP_WAITS * 1000000LL);
		return;
	}
	if (rescan_paid(&f->rs))
		(void)fan_table_signal(f);
	fan_table_rescan(src);
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

	if (src->io[FD_MOUNTINFO].fd < 0 || !f->want_attrs)
		return false;
	return i == FD_MOUNTINFO || fan_table_signal(f);
}



/* Read the records and the calls, and act on them; -1 with errno set. */
static int
fan_take_changes(struct source *src)
{
	struct fan *f = src->priv;

	switch (fan_feed_read(src)) {
	case -1:
		return -1;
	case 1:
		f->overflow = true;	/* a record we cannot trust: treat as lost */
		break;
	}
	if (f->overflow || f->root_moved) {
		if (fan_table_resync(src) < 0)
			return -1;
	} else {
		fan_table_flush_transient(src);
	}
	if (f->cap) {
		fan_flip_ended(src);
		fan_absorb_elsewhere(src);
	}
	return 0;
}


/* Owe a re-scan (lazy: a safety net), and arm the timer for it (rescan_owe()). */
static void
fan_owe(struct source *src, bool lazy)
{
	struct fan *f = src->priv;
	long long arm;

	if (rescan_owe(&f->rs, lazy, rescan_clock(), &arm)) {
		DEBUG(DEBUG_RESCAN, "%s: %s owed, due in %lld ms", fan_label(src),
		    lazy ? "a safety net" : "a re-read", arm / 1000000);
		fan_arm_timer(src, arm);
	}
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
	enum rescan_act act;
	/* Records may have been routed here since (fangroup.c): they count as this wake's. */
	unsigned long long before = f->records_woke, flips = f->flips_read;

	if (fan_take_changes(src) < 0)
		return -1;
	source_served(src, FD_FAN);	/* whichever fd woke us */
	source_served(src, FD_CAP);
	explained = f->records != before || f->flips_read != flips || fan_flip_open(f);
	if (signal && !explained && rescan_small(&f->rs) && !fan_sure(f) && fan_feed_record_soon(src)) {
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
	act = rescan_on_wake(&f->rs, signal, explained, sure);
	DEBUG(DEBUG_RESCAN, "%s: wake: signal %d, records %llu, flips read %llu, capture sure %d, "
	    "%llu events since the last re-read of %zu mounts: %s", fan_label(src), signal,
	    f->records - before, f->flips_read - flips, sure, f->rs.since_scan, f->rs.scan_cost,
	    (const char *[]){ "nothing", "re-read now", "owe a re-read", "owe a safety net" }[act]);
	switch (act) {
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

	while (read(f->timer_fd, &ticks, sizeof(ticks)) < 0 && errno == EINTR)
		;
	if (rescan_on_timer(&f->rs, rescan_clock(), &arm))
		fan_rescan_now(src);
	else if (arm >= 0)
		fan_arm_timer(src, arm);
}

/*
 * Stop polling every slot, and close the fds the source owns (the namespace's pidfd and the
 * capture's are not its own).
 */
static void
fan_close_fds(struct source *src)
{
	struct fan *f = src->priv;

	source_close_fd(src, FD_MOUNTINFO, &f->signal_fd);
	source_close_fd(src, FD_FAN, &f->fan_fd);
	source_close_fd(src, FD_TIMER, &f->timer_fd);
	source_poll_fd(src, FD_NS, -1);
	source_poll_fd(src, FD_CAP, -1);
}

/* The namespace is gone: stop polling and close every fd (the mountinfo fd would keep it alive). */
static void
fan_ns_gone(struct source *src)
{
	struct fan *f = src->priv;

	if (f->group)
		fangroup_leave(f->group, &f->member);
	f->group = NULL;
	fan_close_fds(src);
	f->rs.owed = false;
}

static int
fan_drain(struct source *src, size_t i)
{
	struct fan *f = src->priv;

	if (fan_table_read_owed(f) < 0)
		return -1;
	if (i == FD_NS) {
		if (mount_events_ns_exited(src))
			fan_ns_gone(src);
		else
			source_poll_fd(src, FD_NS, src->ns->pidfd);
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







/* Whether a mount event that only the signal tells of is wanted (event_names[]' on_signal). */
static bool
fan_wants_attrs(const struct config *cfg)
{
	const struct event_name *n;

	for (n = event_names; n->name; n++)
		if (n->type == EV_MOUNT && n->on_signal &&
		    filter_match(&cfg->filter, &(struct event){ .type = EV_MOUNT,
		    .subtype = n->subtype }))
			return true;
	return false;
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
		f->member = (struct fangroup_member){ &fan_feed_member_ops, src, src->ns->ino,
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
	f->fan_fd = fd;
	source_poll(src, FD_FAN, fd, POLLIN);
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

	f->want_attrs = fan_wants_attrs(src->cfg);
	if (!f->want_attrs && !waits_for_flip(src->cfg))
		return 0;
	f->signal_fd = mntns_mountinfo(src->ns);
	source_poll(src, FD_MOUNTINFO, f->signal_fd, POLLPRI);
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
	source_label_capture(src, "fanotify", f->cap);
	source_poll(src, FD_CAP, capture_fd(f->cap), POLLIN);
}

static int
fan_open(struct source *src)
{
	struct fan *f = xcalloc(1, sizeof(*f));

	src->priv = f;
	f->signal_fd = f->fan_fd = f->timer_fd = -1;
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
	f->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	source_poll(src, FD_TIMER, f->timer_fd, POLLIN);
	if (f->timer_fd < 0)
		return -1;
	/* Remounts and attribute changes show only on the signal: open it before the first read. */
	if (fan_open_signal(src) < 0)
		return -1;
	/* Where the capture of -N all says what it saw, from before the table is read. */
	if (src->ns && src->ns->cap) {
		f->ns_cap = src->ns->cap;
		f->rs.spread = true;
		f->ns_ino = src->ns->ino;
		fan_table_sure_from_now(f);
	}
	/*
	 * The mark is in place: whatever changes from here on is queued. A wait for mount
	 * points asks statx(2) of its paths first: the table, read only when statx cannot
	 * answer or before the first change is drained, is often never needed.
	 */
	f->tab_owed = true;
	if (!fan_waits_for_paths(src) && fan_table_read_owed(f) < 0)
		return -1;
	f->rs.scan_cost = fan_table_count_watched(src);
	if (src->ns)
		source_poll(src, FD_NS, src->ns->pidfd, POLLIN);
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

	if (f && f->group)
		fangroup_leave(f->group, &f->member);
	if (f) {
		fan_close_fds(src);
		capture_close(f->cap);
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
	if (fan_table_read_owed(f) < 0)
		return WAIT_PENDING;
	return mount_wait_check(src, &f->tab, c);
}

static bool
fan_show(struct source *src, const struct cond *c)
{
	struct fan *f = src->priv;

	return fan_table_read_owed(f) == 0 && mount_wait_show(src, &f->tab, c);
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
