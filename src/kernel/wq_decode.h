#ifndef WATCHQ_WQ_DECODE_H
#define WATCHQ_WQ_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One notification-queue record, checked and decoded. */
struct wq_rec {
	unsigned type, subtype;	/* WATCH_TYPE_META, _KEY_NOTIFY or unknown, and its subtype */
	unsigned tag;		/* the watch id given to KEYCTL_WATCH_KEY */
	size_t len;		/* the record's length in bytes */
	int32_t key_id, aux;	/* key records */
	uint64_t removed_id;	/* removal records of 16 bytes: the key serial */
	bool has_removed_id;
};

/* Take one record; return false to drop the rest of the buffer. */
typedef bool wq_rec_fn(void *ctx, const struct wq_rec *r);

/* Decode the records of a read(2) buffer from a notification pipe in order and call fn for each (of
 * any type) until it returns false; -1 with errno EPROTO at the first malformed one. */
int wq_decode(const void *buf, size_t len, wq_rec_fn *fn, void *ctx);

#endif
