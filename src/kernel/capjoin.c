/*
 * Which captured mount call is behind a fanotify record. The record's pid names the process in
 * whose context the kernel made the change; once that process is reaped, another can have the
 * pid, and a process can change a mount without a call the capture sees (an automount it walks
 * into). So a call is behind a record only where it could have made that very change: the kind
 * agrees, the mount point is the call's target where both are paths from one root in one mount
 * namespace, and the process is the pidfd's where the record has one. Where neither a path nor a
 * pidfd can tell, the call is not behind it.
 */
#include <string.h>

#include "capjoin.h"
#include "path.h"

/* The flags of mount(2) and umount2(2) that tell what a call does (linux/mount.h). */
#define MS_REMOUNT	32
#define MS_BIND		4096
#define MS_MOVE		8192
#define MS_REC		16384
#define MS_PROPAGATION	((1 << 17) | (1 << 18) | (1 << 19) | (1 << 20))
#define MNT_DETACH	2

/* The kinds of record a call may cause, and whether at mounts below its target; 0: none. */
static unsigned
call_kinds(const struct capture_enter *e, bool *below)
{
	unsigned long long flags = e->args[3];

	*below = false;
	switch (e->h.nr) {
	case CAPTURE_NR_MOUNT:
		/* The kernel's order: a remount, a bind, a propagation change, a move, a mount. */
		if (flags & MS_REMOUNT)
			return 0;
		if (flags & MS_BIND) {
			*below = (flags & MS_REC) != 0;
			return CAPJOIN_ATTACH;
		}
		if (flags & MS_PROPAGATION)
			return 0;
		return flags & MS_MOVE ? CAPJOIN_MOVE : CAPJOIN_ATTACH;
	case CAPTURE_NR_UMOUNT2:
		/* A lazy unmount detaches the mounts below too. */
		*below = (e->args[1] & MNT_DETACH) != 0;
		return CAPJOIN_DETACH;
	case CAPTURE_NR_MOVE_MOUNT:
		/* A detached tree (open_tree(2), fsmount(2)) is attached with the mounts in it. */
		*below = true;
		return CAPJOIN_ATTACH | CAPJOIN_MOVE;
	case CAPTURE_NR_PIVOT_ROOT:
		return CAPJOIN_MOVE;
	}
	return 0;
}

bool
capjoin_decode(const struct capture_enter *e, struct capjoin_call *call)
{
	memset(call, 0, sizeof(*call));
	call->kinds = call_kinds(e, &call->below);
	call->gtid = e->h.gtid;
	call->tgid = e->h.tgid;
	call->start = e->start;
	call->pid_ino = e->pid_ino;
	call->uid = e->uid;
	call->cgroup_id = e->cgroup_id;
	memcpy(call->comm, e->comm, sizeof(call->comm));
	call->comm[sizeof(call->comm) - 1] = '\0';
	call->open = true;
	call->mnt_ns = e->mnt_ns;
	call->root = (struct capjoin_root){ e->root_mnt_id, e->root_dev >> 20,
	    e->root_dev & 0xfffff, e->root_ino };
	/* pivot_root(2) moves "/", which its path does not name. */
	if (e->h.nr != CAPTURE_NR_PIVOT_ROOT && e->path_len > 1 && e->path[0] == '/' &&
	    e->path_len <= sizeof(call->path)) {
		memcpy(call->path, e->path, e->path_len);
		call->path[e->path_len - 1] = '\0';
		call->path_len = e->path_len;
	}
	return call->kinds != 0;
}

bool
capjoin_same_root(const struct capjoin_call *call, const struct capjoin_change *ch)
{
	return call->path_len > 0 && ch->path != NULL && call->root.mnt_id != 0 &&
	    call->mnt_ns == ch->mnt_ns && call->root.mnt_id == ch->root.mnt_id &&
	    call->root.major == ch->root.major && call->root.minor == ch->root.minor &&
	    call->root.ino == ch->root.ino;
}

bool
capjoin_may_be(const struct capjoin_call *call, const struct capjoin_change *ch)
{
	if (!(call->kinds & ch->kind) || (!call->open && !call->ok) || call->used)
		return false;
	/* The pidfd's process, or, without one, a pid no other process has had since the call. */
	if (ch->tgid != CAPJOIN_ANY_PID && (ch->tgid <= 0 || call->tgid != (uint32_t)ch->tgid ||
	    (ch->pid_ino != 0 ? call->pid_ino != ch->pid_ino : call->reused)))
		return false;
	/*
	 * Without a place in common (a relative path, another root or namespace) the call cannot
	 * be told from an automount its process walked into: no join. mount(8) and umount(8) pass
	 * the mount point as the kernel spells it; a path spelled otherwise (a symlink, "//")
	 * joins no record: nobody is named, never someone else.
	 */
	if (!capjoin_same_root(call, ch))
		return false;
	/* Under a shared parent a copy made by propagation may be anywhere (capjoin_name()). */
	if (ch->spread)
		return true;
	return call->below ? path_within(call->path, ch->path) : strcmp(call->path, ch->path) == 0;
}

