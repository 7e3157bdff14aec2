#include <stdlib.h>

#include "sourceset.h"
#include "xalloc.h"

void
sourceset_add(struct sourceset *s, struct source *src)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 8;
		s->v = xreallocarray(s->v, s->cap, sizeof(*s->v));
	}
	s->v[s->n++] = src;
	s->gen++;
	if (s->loop)
		source_attach(src, s->loop);
}

void
sourceset_remove(struct sourceset *s, struct source *src)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		if (s->v[i] != src)
			continue;
		source_detach(src);
		/* In order: the run walks its own sources first, as they were added. */
		for (; i + 1 < s->n; i++)
			s->v[i] = s->v[i + 1];
		s->n--;
		s->gen++;
		return;
	}
}

void
sourceset_free(struct sourceset *s)
{
	free(s->v);
	s->v = NULL;
	s->n = s->cap = 0;
}
