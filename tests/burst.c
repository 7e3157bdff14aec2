/*
 * burst: mount-table changes back to back, faster than a shell can make them,
 * for the mount tests.
 *
 *   burst pairs DIR N        N mount(2)+umount(2) pairs of a tmpfs on DIR
 *   burst populate DIR N     a tmpfs on each of DIR/0 .. DIR/N-1 (created)
 *   burst flip DIR N         remount DIR/0 .. DIR/N-1 read-only (bind remount)
 *   burst moves A B N        N moves of the mount on A to B and back
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>

static void
at(char *p, size_t size, const char *dir, long i)
{
	if ((size_t)snprintf(p, size, "%s/%ld", dir, i) >= size)
		errx(1, "%s: path too long", dir);
}

int
main(int argc, char **argv)
{
	char p[4096];
	long i, n;

	if (argc == 4 && strcmp(argv[1], "pairs") == 0) {
		for (i = 0, n = atol(argv[3]); i < n; i++)
			if (mount("burst", argv[2], "tmpfs", 0, "size=4k") < 0 || umount(argv[2]) < 0)
				err(1, "%s", argv[2]);
		return 0;
	}
	if (argc == 4 && strcmp(argv[1], "populate") == 0) {
		for (i = 0, n = atol(argv[3]); i < n; i++) {
			at(p, sizeof(p), argv[2], i);
			if ((mkdir(p, 0755) < 0 && errno != EEXIST) || mount("burst", p, "tmpfs", 0, "size=4k") < 0)
				err(1, "%s", p);
		}
		return 0;
	}
	if (argc == 4 && strcmp(argv[1], "flip") == 0) {
		for (i = 0, n = atol(argv[3]); i < n; i++) {
			at(p, sizeof(p), argv[2], i);
			if (mount(NULL, p, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY, NULL) < 0)
				err(1, "%s", p);
		}
		return 0;
	}
	if (argc == 5 && strcmp(argv[1], "moves") == 0) {
		for (i = 0, n = atol(argv[4]); i < n; i++)
			if (mount(argv[2], argv[3], NULL, MS_MOVE, NULL) < 0 ||
			    mount(argv[3], argv[2], NULL, MS_MOVE, NULL) < 0)
				err(1, "move %s %s", argv[2], argv[3]);
		return 0;
	}
	errx(64, "usage: burst pairs DIR N | populate DIR N | flip DIR N | moves A B N");
}
