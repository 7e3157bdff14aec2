/*
 * cycle DIR N: N mount(2)+umount(2) pairs of a tmpfs on DIR, as fast as the
 * kernel takes them; the soak drives watchq with it in batches.
 * cycle DIR +, cycle DIR -: one mount, or one unmount.
 */
#include <err.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>

int
main(int argc, char **argv)
{
	long i, n;

	if (argc == 3 && strcmp(argv[2], "+") == 0)
		return mount("soak", argv[1], "tmpfs", 0, "size=64k") < 0 ? (warn("mount"), 1) : 0;
	if (argc == 3 && strcmp(argv[2], "-") == 0)
		return umount(argv[1]) < 0 ? (warn("umount"), 1) : 0;
	if (argc != 3 || (n = atol(argv[2])) < 0)
		errx(64, "usage: cycle DIR N|+|-");
	for (i = 0; i < n; i++) {
		if (mount("soak", argv[1], "tmpfs", 0, "size=64k") < 0)
			err(1, "mount %s", argv[1]);
		if (umount(argv[1]) < 0)
			err(1, "umount %s", argv[1]);
	}
	return 0;
}
