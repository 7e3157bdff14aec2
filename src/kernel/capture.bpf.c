/*
 * The capture's BPF half: at the entry of each mount-changing system call, who makes it and its
 * arguments; at its exit, the result. The entry record is in the ring buffer before the call
 * changes anything, so before the kernel queues the fanotify record the change causes.
 *
 * Three sets of programs see the same calls; capattach.c loads one, the first that loads of:
 * fentry/fexit trampolines on the calls' own kernel functions (__x64_sys_mount ...: only those
 * calls pay; they need the kernel's BTF and ftrace direct calls), the syscall tracepoints
 * (tp/syscalls/..., which need tracefs and put every system call of every process on the slow
 * path while attached), and the raw tracepoints sys_enter and sys_exit (which attach by name
 * without tracefs and see every system call, so they filter on its number). Kernel structures
 * are declared with only the fields read, relocated at load time from the kernel's BTF (CO-RE):
 * no vmlinux.h is needed to build.
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
/*
 * libbpf's register macros name struct pt_regs' fields as the kernel does (CO-RE relocates them
 * against the kernel's BTF) only where vmlinux.h has been included; this file declares what it
 * reads itself, below, so it says so. The target architecture comes from the build
 * (-D__TARGET_ARCH_x86, -D__TARGET_ARCH_arm64).
 */
#define __VMLINUX_H__
#include <bpf/bpf_tracing.h>

#include "capture_rec.h"

typedef struct {
	unsigned int val;
} kuid_t;

struct cred {
	kuid_t uid;
} __attribute__((preserve_access_index));

struct ns_common {
	unsigned int inum;
} __attribute__((preserve_access_index));

struct mnt_namespace {
	struct ns_common ns;
} __attribute__((preserve_access_index));

struct nsproxy {
	struct mnt_namespace *mnt_ns;
} __attribute__((preserve_access_index));

struct super_block {
	unsigned int s_dev;
} __attribute__((preserve_access_index));

struct inode {
	unsigned long i_ino;
} __attribute__((preserve_access_index));

struct dentry {
	struct super_block *d_sb;
	struct inode *d_inode;
} __attribute__((preserve_access_index));

struct vfsmount {
	struct dentry *mnt_root;
} __attribute__((preserve_access_index));

struct mount {
	struct vfsmount mnt;
	unsigned long long mnt_id_unique;
} __attribute__((preserve_access_index));

struct pid_namespace {
	struct ns_common ns;
} __attribute__((preserve_access_index));

struct upid {
	int nr;
	struct pid_namespace *ns;
} __attribute__((preserve_access_index));

struct pid {
	unsigned int level;
	unsigned long long ino;
	struct upid numbers[1];
} __attribute__((preserve_access_index));

struct path {
	struct vfsmount *mnt;
	struct dentry *dentry;
} __attribute__((preserve_access_index));

struct file {
	struct path f_path;
	void *private_data;
} __attribute__((preserve_access_index));

struct fs_context {
	struct dentry *root;
} __attribute__((preserve_access_index));

struct fdtable {
	unsigned int max_fds;
	struct file **fd;
} __attribute__((preserve_access_index));

struct files_struct {
	struct fdtable *fdt;
} __attribute__((preserve_access_index));

struct fs_struct {
	struct path root;
} __attribute__((preserve_access_index));

