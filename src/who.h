#ifndef WATCHQ_WHO_H
#define WATCHQ_WHO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event.h"

/* Room for a name from /proc/PID/comm: 15 bytes for a process, more for a kernel thread's workqueue. */
#define WHO_COMM_MAX	64

/* The process behind one fanotify record, looked at once, when first asked. */
struct who {
	int pidfd;		/* the record's, until who_done(); -1: none */
	bool read;
	struct ev_who by;
	char comm[WHO_COMM_MAX];
};

/* Start w for a record's pid (0: hidden) and pidfd (negative: none), which w now owns. */
void who_init(struct who *w, int32_t pid, int pidfd);
/* What is known of the process: its pid, and its comm and uid only where they are surely that process's. */
const struct ev_who *who_get(struct who *w);
/* Close w's pidfd, if any; w knows nothing after. */
void who_done(struct who *w);
/* The number on the Pid: line of a pidfd's fdinfo text; 0 if there is none or it is not positive. */
long who_fdinfo_pid(const char *text);
/* Whether the n bytes in buf (of size > n) read from /proc/PID/comm are one whole name; if so it is made a string, its final newline cut. */
bool who_comm(char *buf, size_t n);

#endif
