/*
 * Superblock source: events about the filesystem holding each PATH.
 *   error     fanotify FAN_FS_ERROR on a filesystem mark (FID group, 5.16+),
 *             matched to watches by the superblock's device (see fserr.c)
 *   readonly  the superblock's read-only flag or ext4's emergency_ro option,
 *             re-read when /proc/self/mountinfo signals and after each error
 *             (ext4 sends the error before it turns read-only)
 *   edquot    the VFS_DQUOT generic netlink family (initial netns only)
 *   lowspace  statvfs(3) every --interval: polled, the kernel has no signal
 * Each mechanism that cannot be had is said on stderr, never silently missing.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "buf.h"
#include "capture.h"
#include "compat.h"
#include "escape.h"
#include "fserr.h"
#include "quota_nl.h"
#include "sb_info.h"
#include "source.h"
#include "who.h"
#include "xalloc.h"

/* FD_CAP is the capture's own: never closed here. */
enum { FD_ERROR, FD_QUOTA, FD_MOUNTINFO, FD_TIMER, FD_CAP, FD__N };

#define RECHECK_NS	50000000L	/* after an error: re-read the state every 50 ms ... */
#define RECHECK_FOR	2		/* ... for 2 s */

struct sbw {
	struct source_watch *sw;
	const struct watch *w;
	struct sb_info info;
	bool low;
	bool errored;		/* an error was reported on info.dev while watched */
};

struct sb_src {
	struct sbw *ws;
	size_t n;
	struct fserr errs;		/* FD_ERROR's: open while fserr_fd() is not -1 */
	int quota_fd;			/* FD_QUOTA's: the quota netlink socket, or -1 */
	int mountinfo_fd;		/* FD_MOUNTINFO's: its signal polled, never read */
	int timer_fd;			/* FD_TIMER's: rechecks, and space every --interval */
	bool want_error, want_ro, want_quota, want_space;
	bool poll_ro;			/* no error events: emergency read-only is polled */
	struct timespec recheck_until;	/* end of the recheck window (CLOCK_MONOTONIC); 0 if none */
	long period_ns;			/* the timer's period; 0 while it is disarmed */
	struct capture *cap;		/* the remount calls, to name who flipped; NULL: none */
	char backend[64];
};

/* Whether fstype reports errors: through Linux 6.18 only ext4's driver calls fsnotify_sb_error(),
 * and it also serves ext2 and ext3. */
static bool
sb_fstype_reports_errors(const char *fstype)
{
	return strcmp(fstype, "ext4") == 0 || strcmp(fstype, "ext3") == 0 ||
	    strcmp(fstype, "ext2") == 0;
}

/* One stderr line about a filesystem: "watchq: PATH (FSTYPE) WHAT". */
static void
sb_note(const struct source *src, const struct sbw *s, const char *what, const char *why)
{
	struct buf b = { 0 };

	if (src->cfg->quiet)
		return;
	escape_text(&b, s->w->target);
	fprintf(stderr, "watchq: %s (%s) %s%s%s\n", b.data, escape_arg(s->info.fstype), what,
	    why ? ": " : "", why ? why : "");
	buf_free(&b);
}

/* An event of s's filesystem: the header, then the filesystem's mount point, type and source. */
static void
sb_event_init(struct event *ev, const struct sbw *s, unsigned subtype)
{
	source_event_init(ev, EV_SB, subtype, s->w);
	ev->u.sb.path = s->info.target;
	ev->u.sb.fstype = s->info.fstype;
	ev->u.sb.device = s->info.device;
}

/*
 * Some kernels (6.1.y with the "don't set SB_RDONLY" backport) neither set the
 * read-only flag nor show emergency_ro after an ext4 error: there, a
 * filesystem mounted errors=remount-ro that had an error while we watched it
 * is in the emergency state from then on.
 */
