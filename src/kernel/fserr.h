#ifndef WATCHQ_FSERR_H
#define WATCHQ_FSERR_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "fan_decode.h"

/* A filesystem marked for errors in a group, by the superblock's device and fsid. */
struct fserr_sb {
	dev_t dev;
	int32_t fsid[2];
};

/* One fanotify group: no two of its superblocks share an fsid. */
struct fserr_group {
	int fd;
	struct fserr_sb *sbs;
	size_t n;
};

/* fanotify FAN_FS_ERROR groups that tell superblocks apart, behind one pollable fd. */
struct fserr {
	int epfd;
	struct fserr_group *groups;
	size_t ngroups;
};

/* An error record (with its fsid and error info) and the device of the superblock it is about. */
typedef void fserr_fn(void *ctx, dev_t dev, const struct fan_rec *r);

/* Create the first group; -1 with errno set (the kernel or our privileges lack FID groups). */
int fserr_open(struct fserr *fe);
/* The fd to poll for POLLIN. */
int fserr_fd(const struct fserr *fe);
/* Mark the filesystem holding path, whose superblock is dev, in a group where no other superblock
 * has its fsid; -1 with errno set. */
int fserr_mark(struct fserr *fe, const char *path, dev_t dev);
/* Read every group and call fn for each error record; 0, 1 if a record was lost, malformed or could
 * not be attributed, -1 with errno set. */
int fserr_drain(struct fserr *fe, fserr_fn *fn, void *ctx);
/* Close every group. */
void fserr_close(struct fserr *fe);

#endif
