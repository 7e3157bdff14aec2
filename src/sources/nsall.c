/*
 * -N all: every mount namespace, found as it appears. There is no notification of a new mount
 * namespace (fanotify reports mounts, not namespaces), so they are listed again every
 * NSALL_PERIOD_MS: with NS_MNT_GET_PREV and NS_MNT_GET_NEXT from our own, which walk every
 * namespace whatever holds it (a process, an open fd, a bind-mounted nsfs file) and need
 * CAP_SYS_ADMIN; else, or before Linux 6.12, by the ns/mnt links of /proc's processes. Each fd the
 * walk returns holds its namespace, and is closed at once.
 *
 * Where the process capture loads (root, BPF; not with --no-bpf), the calls that make a mount
 * namespace (unshare(2), clone(2), clone3(2) with CLONE_NEWNS) or enter one (setns(2)) are
 * seen as they return, and the namespaces are listed again at once (for setns(2), only while one
 * waits for a process: see nsall_any_pidless()), and when it may have lost a call; a listing every
 * NSALL_NET_MS stays, as a safety net (nsall_arm()).
 *
 * On fanotify, every namespace's source is a member of one group (fangroup.c), which the loop
 * polls through nsall's fd; the capture, where it loads, also tells the group where a mount gone
 * unread was made.
 *
 * A namespace is watched as -N PID watches it, through its lowest-numbered process that /proc
 * lets us look into, whose cgroup names it; its ids are not in creation order (per-CPU batches
 * on 6.18), so each listing starts from the whole set again. A namespace in which no such
 * process is found (none left, or kept by a bind-mounted nsfs file, or none we may look into:
 * /proc hides their ns/mnt) is looked for again at each listing, and said once on stderr if it
 * stays so; one no TARGET is a directory in is remembered and left alone until it is gone.
 */
#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/epoll.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "compat.h"
#include "mount_events.h"
#include "debug.h"
#include "nsall.h"
#include "nslist.h"
#include "xalloc.h"

/* The idle entry of the namespace, or NULL. */
static struct nsall_idle *
nsall_idle_of(struct nsall *a, uint64_t ino, uint64_t id)
{
	size_t i;

	for (i = 0; i < a->nidle; i++)
		if (a->idle[i].ino == ino && (!id || !a->idle[i].id || a->idle[i].id == id))
			return &a->idle[i];
	return NULL;
}

/* Leave the namespace idle (its entry, if it has one, says so from now on). */
static void
nsall_idle_add(struct nsall *a, uint64_t ino, uint64_t id, bool pidless)
{
	struct nsall_idle *e = nsall_idle_of(a, ino, id);

	if (e == NULL) {
		a->idle = xreallocarray(a->idle, a->nidle + 1, sizeof(*a->idle));
		e = &a->idle[a->nidle++];
	}
	/* Calls in its namespace read by the next drain may be of one gone before the listing. */
	*e = (struct nsall_idle){ ino, id, pidless, 0, true, a->cap ? capture_epoch(a->cap) + 1 : 0 };
}

/* Whether the namespace is watched, or idle and not pidless; it is marked listed. */
static bool
nsall_known(struct nsall *a, uint64_t ino, uint64_t id)
{
	struct nsall_idle *e;
	size_t i;

	for (i = 0; i < a->n; i++)
		if (a->ns[i]->ns.ino == ino && (!id || !a->ns[i]->ns.id || a->ns[i]->ns.id == id))
			return a->ns[i]->listed = true;
	if ((e = nsall_idle_of(a, ino, id)) == NULL)
		return false;
	e->listed = true;
	return !e->pidless;
}

/* No process of the namespace f found: look again next time, and say so if it stays so. */
static void
nsall_pidless(struct nsall *a, const struct nslist_found *f)
{
	struct nsall_idle *e = nsall_idle_of(a, f->ino, f->id);

	if (e == NULL) {
		nsall_idle_add(a, f->ino, f->id, true);
		return;
	}
	/* One listing apart: not a namespace that was going as it was listed. */
	if (++e->rounds == 2 && !a->cfg->quiet)
		warnx("-N all: mnt:[%llu]: no process in it that we may look into; not watched "
		    "until one is", (unsigned long long)f->ino);
}

