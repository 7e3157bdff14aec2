/*
 * The floor for watchq's fanotify backend: the least a program can do to
 * print one line per mount event: fanotify mount events, one statmount(2)
 * per attach for the path, nothing cached, no filtering, no formatting.
 */
#define _GNU_SOURCE
#include <err.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/fanotify.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../src/compat.h"

int
main(void)
{
	static char buf[65536] __attribute__((aligned(8)));
	static char sm[16384] __attribute__((aligned(8)));
	struct kapi_statmount *st = (struct kapi_statmount *)sm;
	int fd = fanotify_init(FAN_CLASS_NOTIF | FAN_REPORT_MNT, O_RDONLY);
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
			struct kapi_fan_info_mnt *mi = (void *)(p + md->metadata_len);
			struct kapi_mnt_id_req req = { .size = KAPI_MNT_ID_REQ_SIZE_VER0, .mnt_id = mi->mnt_id,
				.param = KAPI_STATMOUNT_MNT_POINT };

			if (md->mask & FAN_MNT_ATTACH && syscall(__NR_statmount, &req, sm, sizeof(sm), 0) == 0)
				printf("attach %s\n", st->str + st->mnt_point);
			else
				printf("detach %llu %s\n", (unsigned long long)mi->mnt_id, "");
			p += md->event_len;
		}
	}
	return 0;
}
