#ifndef WATCHQ_STATMOUNT_H
#define WATCHQ_STATMOUNT_H

#include <stddef.h>
#include <stdint.h>

#include "mounttab.h"

/* A reusable statmount(2) buffer. */
struct kmount {
	void *buf;
	size_t size;
};

/* Whether listmount(2)/statmount(2) exist (Linux 6.8); errno ENOSYS when not. */
int kmount_probe(void);
/* Read the whole table visible from our root into t (64-bit unique ids); -1 with errno set. */
int kmount_read_table(struct kmount *km, struct mounttab *t);
/* statmount(2) one mount into a new entry; NULL with errno set (ENOENT: already gone). */
struct mnt_entry *kmount_stat(struct kmount *km, uint64_t id);
/* Release the buffer. */
void kmount_free(struct kmount *km);

#endif