/* The namespace f found is watched now: it is no longer pidless. */
static void
nsall_unidle(struct nsall *a, const struct nslist_found *f)
{
	struct nsall_idle *e = nsall_idle_of(a, f->ino, f->id);

	if (e && e->pidless)
		*e = a->idle[--a->nidle];
}

/* Whether looking a path up failed for want of resources, not for what is there. */
static bool
nsall_short(int e)
{
	return e == EMFILE || e == ENFILE || e == ENOMEM;
}

/* Each mounts TARGET that is a directory in e's namespace, as a watch there; -1 with errno set
 * when one could not be looked up for want of resources. */
static int
nsall_resolve(const struct config *cfg, struct nsall_ns *e)
{
	struct statx stx;
	struct watch *w;
	size_t i;
	int r = 0;

	e->watches = xcalloc(cfg->nwatches, sizeof(*e->watches));
	for (i = 0; i < cfg->nwatches; i++) {
		if (cfg->watches[i].type != EV_MOUNT)
			continue;
		w = &e->watches[e->nwatches];
		*w = cfg->watches[i];
		w->ns = &e->ns;
		w->mnt_ns = e->ns.ino;
		if ((w->path = mntns_canon(&e->ns, w->target, false)) == NULL) {
			r = nsall_short(errno) ? -1 : r;
			continue;
		}
		if (mntns_statx(&e->ns, w->path, &stx) < 0 || !S_ISDIR(stx.stx_mode)) {
			r = nsall_short(errno) ? -1 : r;
			free(w->path);
			continue;
		}
		w->reach = mntns_reach(&e->ns, w->path);
		e->nwatches++;
	}
	return r;
}

static void
nsall_free(struct nsall_ns *e)
{
	size_t i;

	if (e->src.backend)
		source_close(&e->src);
	for (i = 0; i < e->nwatches; i++) {
		free(e->watches[i].path);
		free(e->watches[i].reach);
	}
	free(e->watches);
	mntns_close(&e->ns);
	free(e);
}

/* mntns_open() failed with e on the namespace f found: said once, unless its process went. */
static void
nsall_unopened(struct nsall *a, const struct nslist_found *f, int e)
{
	/* The process went: another is looked for at the next listing. */
	if (e == ESRCH || e == ENXIO) {
		nsall_pidless(a, f);
		return;
	}
	warnx("-N all: mnt:[%llu] (pid %d): %s%s", (unsigned long long)f->ino, (int)f->pid,
	    e == EACCES || e == EPERM ? "may not watch this mount namespace: " : "",
	    strerror(e));
	nsall_idle_add(a, f->ino, f->id, false);
}

/*
 * Open e's source. Its mark on the one group counts against fs.fanotify.max_user_marks, and
 * without that group (the kernel has no mount records) a group of its own would count against
 * fs.fanotify.max_user_groups: without a --backend, a namespace that cannot have one (ENOSPC,
 * EMFILE) is watched on mountinfo, said once. -1 with errno set and *why as source_open_watches()
 * says.
 */
static int
nsall_open_source(struct nsall *a, struct nsall_ns *e, const char **why)
{
	const struct backend *mi = source_backend_find("mountinfo");

	if (source_open_watches(&e->src, &e->ns, e->watches, e->nwatches, NULL, a->cfg, a->sink,
	    why) == 0)
		return 0;
	if ((errno != EMFILE && errno != ENOSPC) || a->cfg->backend != NULL)
		return -1;
	if (!a->on_mountinfo && !a->cfg->quiet)
		warnx("-N all: mnt:[%llu]: %s: %s; namespaces that cannot have one are watched on %s",
		    (unsigned long long)e->ns.ino, *why, strerror(errno), mi->name);
	a->on_mountinfo = true;
	return source_open_watches(&e->src, &e->ns, e->watches, e->nwatches, mi, a->cfg, a->sink,
	    why);
}

