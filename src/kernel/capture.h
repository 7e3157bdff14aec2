#ifndef WATCHQ_CAPTURE_H
#define WATCHQ_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The process capture: BPF programs at the mount-changing system calls, which record who makes
 * each call before it changes anything, so that a process reaped before watchq reads the fanotify
 * record of its change can still be named.
 */
struct capture;
struct capjoin_change;

/* How a flip call names its target. */
enum capture_target {
	CAPTURE_TARGET_NONE,	/* not known here (relative path, another namespace or root) */
	CAPTURE_TARGET_PATH,	/* an absolute path, as watchq sees it */
	CAPTURE_TARGET_MOUNT,	/* a mount's unique id */
	CAPTURE_TARGET_SB,	/* a superblock's device */
};

/* A call that may flip a mount's options or propagation: a remount, mount_setattr(2), an fsconfig
 * reconfigure, a propagation change. */
struct capture_call {
	uint32_t gtid;		/* the calling thread in the initial pid namespace */
	int32_t tgid;		/* in watchq's pid namespace; 0: not there */
	uint32_t uid;
	char comm[16];
	enum capture_target target;
	char path[512];		/* CAPTURE_TARGET_PATH */
	uint64_t mnt_id;	/* CAPTURE_TARGET_MOUNT */
	unsigned major, minor;	/* CAPTURE_TARGET_SB */
	bool sb;		/* every mount of the target's superblock (a remount) */
	bool subtree;		/* the target and every mount below it */
	bool opts, props;	/* it may change options (ro included), propagation */
	bool may_ro, may_rw;	/* sb: it may make the superblock read-only, writable */
	bool elsewhere;		/* made in another mount namespace than watchq's */
	uint64_t mnt_ns;	/* the caller's mount namespace: its inode number */
	bool done, ok;		/* it has ended; successfully */
	uint64_t end_epoch;	/* the read of the capture that saw it end */
	bool named;		/* named for a change of a read of the table */
};

/* What the capture notes: the mount-changing calls; those that make or enter a mount namespace. */
enum capture_what {
	CAPTURE_MOUNT_CALLS = 1,
	CAPTURE_NS_CALLS = 2,
	/* With CAPTURE_MOUNT_CALLS: flip calls only counted by namespace (capture_ns_flips()), not
	 * kept for capture_flip(), and no process noted for capture_who() */
	CAPTURE_NS_FLIPS = 4,
	/* With CAPTURE_NS_FLIPS: processes noted all the same, for capture_ns_of() (whoever reads
	 * the fanotify records calls capture_reading() and capture_settle() around them) */
	CAPTURE_NS_PROCS = 8,
};

/* A mount namespace in which calls that may attach, detach or move a mount began: its inode
 * number, and the first and the last drain (capture_epoch()) that read one of them. */
struct capture_nscalls {
	uint64_t ns;
	uint64_t first, last;
};

/* Whether this process may load the capture (CAP_SYS_ADMIN, or CAP_BPF with CAP_PERFMON). */
bool capture_privileged(void);

/* How the capture sees the calls: trampolines on their functions (only they pay), syscall
 * tracepoints or raw tracepoints (every system call pays while attached). */
enum capture_attach {
	CAPTURE_FENTRY,
	CAPTURE_TRACEPOINT,
	CAPTURE_RAW_TRACEPOINT,
	CAPTURE_ATTACH_KINDS
};

/* Load and attach the capture of what (enum capture_what bits), by the first kind that loads (or
 * only the one WATCHQ_BPF_ATTACH names); NULL if it cannot, with the reason written to why. */
struct capture *capture_open(unsigned what, char *why, size_t size);
/* How c is attached: "fentry", "tracepoint" or "raw-tracepoint". */
const char *capture_attach_name(const struct capture *c);
/* Why c is not on trampolines; NULL where it is. */
const char *capture_fentry_why(const struct capture *c);
/* Detach and free c. */
void capture_close(struct capture *c);
/* The fd that is readable (POLLIN) when records wait. */
int capture_fd(const struct capture *c);
/* Consume every record the kernel has written. */
void capture_drain(struct capture *c);
/* The fanotify queue is being read now: every record drained so far came before that read. */
void capture_reading(struct capture *c);
/* Read the capture, and a read of what it may explain begins (capture_reading()). */
void capture_begin_read(struct capture *c);
/* The last read found the queue empty: forget the processes whose calls have all ended before it
 * (their fanotify records have all been read). */
