/*
 * The floor for watchq's fanotify backend: the least a program can do to
 * print one line per mount event: fanotify mount events, one statmount(2)
 * per attach for the path, nothing cached, no filtering, no formatting.
 *
 * `floor who` also names the process behind each record, as watchq's default
 * output does, and no more cheaply than it can be done soundly: the kernel's
 * pidfd per record (FAN_REPORT_PIDFD), the name from the comm file of the
 * last process named (held open, read again), the real uid through the
 * pidfd (PIDFD_GET_INFO, which also says the process is still the pid's),
 * and the pidfd closed.
 */
#define _GNU_SOURCE
#include <err.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/fanotify.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../src/kernel/compat.h"

#ifndef FAN_REPORT_PIDFD
#define FAN_REPORT_PIDFD 0x00000080
#endif

/* Who made the record md: "pid comm uid", each - where unknown. */
static const char *
who(const struct fanotify_event_metadata *md, int pidfd)
{
	static char out[64], comm[32];
	static int comm_fd = -1, comm_pid;
	struct kapi_pidfd_info info = { .mask = KAPI_PIDFD_INFO_CREDS };
	char path[32];
	ssize_t n = -1;

	if (pidfd < 0) {
		snprintf(out, sizeof(out), "%d - -", md->pid);
		return out;
	}
	if (comm_fd >= 0 && comm_pid == md->pid)
		n = pread(comm_fd, comm, sizeof(comm) - 1, 0);
	if (n < 0) {
		if (comm_fd >= 0)
			close(comm_fd);
		snprintf(path, sizeof(path), "/proc/%d/comm", md->pid);
		comm_fd = open(path, O_RDONLY | O_CLOEXEC);
		comm_pid = md->pid;
		n = comm_fd < 0 ? -1 : pread(comm_fd, comm, sizeof(comm) - 1, 0);
	}
	if (n > 0)
		comm[n - 1] = '\0';
	if (ioctl(pidfd, KAPI_PIDFD_GET_INFO, &info) == 0 && n > 0)
		snprintf(out, sizeof(out), "%d %s %u", md->pid, comm, info.ruid);
	else
		snprintf(out, sizeof(out), "%d - -", md->pid);
	close(pidfd);
	return out;
}

int
main(int argc, char **argv)
{
	static char buf[65536] __attribute__((aligned(8)));
	static char sm[16384] __attribute__((aligned(8)));
	struct kapi_statmount *st = (struct kapi_statmount *)sm;
	int named = argc > 1 && strcmp(argv[1], "who") == 0;
	int fd = fanotify_init(FAN_CLASS_NOTIF | FAN_REPORT_MNT | (named ? FAN_REPORT_PIDFD : 0), O_RDONLY);
	ssize_t n;

	if (fd < 0 || fanotify_mark(fd, FAN_MARK_ADD | FAN_MARK_MNTNS, FAN_MNT_ATTACH | FAN_MNT_DETACH,
	    AT_FDCWD, "/proc/self/ns/mnt") < 0)
		err(69, "fanotify");
	setvbuf(stdout, NULL, _IOLBF, 0);
	fprintf(stderr, "floor: watching\n");
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		char *p = buf;

		while (p < buf + n) {
			struct fanotify_event_metadata *md = (void *)p;
			char *info = p + md->metadata_len;
			struct kapi_fan_info_mnt *mi = NULL;
			int pidfd = -1;
			struct kapi_mnt_id_req req = { .size = KAPI_MNT_ID_REQ_SIZE_VER0,
				.param = KAPI_STATMOUNT_MNT_POINT };

			/* The records that follow the metadata: the mount's id, and with `who` the pidfd. */
			for (; info < p + md->event_len; info += ((struct fanotify_event_info_header *)info)->len) {
				struct fanotify_event_info_header *h = (void *)info;

				if (h->info_type == FAN_EVENT_INFO_TYPE_PIDFD)
					pidfd = ((struct fanotify_event_info_pidfd *)h)->pidfd;
				else if (h->info_type == FAN_EVENT_INFO_TYPE_MNT)
					mi = (void *)h;
			}
			if (mi == NULL)
				errx(70, "a record without a mount id");
			req.mnt_id = mi->mnt_id;
			if (md->mask & FAN_MNT_ATTACH && syscall(__NR_statmount, &req, sm, sizeof(sm), 0) == 0)
				printf("attach %s", st->str + st->mnt_point);
			else
				printf("detach %llu %s", (unsigned long long)mi->mnt_id, "");
			if (named)
				printf(" %s", who(md, pidfd));
			putchar('\n');
			p += md->event_len;
		}
	}
	return 0;
}
