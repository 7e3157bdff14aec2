#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "path.h"
#include "util.h"

char *
path_canon(const char *path)
{
	return realpath(path, NULL);
}

static char *
real(void *ctx, const char *path)
{
	return realpath(path, NULL);
}

char *
path_canon_lenient(const char *path)
{
	return path_canon_lenient_by(path, real, NULL);
}

char *
path_canon_lenient_by(const char *path, char *(*resolve)(void *ctx, const char *path), void *ctx)
{
	struct buf abs = { 0 }, out = { 0 };
	char *cwd, *res, *slash;
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
	/* Walk back from the end until a prefix resolves. */
	slash = abs.data + abs.len;
	for (;;) {
		char save = *slash;

		*slash = '\0';
		res = resolve(ctx, abs.len && abs.data[0] ? abs.data : "/");
		*slash = save;
		if (res != NULL || (errno != ENOENT && errno != ENOTDIR))
			break;
		while (slash > abs.data && *--slash != '/')
			;
		if (slash == abs.data) {
			res = xstrdup("/");
			break;
		}
	}
	if (res == NULL) {
		buf_free(&abs);
		return NULL;
	}
	buf_adds(&out, res);
	free(res);
	/* Append the missing components, dropping "." and empty ones; ".." pops. */
	for (rest = slash; *rest; ) {
		size_t n;

		while (*rest == '/')
			rest++;
		n = strcspn(rest, "/");
		if (n == 0)
			break;
		if (n == 1 && rest[0] == '.') {
			/* skip */
		} else if (n == 2 && rest[0] == '.' && rest[1] == '.') {
			char *p = strrchr(out.data, '/');

			out.len = p > out.data ? (size_t)(p - out.data) : 1;
			out.data[out.len] = '\0';
		} else {
			if (out.len > 1)
				buf_addc(&out, '/');
			buf_add(&out, rest, n);
		}
		rest += n;
	}
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
