#include <err.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

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

int
read_ready(int fd, void *buf, size_t size, int (*each)(void *ctx, const void *buf, size_t n), void *ctx)
{
	ssize_t n;
	int bad = 0;

	for (;;) {
		n = read(fd, buf, size);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				return bad;
			return -1;
		}
		if (n == 0)
			return bad;
		if (each(ctx, buf, (size_t)n) < 0)
			bad = 1;
	}
}
