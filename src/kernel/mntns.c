/*
 * Another mount namespace, seen through a process in it. Its nsfs file gives its identity (inode
 * number, and the id statmount(2) takes); the process gives its root, its /proc/PID/mountinfo and
 * a pidfd.
 *
 * A namespace lives as long as anything holds it. fanotify does tell of its end (on 6.18: a detach
 * record for each of its mounts, after which listmount(2) by its id fails with ENOENT), but only
 * once nothing holds it, and every nsfs or mountinfo fd holds it, such as the one that carries
 * remounts. So whether it is gone is decided by its members. When the process followed exits,
 * its pidfd turns readable (exit_notify(), after exit_task_namespaces() has taken it out of its
 * namespaces), and /proc is searched for another process whose ns/mnt is the namespace. With none
 * left the namespace is gone, and watchq closes every fd it holds on it, so that the kernel can
 * free it and unmount its mounts. A namespace kept by a bind-mounted nsfs file is gone all the
 * same; a process that leaves with setns(2) or unshare(2) instead of exiting is noticed when it
 * exits.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "buf.h"
#include "compat.h"
#include "mntns.h"
#include "path.h"
#include "xalloc.h"

#define FOLLOW_TRIES	16	/* candidates that vanish as they are taken, before giving up */
#define SETTLE_TRIES	100	/* looks at a root, 1 ms apart, for pivot_root(2) to end */

/* Whether pid's mount namespace is ns now. */
static bool
mntns_has_member(const struct mntns *ns, pid_t pid)
{
	char p[64];
	struct stat st;

	snprintf(p, sizeof(p), "/proc/%d/ns/mnt", (int)pid);
	return stat(p, &st) == 0 && st.st_dev == ns->dev && st.st_ino == ns->ino;
}

/* Whether the process followed has exited. */
static bool
mntns_followed_exited(const struct mntns *ns)
{
	struct pollfd p = { ns->pidfd, POLLIN, 0 };

	if (ns->pidfd < 0)
		return false;
	while (poll(&p, 1, 0) < 0 && errno == EINTR)
		;
	return p.revents != 0;
}

static void
close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/*
 * Follow pid: its pidfd first, then the check that it is in ns, which a pid reused before the
 * pidfd was opened fails.
 */
static int
mntns_follow_pid(struct mntns *ns, pid_t pid)
{
	int fd = (int)syscall(SYS_pidfd_open, pid, 0);
	char p[64];

	if (fd < 0 && errno != ENOSYS)
		return -1;
	if (!mntns_has_member(ns, pid)) {
		if (fd >= 0)
			close(fd);
		errno = ESRCH;
		return -1;
	}
	close_fd(&ns->pidfd);
	ns->pidfd = fd;
	ns->pid = pid;
	/* Checked as the pidfd is: the caller looks whether the process exited after this. */
	close_fd(&ns->cgroupfd);
	free(ns->cgroup);
	ns->cgroup = NULL;
	snprintf(p, sizeof(p), "/proc/%d/cgroup", (int)pid);
	ns->cgroupfd = open(p, O_RDONLY | O_CLOEXEC);
	(void)mntns_cgroup(ns);
	return 0;
}

/* The lowest-numbered process in ns, 0 if none (we may look at); -1 if /proc cannot be read. */
static pid_t
mntns_find_member(const struct mntns *ns)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	pid_t pid = 0;

	if (d == NULL)
		return -1;
	while (pid == 0 && (de = readdir(d)) != NULL) {
		char *end;
		long n = strtol(de->d_name, &end, 10);

		if (*end == '\0' && n > 0 && n <= INT_MAX && mntns_has_member(ns, (pid_t)n))
			pid = (pid_t)n;
	}
	closedir(d);
	return pid;
}

