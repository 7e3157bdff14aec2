/*
 * burst: mount-table changes back to back, faster than a shell can make them,
 * for the mount tests.
 *
 *   burst pairs DIR N [MS]   N mount(2)+umount(2) pairs of a tmpfs on DIR, MS
 *                            milliseconds apart if given (mounts that keep changing)
 *   burst every DIR MS S     a tmpfs mounted and unmounted on DIR every MS
 *                            milliseconds for S seconds; says "started" on stdout
 *                            after the first pair and "stopped" after the last
 *   burst populate DIR N     a tmpfs on each of DIR/0 .. DIR/N-1 (created)
 *   burst flip DIR N         remount DIR/0 .. DIR/N-1 read-only (bind remount)
 *   burst moves A B N        N moves of the mount on A to B and back
 *   burst mixed DIR FLIP     a tmpfs mounted on DIR, the mount on FLIP remounted
 *                            read-only (bind remount), DIR unmounted: the flip
 *                            between a mount and an unmount, microseconds apart
 *
 * and single changes by a process of a known name (any bytes: printf %b form),
 * for the tests of who made a change:
 *
 *   burst as NAME OP         do OP as NAME, then exit at once
 *   burst hold NAME OP       do OP as NAME, say "done" on stdout, then wait for a signal
 *   burst churn NAME N       N short-lived children called NAME, one after the other (to reuse pids)
 *   burst reuse PID NAME [OP]
 *                            children called NAME until one has pid PID again; that one
 *                            does OP, if given, and stays
 *   burst nsas PID NAME OP   in a pid namespace of its own, as its process 1 and as PID
 *                            here (clone3(2) with set_tid: PID must be free), do OP as
 *                            NAME, then exit; wait for it
 *   burst then NAME NEW UID OP
 *                            do OP as NAME, then call itself NEW and take UID as every
 *                            uid (NEW "exec": exec sleep instead), say "done" on stdout,
 *                            then wait for a signal
 *   burst renamed A B DIR    as A, mount a tmpfs on DIR and say "mounted" on stdout;
 *                            at SIGUSR1, as B (same process), unmount it; say "done",
 *                            then wait for a signal
 *
 * where OP is one of: mount SRC DIR (a tmpfs), umount DIR, walk PATH (open(2): an
 * automount point there mounts; no mount call), move A B, beneath A B (the
 * mount on A moved beneath the top mount on B: move_mount(2) with MOVE_MOUNT_BENEATH),
 * remount DIR ro|rw (mount(2) MS_REMOUNT), setattr-ro DIR (mount_setattr(2) with
 * AT_RECURSIVE: DIR's mount and those below it read-only), setattr-shared DIR
 * (mount_setattr(2): DIR's mount shared), reconfigure-ro DIR (fspick(2),
 * then fsconfig(2) "ro" and FSCONFIG_CMD_RECONFIGURE: DIR's filesystem read-only).
 */
#define _GNU_SOURCE
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>

static void
at(char *p, size_t size, const char *dir, long i)
{
	if ((size_t)snprintf(p, size, "%s/%ld", dir, i) >= size)
		errx(1, "%s: path too long", dir);
}

/* A name in printf %b form: \\, \n, \t and \xHH; the kernel keeps the first 15 bytes. */
static void
name_self(const char *s)
{
	char name[64];
	size_t n = 0;

	while (*s && n < sizeof(name) - 1) {
		if (s[0] == '\\' && s[1] == 'x' && s[2] && s[3]) {
			char hex[3] = { s[2], s[3], 0 };

			name[n++] = (char)strtol(hex, NULL, 16);
			s += 4;
		} else if (s[0] == '\\' && s[1]) {
			name[n++] = s[1] == 'n' ? '\n' : s[1] == 't' ? '\t' : s[1];
			s += 2;
		} else {
			name[n++] = *s++;
		}
	}
	name[n] = '\0';
	if (prctl(PR_SET_NAME, name) < 0)
		err(1, "PR_SET_NAME");
}

#ifndef SYS_move_mount
#define SYS_move_mount 429
#endif
#define BURST_MOVE_MOUNT_F_EMPTY_PATH	0x00000004
#define BURST_MOVE_MOUNT_BENEATH	0x00000200

