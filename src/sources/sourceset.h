#ifndef WATCHQ_SOURCESET_H
#define WATCHQ_SOURCESET_H

#include <stddef.h>

#include "source.h"

/*
 * The sources a run polls, in one growable set that the run owns: its own (a source of each type,
 * mounts once per -N namespace) and those -N all adds and removes as namespaces come and go. The
 * loop polls them and the run walks them; gen tells both that they came or went.
 */
struct sourceset {
	struct source **v;
	size_t n, cap;
	unsigned long gen;	/* counts every add and remove */
};

/* Add src (owned by the caller, which removes it before it closes it). */
void sourceset_add(struct sourceset *s, struct source *src);
/* Remove src, if it is there. */
void sourceset_remove(struct sourceset *s, struct source *src);
/* Release the set (not the sources). */
void sourceset_free(struct sourceset *s);

#endif
