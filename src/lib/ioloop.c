#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "ioloop.h"
#include "xalloc.h"

/*
 * The handles wait in an epoll set that holds their fds, each registered once for the events of
 * all its handles and changed only when a handle is added, set or removed: a wait costs the same
 * however many fds there are, where ppoll(2) queued on every one of them at each wait.
 * Handles polled for POLLPRI (the mountinfo signal) stay out of the set: their poll consumes the
 * signal, and epoll_ctl(2) polls an fd as it adds it, so a signal raised just before would be
 * consumed there and never reported. While one of them is live, the wait is a ppoll of them and of
 * the set's fd.
 */
struct ioloop_io {
	struct ioloop *loop;
	int fd;			/* polled, or -1: paused */
	short events;
	int prio;
	unsigned long seq;	/* the order of addition */
	ioloop_fn *fn;
	void *ctx;
	short revents;		/* ready in this wait, not yet called */
	struct ioloop_io *next_on_fd;	/* the other handles of fd */
	struct ioloop_io *prev, *next;	/* every handle of the loop */
};

struct ioloop {
	int epfd;
	struct ioloop_io **byfd;	/* by fd number: its handles, a list */
	size_t nbyfd;
	struct ioloop_io *all;
	size_t nall;
	size_t npri;		/* POLLPRI handles with an fd: the wait ppolls them */
	unsigned long seq;
	struct epoll_event *ev;
	struct pollfd *pfd;	/* the set's fd, then the live POLLPRI handles' */
	struct ioloop_io **ready;	/* of this wait, then the POLLPRI handles polled */
	size_t cap;		/* of ev, pfd and ready: nall + 1 at least */
	struct ioloop_io *removed;	/* in this wait: freed at its end */
	bool waiting, stop;
};

/* Whether io stays out of the epoll set (see above). */
static bool
ioloop_polled(const struct ioloop_io *io)
{
	return io->events & POLLPRI;
}

struct ioloop *
ioloop_new(void)
{
	struct ioloop *l = xcalloc(1, sizeof(*l));

	if ((l->epfd = epoll_create1(EPOLL_CLOEXEC)) < 0) {
		free(l);
		return NULL;
	}
	return l;
}

void
ioloop_free(struct ioloop *l)
{
	struct ioloop_io *io;

	if (l == NULL)
		return;
	while ((io = l->all) != NULL) {
		l->all = io->next;
		free(io);
	}
	close(l->epfd);
	free(l->byfd);
	free(l->ev);
	free(l->pfd);
	free(l->ready);
	free(l);
}

/* Register fd for the events of its handles in the set, or drop it where none asks. */
static void
ioloop_register(struct ioloop *l, int fd)
{
	struct epoll_event e = { .data.fd = fd };
	struct ioloop_io *io;
	short want = 0;
	bool held = false;

	for (io = l->byfd[fd]; io; io = io->next_on_fd)
		if (!ioloop_polled(io)) {
			want |= io->events;
			held = true;
		}
	if (!held) {
		/* It may be closed already, which dropped it from the set. */
		(void)epoll_ctl(l->epfd, EPOLL_CTL_DEL, fd, NULL);
		return;
	}
	e.events = (want & POLLIN ? EPOLLIN : 0) | (want & POLLOUT ? EPOLLOUT : 0);
	/* A file closed, and another opened under its number, is not in the set: add it. */
	if (epoll_ctl(l->epfd, EPOLL_CTL_MOD, fd, &e) < 0 && errno == ENOENT)
		(void)epoll_ctl(l->epfd, EPOLL_CTL_ADD, fd, &e);
}

/* Put io on its fd's list and register the fd again. */
static void
ioloop_link(struct ioloop_io *io)
{
	struct ioloop *l = io->loop;
	size_t n;

	if (io->fd < 0)
		return;
	l->npri += ioloop_polled(io);
	if ((size_t)io->fd >= l->nbyfd) {
		n = l->nbyfd;
		l->nbyfd = (size_t)io->fd + 16;
		l->byfd = xreallocarray(l->byfd, l->nbyfd, sizeof(*l->byfd));
		while (n < l->nbyfd)
			l->byfd[n++] = NULL;
	}
	io->next_on_fd = l->byfd[io->fd];
	l->byfd[io->fd] = io;
	ioloop_register(l, io->fd);
}

/* Take io off its fd's list and register the fd again. */
static void
ioloop_unlink(struct ioloop_io *io)
{
	struct ioloop_io **p;

	if (io->fd < 0)
		return;
	io->loop->npri -= ioloop_polled(io);
	for (p = &io->loop->byfd[io->fd]; *p != io; p = &(*p)->next_on_fd)
		;
	*p = io->next_on_fd;
	ioloop_register(io->loop, io->fd);
}

struct ioloop_io *
ioloop_add(struct ioloop *l, int fd, short events, int prio, ioloop_fn *fn, void *ctx)
{
	struct ioloop_io *io = xmalloc(sizeof(*io));

	*io = (struct ioloop_io){ .loop = l, .fd = fd, .events = events, .prio = prio,
	    .seq = l->seq++, .fn = fn, .ctx = ctx, .next = l->all };
	if (l->all)
		l->all->prev = io;
	l->all = io;
	if (++l->nall + 1 > l->cap) {
		l->cap = 2 * (l->nall + 1);
		l->ev = xreallocarray(l->ev, l->cap, sizeof(*l->ev));
		l->pfd = xreallocarray(l->pfd, l->cap, sizeof(*l->pfd));
		l->ready = xreallocarray(l->ready, l->cap, sizeof(*l->ready));
	}
	ioloop_link(io);
	return io;
}

