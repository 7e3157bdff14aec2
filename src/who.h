#ifndef WATCHQ_WHO_H
#define WATCHQ_WHO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event.h"

/* Room for a name from /proc/PID/comm, its newline and a NUL: a process's name has at most 15
 * bytes, a kernel thread's 63. */
#define WHO_COMM_MAX	80

struct capture;

/* /proc as it was when watching began, held open: where names are read. */
struct who_proc {
	const struct capture *cap;	/* names a process already gone; NULL: none */
	int dirfd;		/* -1: none */
	bool ours;		/* it numbers processes as watchq's pid namespace does */
	long pid;		/* the last process named, as /proc numbers it (0: none) */
	int comm_fd;		/* its comm file, held open to read it again (-1: none) */
};

/* The process behind one fanotify record, looked at once, when first asked. */
struct who {
	struct who_proc *proc;
	int pidfd;		/* the record's, until who_done(); -1: none */
	bool read;		/* who_get() has looked: by is final */
	struct ev_who by;
	char comm[WHO_COMM_MAX];
};

/* A who_proc with nothing open, as who_proc_close() leaves it (a zeroed one holds fd 0). */
#define WHO_PROC_CLOSED	((struct who_proc){ .dirfd = -1, .comm_fd = -1 })

/* Open /proc into p and learn how it numbers processes (without /proc, p reads no names). */
void who_proc_open(struct who_proc *p);
/* Close what who_proc_open() opened. */
void who_proc_close(struct who_proc *p);
/* Start w for a record's pid (0: hidden) and pidfd (negative: none), which w now owns; names are
 * read in proc. */
void who_init(struct who *w, struct who_proc *proc, int32_t pid, int pidfd);
/* What is known of the process: its pid, and its comm and uid only where they are surely that
 * process's (read through the pidfd, else from the capture). */
const struct ev_who *who_get(struct who *w);
/* Start w as the process pid (positive), known already: its real uid and name. */
void who_known(struct who *w, int32_t pid, uint32_t uid, const char *comm);
/* Close w's pidfd, if any; w knows nothing after. */
void who_done(struct who *w);
/* The number on the Pid: line of a pidfd's fdinfo text; 0 if none, or if it is not positive. */
long who_fdinfo_pid(const char *text);
/* Whether a pidfd's fdinfo text shows its process as pid in /proc's pid namespace and in no
 * namespace below it (NSpid). */
bool who_fdinfo_own(const char *text, long pid);
/* Whether the n bytes in buf (of size > n) read from /proc/PID/comm are one whole name; if so,
 * make it a string without its final newline. */
bool who_comm(char *buf, size_t n);

#endif