/* Watch the namespace f found, through its process. */
static void
nsall_add(struct nsall *a, const struct nslist_found *f)
{
	struct nsall_ns *e = xcalloc(1, sizeof(*e));
	const char *why;
	int err;

	snprintf(e->arg, sizeof(e->arg), "%d", (int)f->pid);
	if (mntns_open(&e->ns, e->arg) < 0) {
		err = errno;
		nsall_free(e);
		nsall_unopened(a, f, err);
		return;
	}
	e->ns.cap = a->cap;
	e->ns.group = a->group;
	/* The process may have moved on to a namespace watched already. */
	if (e->ns.ino != f->ino && nsall_known(a, e->ns.ino, e->ns.id)) {
		nsall_free(e);
		return;
	}
	if (nsall_resolve(a->cfg, e) < 0) {
		err = errno;
		nsall_free(e);
		nsall_unopened(a, f, err);
		return;
	}
	if (e->nwatches == 0) {
		nsall_idle_add(a, e->ns.ino, e->ns.id, false);
		nsall_free(e);
		return;
	}
	if (nsall_open_source(a, e, &why) < 0) {
		err = errno;
		/* Its last process went as it was being opened: nothing to say. */
		if (e->ns.gone || err == ESRCH) {
			nsall_free(e);
			return;
		}
		warnx("-N all: mnt:[%llu] (pid %d): %s%s%s", (unsigned long long)e->ns.ino,
		    (int)e->ns.pid, why, err == ENOSYS ? "" : ": ",
		    err == ENOSYS ? "" : strerror(err));
		nsall_idle_add(a, e->ns.ino, e->ns.id, false);
		nsall_free(e);
		return;
	}
	nsall_unidle(a, f);
	e->lost_before = nscalls_opened(&a->calls, a->cap, e->ns.ino, &a->ask);
	e->listed = true;
	a->ns = xreallocarray(a->ns, a->n + 1, sizeof(*a->ns));
	a->ns[a->n++] = e;
	sourceset_add(a->set, &e->src);
}

/* A listing cut short (out of fds, say): said once; the next listing may not be. */
static void
nsall_cut_short(struct nsall *a)
{
	if (!a->said_walk)
		warn("-N all: listing mount namespaces");
	a->said_walk = true;
}

/* The namespaces listed now: by the walk, else by /proc (said once when the walk is refused);
 * whether the listing is whole. */
static bool
nsall_list(struct nsall *a, struct nslist *l)
{
	if (!a->by_proc && nslist_walk(l) < 0) {
		if (errno != ENOTTY && errno != EPERM && errno != EACCES) {
			nsall_cut_short(a);
			return false;
		}
		if (errno != ENOTTY && !a->cfg->quiet)
			warn("-N all: NS_MNT_GET_NEXT; finding mount namespaces in /proc instead, "
			    "which misses those without a process we may look into");
		a->by_proc = true;
	}
	if (a->by_proc && nslist_scan_proc(l, true) < 0) {
		nsall_cut_short(a);
		return false;
	}
	return true;
}

/* Drop what the last listing did not have. */
static void
nsall_forget(struct nsall *a)
{
	size_t i, k = 0;

	for (i = 0; i < a->nidle; i++)
		if (a->idle[i].listed)
			a->idle[k++] = a->idle[i];
	a->nidle = k;
	for (i = 0; i < a->nidle; i++)
		a->idle[i].listed = false;
	for (i = 0; i < a->n; i++)
		a->ns[i]->listed = false;
}

/* List the namespaces and watch each one new. */
static void
nsall_discover(struct nsall *a)
{
	struct nslist l = { NULL, 0 };
	bool scan = false, whole;
	uint64_t before = 0;
	size_t i;

	/* The calls read until now were made before the listing: it tells where. */
	if (a->cap) {
		capture_drain(a->cap);
		nscalls_take(&a->calls, a->cap, &a->ask);
		before = capture_epoch(a->cap);
	}
	nsall_forget(a);
	whole = nsall_list(a, &l);
	for (i = 0; i < l.n; i++)
		scan |= !(l.v[i].known = nsall_known(a, l.v[i].ino, l.v[i].id));
	/*
	 * Only a namespace new to us needs a process: one /proc scan for all of them. Where /proc
	 * cannot be read, they are left for the next listing, not taken for namespaces without one.
	 */
	if (scan && !a->by_proc && nslist_scan_proc(&l, false) < 0) {
		nsall_cut_short(a);
		scan = whole = false;
	}
	for (i = 0; i < l.n; i++) {
		if (l.v[i].known || !scan)
			continue;
		if (l.v[i].pid == 0)
			nsall_pidless(a, &l.v[i]);
		else
			nsall_add(a, &l.v[i]);
	}
	free(l.v);
	if (whole)
		nscalls_settle(&a->calls, before, &a->ask);
}

