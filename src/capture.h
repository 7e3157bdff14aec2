#ifndef WATCHQ_CAPTURE_H
#define WATCHQ_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The process capture: BPF programs at the mount-changing system calls, which record who makes
 * each call before it changes anything, so that a process reaped before watchq reads the fanotify
 * record of its change can still be named.
 */
struct capture;

/* Load and attach the capture; NULL if it cannot, with the reason written to why. */
struct capture *capture_open(char *why, size_t size);
/* Detach and free c. */
void capture_close(struct capture *c);
/* The fd that is readable (POLLIN) when records wait. */
int capture_fd(const struct capture *c);
/* Consume every record the kernel has written. */
void capture_drain(struct capture *c);
/* The fanotify queue is being read now: every record drained so far came before that read. */
void capture_reading(struct capture *c);
/* The last read found the queue empty: forget the processes whose calls have all ended before it
 * (their fanotify records have all been read). */
void capture_settle(struct capture *c);
/* If the capture knows exactly one process numbered tgid (watchq's pid namespace), its real uid and
 * name (comm, of size at least 16); else false. */
bool capture_who(const struct capture *c, int32_t tgid, uint32_t *uid, char *comm, size_t size);

#endif
