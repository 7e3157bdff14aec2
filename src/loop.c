#include <err.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>

#include "loop.h"

int
loop_run(struct loop *l)
{
	struct pollfd pfd[LOOP_MAX_SOURCES * SOURCE_MAX_FDS + 3];
	struct timespec left;
	size_t i, j, n, sig;
	int r, code;

	for (;;) {
		if (!stop_left(l->stop, &left))
			return EXIT_TIMEOUT;
		n = 0;
		for (i = 0; i < l->nsrc; i++)
			for (j = 0; j < l->src[i]->nfds; j++)
				pfd[n++] = l->src[i]->pfd[j];
		sig = n;
		pfd[n++] = (struct pollfd){ l->stop->sigfd, POLLIN, 0 };
		pfd[n++] = (struct pollfd){ l->out_fd, 0, 0 };	/* negative fds are ignored */
		pfd[n++] = (struct pollfd){ l->removal_fd, POLLIN, 0 };
		r = ppoll(pfd, n, l->stop->has_deadline ? &left : NULL, NULL);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			warn("poll");
			return EXIT_ERROR;
		}
		if (r == 0)
			continue;	/* the deadline check above ends the run */
		if ((pfd[sig].revents & POLLIN) && (code = stop_signal(l->stop)) > 0)
			return code;
		if (pfd[sig + 1].revents & (POLLERR | POLLHUP))
			return EXIT_SIGNAL + SIGPIPE;
		n = 0;
		for (i = 0; i < l->nsrc; i++) {
			/* A drain may clear the revents of another of its fds it has served. */
			for (j = 0; j < l->src[i]->nfds; j++, n++)
				l->src[i]->pfd[j].revents = pfd[n].revents;
			for (j = 0; j < l->src[i]->nfds; j++) {
				if (l->src[i]->pfd[j].revents == 0)
					continue;
				if (source_drain(l->src[i], j) < 0) {
					warn("%s", l->src[i]->backend->name);
					return EXIT_ERROR;
				}
			}
		}
		if (pfd[sig + 2].revents)
			l->on_removal(l->ctx);
		if ((code = l->after(l->ctx)) >= 0)
			return code;
	}
}
