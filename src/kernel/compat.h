#ifndef WATCHQ_COMPAT_H
#define WATCHQ_COMPAT_H

/*
 * Kernel definitions missing from older system headers (Debian 12: glibc 2.36,
 * linux-libc-dev 6.1), with the values of the kernel's UAPI headers
 * (linux/fanotify.h, linux/mount.h, linux/pidfd.h, linux/stat.h,
 * linux/watch_queue.h, linux/keyctl.h, linux/nsfs.h), and the one path of the
 * kernel's mount table.
 */
#include <linux/ioctl.h>
#include <linux/types.h>
#include <sys/fanotify.h>
#include <sys/ioctl.h>

/* The mount table of our mount namespace; POLLPRI on it means the table changed. */
#define PATH_MOUNTINFO	"/proc/self/mountinfo"

/* statx(2): the 64-bit unique mount id (Linux 6.8), as statmount(2) takes it. */
#define KAPI_STATX_MNT_ID_UNIQUE	0x4000U

#ifndef __NR_statmount
#define __NR_statmount 457
#endif
#ifndef __NR_listmount
#define __NR_listmount 458
#endif

#ifndef FAN_MNT_ATTACH
#define FAN_MNT_ATTACH		0x01000000
#define FAN_MNT_DETACH		0x02000000
#endif
#ifndef FAN_REPORT_MNT
#define FAN_REPORT_MNT		0x00004000
#endif
#ifndef FAN_MARK_MNTNS
#define FAN_MARK_MNTNS		0x00000110
#endif
#ifndef FAN_EVENT_INFO_TYPE_MNT
#define FAN_EVENT_INFO_TYPE_MNT	7
#endif

/* Our own names, so that newer headers that define them cannot clash. */
struct kapi_fan_info_mnt {
	struct fanotify_event_info_header hdr;
	__u64 mnt_id;
};

/*
 * pidfs (linux/pidfd.h, Linux 6.13): what a pidfd's process is, read from the process itself.
 * watchq names processes from the capture's calls; bench/floor.c's "who" floor reads them so.
 */
struct kapi_pidfd_info {
	__u64 mask;
	__u64 cgroupid;
	__u32 pid, tgid, ppid;
	__u32 ruid, rgid, euid, egid, suid, sgid, fsuid, fsgid;
	__u32 spare0[1];
};

#define KAPI_PIDFD_GET_INFO	_IOWR(0xFF, 11, struct kapi_pidfd_info)
#define KAPI_PIDFD_INFO_CREDS	(1UL << 1)

struct kapi_mnt_id_req {
	__u32 size;
	__u32 mnt_ns_fd;
	__u64 mnt_id;
	__u64 param;
	__u64 mnt_ns_id;
};

#define KAPI_MNT_ID_REQ_SIZE_VER0	24
#define KAPI_MNT_ID_REQ_SIZE_VER1	32	/* with mnt_ns_id: another mount namespace (6.11) */

struct kapi_statmount {
	__u32 size;
	__u32 mnt_opts;
	__u64 mask;
	__u32 sb_dev_major, sb_dev_minor;
	__u64 sb_magic;
	__u32 sb_flags;
	__u32 fs_type;
	__u64 mnt_id;
	__u64 mnt_parent_id;
	__u32 mnt_id_old;
	__u32 mnt_parent_id_old;
	__u64 mnt_attr;
	__u64 mnt_propagation;
	__u64 mnt_peer_group;
	__u64 mnt_master;
	__u64 propagate_from;
	__u32 mnt_root;
	__u32 mnt_point;
	__u64 mnt_ns_id;
	__u32 fs_subtype;
	__u32 sb_source;
	__u32 opt_num;
	__u32 opt_array;
	__u32 opt_sec_num;
	__u32 opt_sec_array;
	__u64 supported_mask;
	__u32 mnt_uidmap_num;
	__u32 mnt_uidmap;
	__u32 mnt_gidmap_num;
	__u32 mnt_gidmap;
	__u64 spare2[43];
	char str[];
};

#define KAPI_STATMOUNT_SB_BASIC		0x00000001U
#define KAPI_STATMOUNT_MNT_BASIC	0x00000002U
#define KAPI_STATMOUNT_PROPAGATE_FROM	0x00000004U
#define KAPI_STATMOUNT_MNT_ROOT		0x00000008U
#define KAPI_STATMOUNT_MNT_POINT	0x00000010U
#define KAPI_STATMOUNT_FS_TYPE		0x00000020U
#define KAPI_STATMOUNT_MNT_OPTS		0x00000080U
#define KAPI_STATMOUNT_SB_SOURCE	0x00000200U
#define KAPI_LSMT_ROOT			0xffffffffffffffffULL

