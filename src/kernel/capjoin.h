#ifndef WATCHQ_CAPJOIN_H
#define WATCHQ_CAPJOIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "capture_rec.h"

/*
 * The join of a fanotify record to the captured mount call behind it: pure, so that the rule that
 * names a process is one function with a table of tests. A record gives the pid of the process in
 * whose context the kernel made the change and, while that process is not reaped, a pidfd; a pid
 * alone can be another process's since. A call is behind a record only where the call could make
 * that very change: the record's kind, its mount point (the call's target, or below it for a
 * recursive call) and, where the record has a pidfd, the same process (pidfs inode).
 */

/* What a record stands for, as bits: a call may cause several. */
enum capjoin_kind {
	CAPJOIN_ATTACH = 1,
	CAPJOIN_DETACH = 2,
	CAPJOIN_MOVE = 4,
};

/* A root, as statx(2) names it: its mount's unique id, its device and inode. */
struct capjoin_root {
	uint64_t mnt_id;
	unsigned major, minor;
	uint64_t ino;
};

/* A mount call that may be behind records: who made it, as they were at the call, and its
 * target. */
struct capjoin_call {
	uint32_t gtid;		/* the calling thread in the initial pid namespace */
	uint32_t tgid;		/* in watchq's pid namespace */
	uint64_t start;		/* when its process began: a pid reused is another start */
	uint64_t pid_ino;	/* its process's pidfs inode; 0: unknown */
	uint32_t uid;
	char comm[CAPTURE_COMM_LEN];
	uint64_t cgroup_id;	/* its cgroup v2 at the call; 0: unknown */
	unsigned kinds;		/* enum capjoin_kind bits it may cause */
	bool below;		/* also at mounts below its target */
	bool open, ok;		/* not ended yet; ended successfully */
	bool used;		/* named for a change (not recursive): it made that one */
	bool reused;		/* another process got its pid since: a pid alone is no proof */
	uint64_t end_epoch;	/* the capture's drain that saw it end */
	uint64_t mnt_ns;	/* the caller's mount namespace (inode) */
	struct capjoin_root root;	/* the caller's root */
	unsigned path_len;	/* bytes of path with its NUL; 0: none (no join by path) */
	char path[CAPTURE_PATH_LEN];
};

/* A change with no pid at all (the mountinfo backend's): any process's call may be behind it. */
#define CAPJOIN_ANY_PID	(-1)

/* A record to join: what fanotify and the cache show of it. */
struct capjoin_change {
	int32_t tgid;		/* the record's pid (watchq's pid namespace); 0: none;
				 * CAPJOIN_ANY_PID: a change read from the table, no pid */
	uint64_t pid_ino;	/* its pidfd's inode; 0: no pidfd */
	unsigned kind;		/* one enum capjoin_kind */
	const char *path;	/* the mount point (a move: where it went), from root in mnt_ns */
	bool spread;		/* its parent is shared: a copy made by propagation may be there */
	uint64_t mnt_ns;
	struct capjoin_root root;
};

/* Fill call from an entry record (its target, the kinds of record it may cause); false if the call
 * causes no attach, detach or move record (a remount, a propagation change, fsmount(2) ...): it is
 * kept all the same, as its process's identity at that call. */
bool capjoin_decode(const struct capture_enter *e, struct capjoin_call *call);
/* Whether the call's target and the record's mount point are paths from one root. */
bool capjoin_same_root(const struct capjoin_call *call, const struct capjoin_change *ch);
/* Whether call may be behind the record ch (it has not failed; kind, process and place agree). */
bool capjoin_may_be(const struct capjoin_call *call, const struct capjoin_change *ch);
/* Whether call, not failed and of ch's kind, has no place that can be told from ch's (see
 * capjoin_name()) and may have made it all the same. */
bool capjoin_unplaced(const struct capjoin_call *call, const struct capjoin_change *ch);
/*
 * The call of the n that is behind ch, if every one that may be agrees on the uid and name (any
 * of them, then), and so does every kept call of its process; NULL if none may be, or two
 * disagree. For CAPJOIN_ANY_PID, only if one call alone may be, and it is proof: it has ended
 * (a call under way may yet fail), its process has a pid here, and no call of that kind that
 * cannot be placed (a relative path, another root; another namespace's, where a copy may come
 * by propagation) may have made the change instead, and no call elsewhere may have been part of
 * it (a mount made there and moved here by the one; a move from there to the one's place).
 */
const struct capjoin_call *capjoin_name(const struct capjoin_call *calls, size_t n,
    const struct capjoin_change *ch);

#endif
