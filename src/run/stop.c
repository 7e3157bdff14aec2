/*
 * The signals that end a run are blocked and read from a signalfd, so that
 * every wait of the run, in the loop or for a slow reader of the output, can
 * poll them together with the --timeout deadline: nothing else may block.
 */
#include <errno.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "stop.h"

int
stop_open(struct stop *s)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	s->has_deadline = false;
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0)
		return -1;
	/* A reader that goes away shows as EPIPE from write(2). */
	signal(SIGPIPE, SIG_IGN);
	s->sigfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	return s->sigfd < 0 ? -1 : 0;
}

void
stop_set_timeout(struct stop *s, double seconds)
{
	long long ns = (long long)(seconds * 1e9);

	clock_gettime(CLOCK_MONOTONIC, &s->deadline);
	s->deadline.tv_sec += (time_t)(ns / 1000000000LL);
	s->deadline.tv_nsec += (long)(ns % 1000000000LL);
	if (s->deadline.tv_nsec >= 1000000000L) {
		s->deadline.tv_sec++;
		s->deadline.tv_nsec -= 1000000000L;
	}
	s->has_deadline = true;
}

bool
stop_left(const struct stop *s, struct timespec *left)
{
	struct timespec now;

	if (!s->has_deadline)
		return true;
	clock_gettime(CLOCK_MONOTONIC, &now);
	left->tv_sec = s->deadline.tv_sec - now.tv_sec;
	left->tv_nsec = s->deadline.tv_nsec - now.tv_nsec;
	if (left->tv_nsec < 0) {
		left->tv_sec--;
		left->tv_nsec += 1000000000L;
	}
	return left->tv_sec >= 0;
}

int
stop_signal(const struct stop *s)
{
	struct signalfd_siginfo si;
	ssize_t n;

	while ((n = read(s->sigfd, &si, sizeof(si))) < 0 && errno == EINTR)
		;
	return n == (ssize_t)sizeof(si) ? EXIT_SIGNAL + (int)si.ssi_signo : 0;
}

int
stop_wait(const struct stop *s, int fd, short events, int ms)
{
	struct pollfd pfd[2] = { { s->sigfd, POLLIN, 0 }, { fd, events, 0 } };
	struct timespec left, limit = { ms / 1000, (long)(ms % 1000) * 1000000L };
	bool capped;
	int r, sig;

	for (;;) {
		if (!stop_left(s, &left))
			return EXIT_TIMEOUT;
		capped = ms >= 0 && (!s->has_deadline || left.tv_sec > limit.tv_sec ||
		    (left.tv_sec == limit.tv_sec && left.tv_nsec > limit.tv_nsec));
		r = ppoll(pfd, 2, capped ? &limit : s->has_deadline ? &left : NULL, NULL);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if ((pfd[0].revents & POLLIN) && (sig = stop_signal(s)) > 0)
			return sig;
		if (pfd[1].revents)
			return 0;	/* ready, or an error the next call on fd names */
		if (r == 0 && capped)
			return 0;
	}
}

void
stop_close(struct stop *s)
{
	if (s->sigfd >= 0)
		close(s->sigfd);
	s->sigfd = -1;
}