/* statmount's mnt_propagation: the MS_ flags of mount(2). */
#define KAPI_MS_UNBINDABLE	(1 << 17)
#define KAPI_MS_SLAVE		(1 << 19)
#define KAPI_MS_SHARED		(1 << 20)

#define KAPI_SB_RDONLY		0x1
#define KAPI_SB_SYNCHRONOUS	0x10
#define KAPI_SB_DIRSYNC		0x80
#define KAPI_SB_LAZYTIME	0x2000000

#define KAPI_MOUNT_ATTR_RDONLY		0x00000001
#define KAPI_MOUNT_ATTR_NOSUID		0x00000002
#define KAPI_MOUNT_ATTR_NODEV		0x00000004
#define KAPI_MOUNT_ATTR_NOEXEC		0x00000008
#define KAPI_MOUNT_ATTR__ATIME		0x00000070
#define KAPI_MOUNT_ATTR_RELATIME	0x00000000
#define KAPI_MOUNT_ATTR_NOATIME		0x00000010
#define KAPI_MOUNT_ATTR_STRICTATIME	0x00000020
#define KAPI_MOUNT_ATTR_NODIRATIME	0x00000080
#define KAPI_MOUNT_ATTR_IDMAP		0x00100000
#define KAPI_MOUNT_ATTR_NOSYMFOLLOW	0x00200000

/*
 * nsfs ioctls (linux/nsfs.h): the kind of namespace a file is, and a mount namespace's id for
 * statmount(2) (6.11).
 */
#define KAPI_NS_GET_NSTYPE	_IO(0xb7, 0x3)
#define KAPI_NS_GET_MNTNS_ID	_IOR(0xb7, 0x5, __u64)
/* Every mount namespace in id order, each call a new nsfs fd (6.12; ENOTTY before, EPERM unless
 * CAP_SYS_ADMIN in the initial user namespace). */
struct kapi_mnt_ns_info {
	__u32 size;
	__u32 nr_mounts;
	__u64 mnt_ns_id;
};
/* The namespace's own: its count of mounts, nr_mounts (6.12) */
#define KAPI_NS_MNT_GET_INFO	_IOR(0xb7, 10, struct kapi_mnt_ns_info)
#define KAPI_NS_MNT_GET_NEXT	_IOR(0xb7, 11, struct kapi_mnt_ns_info)
#define KAPI_NS_MNT_GET_PREV	_IOR(0xb7, 12, struct kapi_mnt_ns_info)

/*
 * The notification queue (watch_queue.h): <linux/watch_queue.h> cannot be
 * included beside <fcntl.h> on glibc 2.36, so its definitions live here.
 */
#define KAPI_O_NOTIFICATION_PIPE	O_EXCL
#define KAPI_IOC_WATCH_QUEUE_SET_SIZE	_IO('W', 0x60)
#define KAPI_IOC_WATCH_QUEUE_SET_FILTER	_IO('W', 0x61)
#define KAPI_WATCH_TYPE_META		0
#define KAPI_WATCH_TYPE_KEY_NOTIFY	1
#define KAPI_WATCH_META_REMOVAL		0
#define KAPI_WATCH_META_LOSS		1
#define KAPI_WATCH_INFO_LENGTH		0x0000007f
#define KAPI_WATCH_INFO_ID		0x0000ff00
#define KAPI_WATCH_INFO_ID__SHIFT	8
#define KAPI_KEYCTL_CAPS1_NOTIFICATIONS	0x04

/* enum key_notification_subtype: the subtypes of WATCH_TYPE_KEY_NOTIFY records. */
#define KAPI_NOTIFY_KEY_INSTANTIATED	0
#define KAPI_NOTIFY_KEY_UPDATED		1
#define KAPI_NOTIFY_KEY_LINKED		2
#define KAPI_NOTIFY_KEY_UNLINKED	3
#define KAPI_NOTIFY_KEY_CLEARED		4
#define KAPI_NOTIFY_KEY_REVOKED		5
#define KAPI_NOTIFY_KEY_INVALIDATED	6
#define KAPI_NOTIFY_KEY_SETATTR		7

struct kapi_watch_notification {	/* the kernel's bitfields, so the ABI's layout */
	__u32 type:24;
	__u32 subtype:8;
	__u32 info;
};

struct kapi_key_notification {
	struct kapi_watch_notification watch;
	__u32 key_id;
	__u32 aux;
};

struct kapi_watch_type_filter {
	__u32 type;
	__u32 info_filter;
	__u32 info_mask;
	__u32 subtype_filter[8];
};

struct kapi_watch_filter {
	__u32 nr_filters;
	__u32 reserved;
	struct kapi_watch_type_filter filters[1];
};

#endif
