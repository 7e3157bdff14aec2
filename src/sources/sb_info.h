#ifndef WATCHQ_SB_INFO_H
#define WATCHQ_SB_INFO_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "event.h"

/* The filesystem that holds a path, as its mount shows it. */
struct sb_info {
	dev_t dev;		/* the superblock's device (quota warnings name it) */
	char *target;		/* mount point of the mount holding the path */
	char *fstype, *device;
	enum sb_ro ro;
	bool errors_ro;		/* mounted errors=remount-ro: an error makes it read-only */
};

/* Look up the filesystem holding path (with statmount(2) where the kernel has it, else in
 * /proc/self/mountinfo); -1 with errno set. */
int sb_info_get(struct sb_info *out, const char *path);
/* Release what sb_info_get() filled in. */
void sb_info_free(struct sb_info *si);
/* The read-only state that superblock options ("rw,errors=remount-ro,emergency_ro") describe. */
enum sb_ro sb_info_ro_of(const char *fs_opts);

#endif
