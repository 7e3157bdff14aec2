#ifndef WATCHQ_REMOVAL_H
#define WATCHQ_REMOVAL_H

#include <stdbool.h>
#include <stddef.h>

/* An inotify watch on watched objects and the directories above them: it wakes when one of them
 * may have gone. */
struct removal {
	int fd;
	int *wds;		/* the inodes watched now */
	size_t nwds;
};

/* Watch nothing yet; -1 with errno set. */
int removal_open(struct removal *r);
/* Watch exactly paths[0..n) and every directory above each, for deletion, moves and unmounts;
 * what cannot be watched is skipped. */
void removal_arm(struct removal *r, const char *const *paths, size_t n);
/* Consume what is ready on r->fd: whether a watched object may have gone (or events were lost). */
bool removal_drain(struct removal *r);
/* Close the watch. */
void removal_close(struct removal *r);

#endif
