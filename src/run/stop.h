#ifndef WATCHQ_STOP_H
#define WATCHQ_STOP_H

#include <poll.h>
#include <stdbool.h>
#include <time.h>

#include "exit.h"

/* What ends a run whatever it is doing: SIGINT, SIGTERM, SIGHUP, or the --timeout deadline. */
struct stop {
	int sigfd;			/* the ending signals, blocked into a signalfd */
	bool has_deadline;
	struct timespec deadline;	/* CLOCK_MONOTONIC */
};

/* Block the ending signals into a signalfd, ignore SIGPIPE (EPIPE says it); -1 with errno set. */
int stop_open(struct stop *s);
/* End the run seconds from now. */
void stop_set_timeout(struct stop *s, double seconds);
/* The time left until the deadline in *left; false once it has passed (true with no deadline). */
bool stop_left(const struct stop *s, struct timespec *left);
/* Consume the signal waiting on the signalfd: EXIT_SIGNAL + its number, or 0 if none waits. */
int stop_signal(const struct stop *s);
/*
 * Wait until fd (unless -1) has one of events or at most ms milliseconds (unless -1) pass: 0 then,
 * else the run ends with EXIT_TIMEOUT or EXIT_SIGNAL + the signal; -1 with errno set.
 */
int stop_wait(const struct stop *s, int fd, short events, int ms);
/* Close the signalfd (the signals stay blocked). */
void stop_close(struct stop *s);

#endif
