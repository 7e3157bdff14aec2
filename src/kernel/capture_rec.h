#ifndef WATCHQ_CAPTURE_REC_H
#define WATCHQ_CAPTURE_REC_H

/*
 * The records the capture's BPF programs (capture.bpf.c) put in their ring buffer for capture.c:
 * plain C types only, as both the BPF target and the host compile this.
 */

#include <asm/unistd.h>

#define CAPTURE_COMM_LEN	16	/* a task's comm, NUL included */
#define CAPTURE_PATH_LEN	512	/* the target path kept, NUL included */

/* The system calls captured, in the numbers of the architecture built for (its asm/unistd.h). */
#define CAPTURE_NR_MOUNT		__NR_mount
#define CAPTURE_NR_UMOUNT2		__NR_umount2
#define CAPTURE_NR_OPEN_TREE		__NR_open_tree
#define CAPTURE_NR_MOVE_MOUNT		__NR_move_mount
#define CAPTURE_NR_FSCONFIG		__NR_fsconfig
#define CAPTURE_NR_FSMOUNT		__NR_fsmount
#define CAPTURE_NR_MOUNT_SETATTR	__NR_mount_setattr
#define CAPTURE_NR_PIVOT_ROOT		__NR_pivot_root
/* And those that make or enter a mount namespace, where asked for. */
#define CAPTURE_NR_CLONE		__NR_clone
#define CAPTURE_NR_UNSHARE		__NR_unshare
#define CAPTURE_NR_SETNS		__NR_setns
#define CAPTURE_NR_CLONE3		__NR_clone3

enum capture_kind {
	CAPTURE_ENTER = 1,
	CAPTURE_EXIT = 2,
	CAPTURE_NS = 3,			/* a call made or entered a mount namespace: an exit */
	CAPTURE_BIRTH = 4,		/* a process began: a head alone, its tgid the new one's */
};

/* What every record starts with. */
struct capture_head {
	unsigned int kind;		/* enum capture_kind */
	unsigned int nr;		/* the system call */
	unsigned int tid, tgid;		/* as watchq's pid namespace numbers them (a process in a
					 * namespace below it too); 0: not there */
	unsigned int gtid;		/* the thread in the initial pid namespace: always there */
	unsigned int pad;
};

/* At a call's entry: who makes it, and its arguments. */
struct capture_enter {
	struct capture_head h;
	unsigned int uid;		/* the real uid, in the initial user namespace */
	unsigned int mnt_ns;		/* the caller's mount namespace: its inode number */
	unsigned long long start;	/* when the process began (ns since boot): a pid reused
					 * is another start */
	unsigned long long args[6];
	/* mount_setattr(2)'s struct mount_attr: attr_set, attr_clr, propagation, userns_fd */
	unsigned long long attr[4];
	/* The caller's root (mount and dentry addresses): the same as watchq's, or not */
	unsigned long long root_mnt, root_dentry;
	/* The same root as statx(2) names it: its mount's unique id (0: unknown), its device (the
	 * kernel's encoding: major << 20 | minor) and inode */
	unsigned long long root_mnt_id, root_ino;
	unsigned int root_dev;
	unsigned int pad2;
	/* The process's struct pid as pidfs numbers it: the inode of every pidfd for it (Linux 6.9;
	 * 0: unknown). Unlike a pid, never given to another process. */
	unsigned long long pid_ino;
	/* The caller's cgroup v2 (its kernfs id, as a cgroup2 file handle has it; 0: unknown) */
	unsigned long long cgroup_id;
	/* fd targets: mount_setattr's dfd (its mount's unique id) and fsconfig's fs_context fd (its
	 * superblock's device, the kernel's encoding: major << 20 | minor); 0: none or unknown */
	unsigned long long fd_mnt_id;
	unsigned int fd_dev;
	unsigned int path_len;		/* bytes of path with its NUL; 0: none or unreadable */
	char comm[CAPTURE_COMM_LEN];	/* the process's (its leader's) name */
	char path[CAPTURE_PATH_LEN];	/* the path argument that names the target */
};

/* At its exit: the result. */
struct capture_exit {
	struct capture_head h;
	long long ret;
};

#endif
