#include <err.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "loop.h"
#include "xalloc.h"

#define LOOP_OWN_FDS	4	/* the signals, out_fd, removal_fd, tick_fd */

/*
 * The loop waits in an epoll set that holds the fds of pfd (its slots: every source's, then its
 * own), kept in step with them: a wait costs the same however many fds there are, where ppoll(2)
 * queued on every one of them at each wait. An fd may be in several slots (the capture's, shared
 * by the sources of -N): it is registered once, for the events of all of them.
 * Slots polled for POLLPRI (the mountinfo signal) stay out of the set: their poll consumes the
 * signal, and epoll_ctl(2) polls an fd as it adds it, so a signal raised just before would be
 * consumed there and never reported. While one of them is live, the wait is a ppoll of them and
 * of the set's fd.
 */
struct loop_set {
	int epfd;
	struct pollfd *reg;	/* each slot as last registered */
	size_t nreg, cap;
	struct epoll_event *ev;
	struct pollfd *pri;	/* the set's fd, then the live POLLPRI slots of this wait */
};

/* Whether slot p is left out of the set (see above). */
static bool
loop_polled(const struct pollfd *p)
{
	return p->events & POLLPRI;
}

/* Register fd for the events of pfd's slots that hold it, or drop it where none does. */
static void
loop_register(struct loop_set *set, const struct pollfd *pfd, size_t n, int fd)
{
	struct epoll_event e = { .data.fd = fd };
	short want = 0;
	bool held = false;
	size_t i;

	for (i = 0; i < n; i++)
		if (pfd[i].fd == fd && !loop_polled(&pfd[i])) {
			want |= pfd[i].events;
			held = true;
		}
	if (!held) {
		/* It may be closed already, which dropped it from the set. */
		(void)epoll_ctl(set->epfd, EPOLL_CTL_DEL, fd, NULL);
		return;
	}
	e.events = (want & POLLIN ? EPOLLIN : 0) | (want & POLLOUT ? EPOLLOUT : 0);
	/* A file closed, and another opened under its number, is not in the set: add it. */
	if (epoll_ctl(set->epfd, EPOLL_CTL_MOD, fd, &e) < 0 && errno == ENOENT)
		(void)epoll_ctl(set->epfd, EPOLL_CTL_ADD, fd, &e);
}

/*
 * Bring the set in step with pfd (n slots): the fds of the slots that changed since the last
 * call, or all of them where the sources came or went (resync), when the set is made anew. A
 * slot that kept its fd and events is not looked at: a source that closes an fd of its pfd
 * sets the slot to -1 or to another open fd, which shows.
 */
static int
loop_sync(struct loop_set *set, const struct pollfd *pfd, size_t n, bool resync)
{
	size_t i;

	if (resync || set->epfd < 0 || n != set->nreg) {
		if (set->epfd >= 0)
			close(set->epfd);
		if ((set->epfd = epoll_create1(EPOLL_CLOEXEC)) < 0)
			return -1;
		if (set->cap < n) {
			set->cap = n;
			set->reg = xreallocarray(set->reg, n, sizeof(*set->reg));
			set->ev = xreallocarray(set->ev, n, sizeof(*set->ev));
			set->pri = xreallocarray(set->pri, n + 1, sizeof(*set->pri));
		}
		for (i = 0; i < n; i++)
			set->reg[i] = (struct pollfd){ -1, 0, 0 };
		set->nreg = n;
	}
	for (i = 0; i < n; i++) {
		if (pfd[i].fd == set->reg[i].fd && pfd[i].events == set->reg[i].events)
			continue;
		if (set->reg[i].fd >= 0 && !loop_polled(&set->reg[i]))
			loop_register(set, pfd, n, set->reg[i].fd);
		if (pfd[i].fd >= 0 && !loop_polled(&pfd[i]))
			loop_register(set, pfd, n, pfd[i].fd);
		set->reg[i] = pfd[i];
	}
	return 0;
}

/* Set the revents of every slot of pfd (n) whose fd the set's k events name as ready. */
static void
loop_dispatch(const struct loop_set *set, int k, struct pollfd *pfd, size_t n)
{
	uint32_t e;
	short got;
	size_t i;

	while (k-- > 0) {
		e = set->ev[k].events;
		got = (e & EPOLLIN ? POLLIN : 0) | (e & EPOLLOUT ? POLLOUT : 0) |
		    (e & EPOLLERR ? POLLERR : 0) | (e & EPOLLHUP ? POLLHUP : 0);
		for (i = 0; i < n; i++)
			if (pfd[i].fd == set->ev[k].data.fd && !loop_polled(&pfd[i]))
				pfd[i].revents = got & (pfd[i].events | POLLERR | POLLHUP);
	}
}

/* epoll_pwait2(2) (Linux 5.11), or epoll_wait(2) with the deadline rounded up to milliseconds. */
static int
loop_epoll_wait(struct loop_set *set, int n, const struct timespec *left)
{
	static bool old_kernel;
	long long ms;
	int k;

	if (!old_kernel) {
		k = epoll_pwait2(set->epfd, set->ev, n, left, NULL);
		if (k >= 0 || errno != ENOSYS)
			return k;
		old_kernel = true;
	}
	ms = left ? left->tv_sec * 1000LL + (left->tv_nsec + 999999) / 1000000 : -1;
	return epoll_wait(set->epfd, set->ev, n, ms > INT_MAX ? INT_MAX : (int)ms);
}

