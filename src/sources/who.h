#ifndef WATCHQ_WHO_H
#define WATCHQ_WHO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event.h"
#include "mntns.h"

/* Room for a process's name as the capture saw it: 15 bytes and a NUL. */
#define WHO_COMM_MAX	16

struct capture;

/* What the records of one source are joined with: the capture, and where their paths are. */
struct who_proc {
	const struct capture *cap;	/* NULL: none; a record then names a pid alone */
	uint64_t mnt_ns;		/* the mount namespace of the records (its inode) */
	const struct mntns_root_id *root;	/* the root their paths are from; NULL: none */
	int cgroot;			/* cgroup v2's root, where cgroups are named; -1: none */
	char *cgroot_path;		/* its path */
};

/* The change a record stands for, as capjoin.h's enum capjoin_kind. */
enum who_kind {
	WHO_ATTACH = 1,
	WHO_DETACH = 2,
	WHO_MOVE = 4,
};

/* The process behind one fanotify record, looked at once, when first asked. */
struct who {
	const struct who_proc *proc;
	int pidfd;		/* the record's, until who_done(); -1: none */
	bool read;		/* who_get() has looked: by is final */
	enum who_kind kind;	/* 0: not said (who_at()) */
	const char *path;	/* the mount point it stands for */
	bool spread;		/* its parent is shared (a copy may be there) */
	struct ev_who by;
	char comm[WHO_COMM_MAX];
	uint64_t cgroup_id;	/* the process's cgroup at its call (the capture's); 0: unknown */
	char *cgroup;		/* its path, once who_cgroup() has looked */
};

/* Start w for a record's pid (0: hidden) and pidfd (negative: none), which w now owns; proc may be
 * NULL (no capture). */
void who_init(struct who *w, const struct who_proc *proc, int32_t pid, int pidfd);
/* Say what change w's record stands for (kind), its mount point (path, kept until who_get()), and
 * whether its parent is shared (spread). */
void who_at(struct who *w, enum who_kind kind, const char *path, bool spread);
/* What is known of the process: the record's pid, and its uid and name as they were at the mount
 * call behind the record where the capture saw that call (capjoin.h); else pid alone. */
const struct ev_who *who_get(struct who *w);
/* Start w as the process pid (positive), known already: its real uid and name at its call. */
void who_known(struct who *w, int32_t pid, uint32_t uid, const char *comm);
/* Open cgroup v2's root (/sys/fs/cgroup) into p, where who_cgroup() names cgroups; none there is
 * no error. */
void who_proc_cgroups(struct who_proc *p);
/* Close what who_proc_cgroups() opened. */
void who_proc_close(struct who_proc *p);
/* After who_get(): whether the capture told the cgroup of w's process at its call; if so, *path
 * is its path (as /proc/PID/cgroup spells it), or NULL where it cannot be named now. */
bool who_cgroup(struct who *w, const char **path);
/* Close w's pidfd, if any; w knows nothing after. */
void who_done(struct who *w);

#endif
