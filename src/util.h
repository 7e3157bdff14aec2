#ifndef WATCHQ_UTIL_H
#define WATCHQ_UTIL_H

#include <stddef.h>

/* Allocate or exit with a message: the only allocation failure policy. */
void *xmalloc(size_t n);
/* Zeroed allocation of n elements of size sz, or exit. */
void *xcalloc(size_t n, size_t sz);
/* Resize p to n elements of size sz (overflow-checked), or exit. */
void *xreallocarray(void *p, size_t n, size_t sz);
/* Duplicate a NUL-terminated string (NULL stays NULL), or exit. */
char *xstrdup(const char *s);

/* Read a non-blocking fd until it is empty, handing each read to each(ctx, buf, n); -1 with errno set on a read error, 1 if each() ever returned < 0 (a record it could not trust), else 0. */
int read_ready(int fd, void *buf, size_t size, int (*each)(void *ctx, const void *buf, size_t n), void *ctx);

#endif