/* The registers of a system call, and the number of the call at its exit. */
#if defined(__TARGET_ARCH_x86)
#define SYS_FUNC(name)		"__x64_sys_" #name
struct pt_regs {
	unsigned long di, si, dx, cx, r10, r8, orig_ax;
} __attribute__((preserve_access_index));
#define SYSCALL_NR(regs)	BPF_CORE_READ(regs, orig_ax)
/* A 32-bit call (int 0x80) has other numbers: TS_COMPAT in the thread's status. */
struct thread_info {
	unsigned int status;
} __attribute__((preserve_access_index));
#define COMPAT(ti)		(BPF_CORE_READ(ti, status) & 0x0002)
#elif defined(__TARGET_ARCH_arm64)
#define SYS_FUNC(name)		"__arm64_sys_" #name
struct user_pt_regs {
	unsigned long long regs[31];
} __attribute__((preserve_access_index));
struct pt_regs {
	int syscallno;
} __attribute__((preserve_access_index));
#define SYSCALL_NR(regs)	BPF_CORE_READ(regs, syscallno)
/* A 32-bit task's calls have other numbers: TIF_32BIT in the thread's flags. */
struct thread_info {
	unsigned long flags;
} __attribute__((preserve_access_index));
#define COMPAT(ti)		(BPF_CORE_READ(ti, flags) & (1UL << 22))
#else
#error "the capture is built for x86 and arm64 (-D__TARGET_ARCH_x86 or -D__TARGET_ARCH_arm64)"
#endif

struct kernfs_node {
	unsigned long long id;
} __attribute__((preserve_access_index));

struct cgroup {
	struct kernfs_node *kn;
} __attribute__((preserve_access_index));

struct css_set {
	struct cgroup *dfl_cgrp;
} __attribute__((preserve_access_index));

struct task_struct {
	struct thread_info thread_info;
	struct css_set *cgroups;
	unsigned long long start_time;
	struct pid *thread_pid;
	const struct cred *real_cred;
	struct nsproxy *nsproxy;
	struct task_struct *group_leader;
	struct files_struct *files;
	struct fs_struct *fs;
	char comm[CAPTURE_COMM_LEN];
} __attribute__((preserve_access_index));


/* The records of syscall tracepoints: 8 bytes of common fields, the number, the arguments. */
struct sys_enter_ctx {
	unsigned long long common;
	int nr;
	unsigned long args[6];
};

struct sys_exit_ctx {
	unsigned long long common;
	int nr;
	long ret;
};

char LICENSE[] SEC("license") = "GPL";

/* watchq's pid namespace (the device and inode of /proc/self/ns/pid), set before loading. */
const volatile __u64 pidns_dev;
const volatile __u64 pidns_ino;
/* Which calls are noted: the mount-changing ones, those that make or enter a mount namespace. */
const volatile __u32 want_mounts;
const volatile __u32 want_ns;

/* The level of watchq's pid namespace, plus one, as its own first call showed it (0: not yet). */
__u32 ns_level1;

/* Records the ring had no room for; their processes' tgids are in dropped. */
__u64 drops;
/* dropped itself was full: no tgid can be trusted. */
__u32 blind;

#define RING_SIZE	(1 << 21)

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, RING_SIZE);
} ring SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, __u8);
} dropped SEC(".maps");

/* Threads in a call that may flip options or propagation: its exit wakes watchq at once. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u64);
	__type(value, __u8);
} flips SEC(".maps");

/* Threads in a call that may make or enter a mount namespace: its exit is noted if it succeeds. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u64);
	__type(value, __u8);
} nscalls SEC(".maps");

#define MS_REMOUNT	32
#define MS_PROPAGATION	((1 << 17) | (1 << 18) | (1 << 19) | (1 << 20))
#define FSCONFIG_CMD_RECONFIGURE	7
#define CLONE_NEWNS	0x00020000
#define CLONE_THREAD	0x00010000

/*
 * The calls captured: the name of each one's tracepoint and kernel function, its number, and how
 * many of its arguments are read (its tracepoint's record holds that many, no more).
 */
#define MOUNT_CALLS(X)								\
	X(mount, CAPTURE_NR_MOUNT, 5)						\
	X(umount, CAPTURE_NR_UMOUNT2, 2)					\
	X(open_tree, CAPTURE_NR_OPEN_TREE, 3)					\
	X(move_mount, CAPTURE_NR_MOVE_MOUNT, 5)					\
	X(fsconfig, CAPTURE_NR_FSCONFIG, 5)					\
	X(fsmount, CAPTURE_NR_FSMOUNT, 3)					\
	X(mount_setattr, CAPTURE_NR_MOUNT_SETATTR, 5)				\
	X(pivot_root, CAPTURE_NR_PIVOT_ROOT, 2)
