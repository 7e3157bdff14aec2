#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "xalloc.h"

static void
buf_reserve(struct buf *b, size_t n)
{
	size_t cap = b->cap ? b->cap : 256;

	if (b->len + n + 1 <= b->cap)
		return;
	while (cap < b->len + n + 1)
		cap *= 2;
	b->data = xreallocarray(b->data, cap, 1);
	b->cap = cap;
}

void
buf_add(struct buf *b, const void *p, size_t n)
{
	buf_reserve(b, n);
	memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void
buf_addc(struct buf *b, char c)
{
	buf_add(b, &c, 1);
}

void
buf_adds(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void
buf_addf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	/* Formatted once where it fits in the room left, as it mostly does; else again. */
	buf_reserve(b, 0);
	va_start(ap, fmt);
	n = vsnprintf(b->data + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->data[b->len] = '\0';
		return;
	}
	if ((size_t)n >= b->cap - b->len) {
		buf_reserve(b, (size_t)n);
		va_start(ap, fmt);
		vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	b->len += (size_t)n;
}

void
buf_addtime(struct buf *b, const struct timespec *ts, const char *fmt)
{
	struct buf f = { 0 };
	struct tm tm;
	time_t t = ts->tv_sec;
	size_t n = 0, room;

	if (localtime_r(&t, &tm) == NULL)
		return;
	/*
	 * strftime() returns 0 both for "too small" and for an empty result: a leading byte tells
	 * them apart.
	 */
	buf_addc(&f, 'x');
	buf_adds(&f, fmt);
	for (room = 256; room <= (1u << 20); room *= 2) {
		buf_reserve(b, room);
		/* The user's --timefmt is the format, by design. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
		n = strftime(b->data + b->len, room, f.data, &tm);
#pragma GCC diagnostic pop
		if (n > 0)
			break;
	}
	if (n > 0) {
		memmove(b->data + b->len, b->data + b->len + 1, n);
		b->len += n - 1;
	}
	if (b->data)
		b->data[b->len] = '\0';
	buf_free(&f);
}

void
buf_reset(struct buf *b)
{
	b->len = 0;
	if (b->data)
		b->data[0] = '\0';
}

void
buf_free(struct buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}