/* readlink(2) of fd's /proc/self/fd entry: where the kernel places what fd names. */
static char *
fd_path(int fd)
{
	char link[64], buf[PATH_MAX];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	if ((n = readlink(link, buf, sizeof(buf))) < 0)
		return NULL;
	if ((size_t)n == sizeof(buf)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	buf[n] = '\0';
	return xstrdup(buf);
}

/*
 * Follow pid, the first process followed, and take its root. readlink(2) of that root names it as
 * statmount(2) names the mount points of another namespace (from the top of its tree, which is not
 * reachable from our root: checked on 6.18 for a chrooted process and for one that called
 * pivot_root(2)), and as /proc/self/fd names any path looked up from it.
 */
static int
mntns_follow_first(struct mntns *ns, pid_t pid)
{
	char p[64];

	if (mntns_follow_pid(ns, pid) < 0)
		return -1;
	snprintf(p, sizeof(p), "/proc/%d/root", (int)pid);
	if ((ns->rootfd = open(p, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -1;
	if ((ns->root = fd_path(ns->rootfd)) == NULL || ns->root[0] != '/' ||
	    mntns_followed_exited(ns)) {
		close_fd(&ns->rootfd);
		free(ns->root);
		ns->root = NULL;
		errno = ESRCH;
		return -1;
	}
	return 0;
}

/* The process (thread group) of thread pid: pid itself for a leader; -1 with errno set. */
static pid_t
pid_tgid(pid_t pid)
{
	char p[64], line[128];
	FILE *f;
	int tgid = -1;

	snprintf(p, sizeof(p), "/proc/%d/status", (int)pid);
	if ((f = fopen(p, "re")) == NULL)
		return -1;
	while (tgid < 0 && fgets(line, sizeof(line), f))
		if (sscanf(line, "Tgid: %d", &tgid) != 1)
			tgid = -1;
	fclose(f);
	errno = ESRCH;
	return tgid > 0 ? (pid_t)tgid : -1;
}

/* arg as a PID (only digits), or -1. */
static pid_t
pid_arg(const char *arg)
{
	const char *p;

	for (p = arg; isdigit((unsigned char)*p); p++)
		;
	if (p == arg || *p || p - arg > 9)
		return -1;
	return (pid_t)atoi(arg);
}

/*
 * Open the nsfs file arg names (a PID: its /proc/PID/ns/mnt) and read the namespace's identity
 * into ns: the PID arg names (0: none), or -1 with errno set.
 */
static pid_t
mntns_open_nsfs(struct mntns *ns, const char *arg)
{
	char file[64];
	const char *path = arg;
	struct stat st;
	pid_t pid = pid_arg(arg);
	int n = 0;

	if (pid >= 0) {
		snprintf(file, sizeof(file), "/proc/%d/ns/mnt", (int)pid);
		path = file;
	} else if (sscanf(arg, "/proc/%d/ns/mnt%n", &pid, &n) != 1 || arg[n] != '\0') {
		pid = 0;
	}
	if ((ns->nsfd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		/* A zombie is still in /proc, without namespaces: no process to follow. */
		snprintf(file, sizeof(file), "/proc/%d", (int)pid);
		if (path == file && errno == ENOENT)
			errno = access(file, F_OK) == 0 ? ENXIO : ESRCH;
		return -1;
	}
	if (fstat(ns->nsfd, &st) < 0)
		return -1;
	if (ioctl(ns->nsfd, KAPI_NS_GET_NSTYPE) != CLONE_NEWNS) {
		errno = EINVAL;
		return -1;
	}
	ns->dev = st.st_dev;
	ns->ino = st.st_ino;
	if (ioctl(ns->nsfd, KAPI_NS_GET_MNTNS_ID, &ns->id) < 0)
		ns->id = 0;
	return pid > 0 ? pid : 0;
}

/* Whether following a process failed for a reason another process would fail for too. */
static bool
mntns_fatal(int e)
{
	return e == EACCES || e == EPERM || e == EMFILE || e == ENFILE;
}

int
mntns_open(struct mntns *ns, const char *arg)
{
	pid_t pid, tgid;
	int tries;

	memset(ns, 0, sizeof(*ns));
	ns->arg = arg;
	ns->pidfd = ns->nsfd = ns->rootfd = ns->cgroupfd = -1;
	if ((pid = mntns_open_nsfs(ns, arg)) < 0)
		return -1;
	/*
	 * The process named, or the process of the thread named (no pidfd follows a thread);
	 * else (a file named the namespace, or that process is gone) another. A thread whose own
	 * process is in another namespace names no process to follow.
	 */
	if (pid > 0 && (tgid = pid_tgid(pid)) > 0) {
		if (mntns_follow_first(ns, tgid) == 0)
			return 0;
		if (mntns_fatal(errno))
			return -1;
		if (tgid != pid) {
			errno = ENXIO;
			return -1;
		}
	} else if (pid > 0 && mntns_fatal(errno)) {
		return -1;	/* out of fds, say: not "no process" */
	}
	for (tries = 0; tries < FOLLOW_TRIES; tries++) {
		if ((pid = mntns_find_member(ns)) < 0 && mntns_fatal(errno))
			return -1;
		if (pid <= 0)
			break;
		if (mntns_follow_first(ns, pid) == 0)
			return 0;
		if (mntns_fatal(errno))
			return -1;
	}
	errno = ENXIO;
	return -1;
}

void
mntns_close(struct mntns *ns)
{
	close_fd(&ns->pidfd);
	close_fd(&ns->nsfd);
	close_fd(&ns->rootfd);
	close_fd(&ns->cgroupfd);
	free(ns->root);
	ns->root = NULL;
	free(ns->cgroup);
	ns->cgroup = NULL;
}

bool
mntns_follow(struct mntns *ns)
{
	pid_t pid;
	int tries;

	for (tries = 0; tries < FOLLOW_TRIES && (pid = mntns_find_member(ns)) > 0; tries++)
		if (mntns_follow_pid(ns, pid) == 0 && !mntns_followed_exited(ns))
			return true;
	ns->gone = true;
	close_fd(&ns->pidfd);
	close_fd(&ns->nsfd);
	close_fd(&ns->rootfd);
	close_fd(&ns->cgroupfd);
	return false;
}

int
mntns_root_id(const struct mntns *ns, struct mntns_root_id *id)
{
	char p[64] = "/";
	struct statx stx;

	if (ns)
		snprintf(p, sizeof(p), "/proc/%d/root", (int)ns->pid);
	if (statx(AT_FDCWD, p, 0, STATX_INO | KAPI_STATX_MNT_ID_UNIQUE, &stx) < 0)
		return -1;
	*id = (struct mntns_root_id){ ns ? ns->pid : 0, stx.stx_mnt_id,
	    makedev(stx.stx_dev_major, stx.stx_dev_minor), stx.stx_ino };
	return 0;
}

bool
mntns_root_same(const struct mntns_root_id *a, const struct mntns_root_id *b)
{
	return a->pid != b->pid ||
	    (a->mnt_id == b->mnt_id && a->dev == b->dev && a->ino == b->ino);
}

/*
 * pivot_root(2) moves the root mount, raises the mountinfo signal and queues its fanotify records
 * first, and changes the roots of the processes there after that: a reader woken in between sees
 * the new tree from the old root. A process whose root was elsewhere keeps it, and the wait ends
 * without a change.
 */
bool
mntns_root_settle(const struct mntns *ns, struct mntns_root_id *was)
{
	struct mntns_root_id now;
	int i;

	for (i = 0; i < SETTLE_TRIES; i++) {
		if (mntns_root_id(ns, &now) == 0 && !mntns_root_same(was, &now)) {
			*was = now;
			return true;
		}
		nanosleep(&(struct timespec){ 0, 1000000L }, NULL);
	}
	return false;
}

int
mntns_reroot(struct mntns *ns)
{
	char p[64], *root;
	int fd;

	snprintf(p, sizeof(p), "/proc/%d/root", (int)ns->pid);
	if ((fd = open(p, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -1;
	if ((root = fd_path(fd)) == NULL || root[0] != '/' || mntns_followed_exited(ns)) {
		close(fd);
		free(root);
		errno = ESRCH;
		return -1;
	}
	close_fd(&ns->rootfd);
	free(ns->root);
	ns->rootfd = fd;
	ns->root = root;
	return 0;
}

int
mntns_mountinfo(struct mntns *ns)
{
	char p[64];
	int fd;

	if (ns == NULL)
		return open(PATH_MOUNTINFO, O_RDONLY | O_CLOEXEC);
	/* Opening the file binds the process's namespace: the process must not have exited. */
	while (!ns->gone) {
		snprintf(p, sizeof(p), "/proc/%d/mountinfo", (int)ns->pid);
		if ((fd = open(p, O_RDONLY | O_CLOEXEC)) >= 0 && !mntns_followed_exited(ns))
			return fd;
		/* EINVAL: the process is leaving its namespaces as it exits. */
		if (fd >= 0)
			close(fd);
		else if (errno != ENOENT && errno != ESRCH && errno != EINVAL)
			return -1;
		mntns_follow(ns);
	}
	errno = ESRCH;
	return -1;
}

/* An O_PATH fd of the absolute path in ns, looked up from its root, the last symlink followed. */
static int
mntns_lookup(const struct mntns *ns, const char *path)
{
	struct open_how how = {
		.flags = O_PATH | O_CLOEXEC,
		/* Absolute symlinks and ".." stay inside; /proc's magic links lead anywhere. */
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	struct buf b = { 0 };
	int fd;

	if (ns->rootfd < 0) {
		errno = ESRCH;
		return -1;
	}
	fd = (int)syscall(SYS_openat2, ns->rootfd, path, &how, sizeof(how));
	if (fd >= 0 || errno != ENOSYS)
		return fd;
	/*
	 * Before Linux 5.6: through the root's fd. An absolute symlink on the way then leads into
	 * our own namespace.
	 */
	buf_addf(&b, "/proc/self/fd/%d%s", ns->rootfd, path);
	fd = open(b.data, O_PATH | O_CLOEXEC);
	buf_free(&b);
	return fd;
}

/*
 * Look path up in ns and statx it; with full, its canonical path there too (from the namespace's
 * root, as fd_path() gives it), allocated. -1 with errno set.
 * The lookup holds its parent, not the path itself, where it can: an fd of a mount's root holds
 * the mount, and an umount(2) of it made meanwhile in that namespace fails with EBUSY (-N all looks
 * a new namespace's paths up as its mounts are made). Where the last component is a symlink, ".",
 * or "..", the path itself is looked up, as the symlink must be followed inside the root.
 */
static int
mntns_find(const struct mntns *ns, const char *path, struct statx *stx, char **full)
{
	const unsigned mask = STATX_TYPE | STATX_MNT_ID;
	const char *base = strrchr(path, '/');
	struct buf b = { 0 };
	char *dir;
	int fd, r;

	if (base && base != path + strlen(path) - 1 && strcmp(base, "/.") != 0 &&
	    strcmp(base, "/..") != 0) {
		buf_addf(&b, "%.*s", base == path ? 1 : (int)(base - path), path);
		base++;
		fd = mntns_lookup(ns, b.data);
		buf_free(&b);
		if (fd < 0)
			return -1;
		r = statx(fd, base, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT, mask, stx);
		if (r == 0 && !S_ISLNK(stx->stx_mode)) {
			if (full && (dir = fd_path(fd)) != NULL) {
				buf_addf(&b, "%s%s%s", dir, strcmp(dir, "/") == 0 ? "" : "/", base);
				free(dir);
				*full = b.data;
			} else if (full) {
				r = -1;
			}
		}
		close(fd);
		if (r < 0 || !S_ISLNK(stx->stx_mode))
			return r;
	}
	if ((fd = mntns_lookup(ns, path)) < 0)
		return -1;
	r = statx(fd, "", AT_EMPTY_PATH | AT_NO_AUTOMOUNT, mask, stx);
	if (r == 0 && full && (*full = fd_path(fd)) == NULL)
		r = -1;
	close(fd);
	return r;
}

int
mntns_statx(const struct mntns *ns, const char *path, struct statx *stx)
{
	if (ns == NULL)
		return statx(AT_FDCWD, path, AT_NO_AUTOMOUNT, STATX_TYPE | STATX_MNT_ID, stx);
	return mntns_find(ns, path, stx, NULL);
}

/*
 * The canonical path of path in ns (it must exist): where the kernel placed it, without the part
 * that leads to the root.
 */
static char *
mntns_resolve(void *ctx, const char *path)
{
	const struct mntns *ns = ctx;
	size_t n = strlen(ns->root);
	struct statx stx;
	char *full, *rel;

	if (mntns_find(ns, path, &stx, &full) < 0)
		return NULL;
	if (strcmp(ns->root, "/") == 0)
		return full;
	if (!path_within(ns->root, full)) {
		free(full);
		errno = ENOENT;
		return NULL;
	}
	rel = xstrdup(full[n] ? full + n : "/");
	free(full);
	return rel;
}

char *
mntns_canon(const struct mntns *ns, const char *path, bool lenient)
{
	if (ns == NULL)
		return lenient ? path_canon_lenient(path) : path_canon(path);
	if (lenient)
		return path_canon_lenient_by(path, mntns_resolve, (void *)ns);
	return mntns_resolve((void *)ns, path);
}

char *
mntns_reach(const struct mntns *ns, const char *path)
{
	struct buf b = { 0 };

	if (ns == NULL)
		return xstrdup(path);
	buf_addf(&b, "/proc/self/fd/%d%s", ns->rootfd, strcmp(path, "/") == 0 ? "" : path);
	return b.data;
}

/*
 * The cgroup v2 path in text, a /proc/PID/cgroup file's (its line "0::PATH"), allocated; NULL if it
 * has none. A hybrid host lists its v1 hierarchies too: the v2 line is not always the first.
 */
static char *
cgroup_v2(const char *text)
{
	const char *p, *nl;
	char *path;

	for (p = text; *p; p = nl + 1) {
		nl = strchrnul(p, '\n');
		if (strncmp(p, "0::", 3) == 0) {
			path = xmalloc((size_t)(nl - p) - 2);
			memcpy(path, p + 3, (size_t)(nl - p) - 3);
			path[nl - p - 3] = '\0';
			return path;
		}
		if (*nl == '\0')
			break;
	}
	return NULL;
}

/*
 * Read fd, a /proc file, whole from its start into b; -1 with errno set. A read that comes short
 * is the end: the kernel makes the whole file at once, and a second read would make it again.
 */
static int
read_whole(int fd, struct buf *b)
{
	char chunk[4096];
	off_t off = 0;
	ssize_t n;

	for (;;) {
		while ((n = pread(fd, chunk, sizeof(chunk), off)) < 0 && errno == EINTR)
			;
		if (n < 0)
			return -1;
		buf_add(b, chunk, (size_t)n);
		if ((size_t)n < sizeof(chunk))
			return 0;
		off += n;
	}
}

/*
 * A process may move to another cgroup at any time (a container runtime moves one in after its
 * unshare(2)), and nothing tells of it: the file is read again at each record, one pread(2) of
 * the file kept open. That fd stays the process's, whatever takes its pid later: a read fails
 * (ESRCH) once it has exited, and the path last read stays.
 */
const char *
mntns_cgroup(struct mntns *ns)
{
	struct buf b = { 0 };
	char *now = NULL;

	if (ns->cgroupfd >= 0 && read_whole(ns->cgroupfd, &b) == 0 && b.len > 0)
		now = cgroup_v2(b.data);
	buf_free(&b);
	if (now == NULL || (ns->cgroup && strcmp(now, ns->cgroup) == 0)) {
		free(now);
		return ns->cgroup;
	}
	free(ns->cgroup);
	ns->cgroup = now;
	return ns->cgroup;
}

uint64_t
mntns_self_ino(void)
{
	struct stat st;

	return stat("/proc/self/ns/mnt", &st) == 0 ? (uint64_t)st.st_ino : 0;
}