/* Those that may make or enter a mount namespace, noted only where wanted (want_ns). */
#define NS_CALLS(X)								\
	X(unshare, CAPTURE_NR_UNSHARE, 1)					\
	X(clone, CAPTURE_NR_CLONE, 5)						\
	X(clone3, CAPTURE_NR_CLONE3, 2)						\
	X(setns, CAPTURE_NR_SETNS, 2)
#define CALL_CASE(name, nr, n)	case nr:

static __always_inline int
captured(long nr)
{
	if (!want_mounts)
		return 0;
	switch (nr) {
	MOUNT_CALLS(CALL_CASE)
		return 1;
	}
	return 0;
}

/*
 * The number of p in watchq's pid namespace, at level L of the pid namespaces; 0 if it has none
 * there. A pid has a number in its own namespace and in each above it (struct pid's numbers[],
 * from level 0, the initial namespace, to p->level).
 */
static __always_inline unsigned int
ns_nr(struct pid *p, __u32 level)
{
	struct pid_namespace *ns = NULL;
	int nr = 0;

	if (p == NULL || level > 32 || BPF_CORE_READ(p, level) < level)
		return 0;
	if (bpf_core_read(&ns, sizeof(ns), &p->numbers[level].ns) != 0 ||
	    bpf_core_read(&nr, sizeof(nr), &p->numbers[level].nr) != 0)
		return 0;
	return BPF_CORE_READ(ns, ns.inum) == pidns_ino && nr > 0 ? (unsigned int)nr : 0;
}

/*
 * The caller as watchq numbers it; 0s where it is not in watchq's pid namespace or below. The
 * helper answers for a caller in watchq's own namespace alone, which shows that namespace's level:
 * watchq's own first call (capture.c) is one. A caller in a namespace below (a container's) is
 * numbered from its struct pid at that level.
 */
static __always_inline void
head(struct capture_head *h, unsigned int kind, long nr)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	struct bpf_pidns_info ns = { 0, 0 };
	__u32 level1 = ns_level1;

	h->kind = kind;
	h->nr = (unsigned int)nr;
	h->gtid = (unsigned int)bpf_get_current_pid_tgid();
	h->pad = 0;
	if (bpf_get_ns_current_pid_tgid(pidns_dev, pidns_ino, &ns, sizeof(ns)) == 0) {
		if (level1 == 0)
			ns_level1 = BPF_CORE_READ(task, thread_pid, level) + 1;
	} else if (level1 > 0) {
		ns.pid = ns_nr(BPF_CORE_READ(task, thread_pid), level1 - 1);
		ns.tgid = ns_nr(BPF_CORE_READ(task, group_leader, thread_pid), level1 - 1);
	} else {
		ns.pid = ns.tgid = 0;
	}
	h->tid = ns.pid;
	h->tgid = ns.tgid;
}

/*
 * watchq reads the ring whenever fanotify wakes it, which each mount, unmount and move does: a
 * record wakes it only once the ring is half full, so that a call costs no second wake-up.
 */
static __always_inline __u64
wakeup(void)
{
	return bpf_ringbuf_query(&ring, BPF_RB_AVAIL_DATA) > RING_SIZE / 2 ?
	    BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP;
}

static __always_inline void
lost(const struct capture_head *h)
{
	__u8 one = 1;

	__sync_fetch_and_add(&drops, 1);
	if (bpf_map_update_elem(&dropped, &h->tgid, &one, BPF_ANY) != 0)
		blind = 1;
}

/* Which argument is the path that names the call's target; -1: none. */
static __always_inline int
path_arg(long nr)
{
	switch (nr) {
	case CAPTURE_NR_MOUNT:
	case CAPTURE_NR_OPEN_TREE:
	case CAPTURE_NR_MOUNT_SETATTR:
		return 1;
	case CAPTURE_NR_UMOUNT2:
	case CAPTURE_NR_PIVOT_ROOT:
		return 0;
	case CAPTURE_NR_MOVE_MOUNT:
		return 3;
	}
	return -1;
}