void
ioloop_set(struct ioloop_io *io, int fd, short events)
{
	if (io->fd == fd && io->events == events)
		return;
	ioloop_unlink(io);
	io->fd = fd;
	io->events = events;
	io->revents = 0;	/* what was ready was another fd's */
	ioloop_link(io);
}

void
ioloop_served(struct ioloop_io *io)
{
	io->revents = 0;
}

void
ioloop_remove(struct ioloop_io *io)
{
	struct ioloop *l;

	if (io == NULL)
		return;
	l = io->loop;
	ioloop_unlink(io);
	if (io->prev)
		io->prev->next = io->next;
	else
		l->all = io->next;
	if (io->next)
		io->next->prev = io->prev;
	l->nall--;
	io->fn = NULL;
	io->revents = 0;
	if (!l->waiting) {
		free(io);
		return;
	}
	/* The wait may hold it among the ready: freed when it ends. */
	io->next = l->removed;
	l->removed = io;
}

void
ioloop_break(struct ioloop *l)
{
	l->stop = true;
}

/* epoll_pwait2(2) (Linux 5.11), or epoll_wait(2) with the deadline rounded up to milliseconds. */
static int
ioloop_epoll_wait(struct ioloop *l, const struct timespec *left)
{
	static bool old_kernel;
	long long ms;
	int k;

	if (!old_kernel) {
		k = epoll_pwait2(l->epfd, l->ev, (int)l->cap, left, NULL);
		if (k >= 0 || errno != ENOSYS)
			return k;
		old_kernel = true;
	}
	ms = left ? left->tv_sec * 1000LL + (left->tv_nsec + 999999) / 1000000 : -1;
	return epoll_wait(l->epfd, l->ev, (int)l->cap, ms > INT_MAX ? INT_MAX : (int)ms);
}

/* Mark ready each handle of the fds the set's k events name, for the events it asked for. */
static size_t
ioloop_mark(struct ioloop *l, int k, size_t n)
{
	struct ioloop_io *io;
	uint32_t e;
	short got;

	while (k-- > 0) {
		e = l->ev[k].events;
		got = (e & EPOLLIN ? POLLIN : 0) | (e & EPOLLOUT ? POLLOUT : 0) |
		    (e & EPOLLERR ? POLLERR : 0) | (e & EPOLLHUP ? POLLHUP : 0);
		for (io = l->byfd[l->ev[k].data.fd]; io; io = io->next_on_fd) {
			if (ioloop_polled(io))
				continue;
			io->revents = got & (io->events | POLLERR | POLLHUP);
			if (io->revents)
				l->ready[n++] = io;
		}
	}
	return n;
}

/*
 * Wait for the set and the POLLPRI handles, and gather in l->ready the handles that are ready: how
 * many, 0 at the deadline, -1 with errno set.
 */
static int
ioloop_gather(struct ioloop *l, const struct timespec *left)
{
	struct ioloop_io *io;
	size_t i, np = 1, n = 0;
	int r, k;

	for (io = l->npri ? l->all : NULL; io; io = io->next)
		if (io->fd >= 0 && ioloop_polled(io)) {
			l->ready[np - 1] = io;
			l->pfd[np++] = (struct pollfd){ io->fd, io->events, 0 };
		}
	if (np == 1) {
		if ((k = ioloop_epoll_wait(l, left)) <= 0)
			return k;
		return (int)ioloop_mark(l, k, 0);
	}
	l->pfd[0] = (struct pollfd){ l->epfd, POLLIN, 0 };
	if ((r = ppoll(l->pfd, np, left, NULL)) <= 0)
		return r;
	/* The POLLPRI handles first, in l->ready's first slots as they were polled. */
	for (i = 1; i < np; i++)
		if ((l->ready[i - 1]->revents = l->pfd[i].revents) != 0)
			l->ready[n++] = l->ready[i - 1];
	if (l->pfd[0].revents && (k = epoll_wait(l->epfd, l->ev, (int)l->cap, 0)) > 0)
		n = ioloop_mark(l, k, n);
	return (int)n;
}

/* Whether x is called before y: by priority, then in the order of addition. */
static bool
ioloop_before(const struct ioloop_io *x, const struct ioloop_io *y)
{
	return x->prio != y->prio ? x->prio < y->prio : x->seq < y->seq;
}

/* Sort the n ready handles (a few: an insertion sort). */
static void
ioloop_order(struct ioloop_io **v, size_t n)
{
	struct ioloop_io *x;
	size_t i, j;

	for (i = 1; i < n; i++) {
		x = v[i];
		for (j = i; j > 0 && ioloop_before(x, v[j - 1]); j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

int
ioloop_wait(struct ioloop *l, const struct timespec *left)
{
	struct ioloop_io *io;
	size_t i;
	short got;
	int n, called = 0;

	if ((n = ioloop_gather(l, left)) <= 0)
		return n;
	ioloop_order(l->ready, (size_t)n);
	l->waiting = true;
	l->stop = false;
	for (i = 0; i < (size_t)n && !l->stop; i++) {
		io = l->ready[i];
		/* Removed, served by another's call, or set to another fd meanwhile. */
		if (io->revents == 0 || io->fn == NULL)
			continue;
		got = io->revents;
		io->revents = 0;
		called++;
		if (io->fn(io->ctx, got) < 0) {
			called = IOLOOP_FAILED;
			break;
		}
	}
	for (; i < (size_t)n; i++)
		l->ready[i]->revents = 0;
	l->waiting = false;
	while ((io = l->removed) != NULL) {
		l->removed = io->next;
		free(io);
	}
	return called;
}
