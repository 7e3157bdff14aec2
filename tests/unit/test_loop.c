/*
 * The run's loop (loop.c) with pipes, its sources in a set attached to an ioloop: it drains the
 * source whose fd is ready, each slot of an fd shared by two sources, none of a slot paused (fd
 * -1), sources added and removed between wake-ups, and ends at a signal, the deadline, its reader
 * gone or after()'s code.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "loop.h"
#include "source.h"
#include "sourceset.h"
#include "unit.h"

#define NSRC	3

struct fake {
	int drains[SOURCE_MAX_FDS];	/* by slot */
};

static struct source src[NSRC];
static struct fake fakes[NSRC];
static int pipes[NSRC][2];

static int
fake_drain(struct source *s, size_t i)
{
	struct fake *f = s->priv;
	char buf[64];

	f->drains[i]++;
	/* Consume what is there (a shared fd: the first of its slots to be drained takes it). */
	while (read(s->io[i].fd, buf, sizeof(buf)) > 0)
		;
	return 0;
}

static const struct source_ops fake_ops = { .drain = fake_drain };
static const struct backend fake_backend = { .name = "fake", .ops = &fake_ops };

/* after(): a script of what to do after wake-up number n. */
struct script {
	struct sourceset *set;
	int wakes;
	int (*step)(struct script *sc);
};

static int
after(void *ctx)
{
	struct script *sc = ctx;

	sc->wakes++;
	return sc->step(sc);
}

/* Every source out of the set, then sources 0 and 1 in it, each polling its pipe in slot 0. */
static void
reset(struct sourceset *set)
{
	int i, j;

	for (i = 0; i < NSRC; i++) {
		sourceset_remove(set, &src[i]);
		src[i] = (struct source){ .backend = &fake_backend, .priv = &fakes[i] };
		fakes[i] = (struct fake){ { 0 } };
		for (j = 0; j < SOURCE_MAX_FDS; j++)
			src[i].io[j] = (struct source_io){ &src[i], -1, POLLIN, NULL };
		src[i].io[0].fd = pipes[i][0];
	}
	sourceset_add(set, &src[0]);
	sourceset_add(set, &src[1]);
}

/* Step: end at the first wake-up. */
static int
end_now(struct script *sc)
{
	return 42;
}

/* Step: pause source 1's fd, write to it and to source 0; end at the second wake-up. */
static int
pause_then(struct script *sc)
{
	if (sc->wakes == 1) {
		source_poll_fd(&src[1], 0, -1);
		(void)!write(pipes[1][1], "x", 1);
		(void)!write(pipes[0][1], "x", 1);
		return -1;
	}
	return 7;
}

/* Step: add source 2 (readable already) at the first wake-up, remove source 0 and end later. */
static int
add_then_remove(struct script *sc)
{
	if (sc->wakes == 1) {
		sourceset_add(sc->set, &src[2]);
		sourceset_remove(sc->set, &src[0]);
		(void)!write(pipes[0][1], "x", 1);
		return -1;
	}
	return fakes[2].drains[0] > 0 ? 9 : -1;
}

static int
never(struct script *sc)
{
	return -1;
}

int
main(void)
{
	struct sourceset set = { .loop = ioloop_new() };
	struct stop stop;
	struct script sc;
	struct loop l;
	int i, r, out[2];

	for (i = 0; i < NSRC; i++)
		if (pipe2(pipes[i], O_NONBLOCK | O_CLOEXEC) < 0)
			return 2;
	if (set.loop == NULL || stop_open(&stop) < 0)
		return 2;

	/* The ready source is drained, the other not, and after()'s code ends the run. */
	reset(&set);
	sc = (struct script){ &set, 0, end_now };
	l = (struct loop){ .io = set.loop, .stop = &stop, .out_fd = -1, .removal_fd = -1,
	    .tick_fd = -1, .after = after, .ctx = &sc };
	(void)!write(pipes[1][1], "x", 1);
	r = loop_run(&l);
	CHECK(r == 42, "after()'s code: %d", r);
	CHECK(fakes[1].drains[0] == 1 && fakes[0].drains[0] == 0, "drained %d and %d",
	    fakes[0].drains[0], fakes[1].drains[0]);

	/* An fd in two slots (the capture's, shared by -N's sources): each slot is drained. */
	reset(&set);
	source_poll_fd(&src[1], 0, pipes[0][0]);
	sc = (struct script){ &set, 0, end_now };
	(void)!write(pipes[0][1], "x", 1);
	r = loop_run(&l);
	CHECK(r == 42 && fakes[0].drains[0] == 1 && fakes[1].drains[0] == 1,
	    "shared fd: %d %d", fakes[0].drains[0], fakes[1].drains[0]);

	/* A slot paused (fd -1) is not drained, though its pipe is readable. */
	reset(&set);
	sc = (struct script){ &set, 0, pause_then };
	(void)!write(pipes[0][1], "x", 1);
	r = loop_run(&l);
	CHECK(r == 7 && fakes[1].drains[0] == 0 && fakes[0].drains[0] == 2,
	    "paused: %d, drains %d %d", r, fakes[0].drains[0], fakes[1].drains[0]);
	{
		char buf[8];

		while (read(pipes[1][0], buf, sizeof(buf)) > 0)
			;
	}

	/* Sources added and removed between wake-ups: the new one polled, the gone one not. */
	reset(&set);
	sc = (struct script){ &set, 0, add_then_remove };
	(void)!write(pipes[2][1], "x", 1);
	(void)!write(pipes[1][1], "x", 1);
	r = loop_run(&l);
	CHECK(r == 9 && fakes[2].drains[0] == 1 && fakes[0].drains[0] == 0,
	    "added and removed: %d, drains %d %d", r, fakes[0].drains[0], fakes[2].drains[0]);
	CHECK(set.n == 2 && set.v[0] == &src[1] && set.v[1] == &src[2], "the set in order");

	/* The deadline: EXIT_TIMEOUT. */
	reset(&set);
	sc = (struct script){ &set, 0, never };
	stop_set_timeout(&stop, 0.05);
	r = loop_run(&l);
	CHECK(r == EXIT_TIMEOUT, "deadline: %d", r);
	stop.has_deadline = false;

	/* The reader of out_fd gone: EXIT_SIGNAL + SIGPIPE. */
	if (pipe2(out, O_CLOEXEC) < 0)
		return 2;
	close(out[0]);
	l.out_fd = out[1];
	r = loop_run(&l);
	CHECK(r == EXIT_SIGNAL + SIGPIPE, "reader gone: %d", r);
	close(out[1]);
	l.out_fd = -1;

	/* An ending signal, blocked into the signalfd: EXIT_SIGNAL + its number. */
	kill(getpid(), SIGTERM);
	r = loop_run(&l);
	CHECK(r == EXIT_SIGNAL + SIGTERM, "SIGTERM: %d", r);

	for (i = 0; i < NSRC; i++)
		sourceset_remove(&set, &src[i]);
	sourceset_free(&set);
	ioloop_free(set.loop);
	stop_close(&stop);
	return unit_done("test_loop");
}
