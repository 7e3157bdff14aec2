/*
 * The capture's ring buffer, read by hand (see capture_ring.h for why). The kernel maps a page
 * with the consumer position (ours to write), then a page with the producer position and the data
 * twice over, so that a record that wraps reads as one. Each record starts with an 8-byte header:
 * its length, a bit while it is being written, a bit if it was discarded (linux/bpf.h).
 */
#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>

#include "capture_ring.h"

#define BUSY_SPINS	100000		/* yields waiting for a record being written */
#define RB_BUSY		(1U << 31)
#define RB_DISCARD	(1U << 30)
#define RB_HDR		8

int
capture_ring_map(struct capture_ring *r, int fd, size_t size)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	void *p;

	r->fd = fd;
	r->size = size;
	r->cons_len = page;
	r->prod_len = page + 2 * size;
	p = mmap(NULL, r->cons_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return -1;
	r->cons = p;
	p = mmap(NULL, r->prod_len, PROT_READ, MAP_SHARED, fd, (off_t)page);
	if (p == MAP_FAILED)
		return -1;
	r->prod = p;
	r->data = (const unsigned char *)p + page;
	return 0;
}

void
capture_ring_unmap(struct capture_ring *r)
{
	if (r->cons)
		munmap(r->cons, r->cons_len);
	if (r->prod)
		munmap((void *)r->prod, r->prod_len);
	r->cons = NULL;
	r->prod = NULL;
}

/* The header of the record at pos, once the kernel has written it; false if it is still busy. */
static bool
ring_header(const struct capture_ring *r, uint64_t pos, uint32_t *len)
{
	const uint32_t *hdr = (const uint32_t *)(r->data + (pos & (r->size - 1)));
	int spins;

	/* A program between reserving and submitting runs on another CPU for microseconds. */
	for (spins = 0; spins < BUSY_SPINS; spins++) {
		*len = __atomic_load_n(hdr, __ATOMIC_ACQUIRE);
		if (!(*len & RB_BUSY))
			return true;
		sched_yield();
	}
	return false;
}

bool
capture_ring_read(struct capture_ring *r, capture_ring_fn *fn, void *ctx)
{
	uint64_t cons = __atomic_load_n(r->cons, __ATOMIC_ACQUIRE);
	uint64_t prod = __atomic_load_n(r->prod, __ATOMIC_ACQUIRE);
	uint32_t len;

	while (cons < prod) {
		if (!ring_header(r, cons, &len))
			return false;
		if (!(len & RB_DISCARD))
			fn(ctx, r->data + (cons & (r->size - 1)) + RB_HDR,
			    len & ~(RB_BUSY | RB_DISCARD));
		cons += ((len & ~(RB_BUSY | RB_DISCARD)) + RB_HDR + 7) & ~7ULL;
		__atomic_store_n(r->cons, cons, __ATOMIC_RELEASE);
	}
	return true;
}