static enum sb_ro
sb_effective_ro(const struct sb_src *p, const struct sb_info *now)
{
	size_t i;

	if (now->ro != SB_RO_RW || !now->errors_ro)
		return now->ro;
	for (i = 0; i < p->n; i++)
		if (p->ws[i].errored && p->ws[i].info.dev == now->dev)
			return SB_RO_EMERGENCY;
	return now->ro;
}

/*
 * Read the filesystem now holding s's path into *out. With marked, and if its device differs from
 * s's, also mark it for errors (*marked is -1 if that fails). The path is opened once with O_PATH
 * and both steps go through /proc/self/fd, so both see the same object.
 */
static int
sb_read_fs(struct source *src, const struct sbw *s, struct sb_info *out, int *marked)
{
	struct sb_src *p = src->priv;
	char pinned[32];
	int pin, r, e;

	if ((pin = open(s->w->path, O_PATH | O_CLOEXEC)) < 0)
		return -1;
	snprintf(pinned, sizeof(pinned), "/proc/self/fd/%d", pin);
	r = sb_info_get(out, pinned);
	e = errno;
	if (r == 0 && marked && out->dev != s->info.dev && fserr_fd(&p->errs) >= 0) {
		*marked = fserr_mark(&p->errs, pinned, out->dev);
		e = errno;
	}
	close(pin);
	errno = e;
	return r;
}

/*
 * Whether remount call f may have turned s's superblock to ro: 1 if it may set that state and is
 * of that superblock, by its device or an absolute path on it now; 0 if not; -1 if the capture
 * cannot tell (a relative path, another namespace or root).
 */
static int
sb_flip_may(const struct capture_call *f, const struct sbw *s, enum sb_ro ro)
{
	struct sb_info at;
	int on;

	if (!f->sb || (f->done && !f->ok) || !(ro == SB_RO_RO ? f->may_ro : f->may_rw))
		return 0;
	if (f->target == CAPTURE_TARGET_SB)
		return makedev(f->major, f->minor) == s->info.dev;
	if (f->target != CAPTURE_TARGET_PATH || sb_info_get(&at, f->path) < 0)
		return -1;
	on = at.dev == s->info.dev;
	sb_info_free(&at);
	return on;
}

/* A flip of a watched superblock to ro, for sb_flip_open(). */
struct sb_flip {
	const struct sb_src *p;
	const struct sbw *s;
	enum sb_ro ro;
};

/* Whether a remount call under way may have made the flip (p: a struct sb_flip). */
static bool
sb_flip_open(void *p)
{
	const struct sb_flip *fl = p;
	const struct capture_call *f;
	size_t i;

	for (i = 0; i < capture_nflips(fl->p->cap); i++) {
		f = capture_flip(fl->p->cap, i);
		if (!f->done && sb_flip_may(f, fl->s, fl->ro) != 0)
			return true;
	}
	return false;
}

/*
 * The remount call, ended well, that alone can have turned s's superblock to ro (sb_flip_may()),
 * those under way waited for first (capture_await()). NULL where the capture may have missed a
 * call, or another, one under way (it may yet fail) or one it cannot place may have made it (a
 * filesystem may turn itself read-only without a call, as btrfs does after an error); always for
 * the emergency state, which the kernel sets without a call.
 */
static const struct capture_call *
sb_flip_behind(const struct sb_src *p, const struct sbw *s, enum sb_ro ro)
{
	const struct capture_call *f, *one = NULL;
	size_t i;

	if (p->cap == NULL || ro == SB_RO_EMERGENCY)
		return NULL;
	capture_await(p->cap, sb_flip_open, &(struct sb_flip){ p, s, ro });
	if (capture_flips_lost(p->cap) || capture_stalled(p->cap))
		return NULL;
	for (i = 0; i < capture_nflips(p->cap); i++) {
		f = capture_flip(p->cap, i);
		switch (sb_flip_may(f, s, ro)) {
		case 0:
			continue;
		case -1:
			return NULL;
		}
		if (one || f->tgid <= 0 || !f->done)
			return NULL;
		one = f;
	}
	return one ? capture_flip_named(p->cap, one) : NULL;
}

