#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compat.h"
#include "nslist.h"
#include "xalloc.h"

struct nslist_found *
nslist_find(struct nslist *l, uint64_t ino)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->v[i].ino == ino)
			return &l->v[i];
	return NULL;
}

static void
nslist_add(struct nslist *l, uint64_t ino, uint64_t id)
{
	if (nslist_find(l, ino))
		return;
	l->v = xreallocarray(l->v, l->n + 1, sizeof(*l->v));
	l->v[l->n++] = (struct nslist_found){ ino, id, 0, false };
}

/* Walk from fd with req until the end, adding each namespace; closes fd unless it is from. */
static int
nslist_walk_from(int from, unsigned long req, struct nslist *l)
{
	struct kapi_mnt_ns_info info;
	struct stat st;
	int cur = from, next;

	for (;;) {
		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		next = ioctl(cur, req, &info);
		if (cur != from)
			close(cur);
		if (next < 0)
			return errno == ENOENT ? 0 : -1;
		if (fstat(next, &st) == 0)
			nslist_add(l, st.st_ino, info.mnt_ns_id);
		cur = next;
	}
}

int
nslist_walk(struct nslist *l)
{
	struct stat st;
	uint64_t id = 0;
	int fd = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC), r;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) == 0 && ioctl(fd, KAPI_NS_GET_MNTNS_ID, &id) == 0)
		nslist_add(l, st.st_ino, id);
	r = nslist_walk_from(fd, KAPI_NS_MNT_GET_PREV, l);
	if (r == 0)
		r = nslist_walk_from(fd, KAPI_NS_MNT_GET_NEXT, l);
	close(fd);
	return r;
}

int
nslist_walk_probe(void)
{
	int fd = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC), next, e;

	if (fd < 0)
		return -1;
	/* Ours is in the list: a step either way ends it (ENOENT) or gives another. */
	next = ioctl(fd, KAPI_NS_MNT_GET_NEXT, NULL);
	e = errno;
	close(fd);
	if (next >= 0)
		close(next);
	errno = e;
	return next >= 0 || e == ENOENT ? 0 : -1;
}

int
nslist_scan_proc(struct nslist *l, bool add)
{
	DIR *d = opendir("/proc");
	struct nslist_found *f;
	struct dirent *de;
	struct stat st;
	char p[64], *end;
	long n;

	if (d == NULL)
		return -1;
	while ((de = readdir(d)) != NULL) {
		n = strtol(de->d_name, &end, 10);
		if (*end != '\0' || n <= 0 || n > INT_MAX)
			continue;
		snprintf(p, sizeof(p), "/proc/%ld/ns/mnt", n);
		if (stat(p, &st) < 0)
			continue;
		if (add)
			nslist_add(l, st.st_ino, 0);
		if ((f = nslist_find(l, st.st_ino)) && (f->pid == 0 || f->pid > n))
			f->pid = (pid_t)n;
	}
	closedir(d);
	return 0;
}

