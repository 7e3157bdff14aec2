/*
 * listmount(2) and statmount(2) (Linux 6.8): the mount table by 64-bit unique mount id, one mount
 * at a time, without reading /proc/self/mountinfo.
 *
 * statmount(2) names another namespace's mounts (6.11: the request's mnt_ns_id) from the root of
 * that namespace; /proc/PID/mountinfo names them from the root of the process watchq follows
 * there. The two differ where that process is chrooted. Mount points are made relative to its
 * root, as mountinfo has them. Those outside it, which mountinfo leaves out, are kept with an
 * empty path: known, so that their detach is not transient, and under no watched directory.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "buf.h"
#include "compat.h"
#include "path.h"
#include "statmount.h"
#include "xalloc.h"

#define LIST_STEP	1024

/*
 * STATMOUNT_PROPAGATE_FROM walks the peers of a slave's masters, as each read of mountinfo does
 * for every slave: a cost for slaves only, and propagate_from is part of what mountinfo shows.
 */
#define STAT_MASK (KAPI_STATMOUNT_SB_BASIC | KAPI_STATMOUNT_MNT_BASIC | KAPI_STATMOUNT_MNT_ROOT | \
	KAPI_STATMOUNT_MNT_POINT | KAPI_STATMOUNT_FS_TYPE | KAPI_STATMOUNT_MNT_OPTS | \
	KAPI_STATMOUNT_SB_SOURCE | KAPI_STATMOUNT_PROPAGATE_FROM)
/* What a remount or a propagation change can change. */
#define ATTR_MASK (KAPI_STATMOUNT_SB_BASIC | KAPI_STATMOUNT_MNT_BASIC | KAPI_STATMOUNT_MNT_OPTS | \
	KAPI_STATMOUNT_PROPAGATE_FROM)

/* Room for "shared:N,master:N,propagate_from:N,unbindable" with 64-bit numbers. */
#define PROPAGATION_MAX	160

/* The request for mount id (or LSMT_ROOT) with param, in km's namespace. */
static struct kapi_mnt_id_req
request(const struct statmount_buf *km, uint64_t id, uint64_t param)
{
	struct kapi_mnt_id_req req = {
		.size = KAPI_MNT_ID_REQ_SIZE_VER0, .mnt_id = id, .param = param,
	};

	if (km->ns_id) {
		req.size = KAPI_MNT_ID_REQ_SIZE_VER1;
		req.mnt_ns_id = km->ns_id;
	}
	return req;
}

static long
sys_statmount(const struct statmount_buf *km, uint64_t id, uint64_t mask, void *buf, size_t size)
{
	struct kapi_mnt_id_req req = request(km, id, mask);

	return syscall(__NR_statmount, &req, buf, size, 0);
}

/* The mounts below mount top (LSMT_ROOT: the root too), by id, after last. */
static long
sys_listmount(const struct statmount_buf *km, uint64_t top, uint64_t last, uint64_t *ids,
    size_t n)
{
	struct kapi_mnt_id_req req = request(km, top, last);

	return syscall(__NR_listmount, &req, ids, n, 0);
}

int
statmount_probe(void)
{
	struct statmount_buf ours = { 0 };

	/* A NULL buffer: EFAULT means the call exists. */
	if (sys_statmount(&ours, KAPI_LSMT_ROOT, 0, NULL, 0) < 0 && errno == ENOSYS)
		return -1;
	return 0;
}

static const char *
str_at(const struct kapi_statmount *sm, uint64_t bit, uint32_t off, size_t size, const char *dflt)
{
	if (!(sm->mask & bit) || sizeof(*sm) + off >= size)
		return dflt;
	return sm->str + off;
}

/* Per-mount options in the order and spelling of /proc/self/mountinfo. */
static void
vfs_options(struct buf *b, uint64_t attr)
{
	buf_adds(b, attr & KAPI_MOUNT_ATTR_RDONLY ? "ro" : "rw");
	if (attr & KAPI_MOUNT_ATTR_NOSUID)
		buf_adds(b, ",nosuid");
	if (attr & KAPI_MOUNT_ATTR_NODEV)
		buf_adds(b, ",nodev");
	if (attr & KAPI_MOUNT_ATTR_NOEXEC)
		buf_adds(b, ",noexec");
	/* mountinfo's order: noatime, nodiratime in any mode, relatime; strictatime shows none. */
	if ((attr & KAPI_MOUNT_ATTR__ATIME) == KAPI_MOUNT_ATTR_NOATIME)
		buf_adds(b, ",noatime");
	if (attr & KAPI_MOUNT_ATTR_NODIRATIME)
		buf_adds(b, ",nodiratime");
	if ((attr & KAPI_MOUNT_ATTR__ATIME) == KAPI_MOUNT_ATTR_RELATIME)
		buf_adds(b, ",relatime");
	if (attr & KAPI_MOUNT_ATTR_NOSYMFOLLOW)
		buf_adds(b, ",nosymfollow");
	if (attr & KAPI_MOUNT_ATTR_IDMAP)
		buf_adds(b, ",idmapped");
}