/* Move the mount on a beneath the top mount on b. */
static void
beneath(const char *a, const char *b)
{
	int fd = open(a, O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		err(1, "%s", a);
	if (syscall(SYS_move_mount, fd, "", AT_FDCWD, b,
	    BURST_MOVE_MOUNT_F_EMPTY_PATH | BURST_MOVE_MOUNT_BENEATH) < 0)
		err(1, "move_mount %s beneath %s", a, b);
	close(fd);
}

#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442
#endif
#ifndef SYS_fspick
#define SYS_fspick 433
#endif
#ifndef SYS_fsconfig
#define SYS_fsconfig 431
#endif
#define BURST_AT_RECURSIVE		0x8000
#define BURST_MOUNT_ATTR_RDONLY		0x00000001
#define BURST_FSCONFIG_SET_FLAG		0
#define BURST_FSCONFIG_CMD_RECONFIGURE	7

/* struct mount_attr of linux/mount.h, which clashes with sys/mount.h in glibc 2.36. */
struct burst_mount_attr {
	unsigned long long attr_set, attr_clr, propagation, userns_fd;
};

/* The mount on dir and every one below it read-only, by mount_setattr(2). */
static void
setattr_ro(const char *dir)
{
	struct burst_mount_attr a = { BURST_MOUNT_ATTR_RDONLY, 0, 0, 0 };

	if (syscall(SYS_mount_setattr, AT_FDCWD, dir, BURST_AT_RECURSIVE, &a, sizeof(a)) < 0)
		err(1, "mount_setattr %s", dir);
}

/* The mount on dir shared, by mount_setattr(2) (mount(2)'s MS_SHARED bumps no mountinfo signal). */
static void
setattr_shared(const char *dir)
{
	struct burst_mount_attr a = { 0, 0, MS_SHARED, 0 };

	if (syscall(SYS_mount_setattr, AT_FDCWD, dir, 0, &a, sizeof(a)) < 0)
		err(1, "mount_setattr %s", dir);
}

/* The filesystem of dir's mount read-only, through the new mount API. */
static void
reconfigure_ro(const char *dir)
{
	int fd = (int)syscall(SYS_fspick, AT_FDCWD, dir, 0);

	if (fd < 0)
		err(1, "fspick %s", dir);
	if (syscall(SYS_fsconfig, fd, BURST_FSCONFIG_SET_FLAG, "ro", NULL, 0) < 0 ||
	    syscall(SYS_fsconfig, fd, BURST_FSCONFIG_CMD_RECONFIGURE, NULL, NULL, 0) < 0)
		err(1, "fsconfig %s", dir);
	close(fd);
}

/* One change: argv is OP ARGS..., argc their number. */
static void
change(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[0], "mount") == 0) {
		if (mount(argv[1], argv[2], "tmpfs", 0, "size=4k") < 0)
			err(1, "mount %s", argv[2]);
	} else if (argc == 2 && strcmp(argv[0], "umount") == 0) {
		if (umount(argv[1]) < 0)
			err(1, "umount %s", argv[1]);
	} else if (argc == 2 && strcmp(argv[0], "walk") == 0) {
		int fd = open(argv[1], O_RDONLY | O_DIRECTORY);

		if (fd < 0)
			err(1, "open %s", argv[1]);
		close(fd);
	} else if (argc == 3 && strcmp(argv[0], "move") == 0) {
		if (mount(argv[1], argv[2], NULL, MS_MOVE, NULL) < 0)
			err(1, "move %s %s", argv[1], argv[2]);
	} else if (argc == 3 && strcmp(argv[0], "beneath") == 0) {
		beneath(argv[1], argv[2]);
	} else if (argc == 3 && strcmp(argv[0], "remount") == 0) {
		if (mount(NULL, argv[1], NULL, MS_REMOUNT |
		    (strcmp(argv[2], "ro") == 0 ? MS_RDONLY : 0), NULL) < 0)
			err(1, "remount %s", argv[1]);
	} else if (argc == 2 && strcmp(argv[0], "setattr-ro") == 0) {
		setattr_ro(argv[1]);
	} else if (argc == 2 && strcmp(argv[0], "setattr-shared") == 0) {
		setattr_shared(argv[1]);
	} else if (argc == 2 && strcmp(argv[0], "reconfigure-ro") == 0) {
		reconfigure_ro(argv[1]);
	} else {
		errx(64, "OP: mount SRC DIR | umount DIR | walk PATH | move A B | beneath A B | "
		    "remount DIR ro|rw | setattr-ro DIR | setattr-shared DIR | reconfigure-ro DIR");
	}
}

