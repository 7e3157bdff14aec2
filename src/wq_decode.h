#ifndef WATCHQ_WQ_DECODE_H
#define WATCHQ_WQ_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One notification-queue record, checked and decoded. */
struct wq_rec {
	unsigned type, subtype;	/* WATCH_TYPE_META or _KEY_NOTIFY, and its subtype */
	unsigned tag;		/* the watch id given to KEYCTL_WATCH_KEY */
	int32_t key_id, aux;	/* key records */
	uint64_t removed_id;	/* removal records of 16 bytes: the key serial */
	bool has_removed_id;
};

typedef void wq_rec_fn(void *ctx, const struct wq_rec *r);

/* Decode every record of a read(2) buffer from a notification pipe, calling fn for each known one; -1 with errno EPROTO at the first malformed one. */
int wq_decode(const void *buf, size_t len, wq_rec_fn *fn, void *ctx);

#endif
