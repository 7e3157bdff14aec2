/*
 * Who made a change. fanotify gives the pid of the process behind a record
 * and, with FAN_REPORT_PIDFD, a pidfd for it: the pidfd holds the process
 * itself, where a number can come to name another one once the process is
 * reaped. The uid is read through the pidfd; the name only /proc has.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "compat.h"
#include "who.h"

void
who_init(struct who *w, int32_t pid, int pidfd)
{
	memset(w, 0, sizeof(*w));
	w->pidfd = pidfd < 0 ? -1 : pidfd;
	w->by.pid = pid > 0 ? pid : 0;
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
		if (errno || end == p + 4 || (*end != '\n' && *end != '\0') || n <= 0 || n > INT32_MAX)
			return 0;
		return n;
	}
	return 0;
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

/* Read at most size - 1 bytes of path into buf; their number, or -1. */
static ssize_t
read_small(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	while ((n = read(fd, buf, size - 1)) < 0 && errno == EINTR)
		;
	close(fd);
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

/* The name of the pidfd's process, as /proc has it, into w->comm; false if it could not be read. */
static bool
read_comm(struct who *w)
{
	char path[64], info[512];
	ssize_t n;
	long pid;

	/* The pid as /proc numbers it: its pid namespace may not be watchq's. */
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", w->pidfd);
	if (read_small(path, info, sizeof(info)) < 0 || (pid = who_fdinfo_pid(info)) == 0)
		return false;
	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	/* A read that fills the buffer may have been cut short. */
	if ((n = read_small(path, w->comm, sizeof(w->comm))) < 0 || (size_t)n >= sizeof(w->comm) - 1)
		return false;
	return who_comm(w->comm, (size_t)n);
}

/* Whether the pidfd's process is still there (not reaped): a signal 0 finds it, or finds it not ours to signal. */
static bool
alive(int pidfd)
{
	return syscall(SYS_pidfd_send_signal, pidfd, 0, NULL, 0) == 0 || errno == EPERM;
}

const struct ev_who *
who_get(struct who *w)
{
	struct kapi_pidfd_info info = { .mask = KAPI_PIDFD_INFO_CREDS };

	if (w->read || w->pidfd < 0) {
		w->read = true;
		return &w->by;
	}
	w->read = true;
	/*
	 * The name came from /proc/PID, and PID names the pidfd's process only
	 * until that process is reaped: a pid is freed, and so can be reused,
	 * then and only then. A process still there after the read was there
	 * throughout it, so the name read was its own; one gone since may have
	 * let another process take the number, and its name is not known.
	 */
	if (read_comm(w) && alive(w->pidfd))
		w->by.comm = w->comm;
	/* The kernel reads the credentials of the pidfd's own process: no number to go stale. */
	if (ioctl(w->pidfd, KAPI_PIDFD_GET_INFO, &info) == 0 && (info.mask & KAPI_PIDFD_INFO_CREDS)) {
		w->by.has_uid = true;
		w->by.uid = info.ruid;
	}
	return &w->by;
}
