#include <err.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>

#include "loop.h"

static int
loop_on_signal(void *ctx, short revents)
{
	struct loop *l = ctx;
	int code = stop_signal(l->stop);

	if (code > 0) {
		l->code = code;
		ioloop_break(l->io);
	}
	return 0;
}

static int
loop_on_out(void *ctx, short revents)
{
	struct loop *l = ctx;

	if (revents & (POLLERR | POLLHUP)) {
		l->code = EXIT_SIGNAL + SIGPIPE;
		ioloop_break(l->io);
	}
	return 0;
}

static int
loop_on_removal(void *ctx, short revents)
{
	struct loop *l = ctx;

	l->on_removal(l->ctx);
	return 0;
}

static int
loop_on_tick(void *ctx, short revents)
{
	struct loop *l = ctx;

	l->on_tick(l->ctx);
	return 0;
}

int
loop_run(struct loop *l)
{
	struct ioloop_io *own[] = {
		ioloop_add(l->io, l->stop->sigfd, POLLIN, LOOP_PRIO_SIGNAL, loop_on_signal, l),
		/* Polled for POLLERR and POLLHUP alone; negative fds are skipped. */
		ioloop_add(l->io, l->out_fd, 0, LOOP_PRIO_OUT, loop_on_out, l),
		ioloop_add(l->io, l->removal_fd, POLLIN, LOOP_PRIO_REMOVAL, loop_on_removal, l),
		ioloop_add(l->io, l->tick_fd, POLLIN, LOOP_PRIO_TICK, loop_on_tick, l),
	};
	struct timespec left;
	size_t i;
	int r;

	l->code = -1;
	while (l->code < 0) {
		if (!stop_left(l->stop, &left)) {
			l->code = EXIT_TIMEOUT;
			break;
		}
		r = ioloop_wait(l->io, l->stop->has_deadline ? &left : NULL);
		if (r == IOLOOP_FAILED || (r < 0 && errno != EINTR)) {
			if (r != IOLOOP_FAILED)
				warn("poll");
			l->code = EXIT_ERROR;
		}
		/* A wake-up that called nothing: the deadline check above ends the run. */
		if (r <= 0 || l->code >= 0)
			continue;
		l->code = l->after(l->ctx);
	}
	for (i = 0; i < sizeof(own) / sizeof(own[0]); i++)
		ioloop_remove(own[i]);
	return l->code;
}