/* Re-read the state of s's filesystem. A read-only change is reported as an event; another
 * filesystem at the path is a removal. */
static void
sb_recheck(struct source *src, struct sbw *s)
{
	struct sb_info now;
	struct event ev;

	if (!s->sw->alive)
		return;
	if (sb_read_fs(src, s, &now, NULL) < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			source_gone(src, s->sw, "path removed");
		return;
	}
	/* A wait condition too is about the filesystem that held its path when it began. */
	if (now.dev != s->info.dev) {
		sb_info_free(&now);
		source_gone(src, s->sw, "filesystem unmounted");
		return;
	}
	now.ro = sb_effective_ro(src->priv, &now);
	if (now.ro != s->info.ro) {
		const struct capture_call *f = sb_flip_behind(src->priv, s, now.ro);
		enum sb_ro old = s->info.ro;
		struct who who;

		sb_info_free(&s->info);
		s->info = now;
		sb_event_init(&ev, s, SB_READONLY);
		ev.u.sb.ro = now.ro;
		ev.u.sb.old_ro = old;
		if (f) {
			who_known(&who, f->tgid, f->uid, f->comm);
			ev.u.sb.by = who.by;
		}
		src->sink->emit(src->sink, &ev);
		return;
	}
	sb_info_free(&s->info);
	s->info = now;
}

/*
 * Re-read s's filesystem, or every one (s NULL), with the remount calls ended before the read:
 * those that have ended are then taken, their changes read. A call taken unread by a watch not
 * re-read now leaves that watch's flip nameless, never named after another call.
 */
static void
sb_look(struct source *src, struct sbw *s)
{
	struct sb_src *p = src->priv;
	size_t i;

	if (p->cap)
		capture_begin_read(p->cap);
	if (s)
		sb_recheck(src, s);
	else
		for (i = 0; i < p->n; i++)
			sb_recheck(src, &p->ws[i]);
	if (p->cap)
		capture_take_ended(p->cap);
}

static void
sb_recheck_all(struct source *src)
{
	sb_look(src, NULL);
}

/* Report crossing below the threshold once, and recovery once above it plus a tenth. */
static void
sb_check_space(struct source *src, struct sbw *s)
{
	const struct config *cfg = src->cfg;
	struct statvfs sv;
	struct event ev;
	uint64_t avail, size, thr;

	if (!s->sw->alive || s->w->internal || statvfs(s->w->path, &sv) < 0)
		return;
	avail = (uint64_t)sv.f_bavail * sv.f_frsize;
	size = (uint64_t)sv.f_blocks * sv.f_frsize;
	thr = cfg->space_pct > 0 ? (uint64_t)((double)size * cfg->space_pct / 100) :
	    cfg->space_bytes;
	if (s->low ? avail < thr + thr / 10 : avail >= thr)
		return;
	/* statvfs() read whatever the path holds now: check that it is still s's filesystem. */
	sb_look(src, s);
	if (!s->sw->alive)
		return;
	s->low = !s->low;
	sb_event_init(&ev, s, SB_LOWSPACE);
	ev.u.sb.low = s->low;
	ev.u.sb.avail = avail;
	ev.u.sb.size = size;
	ev.u.sb.threshold = thr;
	src->sink->emit(src->sink, &ev);
}

static bool
sb_in_recheck_window(const struct sb_src *p)
{
	struct timespec now;

	if (p->recheck_until.tv_sec == 0)
		return false;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec < p->recheck_until.tv_sec ||
	    (now.tv_sec == p->recheck_until.tv_sec && now.tv_nsec < p->recheck_until.tv_nsec);
}

