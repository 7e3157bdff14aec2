#ifndef WATCHQ_NSLIST_H
#define WATCHQ_NSLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * Every mount namespace there is now: by the nsfs walk (NS_MNT_GET_NEXT and _PREV, Linux 6.12,
 * CAP_SYS_ADMIN), or by the processes in /proc (which misses a namespace without a process we may
 * look into).
 */

/* A namespace one listing found. */
struct nslist_found {
	uint64_t ino, id;	/* id: 0 where /proc found it */
	pid_t pid;		/* its lowest-numbered process we may look into; 0: none found */
	bool known;
};

struct nslist {
	struct nslist_found *v;
	size_t n;
};

/* The namespace of ino in l, or NULL. */
struct nslist_found *nslist_find(struct nslist *l, uint64_t ino);
/* Every mount namespace, by the nsfs walk, added to l; -1 with errno set (ENOTTY: no walk here). */
int nslist_walk(struct nslist *l);
/* Whether the nsfs walk lists every mount namespace here: 0, or -1 with errno set (ENOTTY: no
 * walk in this kernel; EPERM: not ours to do). */
int nslist_walk_probe(void);
/*
 * Give each namespace of l its lowest-numbered process; with add, list those not in l too. -1 with
 * errno set where /proc cannot be read (out of fds, say).
 */
int nslist_scan_proc(struct nslist *l, bool add);

#endif