/*
 * Load the capture of the namespace calls where -N all lists namespaces by the walk (Linux 6.12
 * and CAP_SYS_ADMIN, as root has the capture's privileges). Where it cannot load, one line says
 * why (not under -q).
 */
static void
nsall_open_capture(struct nsall *a)
{
	char why[256];

	if (a->cfg->no_bpf || nslist_walk_probe() < 0)
		return;
	/* With the group, the processes too: it tells where a mount gone unread was made. */
	if ((a->cap = capture_open(CAPTURE_NS_CALLS | CAPTURE_MOUNT_CALLS | CAPTURE_NS_FLIPS |
	    (a->group ? CAPTURE_NS_PROCS : 0), why, sizeof(why))) == NULL && !a->cfg->quiet)
		warnx("-N all: no process capture: %s; namespaces are listed every %d ms", why,
		    NSALL_PERIOD_MS);
	if (a->group)
		a->group->cap = a->cap;
}

/*
 * Mounts gone before they could be read, in a namespace the one group cannot tell (fangroup.c):
 * a transient record for each TARGET, of no namespace.
 */
static void
nsall_unplaced(void *p, const uint64_t *ids, size_t n)
{
	struct nsall *a = p;
	const struct watch *w;
	size_t i;

	for (i = 0; i < a->cfg->nwatches; i++) {
		w = &a->cfg->watches[i];
		if (w->type == EV_MOUNT && !w->internal)
			mount_events_transient_of(a->sink, w, ids, n);
	}
}

/*
 * Open the one fanotify group, unless another backend is asked for; where the kernel has none
 * (no mount records before Linux 6.15), each namespace's source finds its own backend.
 */
static void
nsall_open_group(struct nsall *a)
{
	const struct backend *b = a->cfg->backend;

	if (b != NULL && b != source_backend_find("fanotify"))
		return;
	a->group = xmalloc(sizeof(*a->group));
	if (fangroup_open(a->group, a->cfg->show_who, nsall_unplaced, a) < 0) {
		free(a->group);
		a->group = NULL;
	}
}

/* What the loop polls: the timer alone, or an epoll of it, the capture's ring and the group's fd;
 * -1 with errno set. */
static int
nsall_open_fd(struct nsall *a)
{
	struct epoll_event ev = { .events = EPOLLIN };

	a->fd = a->timerfd;
	if (a->cap == NULL && a->group == NULL)
		return 0;
	if ((a->fd = epoll_create1(EPOLL_CLOEXEC)) < 0 ||
	    epoll_ctl(a->fd, EPOLL_CTL_ADD, a->timerfd, &ev) < 0 ||
	    (a->cap && epoll_ctl(a->fd, EPOLL_CTL_ADD, capture_fd(a->cap), &ev) < 0) ||
	    (a->group && epoll_ctl(a->fd, EPOLL_CTL_ADD, a->group->fd, &ev) < 0))
		return -1;
	return 0;
}

/*
 * Whether a namespace waits for a process to enter it. The walk lists every namespace whatever
 * holds it, so a setns(2) can only bring one of those: it has the namespaces listed again only
 * then (a container runtime's exec, one each, costs no listing).
 */
static bool
nsall_any_pidless(const struct nsall *a)
{
	size_t i;

	for (i = 0; i < a->nidle; i++)
		if (a->idle[i].pidless)
			return true;
	return false;
}

/*
 * How often to list the namespaces: every NSALL_PERIOD_MS; where the capture sees each call that
 * makes a namespace (and has them listed at once where it may have lost one), every NSALL_NET_MS
 * as a safety net, unless a namespace waits for a process (one that stays so is said after two
 * listings). -1 with errno set.
 */
static int
nsall_arm(struct nsall *a)
{
	int ms = a->cap && !nsall_any_pidless(a) ? NSALL_NET_MS : NSALL_PERIOD_MS;
	struct itimerspec its;

	if (ms == a->period_ms)
		return 0;
	its.it_interval = (struct timespec){ ms / 1000, (ms % 1000) * 1000000L };
	its.it_value = its.it_interval;
	if (timerfd_settime(a->timerfd, 0, &its, NULL) < 0)
		return -1;
	a->period_ms = ms;
	return 0;
}