/* Arm the timer for what needs it: the recheck window, else --interval polling, else nothing. */
static void
sb_arm_timer(struct source *src)
{
	struct sb_src *p = src->priv;
	struct itimerspec its = { { 0, 0 }, { 0, 0 } };
	long period = 0;

	if (sb_in_recheck_window(p))
		period = RECHECK_NS;
	else if (p->want_space || p->poll_ro)
		period = (long)(src->cfg->interval * 1e9);
	else
		p->recheck_until.tv_sec = 0;
	if (period == p->period_ns)
		return;
	p->period_ns = period;
	its.it_interval.tv_sec = its.it_value.tv_sec = period / 1000000000L;
	its.it_interval.tv_nsec = its.it_value.tv_nsec = period % 1000000000L;
	timerfd_settime(p->timer_fd, 0, &its, NULL);
}

static void
sb_start_recheck_window(struct source *src)
{
	struct sb_src *p = src->priv;

	clock_gettime(CLOCK_MONOTONIC, &p->recheck_until);
	p->recheck_until.tv_sec += RECHECK_FOR;
	sb_arm_timer(src);
}

/* Records were lost or could not be trusted: say so, then re-read every state. */
static void
sb_loss(struct source *src)
{
	source_loss(src);
	sb_recheck_all(src);
}

static void
sb_on_error(void *ctx, dev_t dev, const struct fan_rec *r)
{
	struct source *src = ctx;
	struct sb_src *p = src->priv;
	struct event ev;
	size_t i;

	for (i = 0; i < p->n; i++) {
		struct sbw *s = &p->ws[i];

		if (!s->sw->alive || s->info.dev != dev)
			continue;
		s->errored = s->info.errors_ro;
		sb_event_init(&ev, s, SB_ERROR);
		ev.u.sb.error = r->error;
		ev.u.sb.count = r->error_count;
		src->sink->emit(src->sink, &ev);
	}
}

static void
sb_on_quota(void *ctx, const struct quota_warning *qw)
{
	struct source *src = ctx;
	struct sb_src *p = src->priv;
	struct event ev;
	size_t i;

	for (i = 0; i < p->n; i++) {
		struct sbw *s = &p->ws[i];

		if (!s->sw->alive || s->info.dev != makedev(qw->major, qw->minor))
			continue;
		sb_event_init(&ev, s, SB_EDQUOT);
		ev.u.sb.quota_type = qw->qtype;
		ev.u.sb.id = qw->id;
		ev.u.sb.caused_id = qw->caused_id;
		ev.u.sb.warning = quota_nl_warning_name(qw->warning);
		src->sink->emit(src->sink, &ev);
	}
}

static int
sb_drain_error(struct source *src)
{
	struct sb_src *p = src->priv;

	switch (fserr_drain(&p->errs, sb_on_error, src)) {
	case -1:
		return -1;
	case 1:
		source_loss(src);	/* lost, or a record we cannot trust or attribute */
		break;
	}
	/* ext4 reports the error before it turns read-only: look again now and for a while. */
	sb_recheck_all(src);
	sb_start_recheck_window(src);
	return 0;
}

static int
sb_drain_quota(struct source *src)
{
	const struct sb_src *p = src->priv;
	unsigned char buf[8192] __attribute__((aligned(8)));
	ssize_t n;

	for (;;) {
		n = recv(p->quota_fd, buf, sizeof(buf), 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				return 0;
			if (errno == ENOBUFS) {	/* the socket overflowed: warnings were dropped */
				sb_loss(src);
				continue;
			}
			return -1;
		}
		if (quota_nl_decode(buf, (size_t)n, sb_on_quota, src) < 0)
			sb_loss(src);	/* a message we cannot trust */
	}
}

