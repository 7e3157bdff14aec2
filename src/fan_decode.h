#ifndef WATCHQ_FAN_DECODE_H
#define WATCHQ_FAN_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One fanotify mount-namespace event, checked and decoded. */
struct fan_rec {
	uint64_t mask;		/* FAN_MNT_ATTACH, FAN_MNT_DETACH (both: a move), FAN_Q_OVERFLOW */
	uint64_t mnt_id;	/* 64-bit unique mount id, when has_id */
	bool has_id;
};

typedef void fan_rec_fn(void *ctx, const struct fan_rec *r);

/* Decode every event of a read(2) buffer in order, calling fn for each; -1 with errno EPROTO at the first malformed one (those before it were delivered). */
int fan_decode(const void *buf, size_t len, fan_rec_fn *fn, void *ctx);

#endif
