/*
 * Which captured calls flip a mount (its options or propagation) and what they name: the decoding
 * of a call's arguments, apart from the capture's bookkeeping, so that a table of calls tests it.
 */
#include <string.h>

#include "capflip.h"

/* The flags of mount(2), mount_setattr(2) and fsconfig(2) that tell a flip (linux/mount.h). */
#define MS_RDONLY		1
#define MS_REMOUNT		32
#define MS_BIND			4096
#define MS_REC			16384
#define MS_PROPAGATION		((1 << 17) | (1 << 18) | (1 << 19) | (1 << 20))
#define AT_RECURSIVE_		0x8000
#define AT_EMPTY_PATH_		0x1000
#define FSCONFIG_CMD_RECONFIGURE	7

/* The target of a path argument: known only in watchq's namespace and root, if absolute. */
static void
path_target(const struct capflip_self *self, const struct capture_enter *e, struct capture_call *f)
{
	if (e->path_len == 0 || e->path[0] != '/' || self->ns == 0 || e->mnt_ns != self->ns ||
	    e->root_mnt != self->root_mnt || e->root_dentry != self->root_dentry)
		return;
	memcpy(f->path, e->path, e->path_len);
	f->path[e->path_len - 1] = '\0';
	f->target = CAPTURE_TARGET_PATH;
}

bool
capflip_decode(const struct capture_enter *e, const struct capflip_self *self,
    struct capture_call *f)
{
	const unsigned long long *a = e->args;

	f->elsewhere = self->ns != 0 && e->mnt_ns != self->ns;
	if (e->h.nr == CAPTURE_NR_MOUNT && (a[3] & MS_REMOUNT)) {
		f->opts = true;
		f->sb = !(a[3] & MS_BIND);
		/* A remount's flags are the whole new state: ro or not. */
		f->may_ro = f->sb && (a[3] & MS_RDONLY);
		f->may_rw = f->sb && !(a[3] & MS_RDONLY);
	} else if (e->h.nr == CAPTURE_NR_MOUNT && (a[3] & MS_PROPAGATION) && !(a[3] & MS_BIND)) {
		f->props = true;
		f->subtree = (a[3] & MS_REC) != 0;
	} else if (e->h.nr == CAPTURE_NR_MOUNT_SETATTR) {
		f->opts = (e->attr[0] | e->attr[1]) != 0;
		f->props = e->attr[2] != 0;
		f->subtree = (a[2] & AT_RECURSIVE_) != 0;
		if (e->path_len == 1 && (a[2] & AT_EMPTY_PATH_) && e->fd_mnt_id) {
			f->target = CAPTURE_TARGET_MOUNT;
			f->mnt_id = e->fd_mnt_id;
		}
		/* A struct mount_attr not read: anything may change. */
		if (!f->opts && !f->props)
			f->opts = f->props = true;
	} else if (e->h.nr == CAPTURE_NR_FSCONFIG && a[1] == FSCONFIG_CMD_RECONFIGURE) {
		/* A superblock's: its mounts in every namespace. */
		f->opts = true;
		f->sb = true;
		/* Its "ro" was set by an earlier call, if at all: either way. */
		f->may_ro = f->may_rw = true;
		if (e->fd_dev) {
			f->target = CAPTURE_TARGET_SB;
			f->major = e->fd_dev >> 20;
			f->minor = e->fd_dev & 0xfffff;
		}
		return true;
	} else {
		return false;
	}
	if (f->target == CAPTURE_TARGET_NONE)
		path_target(self, e, f);
	return true;
}
