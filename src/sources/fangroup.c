/*
 * -N all's one fanotify group. The kernel takes a mount-namespace mark of every namespace on one
 * group, so one queue and one fd serve them all (and fs.fanotify.max_user_groups, 128 by default,
 * does not bound how many namespaces are watched). The price: a record carries the mount's id and
 * the process behind it, not the namespace, so each is routed here:
 *
 * - a detach or a move names a mount some member's cache holds (the member the last record went
 *   to is asked first; ids only grow, so a cache whose highest id is below it is not asked);
 * - an attach (or a move of a mount no cache holds) names a mount that statmount(2) finds only
 *   given its namespace. A call attaches in its caller's namespace, so the namespace the capture
 *   saw the process's mount calls made in, else the one the process is in now, is tried first;
 *   then, unless its detach shows in the queue read again (a mount unmounted just after its
 *   attach was read, the common case; awaited a moment where the capture saw the call made in the
 *   first namespace and nothing propagates from there), every other member: a copy that
 *   propagation put in another namespace, an automount in another namespace than its walker's,
 *   or a process that has exited or moved on (or that our pid namespace does not show);
 * - an attach gone before a member could read it (its detach in the same read, or no member finds
 *   it) is transient: in the namespace of the only member if there is one (and none ever left,
 *   whose record may have been on its way as it did), or where the capture saw every mount call
 *   of its process made in one namespace from which nothing can have propagated since it was
 *   marked (the call attached there, and made no copy elsewhere; an automount made in another
 *   namespace and gone at once is the exception no record shows); else in a namespace that
 *   cannot be told, handed to the group's
 *   unplaced callback. The process's namespace now is no proof: the process may have entered
 *   another since, and the mount may be a copy propagation made elsewhere. A move of such a mount
 *   says nothing: its attach was counted;
 * - a detach of a mount no cache holds is of a mount counted as transient already (or of one gone
 *   before its namespace's table was first read): nothing is said of it;
 * - an overflow, or a record that cannot be decoded, is a loss in every namespace.
 *
 * A member leaves by removing its mark, then reading the queue to its end while it can still be
 * told from the others: the records it takes there are dropped (a mount of its namespace gone
 * unread is transient as above), and those of the others go to them.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fanotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compat.h"
#include "debug.h"
#include "fangroup.h"
#include "mounttab.h"
#include "source.h"
#include "xalloc.h"

#define GROUP_FLAGS	(FAN_CLASS_NOTIF | FAN_REPORT_MNT | FAN_CLOEXEC | FAN_NONBLOCK)
#define MARK_MASK	(FAN_MNT_ATTACH | FAN_MNT_DETACH)
#define MORE_READS	2		/* reads after the records in hand, per read */
#define GONE_WAIT_NS	200000L		/* how long a detach that must be on its way is awaited */

int
fangroup_init_fd(bool pidfd, size_t *read_size, size_t size)
{
	int fd = -1;

	*read_size = FAN_PIDFD_BATCH * FAN_PIDFD_RECORD;
	if (pidfd && (fd = fanotify_init(GROUP_FLAGS | FAN_REPORT_PIDFD, O_RDONLY)) >= 0)
		return fd;
	if (pidfd && errno != EINVAL && errno != EPERM)
		return -1;
	*read_size = size;
	return fanotify_init(GROUP_FLAGS, O_RDONLY);
}

int
fangroup_mark(int fd, bool add, int dirfd, const char *path)
{
	return fanotify_mark(fd, (add ? FAN_MARK_ADD : FAN_MARK_REMOVE) | FAN_MARK_MNTNS,
	    MARK_MASK, dirfd, path);
}

int
fangroup_open(struct fangroup *g, bool pidfd, fangroup_unplaced_fn *unplaced, void *ctx)
{
	memset(g, 0, sizeof(*g));
	g->unplaced = unplaced;
	g->ctx = ctx;
	g->fd = fangroup_init_fd(pidfd, &g->read_size, sizeof(g->buf));
	g->pidfd = g->read_size < sizeof(g->buf);
	return g->fd < 0 ? -1 : 0;
}

