#ifndef WATCHQ_SOURCESET_H
#define WATCHQ_SOURCESET_H

#include <stddef.h>

#include "source.h"

/*
 * The sources a run polls, in one growable set that the run owns: its own (a source of each type,
 * mounts once per -N namespace) and those -N all adds and removes as namespaces come and go. A
 * source added has its fds in the set's loop, where it has one; the run walks the set, and gen
 * tells it that sources came or went.
 */
struct sourceset {
	struct source **v;
	size_t n, cap;
	unsigned long gen;	/* counts every add and remove */
	struct ioloop *loop;	/* where the sources added poll their fds, or NULL */
};

/* Add src (owned by the caller, which removes it before it closes it) and attach it to the set's
 * loop. */
void sourceset_add(struct sourceset *s, struct source *src);
/* Remove src, if it is there, and its fds from the loop. */
void sourceset_remove(struct sourceset *s, struct source *src);
/* Release the set (not the sources). */
void sourceset_free(struct sourceset *s);

#endif
