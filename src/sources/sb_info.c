/*
 * The state of the filesystem holding a path: one statx(2) for its mount id,
 * then statmount(2) of that one mount (Linux 6.13, which says its source), or a
 * read of /proc/self/mountinfo on older kernels. ext4's emergency read-only state
 * shows only as the emergency_ro superblock option (Linux 6.11+; no flag says it).
 */
#include <errno.h>
#include <fcntl.h>
#include <libmount.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compat.h"
#include "mounttab.h"
#include "sb_info.h"
#include "statmount.h"
#include "xalloc.h"

enum sb_ro
sb_info_ro_of(const char *fs_opts)
{
	if (mounttab_opts_has(fs_opts, "emergency_ro"))
		return SB_RO_EMERGENCY;
	return mounttab_opts_readonly(fs_opts) ? SB_RO_RO : SB_RO_RW;
}

static void
sb_info_fill(struct sb_info *out, dev_t dev, const char *target, const char *fstype,
    const char *device, const char *fs_opts)
{
	out->dev = dev;
	out->target = xstrdup(target ? target : "");
	out->fstype = xstrdup(fstype ? fstype : "");
	out->device = xstrdup(device ? device : "");
	out->ro = sb_info_ro_of(fs_opts);
	out->errors_ro = mounttab_opts_has(fs_opts, "errors=remount-ro");
}

/* Kernels before 6.8: find the mount by its old id in /proc/self/mountinfo. */
static int
sb_info_from_mountinfo(struct sb_info *out, int id)
{
	struct libmnt_table *tb = mnt_new_table();
	struct libmnt_iter *it = mnt_new_iter(MNT_ITER_BACKWARD);
	struct libmnt_fs *fs;
	int r;

	if (tb == NULL || it == NULL) {
		r = -ENOMEM;
		goto out;
	}
	if ((r = mnt_table_parse_file(tb, PATH_MOUNTINFO)) < 0)
		goto out;
	r = -ENOENT;
	while (mnt_table_next_fs(tb, it, &fs) == 0) {
		if (mnt_fs_get_id(fs) != id)
			continue;
		sb_info_fill(out, mnt_fs_get_devno(fs), mnt_fs_get_target(fs),
		    mnt_fs_get_fstype(fs), mnt_fs_get_source(fs), mnt_fs_get_fs_options(fs));
		r = 0;
		break;
	}
out:
	mnt_free_iter(it);
	mnt_unref_table(tb);
	if (r < 0)
		errno = -r;
	return r < 0 ? -1 : 0;
}

int
sb_info_get(struct sb_info *out, const char *path)
{
	struct statx stx;
	struct statmount_buf km = { 0 };
	struct mounttab_entry *e;
	int id;

	memset(out, 0, sizeof(*out));
	if (statx(AT_FDCWD, path, 0, STATX_MNT_ID | KAPI_STATX_MNT_ID_UNIQUE, &stx) < 0)
		return -1;
	if (!(stx.stx_mask & (STATX_MNT_ID | KAPI_STATX_MNT_ID_UNIQUE))) {
		errno = ENOSYS;
		return -1;
	}
	if (!(stx.stx_mask & KAPI_STATX_MNT_ID_UNIQUE))
		return sb_info_from_mountinfo(out, (int)stx.stx_mnt_id);
	e = statmount_one(&km, stx.stx_mnt_id);
	statmount_free(&km);
	if (e == NULL)
		return -1;
	/* Before 6.13 statmount has no source, before 6.11 no superblock options: mountinfo has. */
	if (km.partial) {
		id = (int)e->mount_id;
		mounttab_entry_free(e);
		return sb_info_from_mountinfo(out, id);
	}
	sb_info_fill(out, e->dev, e->target, e->fstype, e->source, e->fs_opts);
	mounttab_entry_free(e);
	return 0;
}

void
sb_info_free(struct sb_info *si)
{
	free(si->target);
	free(si->fstype);
	free(si->device);
	memset(si, 0, sizeof(*si));
}