/* The file of the caller's descriptor fd; NULL if none. */
static __always_inline struct file *
fd_file(struct task_struct *task, long fd)
{
	struct fdtable *fdt = BPF_CORE_READ(task, files, fdt);
	struct file **fds = BPF_CORE_READ(fdt, fd);
	struct file *f = NULL;

	if (fd < 0 || fd >= BPF_CORE_READ(fdt, max_fds))
		return NULL;
	if (bpf_probe_read_kernel(&f, sizeof(f), &fds[fd]) != 0)
		return NULL;
	return f;
}

/*
 * The targets named by descriptors: mount_setattr(2)'s dfd (with an empty path) and the
 * fs_context of fsconfig(2) (fspick(2)'s, whose root is the superblock's). Read for any
 * descriptor: capture.c uses them only for calls that succeeded, which had the right kind.
 */
static __always_inline void
fd_targets(struct capture_enter *e, struct task_struct *task, long nr)
{
	struct vfsmount *vm;
	struct fs_context *fc;
	struct file *f;

	e->fd_mnt_id = 0;
	e->fd_dev = 0;
	if (nr == CAPTURE_NR_MOUNT_SETATTR && (f = fd_file(task, (int)e->args[0])) != NULL &&
	    bpf_core_field_exists(struct mount, mnt_id_unique)) {
		vm = BPF_CORE_READ(f, f_path.mnt);
		e->fd_mnt_id = BPF_CORE_READ((struct mount *)((char *)vm -
		    bpf_core_field_offset(struct mount, mnt)), mnt_id_unique);
	}
	if (nr == CAPTURE_NR_FSCONFIG && (f = fd_file(task, (int)e->args[0])) != NULL) {
		fc = BPF_CORE_READ(f, private_data);
		e->fd_dev = BPF_CORE_READ(fc, root, d_sb, s_dev);
	}
}

/* Whether the call may flip options or propagation (its exit then wakes watchq at once). */
static __always_inline int
flip(long nr, const unsigned long *args)
{
	if (nr == CAPTURE_NR_MOUNT)
		return (args[3] & (MS_REMOUNT | MS_PROPAGATION)) != 0;
	if (nr == CAPTURE_NR_FSCONFIG)
		return args[1] == FSCONFIG_CMD_RECONFIGURE;
	return nr == CAPTURE_NR_MOUNT_SETATTR;
}

static __always_inline void
args_read(struct capture_enter *e, long nr)
{
	int p = path_arg(nr);
	long n;

	e->path_len = 0;
	if (p >= 0 && p < 6) {
		n = bpf_probe_read_user_str(e->path, sizeof(e->path), (void *)e->args[p]);
		/* A path that fills the room may have been cut short: not known. */
		if (n > 0 && n < (long)sizeof(e->path))
			e->path_len = (unsigned int)n;
	}
	if (nr == CAPTURE_NR_MOUNT_SETATTR && e->args[4] >= sizeof(e->attr) &&
	    bpf_probe_read_user(e->attr, sizeof(e->attr), (void *)e->args[3]) != 0)
		__builtin_memset(e->attr, 0, sizeof(e->attr));
}

/* The caller's root: its addresses, and its mount's unique id, device and inode. */
static __always_inline void
root_read(struct capture_enter *e, struct task_struct *task)
{
	struct vfsmount *vm = BPF_CORE_READ(task, fs, root.mnt);
	struct dentry *d = BPF_CORE_READ(task, fs, root.dentry);

	e->root_mnt = (unsigned long long)vm;
	e->root_dentry = (unsigned long long)d;
	e->root_mnt_id = 0;
	if (bpf_core_field_exists(struct mount, mnt_id_unique))
		e->root_mnt_id = BPF_CORE_READ((struct mount *)((char *)vm -
		    bpf_core_field_offset(struct mount, mnt)), mnt_id_unique);
	e->root_ino = BPF_CORE_READ(d, d_inode, i_ino);
	e->root_dev = BPF_CORE_READ(d, d_sb, s_dev);
	e->pad2 = 0;
}

