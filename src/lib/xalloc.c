#include <err.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		err(1, "malloc");
	return p;
}

void *
xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz ? sz : 1);

	if (p == NULL)
		err(1, "calloc");
	return p;
}

void *
xreallocarray(void *p, size_t n, size_t sz)
{
	p = reallocarray(p, n ? n : 1, sz ? sz : 1);
	if (p == NULL)
		err(1, "realloc");
	return p;
}

char *
xstrdup(const char *s)
{
	char *d;

	if (s == NULL)
		return NULL;
	d = strdup(s);
	if (d == NULL)
		err(1, "strdup");
	return d;
}