bool
capjoin_unplaced(const struct capjoin_call *call, const struct capjoin_change *ch)
{
	if (!(call->kinds & ch->kind) || (!call->open && !call->ok) || call->used ||
	    capjoin_same_root(call, ch))
		return false;
	return call->mnt_ns == ch->mnt_ns || ch->spread;
}

/* Without a pidfd: whether every kept call of the record's pid is one process's. */
static bool
one_process(const struct capjoin_call *calls, size_t n, const struct capjoin_change *ch)
{
	const struct capjoin_call *first = NULL;
	size_t i;

	for (i = 0; i < n; i++) {
		if (ch->tgid <= 0 || calls[i].tgid != (uint32_t)ch->tgid)
			continue;
		if (first && first->start != calls[i].start)
			return false;
		first = &calls[i];
	}
	return true;
}

/*
 * Whether every kept call of call's process (any kind, whatever its outcome) was made with call's
 * uid and name. A record joined by its place to one call of a process may be another call's (a
 * mount moved onto that place since, a directory renamed above it, a copy made by propagation):
 * the name is true whichever it is only where they all agree.
 */
static bool
one_identity(const struct capjoin_call *calls, size_t n, const struct capjoin_call *call)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (calls[i].tgid == call->tgid && calls[i].start == call->start &&
		    (calls[i].uid != call->uid || strcmp(calls[i].comm, call->comm) != 0))
			return false;
	return true;
}

/*
 * A change with no pid is the difference between two reads, which may merge the changes of
 * several calls: a mount made and then moved shows as a mount where it went, a mount moved twice
 * as one move. Whether a call other than one, that has not been named for a change before, may be
 * part of such a merge with it: for a move, another call that may move a mount (the moves
 * between cannot be told); for a mount, one that may move a mount to its place or above it, or,
 * where one may move a mount (move_mount(2)), one that may make a mount anywhere.
 */
static bool
merged_elsewhere(const struct capjoin_call *calls, size_t n, const struct capjoin_call *one,
    const struct capjoin_change *ch)
{
	const struct capjoin_call *c;
	size_t i;

	for (i = 0; i < n; i++) {
		c = &calls[i];
		if (c == one || (!c->open && !c->ok) || c->used)
			continue;
		if (ch->kind == CAPJOIN_MOVE && (c->kinds & CAPJOIN_MOVE))
			return true;
		if (ch->kind == CAPJOIN_ATTACH && (c->kinds & CAPJOIN_MOVE) &&
		    (!capjoin_same_root(c, ch) || path_within(c->path, ch->path)))
			return true;
		if (ch->kind == CAPJOIN_ATTACH && (one->kinds & CAPJOIN_MOVE) &&
		    (c->kinds & CAPJOIN_ATTACH))
			return true;
	}
	return false;
}

const struct capjoin_call *
capjoin_name(const struct capjoin_call *calls, size_t n, const struct capjoin_change *ch)
{
	const struct capjoin_call *one = NULL;
	size_t i;

	if (ch->tgid != CAPJOIN_ANY_PID && ch->pid_ino == 0 && !one_process(calls, n, ch))
		return NULL;
	for (i = 0; i < n; i++) {
		if (ch->tgid == CAPJOIN_ANY_PID && capjoin_unplaced(&calls[i], ch))
			return NULL;
		if (!capjoin_may_be(&calls[i], ch))
			continue;
		/*
		 * Under a shared parent: only where one call of the process may be behind it. A
		 * change with no pid: only where one call of any process may be.
		 */
		if (one && (ch->spread || ch->tgid == CAPJOIN_ANY_PID || one->uid != calls[i].uid ||
		    strcmp(one->comm, calls[i].comm) != 0))
			return NULL;
		one = &calls[i];
	}
	if (one && ch->tgid == CAPJOIN_ANY_PID &&
	    (one->open || one->tgid == 0 || merged_elsewhere(calls, n, one, ch)))
		return NULL;
	return one && one_identity(calls, n, one) ? one : NULL;
}