static __always_inline int
on_enter(long nr, const unsigned long *args)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	struct task_struct *leader = BPF_CORE_READ(task, group_leader);
	struct capture_enter *e;
	struct capture_head h;
	int i;

	head(&h, CAPTURE_ENTER, nr);
	e = bpf_ringbuf_reserve(&ring, sizeof(*e), 0);
	if (e == NULL) {
		lost(&h);
		return 0;
	}
	e->h = h;
	e->uid = BPF_CORE_READ(task, real_cred, uid.val);
	e->mnt_ns = BPF_CORE_READ(task, nsproxy, mnt_ns, ns.inum);
	e->start = BPF_CORE_READ(leader, start_time);
	BPF_CORE_READ_STR_INTO(&e->comm, leader, comm);
	for (i = 0; i < 6; i++)
		e->args[i] = args[i];
	root_read(e, task);
	e->pid_ino = bpf_core_field_exists(struct pid, ino) ?
	    BPF_CORE_READ(leader, thread_pid, ino) : 0;
	e->cgroup_id = bpf_core_field_exists(struct kernfs_node, id) ?
	    BPF_CORE_READ(task, cgroups, dfl_cgrp, kn, id) : 0;
	__builtin_memset(e->attr, 0, sizeof(e->attr));
	args_read(e, nr);
	fd_targets(e, task, nr);
	bpf_ringbuf_submit(e, wakeup());
	if (flip(nr, args)) {
		__u64 tid = bpf_get_current_pid_tgid();
		__u8 one = 1;

		bpf_map_update_elem(&flips, &tid, &one, BPF_ANY);
	}
	return 0;
}

static __always_inline int
on_exit(long nr, long ret)
{
	__u64 tid = bpf_get_current_pid_tgid(), wake = wakeup();
	struct capture_exit *x;
	struct capture_head h;

	if (bpf_map_delete_elem(&flips, &tid) == 0)
		wake = BPF_RB_FORCE_WAKEUP;
	head(&h, CAPTURE_EXIT, nr);
	x = bpf_ringbuf_reserve(&ring, sizeof(*x), 0);
	if (x == NULL) {
		lost(&h);
		return 0;
	}
	x->h = h;
	x->ret = ret;
	bpf_ringbuf_submit(x, wake);
	return 0;
}

static __always_inline int
ns_call(long nr)
{
	if (!want_ns)
		return 0;
	switch (nr) {
	NS_CALLS(CALL_CASE)
		return 1;
	}
	return 0;
}

/*
 * A call that may make a mount namespace (unshare(2), clone(2) or clone3(2) with CLONE_NEWNS) or
 * enter one (setns(2) of any type, or of a mount namespace): its thread is marked.
 */
static __always_inline int
on_ns_enter(long nr, const unsigned long *args)
{
	__u64 tid = bpf_get_current_pid_tgid(), flags = args[0];
	__u8 one = 1;

	if (nr == CAPTURE_NR_CLONE3 && bpf_probe_read_user(&flags, sizeof(flags),
	    (void *)args[0]) != 0)
		flags = CLONE_NEWNS;	/* not readable: noted, to be sure */
	if (nr == CAPTURE_NR_SETNS)
		flags = args[1] == 0 ? CLONE_NEWNS : args[1];
	if (flags & CLONE_NEWNS)
		bpf_map_update_elem(&nscalls, &tid, &one, BPF_ANY);
	return 0;
}

/* Its exit: a record that wakes watchq at once, if it succeeded. */
static __always_inline int
on_ns_exit(long nr, long ret)
{
	__u64 tid = bpf_get_current_pid_tgid();
	struct capture_exit *x;
	struct capture_head h;

	if (bpf_map_delete_elem(&nscalls, &tid) != 0 || ret < 0)
		return 0;
	head(&h, CAPTURE_NS, nr);
	x = bpf_ringbuf_reserve(&ring, sizeof(*x), 0);
	if (x == NULL) {
		lost(&h);
		return 0;
	}
	x->h = h;
	x->ret = ret;
	bpf_ringbuf_submit(x, BPF_RB_FORCE_WAKEUP);
	return 0;
}

