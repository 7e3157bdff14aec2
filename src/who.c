/*
 * Who made a change. fanotify gives the pid of the process behind a record and, with
 * FAN_REPORT_PIDFD, a pidfd for it. The pidfd holds the process itself, where a number can come
 * to name another process once the first is reaped. The uid is read through the pidfd; only /proc
 * has the name.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "capture.h"
#include "compat.h"
#include "who.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

long
who_fdinfo_pid(const char *text)
{
	const char *p;
	char *end;
	long n;

	for (p = text; p; p = (p = strchr(p, '\n')) ? p + 1 : NULL) {
		if (strncmp(p, "Pid:", 4) != 0)
			continue;
		errno = 0;
		n = strtol(p + 4, &end, 10);
		if (errno || end == p + 4 || (*end != '\n' && *end != '\0') || n <= 0 ||
		    n > INT32_MAX)
			return 0;
		return n;
	}
	return 0;
}

bool
who_fdinfo_own(const char *text, long pid)
{
	const char *p;
	char *end;

	if (pid <= 0 || who_fdinfo_pid(text) != pid)
		return false;
	/* NSpid: the number in /proc's namespace, then one more per namespace below it. */
	for (p = text; p; p = (p = strchr(p, '\n')) ? p + 1 : NULL) {
		if (strncmp(p, "NSpid:", 6) != 0)
			continue;
		if (strtol(p + 6, &end, 10) != pid || end == p + 6)
			return false;
		return *end == '\n' || *end == '\0';
	}
	/* No NSpid line: a kernel without pid namespaces, which has only one. */
	return true;
}

bool
who_comm(char *buf, size_t n)
{
	/* The kernel writes the name, then a newline; the name itself may hold one, but no NUL. */
	if (n == 0 || buf[n - 1] != '\n' || memchr(buf, '\0', n) != NULL)
		return false;
	buf[n - 1] = '\0';
	return true;
}