static int
sb_drain(struct source *src, size_t i)
{
	struct sb_src *p = src->priv;
	uint64_t ticks;
	size_t k;

	switch (i) {
	case FD_ERROR:
		return sb_drain_error(src);
	case FD_QUOTA:
		return sb_drain_quota(src);
	case FD_MOUNTINFO:
		sb_recheck_all(src);
		return 0;
	case FD_CAP:
		/* Kept until a read of the filesystems shows their changes. */
		capture_drain(p->cap);
		return 0;
	case FD_TIMER:
		while (read(p->timer_fd, &ticks, sizeof(ticks)) < 0 && errno == EINTR)
			;
		if (p->want_ro || p->poll_ro || p->period_ns == RECHECK_NS)
			sb_recheck_all(src);
		if (p->want_space)
			for (k = 0; k < p->n; k++)
				sb_check_space(src, &p->ws[k]);
		sb_arm_timer(src);
		return 0;
	}
	return 0;
}

/* The fanotify groups for error events; without them, read-only is polled. */
static void
sb_open_errors(struct source *src)
{
	struct sb_src *p = src->priv;

	if (fserr_open(&p->errs) < 0) {
		if (p->want_error && !src->cfg->quiet)
			fprintf(stderr,
			    "watchq: filesystem error events need Linux 5.16 and CAP_SYS_ADMIN: "
			    "%s; "
			    "no error events\n",
			    strerror(errno));
		if (p->want_ro)
			p->poll_ro = true;
		return;
	}
	source_poll(src, FD_ERROR, fserr_fd(&p->errs), POLLIN);
}

/* Whether s's filesystem was marked for errors; says on stderr why not, or that its type never
 * reports errors. */
static bool
sb_is_marked(struct source *src, const struct sbw *s, int marked, int why)
{
	const struct sb_src *p = src->priv;
	bool quiet = s->w->internal || !p->want_error;

	if (fserr_fd(&p->errs) < 0)
		return false;
	if (marked < 0) {
		if (!quiet)
			sb_note(src, s, "cannot report errors", strerror(why));
		return false;
	}
	if (!quiet && !sb_fstype_reports_errors(s->info.fstype))
		sb_note(src, s,
		    "does not report errors (through Linux 6.18 only ext2, ext3 and ext4 do)",
		    NULL);
	return true;
}

static void
sb_open_quota(struct source *src)
{
	struct sb_src *p = src->priv;
	int fd;

	if ((fd = quota_nl_open()) < 0) {
		if (!src->cfg->quiet)
			fprintf(stderr,
			    "watchq: quota warnings are unavailable: %s (the VFS_DQUOT netlink "
			    "family "
			    "exists only in the initial network namespace); no edquot events\n",
			    errno == ENOENT ? "no VFS_DQUOT family here" : strerror(errno));
		p->want_quota = false;
		return;
	}
	p->quota_fd = fd;
	source_poll(src, FD_QUOTA, fd, POLLIN);
}

/* Which of the sb events the run asks for: error and edquot only with a watch the user named. */
static void
sb_choose_events(struct source *src, size_t announced)
{
	const struct config *cfg = src->cfg;
	struct sb_src *p = src->priv;

	p->want_error = evset_has_event(&cfg->events, EV_SB, SB_ERROR) && announced > 0;
	p->want_ro = evset_has_event(&cfg->events, EV_SB, SB_READONLY) ||
	    cfg->mode == MODE_WAIT_STATE;
	p->want_quota = evset_has_event(&cfg->events, EV_SB, SB_EDQUOT) && announced > 0;
	p->want_space = evset_has_event(&cfg->events, EV_SB, SB_LOWSPACE) && cfg->has_space;
}

/*
 * Read the filesystem of each watch and mark it for errors. With no filesystem marked, close the
 * error groups: read-only is then polled.
 */
static int
sb_add_watches(struct source *src)
{
	struct sb_src *p = src->priv;
	bool any = false;
	int marked;
	size_t i;

	for (i = 0; i < src->nwatches; i++) {
		struct sbw *s = &p->ws[p->n];
		struct sb_info now;

		s->sw = &src->watches[i];
		s->w = s->sw->w;
		marked = 0;
		if (sb_read_fs(src, s, &now, &marked) < 0)
			return -1;
		s->info = now;
		p->n++;
		any |= sb_is_marked(src, s, marked, errno);
	}
	if (fserr_fd(&p->errs) >= 0 && !any) {
		source_poll_fd(src, FD_ERROR, -1);
		fserr_close(&p->errs);
		if (p->want_ro)
			p->poll_ro = true;
	}
	return 0;
}

