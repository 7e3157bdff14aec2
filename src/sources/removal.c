/*
 * A watched directory or file can go with no mount change at all (rmdir, rename, a rename of a
 * directory above it), and then nothing else would wake watchq. inotify tells of the inode itself
 * (IN_DELETE_SELF once the last link and dentry are gone, IN_MOVE_SELF, IN_UNMOUNT when its
 * filesystem goes) and of each directory above it (IN_MOVE_SELF); each source then checks its
 * paths again. Re-arming before that check leaves no gap: a change after the re-arm wakes the
 * loop again.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

#include "removal.h"
#include "xalloc.h"

#define REMOVAL_MASK	(IN_DELETE_SELF | IN_MOVE_SELF)

int
removal_open(struct removal *r)
{
	memset(r, 0, sizeof(*r));
	r->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	return r->fd < 0 ? -1 : 0;
}

static bool
has_wd(const int *wds, size_t n, int wd)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (wds[i] == wd)
			return true;
	return false;
}

/* Watch path and each directory above it, adding new descriptors to *wds. */
static void
arm_path(struct removal *r, const char *path, int **wds, size_t *n)
{
	char *p = xstrdup(path), *slash;
	int wd;

	for (;;) {
		wd = inotify_add_watch(r->fd, *p ? p : "/", REMOVAL_MASK);
		if (wd >= 0 && !has_wd(*wds, *n, wd)) {
			*wds = xreallocarray(*wds, *n + 1, sizeof(**wds));
			(*wds)[(*n)++] = wd;
		}
		if ((slash = strrchr(p, '/')) == NULL || *p == '\0')
			break;
		*slash = '\0';
	}
	free(p);
}

void
removal_arm(struct removal *r, const char *const *paths, size_t n)
{
	int *wds = NULL;
	size_t i, nwds = 0;

	for (i = 0; i < n; i++)
		arm_path(r, paths[i], &wds, &nwds);
	/* A descriptor no path needs any more: its IN_IGNORED is not a removal. */
	for (i = 0; i < r->nwds; i++)
		if (!has_wd(wds, nwds, r->wds[i]))
			(void)inotify_rm_watch(r->fd, r->wds[i]);
	free(r->wds);
	r->wds = wds;
	r->nwds = nwds;
}

bool
removal_drain(struct removal *r)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	struct inotify_event ev;
	bool any = false;
	ssize_t n;
	size_t off;

	for (;;) {
		n = read(r->fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return any;
		for (off = 0; off + sizeof(ev) <= (size_t)n; off += sizeof(ev) + ev.len) {
			memcpy(&ev, buf + off, sizeof(ev));
			if ((ev.mask & IN_Q_OVERFLOW) || has_wd(r->wds, r->nwds, ev.wd))
				any = true;
		}
		if (off != (size_t)n)
			any = true;	/* a record we cannot read: look anyway */
	}
}

void
removal_close(struct removal *r)
{
	if (r->fd >= 0)
		close(r->fd);
	free(r->wds);
	memset(r, 0, sizeof(*r));
	r->fd = -1;
}