/*
 * Wait as ppoll(2) on pfd (n slots) would, and set the revents of every slot that is ready (an fd
 * in several slots: each, for the events it asked for); how many are ready, 0 at the deadline,
 * -1 with errno set.
 */
static int
loop_wait(struct loop_set *set, struct pollfd *pfd, size_t n, const struct timespec *left)
{
	size_t i, np = 1;
	int r, k;

	for (i = 0; i < n; i++) {
		pfd[i].revents = 0;
		if (pfd[i].fd >= 0 && loop_polled(&pfd[i]))
			set->pri[np++] = pfd[i];
	}
	if (np == 1) {
		k = loop_epoll_wait(set, (int)n, left);
		if (k > 0)
			loop_dispatch(set, k, pfd, n);
		return k;
	}
	set->pri[0] = (struct pollfd){ set->epfd, POLLIN, 0 };
	if ((r = ppoll(set->pri, np, left, NULL)) <= 0)
		return r;
	for (i = 0, np = 1; i < n; i++)
		if (pfd[i].fd >= 0 && loop_polled(&pfd[i]))
			pfd[i].revents = set->pri[np++].revents;
	if (set->pri[0].revents && (k = epoll_wait(set->epfd, set->ev, (int)n, 0)) > 0)
		loop_dispatch(set, k, pfd, n);
	return r;
}

/* Fill pfd with every source's fds, then the loop's own; how many sources' fds come first. */
static size_t
loop_fill(const struct loop *l, struct pollfd *pfd)
{
	size_t i, j, n = 0;

	for (i = 0; i < l->set->n; i++)
		for (j = 0; j < l->set->v[i]->nfds; j++)
			pfd[n++] = l->set->v[i]->pfd[j];
	pfd[n] = (struct pollfd){ l->stop->sigfd, POLLIN, 0 };
	pfd[n + 1] = (struct pollfd){ l->out_fd, 0, 0 };	/* negative fds are ignored */
	pfd[n + 2] = (struct pollfd){ l->removal_fd, POLLIN, 0 };
	pfd[n + 3] = (struct pollfd){ l->tick_fd, POLLIN, 0 };
	return n;
}

/* Drain every source with an fd ready; -1 on a system error (reported). */
static int
loop_drain(struct loop *l, const struct pollfd *pfd)
{
	struct source *src;
	size_t i, j, n = 0;

	for (i = 0; i < l->set->n; i++) {
		src = l->set->v[i];
		/* A drain may clear the revents of another of its fds it has served. */
		for (j = 0; j < src->nfds; j++, n++)
			src->pfd[j].revents = pfd[n].revents;
		for (j = 0; j < src->nfds; j++) {
			if (src->pfd[j].revents == 0)
				continue;
			if (source_drain(src, j) < 0) {
				warn("%s", src->backend->name);
				return -1;
			}
		}
	}
	return 0;
}

int
loop_run(struct loop *l)
{
	struct loop_set set = { .epfd = -1 };
	struct pollfd *pfd = NULL;
	struct timespec left;
	size_t sig, cap = 0;
	unsigned long gen = l->set->gen - 1;
	int r, code = -1;

	while (code < 0) {
		if (!stop_left(l->stop, &left)) {
			code = EXIT_TIMEOUT;
			break;
		}
		if (cap < l->set->n * SOURCE_MAX_FDS + LOOP_OWN_FDS) {
			cap = l->set->n * SOURCE_MAX_FDS + LOOP_OWN_FDS;
			pfd = xreallocarray(pfd, cap, sizeof(*pfd));
		}
		sig = loop_fill(l, pfd);
		/* Where sources came or went, every fd is registered anew. */
		if (loop_sync(&set, pfd, sig + LOOP_OWN_FDS, gen != l->set->gen) < 0) {
			warn("epoll");
			code = EXIT_ERROR;
			break;
		}
		gen = l->set->gen;
		r = loop_wait(&set, pfd, sig + LOOP_OWN_FDS, l->stop->has_deadline ? &left : NULL);
		if (r < 0 && errno != EINTR) {
			warn("poll");
			code = EXIT_ERROR;
		}
		if (r <= 0)
			continue;	/* the deadline check above ends the run */
		if ((pfd[sig].revents & POLLIN) && (code = stop_signal(l->stop)) > 0)
			break;
		if (pfd[sig + 1].revents & (POLLERR | POLLHUP)) {
			code = EXIT_SIGNAL + SIGPIPE;
			break;
		}
		if (loop_drain(l, pfd) < 0) {
			code = EXIT_ERROR;
			break;
		}
		if (pfd[sig + 2].revents)
			l->on_removal(l->ctx);
		if (pfd[sig + 3].revents)
			l->on_tick(l->ctx);
		code = l->after(l->ctx);
	}
	if (set.epfd >= 0)
		close(set.epfd);
	free(set.reg);
	free(set.ev);
	free(set.pri);
	free(pfd);
	return code;
}
