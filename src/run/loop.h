#ifndef WATCHQ_LOOP_H
#define WATCHQ_LOOP_H

#include <stdbool.h>

#include "source.h"
#include "sourceset.h"
#include "stop.h"

struct loop {
	struct sourceset *set;	/* the sources polled, which on_tick and after may change */
	const struct stop *stop;	/* the signals and deadline that end the run */
	int out_fd;		/* a pipe whose reader going away ends the run, or -1 */
	/* Wakes when a watched path may have gone (struct removal), or -1 */
	int removal_fd;
	void (*on_removal)(void *ctx);	/* called when removal_fd is ready, before after() */
	int tick_fd;		/* a timer for -N all's discovery, or -1 */
	/* Called when tick_fd is ready, after the drains: it may change the set. */
	void (*on_tick)(void *ctx);
	/* After each round of drains: an exit code to stop with, or -1 to go on. */
	int (*after)(void *ctx);
	void *ctx;
};

/*
 * Poll every source until a signal (EXIT_SIGNAL + it), the reader of out_fd going away (EXIT_SIGNAL
 * + SIGPIPE), the deadline (2), after() or an error (1, reported); the only place that blocks.
 */
int loop_run(struct loop *l);

#endif
