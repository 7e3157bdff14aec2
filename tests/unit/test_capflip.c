/* Which captured calls flip a mount, and what they name (capflip.h), as a table of calls. */
#include "unit.h"
#include "capflip.h"

#define REMOUNT		32ULL
#define BIND		4096ULL
#define REC		16384ULL
#define PRIVATE		(1ULL << 18)
#define SHARED		(1ULL << 20)
#define RECURSIVE	0x8000ULL
#define EMPTY_PATH	0x1000ULL

enum { NS = 4026531841u, OTHER_NS = 4026532000u, ROOT_MNT = 0x1000, ROOT_DENTRY = 0x2000 };

/* A call by a process in watchq's namespace and root, with PATH as its path argument. */
static struct capture_enter
call(int nr, const char *path, unsigned long long a1, unsigned long long a2,
    unsigned long long a3)
{
	struct capture_enter e = { .h.nr = nr, .mnt_ns = NS, .root_mnt = ROOT_MNT,
	    .root_dentry = ROOT_DENTRY, .args = { 0, a1, a2, a3 } };

	e.path_len = strlen(path) + 1;
	memcpy(e.path, path, e.path_len);
	return e;
}

int
main(void)
{
	static const struct capflip_self self = { NS, ROOT_MNT, ROOT_DENTRY };
	static const struct capflip_self unknown = { 0 };
	static const struct {
		const char *what;
		int nr;
		const char *path;
		unsigned long long a1, a2, a3, attr_set, attr_prop, fd_mnt_id;
		unsigned fd_dev;
		bool flip, opts, props, sb, subtree;
		enum capture_target target;
	} t[] = {
		{ "a plain mount is no flip", CAPTURE_NR_MOUNT, "/mnt", 0, 0, 0, 0, 0, 0, 0,
		  false, false, false, false, false, CAPTURE_TARGET_NONE },
		{ "a remount flips options of the superblock", CAPTURE_NR_MOUNT, "/mnt", 0, 0,
		  REMOUNT, 0, 0, 0, 0, true, true, false, true, false, CAPTURE_TARGET_PATH },
		{ "a bind remount flips the mount alone", CAPTURE_NR_MOUNT, "/mnt", 0, 0,
		  REMOUNT | BIND, 0, 0, 0, 0, true, true, false, false, false, CAPTURE_TARGET_PATH },
		{ "make-rprivate flips propagation of a subtree", CAPTURE_NR_MOUNT, "/mnt", 0, 0,
		  PRIVATE | REC, 0, 0, 0, 0, true, false, true, false, true, CAPTURE_TARGET_PATH },
		{ "propagation flags with MS_BIND are a bind mount", CAPTURE_NR_MOUNT, "/mnt", 0,
		  0, SHARED | BIND, 0, 0, 0, 0, false, false, false, false, false,
		  CAPTURE_TARGET_NONE },
		{ "a relative path names nothing", CAPTURE_NR_MOUNT, "mnt", 0, 0, REMOUNT, 0, 0, 0,
		  0, true, true, false, true, false, CAPTURE_TARGET_NONE },
		{ "mount_setattr ro, recursive", CAPTURE_NR_MOUNT_SETATTR, "/mnt", 0, RECURSIVE, 0,
		  1, 0, 0, 0, true, true, false, false, true, CAPTURE_TARGET_PATH },
		{ "mount_setattr propagation", CAPTURE_NR_MOUNT_SETATTR, "/mnt", 0, 0, 0, 0,
		  PRIVATE, 0, 0, true, false, true, false, false, CAPTURE_TARGET_PATH },
		{ "mount_setattr unread: anything", CAPTURE_NR_MOUNT_SETATTR, "/mnt", 0, 0, 0, 0, 0,
		  0, 0, true, true, true, false, false, CAPTURE_TARGET_PATH },
		{ "mount_setattr on an fd: the fd's mount", CAPTURE_NR_MOUNT_SETATTR, "", 0,
		  EMPTY_PATH, 0, 1, 0, 77, 0, true, true, false, false, false,
		  CAPTURE_TARGET_MOUNT },
		{ "fsconfig reconfigure: the fs_context's superblock", CAPTURE_NR_FSCONFIG, "", 7,
		  0, 0, 0, 0, 0, (8 << 20) | 3, true, true, false, true, false,
		  CAPTURE_TARGET_SB },
		{ "fsconfig reconfigure, device unknown", CAPTURE_NR_FSCONFIG, "", 7, 0, 0, 0, 0,
		  0, 0, true, true, false, true, false, CAPTURE_TARGET_NONE },
		{ "fsconfig create is no flip", CAPTURE_NR_FSCONFIG, "", 6, 0, 0, 0, 0, 0, 0,
		  false, false, false, false, false, CAPTURE_TARGET_NONE },
		{ "umount2 is no flip", CAPTURE_NR_UMOUNT2, "/mnt", 0, 0, 0, 0, 0, 0, 0, false,
		  false, false, false, false, CAPTURE_TARGET_NONE },
	};
	struct capture_enter e;
	struct capture_call f;
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		e = call(t[i].nr, t[i].path, t[i].a1, t[i].a2, t[i].a3);
		e.attr[0] = t[i].attr_set;
		e.attr[2] = t[i].attr_prop;
		e.fd_mnt_id = t[i].fd_mnt_id;
		e.fd_dev = t[i].fd_dev;
		memset(&f, 0, sizeof(f));
		CHECK(capflip_decode(&e, &self, &f) == t[i].flip, "%s: flip", t[i].what);
		if (!t[i].flip)
			continue;
		CHECK(f.opts == t[i].opts && f.props == t[i].props, "%s: opts %d props %d",
		    t[i].what, f.opts, f.props);
		CHECK(f.sb == t[i].sb && f.subtree == t[i].subtree, "%s: sb %d subtree %d",
		    t[i].what, f.sb, f.subtree);
		CHECK(f.target == t[i].target, "%s: target %d", t[i].what, f.target);
	}
	e = call(CAPTURE_NR_MOUNT, "/mnt", 0, 0, REMOUNT);
	memset(&f, 0, sizeof(f));
	capflip_decode(&e, &self, &f);
	CHECK_STR(f.path, "/mnt");
	CHECK(f.major == 0 && f.mnt_id == 0, "a path target carries no id");
	/* A remount's flags are its whole new state; a reconfigure's "ro" was set before it. */
	e = call(CAPTURE_NR_MOUNT, "/mnt", 0, 0, REMOUNT | 1);
	memset(&f, 0, sizeof(f));
	capflip_decode(&e, &self, &f);
	CHECK(f.may_ro && !f.may_rw, "remount,ro: may_ro %d may_rw %d", f.may_ro, f.may_rw);
	e = call(CAPTURE_NR_MOUNT, "/mnt", 0, 0, REMOUNT);
	memset(&f, 0, sizeof(f));
	capflip_decode(&e, &self, &f);
	CHECK(!f.may_ro && f.may_rw, "remount,rw: may_ro %d may_rw %d", f.may_ro, f.may_rw);
	e = call(CAPTURE_NR_MOUNT, "/mnt", 0, 0, REMOUNT | BIND | 1);
	memset(&f, 0, sizeof(f));
	capflip_decode(&e, &self, &f);
	CHECK(!f.may_ro && !f.may_rw, "a bind remount leaves the superblock alone");
	e = call(CAPTURE_NR_FSCONFIG, "", 7, 0, 0);
	e.fd_dev = (259 << 20) | 5;
	memset(&f, 0, sizeof(f));
	capflip_decode(&e, &self, &f);
	CHECK(f.major == 259 && f.minor == 5, "fsconfig's device: %u:%u", f.major, f.minor);
	CHECK(f.may_ro && f.may_rw, "a reconfigure may go either way");
	/* Another namespace or root, or watchq's not known yet: the path names nothing. */
	e = call(CAPTURE_NR_MOUNT, "/mnt", 0, 0, REMOUNT);
	e.mnt_ns = OTHER_NS;
	memset(&f, 0, sizeof(f));
	capflip_decode(&e, &self, &f);
	CHECK(f.target == CAPTURE_TARGET_NONE && f.elsewhere, "another namespace");
	e = call(CAPTURE_NR_MOUNT, "/mnt", 0, 0, REMOUNT);
	e.root_dentry = ROOT_DENTRY + 8;
	memset(&f, 0, sizeof(f));
	capflip_decode(&e, &self, &f);
	CHECK(f.target == CAPTURE_TARGET_NONE && !f.elsewhere, "a chroot: same namespace");
	e = call(CAPTURE_NR_MOUNT, "/mnt", 0, 0, REMOUNT);
	memset(&f, 0, sizeof(f));
	capflip_decode(&e, &unknown, &f);
	CHECK(f.target == CAPTURE_TARGET_NONE && !f.elsewhere, "watchq's namespace unknown");
	return unit_done("test_capflip");
}