/* What -N all knows of namespace ino (nscalls.h): watched, listed idle or pidless, or nothing. */
static enum nscalls_known
nsall_known_ns(void *p, uint64_t ino, uint64_t *since)
{
	const struct nsall *a = p;
	size_t i;

	for (i = 0; i < a->n; i++)
		if (a->ns[i]->ns.ino == ino)
			return NSCALLS_WATCHED;
	for (i = 0; i < a->nidle; i++) {
		if (a->idle[i].ino != ino || !a->idle[i].listed)
			continue;
		*since = a->idle[i].since;
		return a->idle[i].pidless ? NSCALLS_PIDLESS : NSCALLS_IDLE;
	}
	return NSCALLS_UNKNOWN;
}

/* A loss of the namespace ino, not watched (0: of none), for each mounts TARGET. */
static void
nsall_loss(void *p, uint64_t ino)
{
	struct nsall *a = p;
	const struct watch *w;
	struct event ev;
	size_t i;

	for (i = 0; i < a->cfg->nwatches; i++) {
		w = &a->cfg->watches[i];
		if (w->type != EV_MOUNT || w->internal)
			continue;
		source_event_init(&ev, EV_META, META_LOSS, w);
		ev.mnt_ns = ino;
		ev.u.meta.lost = -1;
		ev.u.meta.backend = a->group ? "fanotify" : a->cfg->backend ? a->cfg->backend->name :
		    a->n ? nsall_backend_name(a) : "mountinfo";
		a->sink->emit(a->sink, &ev);
	}
}

int
nsall_open(struct nsall *a, const struct config *cfg, struct sink *sink, struct sourceset *set)
{
	struct rlimit lim;

	memset(a, 0, sizeof(*a));
	a->timerfd = a->fd = -1;
	a->cfg = cfg;
	a->sink = sink;
	a->set = set;
	a->ask = (struct nscalls_ask){ nsall_known_ns, nsall_loss, a };
	/* Each namespace costs about six fds: as many as we may have. */
	if (getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < lim.rlim_max) {
		lim.rlim_cur = lim.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &lim);
	}
	a->timerfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (a->timerfd < 0)
		return -1;
	nsall_open_group(a);
	nsall_open_capture(a);
	if (nsall_open_fd(a) < 0)
		return -1;
	if (a->cap)
		a->losses = capture_losses(a->cap);
	nsall_discover(a);
	nscalls_start(&a->calls, a->cap);
	return nsall_arm(a);
}

/* Emit a meta record of subtype for each watch of e. */
static void
nsall_emit(struct nsall *a, struct nsall_ns *e, unsigned subtype)
{
	struct event ev;
	size_t i;

	for (i = 0; i < e->nwatches; i++) {
		source_event_init(&ev, EV_META, subtype, &e->watches[i]);
		ev.u.meta.lost = -1;
		ev.u.meta.backend = e->src.backend ? source_backend_name(&e->src) : NULL;
		ev.u.meta.pid = e->ns.pid;
		a->sink->emit(a->sink, &ev);
	}
}

void
nsall_announce(struct nsall *a)
{
	size_t i;

	for (i = 0; i < a->n; i++) {
		if (a->ns[i]->announced)
			continue;
		a->ns[i]->announced = true;
		DEBUG(DEBUG_NS, "mnt:[%llu] found", (unsigned long long)a->ns[i]->ns.ino);
		nsall_emit(a, a->ns[i], META_NS_NEW);
		if (a->ns[i]->lost_before)
			nsall_emit(a, a->ns[i], META_LOSS);
		if (a->cfg->initial)
			source_present(&a->ns[i]->src);
	}
}

/*
 * Where the capture saw a flip call begin or end since the last look, or may have missed a call
 * (whoever read its ring: nsall_tick() or a source), have each source look whether the call may
 * have changed its namespace's mounts (fan_poke()): the signal of a namespace whose records
 * account for every change is not polled.
 */
static void
nsall_poke(struct nsall *a)
{
	unsigned long long flips;
	size_t i;

	if (a->cap == NULL || (flips = capture_ns_flips_all(a->cap)) == a->flips)
		return;
	a->flips = flips;
	for (i = 0; i < a->n; i++)
		source_poke(&a->ns[i]->src);
}