#ifndef CLONE_NEWPID
#define CLONE_NEWPID 0x20000000
#endif

/* clone3(2)'s arguments (linux/sched.h), for set_tid. */
struct burst_clone_args {
	unsigned long long flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls;
	unsigned long long set_tid, set_tid_size, cgroup;
};

/* As process 1 of a new pid namespace and pid here, do OP as name; wait for it. */
static int
nsas(pid_t pid, const char *name, int argc, char **argv)
{
	pid_t tids[2] = { 1, pid };
	struct burst_clone_args a = { .flags = CLONE_NEWPID, .exit_signal = SIGCHLD,
	    .set_tid = (unsigned long long)(uintptr_t)tids, .set_tid_size = 2 };
	int st;
	long c = syscall(SYS_clone3, &a, sizeof(a));

	if (c < 0)
		err(1, "clone3 with set_tid %ld", (long)pid);
	if (c == 0) {
		name_self(name);
		change(argc, argv);
		_exit(0);
	}
	while (waitpid((pid_t)c, &st, 0) < 0)
		if (errno != EINTR)
			err(1, "waitpid");
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

/* Do OP as name, then become new (or exec sleep) with uid as every uid; stay. */
static void
then(const char *name, const char *new, const char *uid, int argc, char **argv)
{
	uid_t u = (uid_t)atol(uid);

	name_self(name);
	change(argc, argv);
	if (setresgid(u, u, u) < 0 || setresuid(u, u, u) < 0)
		err(1, "setresuid %s", uid);
	printf("done\n");
	fflush(stdout);
	if (strcmp(new, "exec") == 0) {
		execlp("sleep", "sleep", "infinity", (char *)NULL);
		err(1, "exec sleep");
	}
	name_self(new);
	for (;;)
		pause();
}

int
main(int argc, char **argv)
{
	char p[4096];
	long i, n;

	/* A mount, its remount read-only, its unmount at once, N times: no step may fail. */
	if (argc == 4 && strcmp(argv[1], "flipgone") == 0) {
		for (i = 0, n = atol(argv[3]); i < n; i++)
			if (mount("burst", argv[2], "tmpfs", 0, "size=4k") < 0 ||
			    mount(NULL, argv[2], NULL, MS_REMOUNT | MS_BIND | MS_RDONLY, NULL) < 0 ||
			    umount(argv[2]) < 0)
				err(1, "%s (round %ld)", argv[2], i);
		return 0;
	}
	if ((argc == 4 || argc == 5) && strcmp(argv[1], "pairs") == 0) {
		for (i = 0, n = atol(argv[3]); i < n; i++) {
			if (mount("burst", argv[2], "tmpfs", 0, "size=4k") < 0 || umount(argv[2]) < 0)
				err(1, "%s", argv[2]);
			if (argc == 5)
				usleep((useconds_t)(atol(argv[4]) * 1000));
		}
		return 0;
	}
	if (argc == 5 && strcmp(argv[1], "every") == 0) {
		time_t end = time(NULL) + atol(argv[4]);

		for (i = 0; i == 0 || time(NULL) < end; i++) {
			if (mount("burst", argv[2], "tmpfs", 0, "size=4k") < 0 ||
			    umount(argv[2]) < 0)
				err(1, "%s", argv[2]);
			if (i == 0 && (printf("started\n") < 0 || fflush(stdout) == EOF))
				err(1, "stdout");
			usleep((useconds_t)(atol(argv[3]) * 1000));
		}
		printf("stopped\n");
		return fflush(stdout) == EOF;
	}
	if (argc == 4 && strcmp(argv[1], "populate") == 0) {
		for (i = 0, n = atol(argv[3]); i < n; i++) {
			at(p, sizeof(p), argv[2], i);
			if ((mkdir(p, 0755) < 0 && errno != EEXIST) || mount("burst", p, "tmpfs", 0, "size=4k") < 0)
				err(1, "%s", p);
		}
		return 0;
	}
	if (argc == 4 && strcmp(argv[1], "flip") == 0) {
		for (i = 0, n = atol(argv[3]); i < n; i++) {
			at(p, sizeof(p), argv[2], i);
			if (mount(NULL, p, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY, NULL) < 0)
				err(1, "%s", p);
		}
		return 0;
	}
	if (argc == 5 && strcmp(argv[1], "moves") == 0) {
		for (i = 0, n = atol(argv[4]); i < n; i++)
			if (mount(argv[2], argv[3], NULL, MS_MOVE, NULL) < 0 ||
			    mount(argv[3], argv[2], NULL, MS_MOVE, NULL) < 0)
				err(1, "move %s %s", argv[2], argv[3]);
		return 0;
	}
	if (argc == 4 && strcmp(argv[1], "mixed") == 0) {
		if (mount("burst", argv[2], "tmpfs", 0, "size=4k") < 0 ||
		    mount(NULL, argv[3], NULL, MS_REMOUNT | MS_BIND | MS_RDONLY, NULL) < 0 || umount(argv[2]) < 0)
			err(1, "mixed %s %s", argv[2], argv[3]);
		return 0;
	}
	if (argc == 5 && strcmp(argv[1], "renamed") == 0) {
		char *mnt[] = { "mount", "burst", argv[4] }, *um[] = { "umount", argv[4] };
		sigset_t usr1;
		int sig;

		sigemptyset(&usr1);
		sigaddset(&usr1, SIGUSR1);
		sigprocmask(SIG_BLOCK, &usr1, NULL);
		name_self(argv[2]);
		change(3, mnt);
		printf("mounted\n");
		fflush(stdout);
		sigwait(&usr1, &sig);
		name_self(argv[3]);
		change(2, um);
		printf("done\n");
		fflush(stdout);
		for (;;)
			pause();
	}
	if (argc >= 4 && (strcmp(argv[1], "as") == 0 || strcmp(argv[1], "hold") == 0)) {
		name_self(argv[2]);
		change(argc - 3, argv + 3);
		if (strcmp(argv[1], "as") == 0)
			return 0;
		printf("done\n");
		fflush(stdout);
		for (;;)
			pause();
	}
	if (argc == 4 && strcmp(argv[1], "churn") == 0) {
		for (i = 0, n = atol(argv[3]); i < n; i++) {
			pid_t pid = fork();

			if (pid < 0)
				err(1, "fork");
			if (pid == 0) {
				name_self(argv[2]);
				_exit(0);
			}
			while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
				;
		}
		return 0;
	}
	if (argc >= 6 && strcmp(argv[1], "nsas") == 0)
		return nsas((pid_t)atol(argv[2]), argv[3], argc - 4, argv + 4);
	if (argc >= 7 && strcmp(argv[1], "then") == 0)
		then(argv[2], argv[3], argv[4], argc - 5, argv + 5);
	if (argc >= 4 && strcmp(argv[1], "reuse") == 0) {
		pid_t want = (pid_t)atol(argv[2]);

		for (i = 0; i < 10000000; i++) {
			pid_t pid = fork();

			if (pid < 0)
				err(1, "fork");
			if (pid == 0) {
				name_self(argv[3]);
				if (getpid() != want)
					_exit(0);
				if (argc > 4)
					change(argc - 4, argv + 4);
				for (;;)
					pause();
			}
			if (pid == want)
				return 0;
			while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
				;
		}
		errx(1, "pid %ld never came back", (long)want);
	}
	errx(64, "usage: burst pairs DIR N [MS] | every DIR MS S | populate DIR N | flip DIR N | "
	    "moves A B N | mixed DIR FLIP | "
	    "as NAME OP | hold NAME OP | churn NAME N | reuse PID NAME [OP] | renamed A B DIR | "
	    "nsas PID NAME OP | then NAME NEW UID OP");
}
