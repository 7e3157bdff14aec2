#ifndef WATCHQ_MIBYID_H
#define WATCHQ_MIBYID_H

/*
 * The mountinfo source's table kept by mount id (mibyid.c): with the capture, where listmount(2)
 * and statmount(2) exist (Linux 6.8), a change is read from the kernel's ids, the captured calls
 * and the lines of the mounts made, not from a whole new table.
 */
#include <stdbool.h>
#include <stdint.h>

#include "capture.h"
#include "mitext.h"
#include "mounttab.h"
#include "statmount.h"

/* A mount listed: its unique id and its mountinfo id. */
struct mibyid_pair {
	uint64_t id, old;
};

/* A mount of the table by the hash of its path, for the mounts at a place. */
struct mibyid_at {
	uint64_t hash, id;
};

struct mibyid {
	struct statmount_buf sm;
	int nsfd;			/* our mount namespace, for its count of mounts; -1: none */
	bool counted;			/* that count was the table's, at the last whole read */
	bool paired;			/* every entry of the table has its unique id */
	uint64_t top;			/* the newest unique id listed */
	uint64_t seq;			/* the place of the next line read on */
	size_t slaves;			/* mounts of the table that are slaves (master:N) */
	long long count_before;		/* the count as a whole read began; -1: not known */
	unsigned long long losses;	/* the capture's, as of the last whole read */
	struct mibyid_pair *pairs;	/* listed before the text of a read */
	size_t npairs;
	struct mounttab_ids gone;	/* reported unmounted, taken out by mibyid_finish() */
	struct mibyid_at *at;		/* the table's mounts, by hash and id */
	size_t nat, at_cap;
};

/* Whether the table can be kept by id here (listmount(2) and statmount(2)); -1 with errno set. */
int mibyid_open(struct mibyid *b);
/* A whole read of the mountinfo text begins: list every mount first; -1 with errno set. */
int mibyid_whole_begin(struct mibyid *b, const struct capture *cap);
/* It ended, into t: give each entry its unique id; -1 with errno set. */
int mibyid_whole_end(struct mibyid *b, struct mounttab *t);
/*
 * After the mountinfo signal, and a drain of the capture (capture_begin_read()): report to fn the
 * mounts and unmounts of t since the last read, the mounts made read on from the file fd (text),
 * and put in t; the gone ones stay until mibyid_finish(). 1: done; 0: what changed needs a whole
 * read (a flip or a move may be among it), nothing reported; -1 with errno set. mnt_ns: our
 * mount namespace (inode).
 */
int mibyid_step(struct mibyid *b, struct mounttab *t, const struct capture *cap, uint64_t mnt_ns,
    int fd, struct mitext *text, mounttab_change_fn *fn, void *ctx);
/* The changes reported: take the unmounted out of t. */
void mibyid_finish(struct mibyid *b, struct mounttab *t);
void mibyid_close(struct mibyid *b);

#endif
