#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "suggest.h"

#define SUGGEST_LEN	32	/* longer words and names are never a few typos apart */

/* The optimal string alignment distance (a swap of neighbours is one typo), case ignored. */
static unsigned
suggest_distance(const char *a, const char *b)
{
	unsigned d[SUGGEST_LEN + 1][SUGGEST_LEN + 1], c, best;
	size_t i, j, na = strlen(a), nb = strlen(b);

	if (na > SUGGEST_LEN || nb > SUGGEST_LEN)
		return ~0u;
	for (i = 0; i <= na; i++)
		d[i][0] = (unsigned)i;
	for (j = 0; j <= nb; j++)
		d[0][j] = (unsigned)j;
	for (i = 1; i <= na; i++) {
		for (j = 1; j <= nb; j++) {
			c = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
			best = d[i - 1][j - 1] + c;
			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && c && tolower((unsigned char)a[i - 1]) ==
			    tolower((unsigned char)b[j - 2]) && tolower((unsigned char)a[i - 2]) ==
			    tolower((unsigned char)b[j - 1]) && d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	}
	return d[na][nb];
}

/* Keep name at cost (lower first, then shorter), unless it is kept already or costs too much. */
static void
suggest_keep(struct suggest *s, const char *name, unsigned cost)
{
	size_t i, at;

	for (i = 0; i < s->n; i++)
		if (strcasecmp(s->names[i], name) == 0)
			return;
	for (at = 0; at < s->n; at++)
		if (cost < s->cost[at] ||
		    (cost == s->cost[at] && strlen(name) < strlen(s->names[at])))
			break;
	if (at == SUGGEST_MAX)
		return;
	if (s->n < SUGGEST_MAX)
		s->n++;
	memmove(&s->names[at + 1], &s->names[at], (s->n - 1 - at) * sizeof(s->names[0]));
	memmove(&s->cost[at + 1], &s->cost[at], (s->n - 1 - at) * sizeof(s->cost[0]));
	s->names[at] = name;
	s->cost[at] = cost;
}

void
suggest_init(struct suggest *s, const char *word)
{
	memset(s, 0, sizeof(*s));
	s->word = word;
}

void
suggest_offer(struct suggest *s, const char *name)
{
	size_t len = strlen(s->word);
	unsigned d, limit = len <= 3 ? 1 : len <= 6 ? 2 : 3;

	if (len > 0 && strncasecmp(name, s->word, len) == 0) {
		suggest_keep(s, name, 0);
		return;
	}
	if ((d = suggest_distance(s->word, name)) <= limit)
		suggest_keep(s, name, d);
}

void
suggest_beside(struct suggest *s, const char *near, const char *name)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (strcasecmp(s->names[i], near) == 0) {
			suggest_keep(s, name, s->cost[i]);
			return;
		}
}

void
suggest_text(const struct suggest *s, struct buf *b, const char *prefix)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		buf_addf(b, "%s%s%s", i == 0 ? "; did you mean " : ", ", prefix, s->names[i]);
	if (s->n > 0)
		buf_addc(b, '?');
}
