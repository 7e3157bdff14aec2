#ifndef WATCHQ_IOLOOP_H
#define WATCHQ_IOLOOP_H

#include <stdbool.h>
#include <time.h>

/*
 * Handles on file descriptors, each with a callback, waited on together: who owns an fd adds a
 * handle for it, pauses it (fd -1) or points it at another fd, and removes it; a wait calls the
 * callback of each handle whose fd is ready, in order of priority, then of addition. Several
 * handles may share an fd (each is called, for the events it asked for).
 */
struct ioloop;
struct ioloop_io;

/* What is ready on the handle's fd (POLLIN, POLLOUT, POLLPRI, POLLERR, POLLHUP); -1 (the callback
 * has said why) ends the wait with IOLOOP_FAILED. */
typedef int ioloop_fn(void *ctx, short revents);

struct ioloop *ioloop_new(void);
/* Release the loop and every handle left in it (not their fds). */
void ioloop_free(struct ioloop *l);

/*
 * A handle on fd (-1: paused) for events: POLLIN, POLLOUT, or 0 for POLLERR and POLLHUP alone;
 * POLLPRI alone (the mountinfo signal) is polled beside the others, never added to epoll. Lower
 * prio is called first.
 */
struct ioloop_io *ioloop_add(struct ioloop *l, int fd, short events, int prio, ioloop_fn *fn,
    void *ctx);
/* Poll fd (-1: pause) for events from now; an fd closed and opened again must be set again. */
void ioloop_set(struct ioloop_io *io, int fd, short events);
/* What is ready on io's fd was served: no call for it in this wait. */
void ioloop_served(struct ioloop_io *io);
/* Remove io (NULL: nothing), even from within a callback. */
void ioloop_remove(struct ioloop_io *io);
/* No more callbacks in this wait (a signal that ends the run). */
void ioloop_break(struct ioloop *l);

#define IOLOOP_FAILED	(-2)

/*
 * Wait until an fd is ready or left (NULL: no deadline) has passed, then call the callbacks: how
 * many were called, 0 at the deadline, -1 with errno set (EINTR: a signal came), IOLOOP_FAILED
 * where a callback failed.
 */
int ioloop_wait(struct ioloop *l, const struct timespec *left);

#endif