/*
 * The process capture, to name who remounted a filesystem read-only or writable: as the mounts
 * source loads it (a monitor or an event wait whose output names processes, privileged). Where
 * it cannot load, readonly records name nobody, and the readiness line says so by its backend.
 */
static void
sb_open_capture(struct source *src)
{
	const struct config *cfg = src->cfg;
	struct sb_src *p = src->priv;
	char why[256];

	if (!p->want_ro || cfg->no_bpf || !cfg->show_who || !capture_privileged() ||
	    (cfg->mode != MODE_MONITOR && cfg->mode != MODE_WAIT_EVENT))
		return;
	if ((p->cap = capture_open(CAPTURE_MOUNT_CALLS, why, sizeof(why))) == NULL)
		return;
	source_poll(src, FD_CAP, capture_fd(p->cap), POLLIN);
}

/*
 * The mechanisms in use, as the readiness line names them: "fanotify,netlink,mountinfo,statvfs",
 * and bpf with the capture.
 */
static void
sb_name_backend(struct source *src)
{
	struct sb_src *p = src->priv;

	snprintf(p->backend, sizeof(p->backend), "%s%s%s%s%s%s",
	    fserr_fd(&p->errs) >= 0 ? "fanotify," : "",
	    p->quota_fd >= 0 ? "netlink," : "", "mountinfo",
	    p->want_space || p->poll_ro ? ",statvfs" : "", p->cap ? ",bpf:" : "",
	    p->cap ? capture_attach_name(p->cap) : "");
	src->backend_label = p->backend;
}

/* Whether any event asked for can come: present records always can. */
static bool
sb_can_report(const struct source *src)
{
	const struct sb_src *p = src->priv;

	return evset_has_event(&src->cfg->events, EV_SB, SB_PRESENT) ||
	    (p->want_error && fserr_fd(&p->errs) >= 0) || p->want_ro || p->want_quota ||
	    p->want_space;
}

/*
 * The state each watch started from, and the space of the filesystem at its path if it is still
 * that one: the path is pinned so that both reads see the same object.
 */
static void
sb_present(struct source *src)
{
	struct sb_src *p = src->priv;
	struct statvfs sv;
	struct sb_info now;
	struct event ev;
	char pinned[32];
	size_t i;
	int pin;

	for (i = 0; i < p->n; i++) {
		struct sbw *s = &p->ws[i];

		if (!s->sw->alive || s->w->internal)
			continue;
		sb_event_init(&ev, s, SB_PRESENT);
		ev.u.sb.ro = s->info.ro;
		if ((pin = open(s->w->path, O_PATH | O_CLOEXEC)) >= 0) {
			snprintf(pinned, sizeof(pinned), "/proc/self/fd/%d", pin);
			if (sb_info_get(&now, pinned) == 0) {
				ev.u.sb.has_space = now.dev == s->info.dev &&
				    fstatvfs(pin, &sv) == 0;
				sb_info_free(&now);
			}
			close(pin);
		}
		if (ev.u.sb.has_space) {
			ev.u.sb.avail = (uint64_t)sv.f_bavail * sv.f_frsize;
			ev.u.sb.size = (uint64_t)sv.f_blocks * sv.f_frsize;
		}
		src->sink->emit(src->sink, &ev);
	}
}

