/*
 * tax: what a system call costs a process other than watchq, for bench/run to compare with the
 * process capture attached and without it.
 *
 *   tax getppid N        N getppid(2) calls: prints nanoseconds per call
 *   tax pairs DIR N      N mount(2)+umount(2) pairs of a tmpfs on DIR: prints nanoseconds per pair
 */
#define _GNU_SOURCE
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long long
now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

int
main(int argc, char **argv)
{
	long long start;
	long i, n;

	if (argc == 3 && strcmp(argv[1], "getppid") == 0) {
		n = atol(argv[2]);
		start = now_ns();
		for (i = 0; i < n; i++)
			(void)syscall(SYS_getppid);	/* not glibc's: it must enter the kernel */
	} else if (argc == 4 && strcmp(argv[1], "pairs") == 0) {
		n = atol(argv[3]);
		start = now_ns();
		for (i = 0; i < n; i++)
			if (mount("tax", argv[2], "tmpfs", 0, "size=4k") < 0 || umount(argv[2]) < 0)
				err(1, "%s", argv[2]);
	} else {
		errx(64, "usage: tax getppid N | tax pairs DIR N");
	}
	if (n <= 0)
		errx(64, "N must be positive");
	printf("%lld\n", (now_ns() - start) / n);
	return 0;
}
