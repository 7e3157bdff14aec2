/* The mount conditions of wait: whether a path is a mount's root now. */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "mntns.h"
#include "mount_wait.h"

/*
 * Whether path, resolved now as the kernel resolves it, is the root of a mount (what mountpoint(1)
 * answers): a retargeted symlink, a mount over a directory above the path, a path that names no
 * directory all count. A path that resolves to nothing (missing, a file on the way, a symlink
 * loop, too long) is no mount's root. -1 where statx(2) cannot say (no permission, or a kernel
 * before 5.8).
 */
static int
is_mount_root(const struct mntns *ns, const char *path)
{
	struct statx stx;

	if (mntns_statx(ns, path, STATX_TYPE, &stx) < 0) {
		if (errno == ENOENT || errno == ENOTDIR || errno == ELOOP || errno == ENAMETOOLONG)
			return 0;
		return -1;
	}
	if (!(stx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT))
		return -1;
	return (stx.stx_attributes & STATX_ATTR_MOUNT_ROOT) != 0;
}

/* Where c stands if the path is (root 1) or is not (0) a mount's root. */
static int
state_of(const struct cond *c, int root)
{
	return (root == 1) == (c->kind == COND_MOUNT) ? WAIT_MET : WAIT_PENDING;
}

int
mount_wait_statx(const struct mntns *ns, const struct cond *c)
{
	int root;

	if (c->kind != COND_MOUNT && c->kind != COND_UNMOUNT)
		return WAIT_PENDING;
	if (ns && ns->gone)
		return WAIT_GONE;
	return (root = is_mount_root(ns, c->arg)) < 0 ? -1 : state_of(c, root);
}

int
mount_wait_check(const struct mntns *ns, const struct mounttab *t, const struct cond *c)
{
	char *path;
	int s;

	/*
	 * The path as given, now; where the kernel cannot say, the table (with -N, at the path
	 * as it resolves now in that namespace).
	 */
	if ((s = mount_wait_statx(ns, c)) >= 0)
		return s;
	path = ns ? mntns_canon(ns, c->arg, true) : NULL;
	s = state_of(c, mounttab_has_target(t, ns ? (path ? path : "") : c->path));
	free(path);
	return s;
}