void capture_settle(struct capture *c);
/* How many flip calls have been seen and not taken (ended or not), oldest first. */
size_t capture_nflips(const struct capture *c);
/* Flip call i of those. */
const struct capture_call *capture_flip(const struct capture *c, size_t i);
/* Forget flip call i (ended): it has been accounted for. */
void capture_take(struct capture *c, size_t i);
/*
 * Forget every flip call that had ended when the last read of the table began (capture_reading()):
 * that read shows its change. One that ended since is kept for the next read, unless it was named
 * for a change of this one (capture_flip_named()).
 */
void capture_take_ended(struct capture *c);
/* Flip call f was named for a change (it made that one): f. */
const struct capture_call *capture_flip_named(struct capture *c, const struct capture_call *f);
/* Whether some flip call may have been missed since the oldest of those began. */
bool capture_flips_lost(const struct capture *c);
/* How many times since the capture was opened some call may have been missed. */
unsigned long long capture_losses(const struct capture *c);
/* How many calls that made a mount namespace (unshare(2), clone(2), clone3(2)) have been seen to
 * succeed; how many that entered one (setns(2)). */
unsigned long long capture_ns_made(const struct capture *c);
unsigned long long capture_ns_entered(const struct capture *c);
/*
 * With CAPTURE_NS_FLIPS: a count that grows with each flip call that ended in the mount namespace
 * ns (its inode number), each remount of a superblock anywhere (which may change mounts of ns
 * without a signal there), and each time some call may have been missed; *open: whether such a
 * call is under way. Read after capture_drain().
 */
unsigned long long capture_ns_flips(const struct capture *c, uint64_t ns, bool *open);
/* With CAPTURE_NS_FLIPS: as capture_ns_flips(), of the calls that may change a mount's propagation
 * (not remounts of a superblock). */
unsigned long long capture_ns_props(const struct capture *c, uint64_t ns, bool *open);
/* With CAPTURE_NS_FLIPS: a count that grows whenever capture_ns_flips() of some namespace may have
 * changed (a flip call began or ended, or some call may have been missed). */
unsigned long long capture_ns_flips_all(const struct capture *c);
/* The mount call behind the change ch (capjoin_name()), if the capture saw it and missed nothing
 * since; NULL if not. */
const struct capjoin_call *capture_call_behind(const struct capture *c,
    const struct capjoin_change *ch);
/* The mount calls kept (*n of them), oldest first: under way, or ended since the last read of the
 * table began (capture_settle()); NULL where one may be missing from them (forgotten for room, or
 * its record still being written). */
const struct capjoin_call *capture_calls(const struct capture *c, size_t *n);
/*
 * A change is named after a call only once the call has ended: one under way may yet fail, and
 * then another made the change. The change shows before its call returns, so wait while
 * under_way(ctx) says a call that may be behind it is under way, at most CAPTURE_AWAIT_NS, reading
 * the capture again every CAPTURE_AWAIT_STEP_NS (its ring does not wake us for one record, so
 * that a call costs no second wake-up).
 */
#define CAPTURE_AWAIT_NS	100000000LL
#define CAPTURE_AWAIT_STEP_NS	200000L
void capture_await(struct capture *c, bool (*under_way)(void *ctx), void *ctx);
/* Whether a call still under way may be behind the change ch (CAPJOIN_ANY_PID: placed or not). */
bool capture_open_behind(const struct capture *c, const struct capjoin_change *ch);
/* call, named for a change, made that one alone (unless recursive): it is behind no other. */
void capture_used(struct capture *c, const struct capjoin_call *call);
/* A process as it was at its call. */
struct capture_named {
	uint32_t uid;		/* real */
	char comm[16];
	uint64_t cgroup_id;	/* its cgroup v2 (kernfs id) at each of its calls; 0: not one */
};

/* If the capture saw the mount call behind the record ch (capjoin_name()), with nothing missed
 * since: its process as it was at that call, in by. */
bool capture_name(const struct capture *c, const struct capjoin_change *ch,
    struct capture_named *by);
/* If the capture knows exactly one process numbered tgid, and each of its mount calls that may be
 * behind a fanotify record read now (not read by the last read that emptied the queue) was made
 * in one mount namespace: that namespace's inode number; else 0. */
uint64_t capture_ns_of(const struct capture *c, int32_t tgid);
/* How many drains (capture_drain()) there have been. */
uint64_t capture_epoch(const struct capture *c);
/* Whether the last drain stopped at a record still being written (the rest waits for the next). */
bool capture_stalled(const struct capture *c);
/* With CAPTURE_NS_FLIPS: the namespaces in which such calls began since the last
 * capture_ns_calls_clear() (*n of them); *lost: a namespace had no room, its calls not noted (not
 * counted by capture_losses()). */
const struct capture_nscalls *capture_ns_calls(const struct capture *c, size_t *n, bool *lost);
/* Forget them. */
void capture_ns_calls_clear(struct capture *c);

#endif