int
fangroup_join(struct fangroup *g, struct fangroup_member *m, int nsfd)
{
	m->pending = m->leaving = false;
	if ((m->nsfd = fcntl(nsfd, F_DUPFD_CLOEXEC, 0)) < 0)
		return -1;
	if (fangroup_mark(g->fd, true, m->nsfd, NULL) < 0) {
		close(m->nsfd);
		m->nsfd = -1;
		return -1;
	}
	g->m = xreallocarray(g->m, g->n + 1, sizeof(*g->m));
	g->m[g->n++] = m;
	return 0;
}

void
fangroup_leave(struct fangroup *g, struct fangroup_member *m)
{
	int e = errno;	/* a source that failed to open leaves: its errno says why */
	size_t i;

	if (g->fd >= 0 && m->nsfd >= 0) {
		/* Gone with its namespace already (ENOENT): nothing more is queued for it then. */
		(void)fangroup_mark(g->fd, false, m->nsfd, NULL);
		m->leaving = true;
		(void)fangroup_read(g);
	}
	for (i = 0; i < g->n; i++)
		if (g->m[i] == m)
			g->m[i] = g->m[--g->n];
	g->last = 0;
	g->left = true;
	if (m->nsfd >= 0)
		close(m->nsfd);
	m->nsfd = -1;
	errno = e;
}

/* Whether s, sorted (mounttab_ids_unique()), has id. */
static bool
ids_has(const struct mounttab_ids *s, uint64_t id)
{
	return s->n > 0 && bsearch(&id, s->v, s->n, sizeof(*s->v), mounttab_cmp_id) != NULL;
}

static bool
fangroup_is_attach(const struct fan_rec *r)
{
	return (r->mask & FAN_MNT_ATTACH) && !(r->mask & FAN_MNT_DETACH);
}

static bool
fangroup_give(struct fangroup_member *m, const struct fan_rec *r)
{
	if (!m->ops->take(m->ctx, r))
		return false;
	DEBUG(DEBUG_GROUP, "mount %llu (mask %#x): routed to mnt:[%llu]",
	    (unsigned long long)r->mnt_id, (unsigned)r->mask, (unsigned long long)m->ino);
	m->pending = true;
	return true;
}

/* The member whose cache holds the mount, or NULL; the last one routed to is asked first. */
static struct fangroup_member *
fangroup_holder(struct fangroup *g, uint64_t id)
{
	size_t k, i;

	for (k = 0; k < g->n; k++) {
		i = (g->last + k) % g->n;
		/* Most often a mount just made: above every id a cache ever had. */
		if (g->m[i]->top_id && *g->m[i]->top_id < id)
			continue;
		if (g->m[i]->ops->holds(g->m[i]->ctx, id)) {
			g->last = i;
			return g->m[i];
		}
	}
	return NULL;
}

/* Give r to the member whose cache holds its mount (one gone now, that a table read saw, too);
 * false if none does. */
static bool
fangroup_give_held(struct fangroup *g, const struct fan_rec *r)
{
	struct fangroup_member *m = fangroup_holder(g, r->mnt_id);

	return m != NULL && fangroup_give(m, r);
}

/* The index of the member of namespace ino, or g->n. */
static size_t
fangroup_of_ns(const struct fangroup *g, uint64_t ino)
{
	size_t i;

	for (i = 0; i < g->n && g->m[i]->ino != ino; i++)
		;
	return i;
}

/*
 * The index of the member r's process made its mount calls in, where the capture saw them all in
 * one namespace; else of the member of the namespace the process is in now; else g->n. *sure: the
 * capture said so.
 */
static size_t
fangroup_of_pid(struct fangroup *g, const struct fan_rec *r, bool *sure)
{
	char path[64];
	struct stat st;
	uint64_t ns;

	*sure = false;
	if (r->pid <= 0)
		return g->n;
	if (g->cap && (ns = capture_ns_of(g->cap, r->pid)) != 0) {
		*sure = true;
		return fangroup_of_ns(g, ns);
	}
	snprintf(path, sizeof(path), "/proc/%d/ns/mnt", (int)r->pid);
	if (stat(path, &st) < 0)
		return g->n;
	return fangroup_of_ns(g, st.st_ino);
}

/*
 * The member whose namespace a mount of a record's, gone before it could be read, was in; NULL if
 * that cannot be told; first and sure: fangroup_of_pid() of the record. The only member's, unless
 * one ever left; else, where the capture saw each mount call of the record's process that may be
 * behind it made in one namespace, that one's, unless a mount there may have been shared since
 * it was marked (fangroup_ops.spreads): the mount may be a copy propagation made elsewhere.
 */
