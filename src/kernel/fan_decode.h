#ifndef WATCHQ_FAN_DECODE_H
#define WATCHQ_FAN_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One fanotify event of a mount-namespace or filesystem-error group, checked and decoded. */
struct fan_rec {
	/* FAN_MNT_ATTACH, FAN_MNT_DETACH (both: a move), FAN_FS_ERROR, FAN_Q_OVERFLOW */
	uint64_t mask;
	int32_t pid;		/* the process that caused it; 0: hidden from this group */
	/* With FAN_REPORT_PIDFD, a new fd for that process; else negative (FAN_NOPIDFD: gone). */
	int32_t pidfd;
	uint64_t mnt_id;	/* 64-bit unique mount id, when has_id */
	bool has_id;
	int32_t fsid[2];	/* filesystem id (statfs f_fsid), when has_fsid */
	bool has_fsid;
	int32_t error;		/* first error (FAN_FS_ERROR), when has_error */
	uint32_t error_count;	/* errors merged into this event */
	bool has_error;
};

#define FAN_PIDFD_BATCH		128	/* records with a pidfd read at once: fds held at once */
#define FAN_PIDFD_RECORD	48	/* bytes of such a record: metadata, pidfd and mount info */

typedef void fan_rec_fn(void *ctx, const struct fan_rec *r);

/* Decode every event of a read(2) buffer in order, calling fn for each; -1 with errno EPROTO at
 * the first malformed one (those before it were delivered; pidfds from it on stay open). */
int fan_decode(const void *buf, size_t len, fan_rec_fn *fn, void *ctx);

#endif