static int
sb_open(struct source *src)
{
	const struct config *cfg = src->cfg;
	struct sb_src *p;
	size_t k, announced;

	p = src->priv = xcalloc(1, sizeof(*p));
	p->errs.epfd = -1;
	p->quota_fd = p->mountinfo_fd = p->timer_fd = -1;
	p->ws = xcalloc(src->nwatches + 1, sizeof(*p->ws));
	announced = source_live(src);
	sb_choose_events(src, announced);
	/* Open it before reading any filesystem: each mount change after that raises POLLPRI. */
	if ((p->mountinfo_fd = open(PATH_MOUNTINFO, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	/* Before the first read too: a remount that ends after it shows in a later one. */
	sb_open_capture(src);
	source_poll(src, FD_MOUNTINFO, p->mountinfo_fd, POLLPRI);
	/* list reads each filesystem once: no error, quota or space watch. */
	if (cfg->mode == MODE_LIST) {
		src->backend_label = "mountinfo";
		return sb_add_watches(src);
	}
	if (p->want_error || p->want_ro)
		sb_open_errors(src);
	if (sb_add_watches(src) < 0)
		return -1;
	if (p->want_quota)
		sb_open_quota(src);
	if ((p->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK)) < 0)
		return -1;
	source_poll(src, FD_TIMER, p->timer_fd, POLLIN);
	if (p->poll_ro && !cfg->quiet && announced > 0 && p->want_ro)
		fprintf(stderr, "watchq: ext4's emergency read-only state is polled every %gs\n",
		    cfg->interval);
	sb_name_backend(src);
	/* Nothing selected can come: say so rather than wait forever. */
	if (announced > 0 && !sb_can_report(src)) {
		errno = ENOSYS;
		return -1;
	}
	for (k = 0; k < p->n; k++)
		sb_check_space(src, &p->ws[k]);
	sb_arm_timer(src);
	return 0;
}

static void
sb_close(struct source *src)
{
	struct sb_src *p = src->priv;
	size_t i;

	if (p == NULL)
		return;
	source_poll_fd(src, FD_ERROR, -1);
	fserr_close(&p->errs);
	source_poll_fd(src, FD_CAP, -1);
	capture_close(p->cap);
	source_close_fd(src, FD_QUOTA, &p->quota_fd);
	source_close_fd(src, FD_MOUNTINFO, &p->mountinfo_fd);
	source_close_fd(src, FD_TIMER, &p->timer_fd);
	for (i = 0; i < p->n; i++)
		sb_info_free(&p->ws[i].info);
	free(p->ws);
	free(p);
	src->priv = NULL;
}

/*
 * wait --readonly/--writable: judged by the read-only flag, or the emergency state that sets no
 * flag, of the filesystem that held the path when the wait began (the condition's own watch).
 * Another filesystem at the path now is a removal, not an answer.
 */
static int
sb_check(struct source *src, const struct cond *c)
{
	struct sb_src *p = src->priv;
	struct sbw *s = NULL;
	struct statvfs sv;
	bool ro;
	size_t i;

	if (c->kind != COND_READONLY && c->kind != COND_WRITABLE)
		return WAIT_PENDING;
	for (i = 0; i < p->n && s == NULL; i++)
		if (p->ws[i].w == c->watch)
			s = &p->ws[i];
	if (s == NULL)
		return WAIT_PENDING;
	/* The state now, then the filesystem: both of this moment. */
	sb_look(src, s);
	if (!s->sw->alive)
		return WAIT_GONE;
	if (statvfs(c->path, &sv) < 0)
		return errno == ENOENT || errno == ENOTDIR ? WAIT_GONE : WAIT_PENDING;
	ro = (sv.f_flag & ST_RDONLY) != 0 || s->info.ro != SB_RO_RW;
	sb_look(src, s);
	if (!s->sw->alive)
		return WAIT_GONE;
	return ro == (c->kind == COND_READONLY) ? WAIT_MET : WAIT_PENDING;
}

const struct source_ops source_sb_ops = {
	.open = sb_open,
	.drain = sb_drain,
	.present = sb_present,
	.check = sb_check,
	.removals = sb_recheck_all,
	.close = sb_close,
};