static struct fangroup_member *
fangroup_owner(struct fangroup *g, size_t first, bool sure)
{
	/* Unless one left: a record of its namespace may have been on its way as it did. */
	if (g->n == 1 && !g->left)
		return g->m[0];
	if (!sure || first == g->n || g->m[first]->ops->spreads(g->m[first]->ctx))
		return NULL;
	return g->m[first];
}

static void fangroup_more(struct fangroup *g, bool wait);

/*
 * Route an attach (or a move of a mount no cache holds) to the member whose namespace has the
 * mount, first and sure as fangroup_of_pid() says: true if one took it; false if none did, or if
 * it is found gone meanwhile and no cache holds it.
 */
static bool
fangroup_place(struct fangroup *g, const struct fan_rec *r, size_t first, bool sure)
{
	size_t k, i;

	if (first < g->n && fangroup_give(g->m[first], r)) {
		g->last = first;
		return true;
	}
	/*
	 * Most often it went after the read that brought its attach (a mount and its unmount made
	 * in a row): its detach is queued by now, and is no reason to look in every namespace.
	 */
	fangroup_more(g, false);
	if (ids_has(&g->gone, r->mnt_id))
		return fangroup_give_held(g, r);
	/*
	 * Made where it was just looked for, and nothing propagates from there: it went so late
	 * that its detach was not queued yet (statmount(2) fails as the unmount sends it), or it is
	 * an automount in another namespace than its walker's. Its detach is awaited a moment.
	 */
	if (first < g->n && fangroup_owner(g, first, sure) == g->m[first]) {
		fangroup_more(g, true);
		if (ids_has(&g->gone, r->mnt_id))
			return fangroup_give_held(g, r);
	}
	for (k = 0; k < g->n; k++) {
		i = (g->last + k) % g->n;
		if (i != first && fangroup_give(g->m[i], r)) {
			g->last = i;
			return true;
		}
	}
	return false;
}

/* A mount attached and gone before a member could read it; first and sure as for its owner. */
static void
fangroup_transient(struct fangroup *g, const struct fan_rec *r, size_t first, bool sure)
{
	struct fangroup_member *m = fangroup_owner(g, first, sure);

	if (m && m->leaving)
		return;
	if (m == NULL) {
		DEBUG(DEBUG_GROUP, "mount %llu: gone before any namespace could read it",
		    (unsigned long long)r->mnt_id);
		mounttab_ids_push(&g->lost, r->mnt_id);
		return;
	}
	m->ops->transient(m->ctx, r->mnt_id);
	m->pending = true;
}

/* Every member loses what the queue held. */
static void
fangroup_overflow(struct fangroup *g)
{
	struct fan_rec r = { .mask = FAN_Q_OVERFLOW, .pidfd = -1 };
	size_t i;

	for (i = 0; i < g->n; i++)
		(void)fangroup_give(g->m[i], &r);
}

static void
fangroup_route(struct fangroup *g, const struct fan_rec *r)
{
	size_t first;
	bool taken = false, sure;

	if (r->mask & FAN_Q_OVERFLOW) {
		fangroup_overflow(g);
	} else if (r->has_id && fangroup_is_attach(r)) {
		first = fangroup_of_pid(g, r, &sure);
		/* Detached already: only a cache that had it can take it. */
		if (ids_has(&g->gone, r->mnt_id))
			taken = fangroup_give_held(g, r);
		else
			taken = fangroup_place(g, r, first, sure);
		if (!taken)
			fangroup_transient(g, r, first, sure);
	} else if (r->has_id) {
		taken = fangroup_give_held(g, r);
		/* A move of a mount no cache holds: placed as an attach. */
		if (!taken && (r->mask & FAN_MNT_ATTACH)) {
			first = fangroup_of_pid(g, r, &sure);
			taken = fangroup_place(g, r, first, sure);
		}
	}
	if (!taken && r->pidfd >= 0)
		close(r->pidfd);
}

static void
fangroup_collect(void *p, const struct fan_rec *r)
{
	struct fangroup *g = p;

	if (g->nrec == g->rec_cap) {
		g->rec_cap = g->rec_cap ? g->rec_cap * 2 : 128;
		g->rec = xreallocarray(g->rec, g->rec_cap, sizeof(*g->rec));
	}
	g->rec[g->nrec++] = *r;
}

