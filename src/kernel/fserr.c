/*
 * A FAN_FS_ERROR record names its filesystem by fsid only (and, for errors
 * about an inode, a file handle; an error about the whole superblock has
 * none). Two filesystems can share an fsid: ext4 derives it from the UUID,
 * which a cloned image or a snapshot keeps. So each superblock is marked in
 * a group where no other marked superblock has its fsid, and a record's
 * group and fsid together name exactly one superblock.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/fanotify.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "fserr.h"
#include "xalloc.h"

static int
fserr_add_group(struct fserr *fe)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct fserr_group *g;
	int fd;

	fd = fanotify_init(FAN_CLASS_NOTIF | FAN_REPORT_FID | FAN_CLOEXEC | FAN_NONBLOCK,
	    O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ev.data.fd = fd;
	if (epoll_ctl(fe->epfd, EPOLL_CTL_ADD, fd, &ev) < 0) {
		close(fd);
		return -1;
	}
	fe->groups = xreallocarray(fe->groups, fe->ngroups + 1, sizeof(*fe->groups));
	g = &fe->groups[fe->ngroups++];
	memset(g, 0, sizeof(*g));
	g->fd = fd;
	return 0;
}

int
fserr_open(struct fserr *fe)
{
	memset(fe, 0, sizeof(*fe));
	if ((fe->epfd = epoll_create1(EPOLL_CLOEXEC)) < 0)
		return -1;
	if (fserr_add_group(fe) < 0) {
		int e = errno;

		close(fe->epfd);
		fe->epfd = -1;
		errno = e;
		return -1;
	}
	return 0;
}

int
fserr_fd(const struct fserr *fe)
{
	return fe->epfd;
}

static struct fserr_sb *
fserr_find_fsid(const struct fserr_group *g, const int32_t fsid[2])
{
	size_t i;

	for (i = 0; i < g->n; i++)
		if (memcmp(g->sbs[i].fsid, fsid, sizeof(g->sbs[i].fsid)) == 0)
			return &g->sbs[i];
	return NULL;
}

/* Forget dev: a device can hold another filesystem after an unmount. */
static void
fserr_forget(struct fserr *fe, dev_t dev)
{
	size_t i, k;

	for (i = 0; i < fe->ngroups; i++) {
		struct fserr_group *g = &fe->groups[i];

		for (k = 0; k < g->n; k++) {
			if (g->sbs[k].dev != dev)
				continue;
			g->sbs[k] = g->sbs[--g->n];
			return;
		}
	}
}

int
fserr_mark(struct fserr *fe, const char *path, dev_t dev)
{
	struct statfs sf;
	struct fserr_group *g = NULL;
	struct fserr_sb *sb;
	int32_t fsid[2];
	size_t i;

	if (statfs(path, &sf) < 0)
		return -1;
	memcpy(fsid, &sf.f_fsid, sizeof(fsid));
	for (i = 0; i < fe->ngroups; i++) {
		sb = fserr_find_fsid(&fe->groups[i], fsid);
		if (sb && sb->dev == dev)
			return fanotify_mark(fe->groups[i].fd, FAN_MARK_ADD | FAN_MARK_FILESYSTEM,
			    FAN_FS_ERROR, AT_FDCWD, path);
	}
	fserr_forget(fe, dev);
	for (i = 0; i < fe->ngroups && g == NULL; i++)
		if (fserr_find_fsid(&fe->groups[i], fsid) == NULL)
			g = &fe->groups[i];
	if (g == NULL) {
		if (fserr_add_group(fe) < 0)
			return -1;
		g = &fe->groups[fe->ngroups - 1];
	}
	if (fanotify_mark(g->fd, FAN_MARK_ADD | FAN_MARK_FILESYSTEM, FAN_FS_ERROR, AT_FDCWD,
	    path) < 0)
		return -1;
	g->sbs = xreallocarray(g->sbs, g->n + 1, sizeof(*g->sbs));
	g->sbs[g->n].dev = dev;
	memcpy(g->sbs[g->n].fsid, fsid, sizeof(fsid));
	g->n++;
	return 0;
}

struct reading {
	const struct fserr_group *g;
	fserr_fn *fn;
	void *ctx;
	bool lost;
};

static void
fserr_on_record(void *p, const struct fan_rec *r)
{
	struct reading *rd = p;
	const struct fserr_sb *sb;

	if (r->mask & FAN_Q_OVERFLOW) {
		rd->lost = true;
		return;
	}
	if (!(r->mask & FAN_FS_ERROR))
		return;
	/* The kernel sends the fsid and error infos with every error: a record without them
	 * cannot be trusted, nor matched to a superblock. */
	if (!r->has_fsid || !r->has_error || (sb = fserr_find_fsid(rd->g, r->fsid)) == NULL) {
		rd->lost = true;
		return;
	}
	rd->fn(rd->ctx, sb->dev, r);
}

int
fserr_drain(struct fserr *fe, fserr_fn *fn, void *ctx)
{
	unsigned char buf[4096] __attribute__((aligned(8)));
	struct reading rd = { NULL, fn, ctx, false };
	ssize_t n;
	size_t i;

	for (i = 0; i < fe->ngroups; i++) {
		rd.g = &fe->groups[i];
		for (;;) {
			n = read(rd.g->fd, buf, sizeof(buf));
			if (n < 0) {
				if (errno == EINTR)
					continue;
				if (errno == EAGAIN)
					break;
				return -1;
			}
			if (n == 0)
				break;
			if (fan_decode(buf, (size_t)n, fserr_on_record, &rd) < 0)
				rd.lost = true;	/* a record we cannot trust */
		}
	}
	return rd.lost ? 1 : 0;
}

void
fserr_close(struct fserr *fe)
{
	size_t i;

	for (i = 0; i < fe->ngroups; i++) {
		close(fe->groups[i].fd);
		free(fe->groups[i].sbs);
	}
	free(fe->groups);
	if (fe->epfd >= 0)
		close(fe->epfd);
	memset(fe, 0, sizeof(*fe));
	fe->epfd = -1;
}
