#ifndef WATCHQ_MNTNS_H
#define WATCHQ_MNTNS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

struct capture;
struct fangroup;

#define MNTNS_MAX	16	/* -N options in one run */

/*
 * A mount namespace named by -N (as findmnt -N names one): seen through a
 * process in it, whose root its paths are relative to. Wherever a function
 * takes one, NULL stands for our own namespace.
 */
struct mntns {
	const char *arg;	/* -N as given */
	uint64_t ino;		/* the nsfs inode number, as lsns and /proc/PID/ns/mnt show it */
	dev_t dev;
	uint64_t id;		/* its id for statmount(2) and listmount(2); 0 before Linux 6.11 */
	pid_t pid;		/* the process followed, one in the namespace */
	int pidfd;		/* readable once pid exits; -1 before pidfd_open(2) (Linux 5.3) */
	int nsfd;		/* the nsfs file, for fanotify_mark(2) */
	int rootfd;		/* the followed process's root (O_PATH): lookups start here */
	/* Where that root lies in the namespace, as statmount(2) names mount points ("/" unless
	 * chrooted). */
	char *root;
	/* The cgroup v2 path of the process followed, from the 0:: line of /proc/PID/cgroup, as
	 * last read (mntns_cgroup()); NULL: unknown */
	char *cgroup;
	int cgroupfd;		/* that file, open: read again at each record */
	bool gone;		/* no process is left in it: every fd above is closed */
	/* -N all: the capture of the calls made in every namespace (not ours to close); NULL:
	 * none */
	struct capture *cap;
	/* -N all: the one fanotify group of every namespace (not ours to close); NULL: none */
	struct fangroup *group;
};

/* The root of the process followed (ours, for a NULL ns): whether it changed (pivot_root(2)). */
struct mntns_root_id {
	pid_t pid;		/* the process it is the root of; 0: ours */
	uint64_t mnt_id;	/* its mount's id */
	dev_t dev;
	ino_t ino;
};

/* Follow a process in the mount namespace of arg, a PID or an nsfs file; -1 with errno set: ESRCH
 * no such process, EINVAL no mount namespace, EACCES/EPERM not ours, ENXIO no process in it. */
int mntns_open(struct mntns *ns, const char *arg);
/* Release every fd and the root path (a zeroed or released ns is fine). */
void mntns_close(struct mntns *ns);
/* The process followed has exited: follow another process of the namespace (true), or mark the
 * namespace gone and release its fds (false). */
bool mntns_follow(struct mntns *ns);
/* The root of the process followed by ns (ours: NULL) into id; -1 with errno set. */
int mntns_root_id(const struct mntns *ns, struct mntns_root_id *id);
/* Whether a and b name the same root of the same process (another process's: true). */
bool mntns_root_same(const struct mntns_root_id *a, const struct mntns_root_id *b);
/* Wait a little for the root of the process followed (ours: NULL ns) to differ from *was, which
 * becomes the root then; whether it changed. */
bool mntns_root_settle(const struct mntns *ns, struct mntns_root_id *was);
/* Take the root of the process followed again, once it changed; -1 with errno set. */
int mntns_reroot(struct mntns *ns);
/* Open the mount table of ns (/proc/PID/mountinfo; ours: /proc/self/mountinfo) for reading and
 * POLLPRI; -1 with errno set. */
int mntns_mountinfo(struct mntns *ns);
/* statx(2) of the absolute path as the namespace's process sees it (the last symlink followed, no
 * automount) into stx, with at least STATX_TYPE, and STATX_MNT_ID since Linux 5.8; -1 with errno
 * set. */
int mntns_statx(const struct mntns *ns, const char *path, struct statx *stx);
/* The canonical form of the absolute path in the namespace (lenient: a missing rest appended as
 * path_canon_lenient() does); NULL with errno set. */
char *mntns_canon(const struct mntns *ns, const char *path, bool lenient);
/* A path of ours that leads to the absolute path in the namespace (through its root's fd), for
 * inotify(7); allocated. */
char *mntns_reach(const struct mntns *ns, const char *path);
/* The cgroup v2 path of the process followed, read now (as last read once it has exited: the
 * string may change at the next call); NULL if unknown. */
const char *mntns_cgroup(struct mntns *ns);
/* The inode number of our own mount namespace, 0 if /proc cannot say. */
uint64_t mntns_self_ino(void);

#endif
