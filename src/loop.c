#include <err.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>

#include "loop.h"
#include "xalloc.h"

#define LOOP_OWN_FDS	4	/* the signals, out_fd, removal_fd, tick_fd */

/* Fill pfd with every source's fds, then the loop's own; how many sources' fds come first. */
static size_t
loop_fill(const struct loop *l, struct pollfd *pfd)
{
	size_t i, j, n = 0;

	for (i = 0; i < l->nsrc; i++)
		for (j = 0; j < l->src[i]->nfds; j++)
			pfd[n++] = l->src[i]->pfd[j];
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
	size_t i, j, n = 0;

	for (i = 0; i < l->nsrc; i++) {
		/* A drain may clear the revents of another of its fds it has served. */
		for (j = 0; j < l->src[i]->nfds; j++, n++)
			l->src[i]->pfd[j].revents = pfd[n].revents;
		for (j = 0; j < l->src[i]->nfds; j++) {
			if (l->src[i]->pfd[j].revents == 0)
				continue;
			if (source_drain(l->src[i], j) < 0) {
				warn("%s", l->src[i]->backend->name);
				return -1;
			}
		}
	}
	return 0;
}

int
loop_run(struct loop *l)
{
	struct pollfd *pfd = NULL;
	struct timespec left;
	size_t sig, cap = 0;
	int r, code = -1;

	while (code < 0) {
		if (!stop_left(l->stop, &left)) {
			code = EXIT_TIMEOUT;
			break;
		}
		if (cap < l->nsrc * SOURCE_MAX_FDS + LOOP_OWN_FDS) {
			cap = l->nsrc * SOURCE_MAX_FDS + LOOP_OWN_FDS;
			pfd = xreallocarray(pfd, cap, sizeof(*pfd));
		}
		sig = loop_fill(l, pfd);
		r = ppoll(pfd, sig + LOOP_OWN_FDS, l->stop->has_deadline ? &left : NULL, NULL);
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
	free(pfd);
	return code;
}
