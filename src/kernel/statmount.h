#ifndef WATCHQ_STATMOUNT_H
#define WATCHQ_STATMOUNT_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "mounttab.h"

/* A reusable statmount(2) buffer, room for the option lists made from it, and the namespace it
 * reads. */
struct statmount_buf {
	void *buf;
	size_t size;
	struct buf vfs, fs;
	uint64_t ns_id;		/* another mount namespace's id (-N; Linux 6.11), 0: ours */
	/*
	 * With ns_id: the root of the process followed there. Mount points are made relative to
	 * it; those outside it are "".
	 */
	const char *root;
	/*
	 * statmount_one(): the kernel could not say the last mount's superblock source (before
	 * Linux 6.13) or its superblock options (before 6.11), which mountinfo has.
	 */
	bool partial;
};

/* Whether listmount(2)/statmount(2) exist (Linux 6.8); errno ENOSYS when not. */
int statmount_probe(void);
/* Read the whole table visible from our root (with ns_id, the namespace's root) into t, keyed by
 * 64-bit unique ids; -1 with errno set. */
int statmount_read_table(struct statmount_buf *km, struct mounttab *t);
/* statmount(2) one mount into a new entry; NULL with errno set (ENOENT: already gone). */
struct mounttab_entry *statmount_one(struct statmount_buf *km, uint64_t id);
/* Whether the mount of e still has e's options and propagation: 1 yes, 0 no, -1 with errno set
 * (ENOENT: gone); cheaper than statmount_one(). */
int statmount_same_options(struct statmount_buf *km, const struct mounttab_entry *e);
typedef void statmount_id_fn(void *ctx, uint64_t id);
/* Call fn with the id of each mount below mount top (its submounts, theirs and so on); -1 with
 * errno set (ENOENT: top is gone). */
int statmount_each_below(struct statmount_buf *km, uint64_t top, statmount_id_fn *fn, void *ctx);
/* Call fn with the id of each mount visible from our root whose id is above after (unique ids
 * only grow: the mounts made since the one numbered after); -1 with errno set. */
int statmount_each_after(struct statmount_buf *km, uint64_t after, statmount_id_fn *fn, void *ctx);
/* The mountinfo id (the reusable one) of mount id into *old: 1; 0 if the mount is gone (ENOENT);
 * -1 with errno set. */
int statmount_old_id(struct statmount_buf *km, uint64_t id, uint64_t *old);
/* How many mounts the mount namespace of nsfd (an nsfs fd) has, into *n (NS_MNT_GET_INFO, Linux
 * 6.12: ENOTTY before); -1 with errno set. */
int statmount_ns_mounts(int nsfd, uint64_t *n);
/* Release the buffer. */
void statmount_free(struct statmount_buf *km);

#endif
