#ifndef WATCHQ_CAPTURE_RING_H
#define WATCHQ_CAPTURE_RING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A BPF ring buffer read by hand. libbpf 1.1 (Debian 12) has ring_buffer__consume(), which stops
 * at a record still being written without saying so (it returns how many it read, the same as for
 * an empty ring). The capture must know: that record may be the entry of the call behind a
 * fanotify record being named, and then it names nobody.
 */
struct capture_ring {
	int fd;
	uint64_t *cons;			/* the consumer position: ours to write */
	const uint64_t *prod;		/* the producer position; data follows its page */
	const unsigned char *data;
	size_t size, cons_len, prod_len;
};

/* Called with each record's bytes and their number. */
typedef void capture_ring_fn(void *ctx, const void *rec, size_t n);

/* Map the ring of map fd, of size bytes (a power of two); -1 with errno set. */
int capture_ring_map(struct capture_ring *r, int fd, size_t size);
/* Unmap what capture_ring_map() mapped (a zeroed ring is fine). */
void capture_ring_unmap(struct capture_ring *r);
/* Hand every record written so far to fn, oldest first, and consume it; false if it stopped at a
 * record still being written after waiting a little for it. */
bool capture_ring_read(struct capture_ring *r, capture_ring_fn *fn, void *ctx);

#endif