/*
 * A process begins (not a thread): its pid may be one a reaped process had, whose calls watchq
 * still keeps. A record without a pidfd can then be either's (capture.c). Wanted with the mount
 * calls; the raw tracepoint costs a fork, not every system call.
 */
SEC("raw_tp/task_newtask")
int
raw_newtask(unsigned long long *ctx)
{
	struct task_struct *t = (struct task_struct *)ctx[0];
	struct capture_head *h;
	__u32 level1 = ns_level1;
	unsigned int tgid;

	if (!want_mounts || (ctx[1] & CLONE_THREAD) || level1 == 0)
		return 0;
	if ((tgid = ns_nr(BPF_CORE_READ(t, thread_pid), level1 - 1)) == 0)
		return 0;
	h = bpf_ringbuf_reserve(&ring, sizeof(*h), 0);
	if (h == NULL) {
		__sync_fetch_and_add(&drops, 1);
		blind = 1;
		return 0;
	}
	h->kind = CAPTURE_BIRTH;
	h->nr = 0;
	h->tid = h->tgid = tgid;
	h->gtid = 0;
	h->pad = 0;
	bpf_ringbuf_submit(h, wakeup());
	return 0;
}

/*
 * Whether the current thread makes 32-bit calls, whose numbers are not these (the raw
 * tracepoints see them; the syscall tracepoints do not).
 */
static __always_inline int
compat_call(void)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();

	return COMPAT(&task->thread_info) != 0;
}

/*
 * Whether a 32-bit call's number (x86's int 0x80, arm's) is one of the mount calls': mount,
 * umount, umount2, pivot_root (217 on x86, 218 on arm), the new mount API, mount_setattr,
 * open_tree_attr. Such a call is not decoded, but counted as lost for its process.
 */
static __always_inline int
compat_mount_call(long nr)
{
	return nr == 21 || nr == 22 || nr == 52 || nr == 217 || nr == 218 ||
	    (nr >= 428 && nr <= 433) || nr == 442 || nr == 467;
}

SEC("raw_tp/sys_enter")
int
raw_enter(unsigned long long *ctx)
{
	struct pt_regs *regs = (struct pt_regs *)ctx[0];
	struct capture_head h;
	unsigned long args[6];
	long nr = (long)ctx[1];
	int ours = captured(nr) || ns_call(nr);

	/* Most calls are none of these: they read nothing of the task. */
	if (!ours && !compat_mount_call(nr))
		return 0;
	if (compat_call()) {
		if (compat_mount_call(nr)) {
			head(&h, CAPTURE_ENTER, nr);
			lost(&h);
		}
		return 0;
	}
	if (!ours)
		return 0;
	/* No call captured takes a sixth argument. */
	args[0] = PT_REGS_PARM1_CORE_SYSCALL(regs);
	args[1] = PT_REGS_PARM2_CORE_SYSCALL(regs);
	args[2] = PT_REGS_PARM3_CORE_SYSCALL(regs);
	args[3] = PT_REGS_PARM4_CORE_SYSCALL(regs);
	args[4] = PT_REGS_PARM5_CORE_SYSCALL(regs);
	args[5] = 0;
	return captured(nr) ? on_enter(nr, args) : on_ns_enter(nr, args);
}

SEC("raw_tp/sys_exit")
int
raw_exit(unsigned long long *ctx)
{
	struct pt_regs *regs = (struct pt_regs *)ctx[0];
	long nr = (long)SYSCALL_NR(regs);

	if (compat_call())
		return 0;

	if (captured(nr))
		return on_exit(nr, (long)ctx[1]);
	return ns_call(nr) ? on_ns_exit(nr, (long)ctx[1]) : 0;
}

/*
 * One syscall's tracepoints, named PRE enter_NAME and PRE exit_NAME (capture.c loads them by
 * their prefix), calling ON_IN and ON_OUT: its record holds n arguments, no more may be read.
 */
