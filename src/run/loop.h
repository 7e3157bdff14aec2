#ifndef WATCHQ_LOOP_H
#define WATCHQ_LOOP_H

#include <stdbool.h>

#include "ioloop.h"
#include "stop.h"

/*
 * The run's wait. The sources have their fds in io already (sourceset_add attaches them, and -N all
 * adds and removes sources between wake-ups); the run adds its own here, each called after every
 * source's drain of a wake-up.
 */
struct loop {
	struct ioloop *io;	/* where every source's fds are */
	const struct stop *stop;	/* the signals and deadline that end the run */
	int out_fd;		/* a pipe whose reader going away ends the run, or -1 */
	/* Wakes when a watched path may have gone (struct removal), or -1 */
	int removal_fd;
	/* Called when removal_fd is ready, after the drains */
	void (*on_removal)(void *ctx);
	int tick_fd;		/* a timer for -N all's discovery, or -1 */
	/* Called when tick_fd is ready, after on_removal: it may change the set. */
	void (*on_tick)(void *ctx);
	/* After each wake-up's calls: an exit code to stop with, or -1 to go on. */
	int (*after)(void *ctx);
	void *ctx;
	int code;		/* set by the calls of a wake-up that end the run; -1 */
};

/* The order of a wake-up's calls: the loop's priorities in io. */
enum {
	LOOP_PRIO_SIGNAL = -2,	/* a signal that ends the run: before any drain */
	LOOP_PRIO_OUT = -1,	/* the reader of out_fd gone */
	/* 0: every source's drains, as they were added (source_attach()) */
	LOOP_PRIO_REMOVAL = 1,
	LOOP_PRIO_TICK = 2,
};

/*
 * Wait in io until a signal (EXIT_SIGNAL + it), the reader of out_fd going away (EXIT_SIGNAL
 * + SIGPIPE), the deadline (2), after() or an error (1, reported); the only place that blocks.
 */
int loop_run(struct loop *l);

#endif