static void nsall_reap(struct nsall *a);

/*
 * List the namespaces again if due, or if the capture saw a namespace made or entered (one that
 * matters) or lost a call since the last look; again while opening the new ones (which reads the
 * ring) brings such a call, NSALL_RELISTS times at most in a row (the next wake-up looks again).
 */
static void
nsall_list_if(struct nsall *a, bool due)
{
	int i;

	for (i = 0; i < NSALL_RELISTS; i++) {
		if (a->cap) {
			capture_drain(a->cap);
			nscalls_take(&a->calls, a->cap, &a->ask);
			due |= nscalls_due(&a->calls, &a->ask);
			due |= capture_ns_made(a->cap) != a->ns_made;
			due |= capture_ns_entered(a->cap) != a->ns_entered &&
			    nsall_any_pidless(a);
			/* A call lost may have made a namespace. */
			due |= capture_losses(a->cap) != a->losses;
			a->ns_made = capture_ns_made(a->cap);
			a->ns_entered = capture_ns_entered(a->cap);
			a->losses = capture_losses(a->cap);
		}
		if (!due)
			return;
		/*
		 * A namespace gone gives up its inode number, which a new one may take: its ns_gone
		 * comes before that one's ns_new.
		 */
		nsall_reap(a);
		nsall_discover(a);
		nsall_announce(a);
		/* The timer keeps its period if it cannot be set: it is there. */
		(void)nsall_arm(a);
		due = false;
	}
}

void
nsall_tick(struct nsall *a)
{
	uint64_t n;
	ssize_t r;

	/* A failed read is said by nsall_after(). */
	if (a->group)
		(void)fangroup_read(a->group);
	while ((r = read(a->timerfd, &n, sizeof(n))) < 0 && errno == EINTR)
		;
	nsall_list_if(a, r > 0);
}

int
nsall_after(struct nsall *a)
{
	/* Have each namespace whose records were routed to it act on them. */
	if (a->group && fangroup_pump(a->group) < 0)
		return -1;
	/* Here, not at the ring's wake-up: a source's read may have taken the flip. */
	nsall_poke(a);
	/*
	 * Whoever read the capture's ring (a source, the group, a namespace being opened) may have
	 * taken the record of a call that made or entered a namespace, and its fd is not readable
	 * for it any more: list the namespaces again if so.
	 */
	nsall_list_if(a, false);
	nsall_reap(a);
	return 0;
}

/* Emit ns_gone for each namespace no process is left in, and release it. */
static void
nsall_reap(struct nsall *a)
{
	size_t i;

	/* The calls read until now in a namespace that goes were its own (nsall_calls.c). */
	for (i = 0; i < a->n && !a->ns[i]->ns.gone; i++)
		;
	if (i < a->n && a->cap) {
		capture_drain(a->cap);
		nscalls_take(&a->calls, a->cap, &a->ask);
	}
	for (i = 0; i < a->n; i++) {
		if (!a->ns[i]->ns.gone)
			continue;
		DEBUG(DEBUG_NS, "mnt:[%llu] gone", (unsigned long long)a->ns[i]->ns.ino);
		nsall_emit(a, a->ns[i], META_NS_GONE);
		sourceset_remove(a->set, &a->ns[i]->src);
		nsall_free(a->ns[i]);
		a->ns[i--] = a->ns[--a->n];
	}
}

const char *
nsall_backend_name(const struct nsall *a)
{
	return a->n ? source_backend_name(&a->ns[0]->src) : NULL;
}

void
nsall_close(struct nsall *a)
{
	size_t i;

	/* The sources leave it without reading what is queued. */
	if (a->group)
		fangroup_shut(a->group);
	for (i = 0; i < a->n; i++) {
		if (a->set)
			sourceset_remove(a->set, &a->ns[i]->src);
		nsall_free(a->ns[i]);
	}
	if (a->group)
		fangroup_free(a->group);
	free(a->group);
	free(a->ns);
	free(a->idle);
	nscalls_free(&a->calls);
	if (a->timerfd >= 0)
		close(a->timerfd);
	if (a->fd >= 0 && a->fd != a->timerfd)
		close(a->fd);
	capture_close(a->cap);
	memset(a, 0, sizeof(*a));
	a->timerfd = a->fd = -1;
}
