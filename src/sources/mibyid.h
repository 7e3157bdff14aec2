#ifndef WATCHQ_MIBYID_H
#define WATCHQ_MIBYID_H

/*
 * The mountinfo source's table kept by mount id (mibyid.c): with the capture, and where
 * statmount(2) says all that a mountinfo line does, a change is read from the kernel's ids and
 * the captured calls, not from a whole new table.
 */
#include <stdbool.h>
#include <stdint.h>

#include "capture.h"
#include "mounttab.h"
#include "statmount.h"

struct mibyid {
	struct statmount_buf sm;
	int nsfd;			/* our mount namespace, for its count of mounts; -1: none */
	bool counted;			/* that count was the table's, at the last listing of all */
	uint64_t top;			/* the newest id listed */
	size_t slaves;			/* mounts of the table that are slaves (master:N) */
	unsigned long long losses;	/* the capture's, as of the last whole read */
	struct mounttab_ids gone;	/* reported unmounted, taken out by mibyid_finish() */
};

/*
 * Read the whole table into t, keyed by unique id, where this kernel's statmount(2) has all that
 * mountinfo shows (Linux 6.13); -1 with errno set (EOPNOTSUPP: it has not). b is reset first; on
 * failure it is freed.
 */
int mibyid_open(struct mibyid *b, struct mounttab *t, const struct capture *cap);
/* Read the whole table again into t (empty), the changes of what since to be told by the caller;
 * -1 with errno set. */
int mibyid_read_all(struct mibyid *b, struct mounttab *t, const struct capture *cap);
/*
 * After the mountinfo signal, and a drain of the capture (capture_begin_read()): report to fn the
 * mounts and unmounts of t since the last read, the new ones put in t (the gone ones stay until
 * mibyid_finish()). 1: done; 0: what changed needs a whole read (a flip or a move may be among
 * it), nothing reported; -1 with errno set. mnt_ns: our mount namespace (inode).
 */
int mibyid_step(struct mibyid *b, struct mounttab *t, const struct capture *cap, uint64_t mnt_ns,
    mounttab_change_fn *fn, void *ctx);
/* The changes reported: take the unmounted out of t. */
void mibyid_finish(struct mibyid *b, struct mounttab *t);
void mibyid_close(struct mibyid *b);

#endif