/* Superblock options as mountinfo shows them: ro/rw, generic flags, then the filesystem's own. */
static void
sb_options(struct buf *b, uint32_t flags, const char *own)
{
	buf_adds(b, flags & KAPI_SB_RDONLY ? "ro" : "rw");
	if (flags & KAPI_SB_SYNCHRONOUS)
		buf_adds(b, ",sync");
	if (flags & KAPI_SB_DIRSYNC)
		buf_adds(b, ",dirsync");
	if (flags & KAPI_SB_LAZYTIME)
		buf_adds(b, ",lazytime");
	if (*own) {
		buf_addc(b, ',');
		buf_adds(b, own);
	}
}

/* Propagation as mountinfo's optional fields spell it, comma-separated; "private" for none. */
static void
propagation_of(char *s, const struct kapi_statmount *sm)
{
	int n = 0;

	if (sm->mnt_propagation & KAPI_MS_SHARED)
		n += snprintf(s + n, PROPAGATION_MAX - n, ",shared:%llu",
		    (unsigned long long)sm->mnt_peer_group);
	if (sm->mnt_propagation & KAPI_MS_SLAVE)
		n += snprintf(s + n, PROPAGATION_MAX - n, ",master:%llu",
		    (unsigned long long)sm->mnt_master);
	/* mountinfo leaves propagate_from out where it is the master itself. */
	if ((sm->mask & KAPI_STATMOUNT_PROPAGATE_FROM) && sm->propagate_from &&
	    sm->propagate_from != sm->mnt_master)
		n += snprintf(s + n, PROPAGATION_MAX - n, ",propagate_from:%llu",
		    (unsigned long long)sm->propagate_from);
	if (sm->mnt_propagation & KAPI_MS_UNBINDABLE)
		n += snprintf(s + n, PROPAGATION_MAX - n, ",unbindable");
	if (n == 0)
		snprintf(s, PROPAGATION_MAX, "private");
	else
		memmove(s, s + 1, (size_t)n);
}

/* statmount(2) of id with mask into km's buffer; NULL with errno set (ENOENT: gone). */
static struct kapi_statmount *
stat_into(struct statmount_buf *km, uint64_t id, uint64_t mask)
{
	struct kapi_statmount *sm;

	if (km->size == 0) {
		km->size = 16384;
		km->buf = xmalloc(km->size);
	}
	for (;;) {
		memset(km->buf, 0, sizeof(struct kapi_statmount));
		if (sys_statmount(km, id, mask, km->buf, km->size) == 0)
			break;
		if (errno == EINTR)
			continue;
		if (errno != EOVERFLOW || km->size >= (1u << 24))
			return NULL;
		km->size *= 2;
		km->buf = xreallocarray(km->buf, km->size, 1);
	}
	sm = km->buf;
	if (sm->size > km->size || sm->size < sizeof(*sm)) {
		errno = EPROTO;
		return NULL;
	}
	/* The kernel NUL-terminates each string; make sure the last one ends in the buffer. */
	((char *)km->buf)[sm->size - 1] = '\0';
	return sm;
}

/* The per-mount and superblock option lists of sm into vfs and fs (reset first). */
static void
options_of(const struct kapi_statmount *sm, struct buf *vfs, struct buf *fs)
{
	buf_reset(vfs);
	buf_reset(fs);
	vfs_options(vfs, sm->mnt_attr);
	sb_options(fs, sm->sb_flags,
	    str_at(sm, KAPI_STATMOUNT_MNT_OPTS, sm->mnt_opts, sm->size, ""));
}

/* Mount point p as the process followed in km's namespace sees it ("" where it cannot). */
static const char *
seen_from_root(const struct statmount_buf *km, const char *p)
{
	size_t n;

	if (!km->ns_id || km->root == NULL || strcmp(km->root, "/") == 0)
		return p;
	if (!path_within(km->root, p))
		return "";
	n = strlen(km->root);
	return p[n] ? p + n : "/";
}

