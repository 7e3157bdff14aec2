#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "path.h"
#include "xalloc.h"

char *
path_canon(const char *path)
{
	return realpath(path, NULL);
}

static char *
path_realpath(void *ctx, const char *path)
{
	return realpath(path, NULL);
}

char *
path_canon_lenient(const char *path)
{
	return path_canon_lenient_by(path, path_realpath, NULL);
}

/*
 * Walk back from the end of the absolute path in abs until a prefix resolves: that prefix
 * resolved (at worst "/"), with *rest set to the components after it; NULL with errno set.
 */
static char *
path_resolve_prefix(struct buf *abs, char *(*resolve)(void *ctx, const char *path), void *ctx,
    const char **rest)
{
	char *slash = abs->data + abs->len, *res, save;

	for (;;) {
		save = *slash;
		*slash = '\0';
		res = resolve(ctx, abs->len && abs->data[0] ? abs->data : "/");
		*slash = save;
		*rest = slash;
		/* A symlink loop resolves to nothing, as a missing file does. */
		if (res != NULL || (errno != ENOENT && errno != ENOTDIR && errno != ELOOP))
			return res;
		while (slash > abs->data && *--slash != '/')
			;
		if (slash == abs->data) {
			*rest = slash;
			return xstrdup("/");
		}
	}
}

/* Append the components of rest to out lexically, dropping "." and empty ones; ".." pops one. */
static void
path_append_lexical(struct buf *out, const char *rest)
{
	size_t n;
	char *p;

	for (;;) {
		while (*rest == '/')
			rest++;
		if ((n = strcspn(rest, "/")) == 0)
			return;
		if (n == 2 && rest[0] == '.' && rest[1] == '.') {
			p = strrchr(out->data, '/');
			out->len = p > out->data ? (size_t)(p - out->data) : 1;
			out->data[out->len] = '\0';
		} else if (n != 1 || rest[0] != '.') {
			if (out->len > 1)
				buf_addc(out, '/');
			buf_add(out, rest, n);
		}
		rest += n;
	}
}

char *
path_canon_lenient_by(const char *path, char *(*resolve)(void *ctx, const char *path), void *ctx)
{
	struct buf abs = { 0 }, out = { 0 };
	char *cwd, *res;
	const char *rest;

	if (path[0] == '\0') {
		errno = ENOENT;
		return NULL;
	}
	if (path[0] != '/') {
		if ((cwd = getcwd(NULL, 0)) == NULL)
			return NULL;
		buf_adds(&abs, cwd);
		buf_addc(&abs, '/');
		free(cwd);
	}
	buf_adds(&abs, path);
	if ((res = path_resolve_prefix(&abs, resolve, ctx, &rest)) == NULL) {
		buf_free(&abs);
		return NULL;
	}
	buf_adds(&out, res);
	free(res);
	path_append_lexical(&out, rest);
	buf_free(&abs);
	return out.data;
}

bool
path_within(const char *dir, const char *path)
{
	size_t n = strlen(dir);

	if (strcmp(dir, "/") == 0)
		return path[0] == '/';
	return strncmp(dir, path, n) == 0 && (path[n] == '\0' || path[n] == '/');
}
