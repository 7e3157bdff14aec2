#ifndef WATCHQ_XALLOC_H
#define WATCHQ_XALLOC_H

#include <stddef.h>

/*
 * The allocate-or-exit family keeps C's conventional x names: the one exception to "a file exports
 * its own prefix".
 */

/* Allocate or exit with a message: the only allocation failure policy. */
void *xmalloc(size_t n);
/* Zeroed allocation of n elements of size sz, or exit. */
void *xcalloc(size_t n, size_t sz);
/* Resize p to n elements of size sz (overflow-checked), or exit. */
void *xreallocarray(void *p, size_t n, size_t sz);
/* Duplicate a NUL-terminated string (NULL stays NULL), or exit. */
char *xstrdup(const char *s);

#endif