/* Read at most size - 1 bytes from the start of fd into buf; their number, or -1. */
static ssize_t
pread_small(int fd, char *buf, size_t size)
{
	ssize_t n;

	while ((n = pread(fd, buf, size - 1, 0)) < 0 && errno == EINTR)
		;
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

/* Read at most size - 1 bytes of path (under /proc) into buf; their number, or -1. */
static ssize_t
read_small(const struct who_proc *proc, const char *path, char *buf, size_t size)
{
	int fd = openat(proc->dirfd, path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = pread_small(fd, buf, size);
	close(fd);
	return n;
}

/*
 * The pid of the pidfd's process as /proc numbers it; 0 if it has none there (gone, or in no pid
 * namespace /proc sees).
 */
static long
proc_pid(const struct who_proc *proc, int pidfd)
{
	char path[64], info[512];

	snprintf(path, sizeof(path), "self/fdinfo/%d", pidfd);
	if (read_small(proc, path, info, sizeof(info)) < 0)
		return 0;
	return who_fdinfo_pid(info);
}

void
who_proc_open(struct who_proc *p)
{
	int pidfd;
	char path[64], info[512];

	p->ours = false;
	p->pid = 0;
	p->comm_fd = -1;
	p->dirfd = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (p->dirfd < 0)
		return;
	/*
	 * Where /proc numbers processes as our pid namespace does, a record's pid is the process's
	 * number there, and its fdinfo need not be read for each record. /proc is held open:
	 * another /proc mounted over it later does not change where names are read.
	 */
	if ((pidfd = (int)syscall(SYS_pidfd_open, getpid(), 0)) >= 0) {
		snprintf(path, sizeof(path), "self/fdinfo/%d", pidfd);
		p->ours = read_small(p, path, info, sizeof(info)) >= 0 &&
		    who_fdinfo_own(info, (long)getpid());
		close(pidfd);
	}
}

void
who_proc_close(struct who_proc *p)
{
	if (p->dirfd >= 0)
		close(p->dirfd);
	if (p->comm_fd >= 0)
		close(p->comm_fd);
	p->dirfd = p->comm_fd = -1;
	p->pid = 0;
}

void
who_init(struct who *w, struct who_proc *proc, int32_t pid, int pidfd)
{
	memset(w, 0, sizeof(*w));
	w->proc = proc;
	w->pidfd = pidfd < 0 ? -1 : pidfd;
	w->by.pid = pid > 0 ? pid : 0;
}

void
who_known(struct who *w, int32_t pid, uint32_t uid, const char *comm)
{
	who_init(w, NULL, pid, -1);
	w->read = true;
	w->by.has_uid = true;
	w->by.uid = uid;
	snprintf(w->comm, sizeof(w->comm), "%s", comm);
	w->by.comm = w->comm;
}

void
who_done(struct who *w)
{
	if (w->pidfd >= 0)
		close(w->pidfd);
	memset(w, 0, sizeof(*w));
	w->pidfd = -1;
	w->read = true;
}

/*
 * Read the current name of the process /proc numbers pid into w->comm; false if it cannot be
 * read. The comm file of the last process named is read again if pid is its number (a process
 * that makes one change often makes the next); else a new one is opened and kept. A comm file
 * stays its own process's: once that process is reaped, reads fail with ESRCH. who_get() tells
 * whether the process is the pidfd's.
 */
static bool
read_comm(struct who *w, long pid)
{
	struct who_proc *p = w->proc;
	char path[64];
	ssize_t n = -1;
	int fd;

	if (p->comm_fd >= 0 && p->pid == pid)
		n = pread_small(p->comm_fd, w->comm, sizeof(w->comm));
	if (n < 0) {
		snprintf(path, sizeof(path), "%ld/comm", pid);
		if ((fd = openat(p->dirfd, path, O_RDONLY | O_CLOEXEC)) < 0)
			return false;
		if (p->comm_fd >= 0)
			close(p->comm_fd);
		p->comm_fd = fd;
		p->pid = pid;
		n = pread_small(fd, w->comm, sizeof(w->comm));
	}
	/* A read that fills the buffer may have been cut short. */
	if (n < 0 || (size_t)n >= sizeof(w->comm) - 1)
		return false;
	return who_comm(w->comm, (size_t)n);
}

/* Read the name and uid of the pidfd's process, where they are surely that process's. */
static void
who_by_pidfd(struct who *w)
{
	struct kapi_pidfd_info info = { .mask = KAPI_PIDFD_INFO_CREDS };
	bool comm, there;
	long pid;

	if (w->proc == NULL || w->proc->dirfd < 0)
		pid = 0;
	else
		pid = w->proc->ours ? w->by.pid : proc_pid(w->proc, w->pidfd);
	comm = pid > 0 && read_comm(w, pid);
	/* The credentials of the pidfd's own process, only until it is reaped (ESRCH after). */
	if (ioctl(w->pidfd, KAPI_PIDFD_GET_INFO, &info) == 0) {
		there = true;
		if (info.mask & KAPI_PIDFD_INFO_CREDS) {
			w->by.has_uid = true;
			w->by.uid = info.ruid;
		}
	} else {
		/* No such ioctl before Linux 6.13: signal 0 tells (EPERM: there, not ours). */
		there = errno != ESRCH &&
		    (syscall(SYS_pidfd_send_signal, w->pidfd, 0, NULL, 0) == 0 || errno == EPERM);
	}
	/*
	 * The name is the pidfd's process's while that process is still there: a pid is reused
	 * only after its process is reaped, the pidfd's process has held PID since the record was
	 * read, and a comm file reads only while its own process holds PID.
	 */
	if (comm && there)
		w->by.comm = w->comm;
}

const struct ev_who *
who_get(struct who *w)
{
	uint32_t uid;

	if (w->read)
		return &w->by;
	w->read = true;
	if (w->pidfd >= 0)
		who_by_pidfd(w);
	/* Gone (or no pidfd): the capture saw the process at its call, if it knows it alone. */
	if (w->by.comm == NULL && w->proc && w->proc->cap &&
	    capture_who(w->proc->cap, w->by.pid, &uid, w->comm, sizeof(w->comm))) {
		w->by.comm = w->comm;
		w->by.has_uid = true;
		w->by.uid = uid;
	}
	return &w->by;
}