#define TP_PAIR(pre, name, n, on_in, on_out)					\
SEC("tp/syscalls/sys_enter_" #name)						\
int									\
pre##enter_##name(struct sys_enter_ctx *ctx)					\
{										\
	unsigned long args[6] = { 0 };						\
	int i;									\
										\
	for (i = 0; i < (n); i++)						\
		args[i] = ctx->args[i];						\
	return on_in(ctx->nr, args);						\
}										\
SEC("tp/syscalls/sys_exit_" #name)						\
int									\
pre##exit_##name(struct sys_exit_ctx *ctx)					\
{										\
	return on_out(ctx->nr, ctx->ret);					\
}

#define TP_MOUNT(name, nr, n)	TP_PAIR(tp_, name, n, on_enter, on_exit)
#define TP_NS(name, nr, n)	TP_PAIR(tp_ns_, name, n, on_ns_enter, on_ns_exit)
MOUNT_CALLS(TP_MOUNT)
NS_CALLS(TP_NS)

/*
 * One syscall's trampolines, named PRE enter_NAME and PRE exit_NAME: fentry and fexit on the
 * call's own function (its one argument is the caller's registers; fexit's second, the result).
 * The number is the native one (32-bit calls have functions of their own: below).
 */
#define FE_PAIR(pre, name, nr, n, on_in, on_out)				\
SEC("fentry/" SYS_FUNC(name))							\
int									\
pre##enter_##name(unsigned long long *ctx)					\
{										\
	struct pt_regs *regs = (struct pt_regs *)ctx[0];			\
	unsigned long args[6] = { 0 };						\
										\
	args[0] = PT_REGS_PARM1_CORE_SYSCALL(regs);				\
	if ((n) > 1)								\
		args[1] = PT_REGS_PARM2_CORE_SYSCALL(regs);			\
	if ((n) > 2)								\
		args[2] = PT_REGS_PARM3_CORE_SYSCALL(regs);			\
	if ((n) > 3)								\
		args[3] = PT_REGS_PARM4_CORE_SYSCALL(regs);			\
	if ((n) > 4)								\
		args[4] = PT_REGS_PARM5_CORE_SYSCALL(regs);			\
	return on_in(nr, args);							\
}										\
SEC("fexit/" SYS_FUNC(name))							\
int									\
pre##exit_##name(unsigned long long *ctx)					\
{										\
	return on_out(nr, (long)ctx[1]);					\
}

#define FE_MOUNT(name, nr, n)	FE_PAIR(fe_, name, nr, n, on_enter, on_exit)
#define FE_NS(name, nr, n)	FE_PAIR(fe_ns_, name, nr, n, on_ns_enter, on_ns_exit)
MOUNT_CALLS(FE_MOUNT)
NS_CALLS(FE_NS)

#if defined(__TARGET_ARCH_x86)
/*
 * The 32-bit mount calls (int 0x80) have functions of their own where the kernel has ia32
 * emulation: a trampoline on each counts the call as lost for its process, as raw_enter() does
 * (compat_mount_call()'s numbers but open_tree_attr, which kernels before 6.15 lack). Loaded with
 * the fentry set where these functions exist (capattach.c).
 */
#define FE_COMPAT(name, nr)							\
SEC("fentry/__ia32_sys_" #name)							\
int									\
fe32_##name(unsigned long long *ctx)					\
{										\
	struct capture_head h;							\
										\
	head(&h, CAPTURE_ENTER, nr);						\
	lost(&h);								\
	return 0;								\
}
FE_COMPAT(mount, 21)
FE_COMPAT(oldumount, 22)
FE_COMPAT(umount, 52)
FE_COMPAT(pivot_root, 217)
FE_COMPAT(open_tree, 428)
FE_COMPAT(move_mount, 429)
FE_COMPAT(fsopen, 430)
FE_COMPAT(fsconfig, 431)
FE_COMPAT(fsmount, 432)
FE_COMPAT(fspick, 433)
FE_COMPAT(mount_setattr, 442)
#endif