/*
 * Records just read: the capture is read again before they are, so that the entry record of each
 * call behind one is in hand (fangroup_owner()).
 */
static void
fangroup_capture(struct fangroup *g)
{
	if (g->cap) {
		capture_reading(g->cap);
		capture_drain(g->cap);
	}
}

/* Decode the n bytes of buf after the records in hand; the detached mounts among them, noted. */
static void
fangroup_take_in(struct fangroup *g, const void *buf, size_t n)
{
	size_t i = g->nrec;

	if (fan_decode(buf, n, fangroup_collect, g) < 0)
		g->bad = true;
	for (; i < g->nrec; i++)
		if (g->rec[i].has_id && (g->rec[i].mask & MARK_MASK) == FAN_MNT_DETACH)
			mounttab_ids_push(&g->gone, g->rec[i].mnt_id);
	mounttab_ids_unique(&g->gone);
}

/*
 * Read what was queued since, after the records in hand (decoded: the buffer is free again), at
 * most MORE_READS times per read(2) of the loop; with wait, once something is queued or
 * GONE_WAIT_NS have passed. With pidfds, each holds at most FAN_PIDFD_BATCH more fds at once.
 */
static void
fangroup_more(struct fangroup *g, bool wait)
{
	struct pollfd p = { g->fd, POLLIN, 0 };
	const struct timespec gone_wait = { 0, GONE_WAIT_NS };
	ssize_t n;

	if (g->more >= MORE_READS)
		return;
	g->more++;
	while (wait && ppoll(&p, 1, &gone_wait, NULL) < 0 && errno == EINTR)
		;
	while ((n = read(g->fd, g->buf, g->read_size)) < 0 && errno == EINTR)
		;
	if (n <= 0)
		return;
	/* Their calls' entries in hand; the capture's read stays the one before (settle). */
	if (g->cap)
		capture_drain(g->cap);
	fangroup_take_in(g, g->buf, (size_t)n);
}

/* One read(2)'s records: the mounts it says are detached first, then each record in order. */
static int
fangroup_decode(void *ctx, const void *buf, size_t n)
{
	struct fangroup *g = ctx;
	struct fan_rec r;
	size_t i;

	g->nrec = 0;
	g->gone.n = 0;
	g->bad = false;
	g->more = 0;
	fangroup_capture(g);
	fangroup_take_in(g, buf, n);
	/* By index, on a copy: fangroup_more() may add records. */
	for (i = 0; i < g->nrec; i++) {
		r = g->rec[i];
		fangroup_route(g, &r);
	}
	if (g->bad)
		fangroup_overflow(g);
	return 0;
}

int
fangroup_read(struct fangroup *g)
{
	if (g->fd < 0 || g->pumping)
		return 0;
	g->lost.n = 0;
	if (g->cap)
		capture_begin_read(g->cap);
	if (source_read_ready(g->fd, g->buf, g->read_size, FAN_PIDFD_RECORD, fangroup_decode,
	    g) < 0) {
		g->error = errno;
		return -1;
	}
	/* The processes whose calls have all ended before this read: their records are read. */
	if (g->cap)
		capture_settle(g->cap);
	if (g->lost.n == 0)
		return 0;
	/* Each once: its attach and its detach may both have named it. */
	mounttab_ids_unique(&g->lost);
	g->unplaced(g->ctx, g->lost.v, g->lost.n);
	return 0;
}

int
fangroup_pump(struct fangroup *g)
{
	size_t i;
	int r = 0;

	if (g->error) {
		errno = g->error;
		return -1;
	}
	/* Under churn, a wake that read the queue would make others pending without end. */
	g->pumping = true;
	for (i = 0; i < g->n && r == 0; i++) {
		if (!g->m[i]->pending)
			continue;
		g->m[i]->pending = false;
		r = g->m[i]->ops->wake(g->m[i]->ctx);
	}
	g->pumping = false;
	return r;
}

void
fangroup_shut(struct fangroup *g)
{
	if (g->fd >= 0)
		close(g->fd);
	g->fd = -1;
}

void
fangroup_free(struct fangroup *g)
{
	fangroup_shut(g);
	free(g->m);
	free(g->rec);
	free(g->gone.v);
	free(g->lost.v);
	g->m = NULL;
	g->rec = NULL;
	g->gone.v = g->lost.v = NULL;
	g->n = g->nrec = 0;
}