struct mounttab_entry *
statmount_one(struct statmount_buf *km, uint64_t id)
{
	struct kapi_statmount *sm;
	struct mounttab_entry *e;
	char prop[PROPAGATION_MAX];

	if ((sm = stat_into(km, id, STAT_MASK)) == NULL)
		return NULL;
	options_of(sm, &km->vfs, &km->fs);
	e = mounttab_entry_new(sm->mnt_id, sm->mnt_parent_id,
	    makedev(sm->sb_dev_major, sm->sb_dev_minor),
	    seen_from_root(km, str_at(sm, KAPI_STATMOUNT_MNT_POINT, sm->mnt_point, sm->size, "")),
	    str_at(sm, KAPI_STATMOUNT_SB_SOURCE, sm->sb_source, sm->size, ""),
	    str_at(sm, KAPI_STATMOUNT_FS_TYPE, sm->fs_type, sm->size, ""),
	    str_at(sm, KAPI_STATMOUNT_MNT_ROOT, sm->mnt_root, sm->size, ""),
	    km->vfs.data, km->fs.data);
	e->mount_id = sm->mnt_id_old;
	e->parent_mount_id = sm->mnt_parent_id_old;
	e->unique_id = sm->mnt_id;
	propagation_of(prop, sm);
	mounttab_entry_set_propagation(e, prop);
	km->partial = (sm->mask & (KAPI_STATMOUNT_SB_SOURCE | KAPI_STATMOUNT_MNT_OPTS)) !=
	    (KAPI_STATMOUNT_SB_SOURCE | KAPI_STATMOUNT_MNT_OPTS);
	return e;
}

int
statmount_same_options(struct statmount_buf *km, const struct mounttab_entry *e)
{
	struct kapi_statmount *sm;
	char prop[PROPAGATION_MAX];

	/* Neither the path nor the type nor the source: the options alone are cheap to read. */
	if ((sm = stat_into(km, e->id, ATTR_MASK)) == NULL)
		return -1;
	options_of(sm, &km->vfs, &km->fs);
	propagation_of(prop, sm);
	return strcmp(km->vfs.data, e->vfs_opts) == 0 && strcmp(km->fs.data, e->fs_opts) == 0 &&
	    strcmp(prop, e->propagation) == 0;
}

int
statmount_read_table(struct statmount_buf *km, struct mounttab *t)
{
	uint64_t ids[LIST_STEP], last = 0;
	struct mounttab_entry *e;
	long n, i;

	/* LSMT_ROOT lists our root too, then every mount below it, by id. */
	for (;;) {
		n = sys_listmount(km, KAPI_LSMT_ROOT, last, ids, LIST_STEP);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0)
			break;
		for (i = 0; i < n; i++) {
			/* A mount that went between listing and statmount is no longer there. */
			if ((e = statmount_one(km, ids[i])) != NULL)
				mounttab_insert(t, e);
			else if (errno != ENOENT)
				return -1;
		}
		last = ids[n - 1];
	}
	return 0;
}

/* Call fn with the id of each mount below top (LSMT_ROOT: our root too) that is above last. */
static int
each_listed(struct statmount_buf *km, uint64_t top, uint64_t last, statmount_id_fn *fn, void *ctx)
{
	uint64_t ids[LIST_STEP];
	long n, i;

	for (;;) {
		n = sys_listmount(km, top, last, ids, LIST_STEP);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return (int)n;
		for (i = 0; i < n; i++)
			fn(ctx, ids[i]);
		last = ids[n - 1];
	}
}

int
statmount_each_below(struct statmount_buf *km, uint64_t top, statmount_id_fn *fn, void *ctx)
{
	return each_listed(km, top, 0, fn, ctx);
}

int
statmount_each_after(struct statmount_buf *km, uint64_t after, statmount_id_fn *fn, void *ctx)
{
	return each_listed(km, KAPI_LSMT_ROOT, after, fn, ctx);
}

int
statmount_old_id(struct statmount_buf *km, uint64_t id, uint64_t *old)
{
	struct kapi_statmount *sm = stat_into(km, id, KAPI_STATMOUNT_MNT_BASIC);

	if (sm == NULL)
		return errno == ENOENT ? 0 : -1;
	*old = sm->mnt_id_old;
	return 1;
}

int
statmount_ns_mounts(int nsfd, uint64_t *n)
{
	struct kapi_mnt_ns_info info = { .size = sizeof(info) };

	if (ioctl(nsfd, KAPI_NS_MNT_GET_INFO, &info) < 0)
		return -1;
	*n = info.nr_mounts;
	return 0;
}

void
statmount_free(struct statmount_buf *km)
{
	free(km->buf);
	km->buf = NULL;
	km->size = 0;
	buf_free(&km->vfs);
	buf_free(&km->fs);
}
