#ifndef WATCHQ_LOOP_H
#define WATCHQ_LOOP_H

#include <stdbool.h>
#include <time.h>

#include "source.h"

#define LOOP_MAX_SOURCES	4

struct loop {
	struct source *src[LOOP_MAX_SOURCES];
	size_t nsrc;
	int sigfd;		/* from loop_signals() */
	int out_fd;		/* a pipe whose reader going away ends the run, or -1 */
	bool has_deadline;
	struct timespec deadline;	/* CLOCK_MONOTONIC */
	/* After each round of drains: an exit code to stop with, or -1 to go on. */
	int (*after)(void *ctx);
	void *ctx;
};

/* Block SIGINT, SIGTERM and SIGHUP into a signalfd, ignore SIGPIPE; the fd, or -1 with errno set. */
int loop_signals(void);
/* Absolute CLOCK_MONOTONIC deadline seconds from now. */
struct timespec loop_deadline(double seconds);
/* Wait until fd takes a write or a signal ends the run (1, the signal consumed); 0 writable, -1 error with errno set. */
int loop_wait_output(int fd, int sigfd);
/* Poll every source until a signal (0), the deadline (2), after() or an error (1, reported); the only place that blocks. */
int loop_run(struct loop *l);

#endif
