#include <err.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "loop.h"

int
loop_signals(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0)
		return -1;
	/* A reader that goes away shows as EPIPE from write(2), handled there. */
	signal(SIGPIPE, SIG_IGN);
	return signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
}

struct timespec
loop_deadline(double seconds)
{
	struct timespec now, d;
	long long ns = (long long)(seconds * 1e9);

	clock_gettime(CLOCK_MONOTONIC, &now);
	d.tv_sec = now.tv_sec + (time_t)(ns / 1000000000LL);
	d.tv_nsec = now.tv_nsec + (long)(ns % 1000000000LL);
	if (d.tv_nsec >= 1000000000L) {
		d.tv_sec++;
		d.tv_nsec -= 1000000000L;
	}
	return d;
}

/* Time left until the deadline; false once it has passed. */
static bool
remaining(const struct timespec *deadline, struct timespec *left)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	left->tv_sec = deadline->tv_sec - now.tv_sec;
	left->tv_nsec = deadline->tv_nsec - now.tv_nsec;
	if (left->tv_nsec < 0) {
		left->tv_sec--;
		left->tv_nsec += 1000000000L;
	}
	return left->tv_sec >= 0;
}

int
loop_wait_output(int fd, int sigfd)
{
	struct pollfd pfd[2] = { { fd, POLLOUT, 0 }, { sigfd, POLLIN, 0 } };
	struct signalfd_siginfo si;

	for (;;) {
		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (pfd[1].revents & POLLIN) {
			while (read(sigfd, &si, sizeof(si)) < 0 && errno == EINTR)
				;
			return 1;
		}
		if (pfd[0].revents)
			return 0;	/* writable, or an error that write(2) will name */
	}
}

int
loop_run(struct loop *l)
{
	struct pollfd pfd[LOOP_MAX_SOURCES * SOURCE_MAX_FDS + 2];
	struct timespec left;
	size_t i, j, n, sig;
	int r, code;

	for (;;) {
		if (l->has_deadline && !remaining(&l->deadline, &left))
			return EXIT_TIMEOUT;
		n = 0;
		for (i = 0; i < l->nsrc; i++)
			for (j = 0; j < l->src[i]->nfds; j++)
				pfd[n++] = l->src[i]->pfd[j];
		sig = n;
		pfd[n++] = (struct pollfd){ l->sigfd, POLLIN, 0 };
		pfd[n++] = (struct pollfd){ l->out_fd, 0, 0 };	/* negative fds are ignored */
		r = ppoll(pfd, n, l->has_deadline ? &left : NULL, NULL);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			warn("poll");
			return EXIT_ERROR;
		}
		if (r == 0)
			continue;	/* the deadline check above ends the run */
		if (pfd[sig].revents & POLLIN)
			return EXIT_OK;
		if (pfd[sig + 1].revents & (POLLERR | POLLHUP))
			return EXIT_OK;
		n = 0;
		for (i = 0; i < l->nsrc; i++) {
			for (j = 0; j < l->src[i]->nfds; j++, n++) {
				if (pfd[n].revents == 0)
					continue;
				if (l->src[i]->be->ops->drain(l->src[i], j) < 0) {
					warn("%s", l->src[i]->be->name);
					return EXIT_ERROR;
				}
			}
		}
		if ((code = l->after(l->ctx)) >= 0)
			return code;
	}
}
