#ifndef WATCHQ_PATH_H
#define WATCHQ_PATH_H

#include <stdbool.h>

/* Canonical absolute path of an existing file (realpath), or NULL with errno set. */
char *path_canon(const char *path);
/*
 * Canonical absolute path of a path that may not exist yet (or is a symlink loop): the longest
 * prefix that resolves, the rest appended lexically; NULL with errno set.
 */
char *path_canon_lenient(const char *path);
/*
 * path_canon_lenient() with resolve(ctx, p) in place of realpath(3): a canonical path, or NULL with
 * errno set (ENOENT, ENOTDIR, ELOOP: p resolves to nothing).
 */
char *path_canon_lenient_by(const char *path, char *(*resolve)(void *ctx, const char *path),
    void *ctx);
/* Whether path is dir itself or lies below it (both canonical). */
bool path_within(const char *dir, const char *path);

#endif
