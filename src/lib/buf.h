#ifndef WATCHQ_BUF_H
#define WATCHQ_BUF_H

#include <stddef.h>
#include <time.h>

/* A growable byte buffer; data is always NUL-terminated after len bytes. */
struct buf {
	char *data;
	size_t len, cap;
};

/* Append n bytes of p. */
void buf_add(struct buf *b, const void *p, size_t n);
/* Append one byte. */
void buf_addc(struct buf *b, char c);
/* Append a NUL-terminated string. */
void buf_adds(struct buf *b, const char *s);
/* Append printf-formatted text. */
void buf_addf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Append ts formatted with strftime(3) format fmt in local time, however long the result. */
void buf_addtime(struct buf *b, const struct timespec *ts, const char *fmt);
/* Forget the contents, keep the allocation. */
void buf_reset(struct buf *b);
/* Release the allocation. */
void buf_free(struct buf *b);

#endif
