#ifndef WATCHQ_SUGGEST_H
#define WATCHQ_SUGGEST_H

#include <stddef.h>

#include "buf.h"

#define SUGGEST_MAX	4

/* The valid names nearest to a word that named nothing, for "did you mean". */
struct suggest {
	const char *word;
	size_t n;
	const char *names[SUGGEST_MAX];
	unsigned cost[SUGGEST_MAX];
};

/* Start looking for the names nearest to word. */
void suggest_init(struct suggest *s, const char *word);
/* Keep name if word begins it or is a few typos from it (case ignored), nearest first. */
void suggest_offer(struct suggest *s, const char *name);
/* Keep name, once, as near as the kept name near (an alias's own name beside it). */
void suggest_beside(struct suggest *s, const char *near, const char *name);
/* Append "; did you mean A, B?" with each name after prefix, or nothing if none was kept. */
void suggest_text(const struct suggest *s, struct buf *b, const char *prefix);

#endif
