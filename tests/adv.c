/*
 * adv: a process that runs a script of steps, for the adversarial tests of who made a change
 * (tests/adversary.bats). Each step is a word and its arguments:
 *
 *   name NAME          prctl(PR_SET_NAME)
 *   mount DIR          a tmpfs on DIR (mount(2))
 *   rbind SRC DIR      mount(2) MS_BIND|MS_REC
 *   umount DIR         umount2(2) 0
 *   lazy DIR           umount2(2) MNT_DETACH
 *   walk PATH          open(2) a directory (an automount point there mounts)
 *   chdir DIR          chdir(2)
 *   chroot DIR         chroot(2)
 *   remount DIR ro|rw  mount(2) MS_REMOUNT (superblock)
 *   bindro DIR         mount(2) MS_REMOUNT|MS_BIND|MS_RDONLY
 *   bindnosuid DIR     mount(2) MS_REMOUNT|MS_BIND|MS_NOSUID
 *   tmount NAME DIR    a thread named NAME mounts a tmpfs on DIR, joined
 *   clonemove SRC DIR  open_tree(2) OPEN_TREE_CLONE|AT_RECURSIVE of SRC, move_mount(2) to DIR
 *   move SRC DIR       mount(2) MS_MOVE
 *   mmove SRC DIR      move_mount(2) of the mount at SRC to DIR
 *   bindpriv SRC DIR   mount(2) MS_BIND|MS_PRIVATE (the kernel makes a bind mount: MS_BIND wins)
 *   bindmove SRC DIR   mount(2) MS_BIND|MS_MOVE (a bind mount as well)
 *   rename OLD NEW     rename(2)
 *   private DIR        mount(2) MS_PRIVATE
 *   noexec DIR         mount_setattr(2) of DIR, setting MOUNT_ATTR_NOEXEC only
 *   fill N PATH        N calls of umount2(2) on PATH, which fail (to fill the capture's ring)
 *   slave DIR          mount(2) MS_SLAVE
 *   say WORD           WORD on stdout
 *   usr1               wait for SIGUSR1
 *   hold               pause for ever
 *   nsas PID           the steps after it run in a child, process 1 of a new pid namespace and
 *                      PID here (clone3 set_tid); waited for (reaped) before adv goes on
 *   reuse PID          the steps after it run in a child forked until it has pid PID; waited for
 *   stall HOW DIR      a thread calls mount(2) on DIR with its data on a page that is not there
 *                      (userfaultfd): the call stays in the kernel until release, then fails
 *                      (HOW mount: an unknown filesystem type; remount: MS_REMOUNT|MS_RDONLY,
 *                      and an unknown option); adv goes on once the call waits for the page
 *   release            the stalled call goes on (and fails); its thread joined
 *   mount32 DIR        a tmpfs on DIR through the 32-bit entry (int 0x80; x86-64 only)
 *   remount32 DIR      MS_REMOUNT|MS_RDONLY of DIR through the 32-bit entry
 */
#define _GNU_SOURCE
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/userfaultfd.h>

struct tm_arg {
	const char *name, *dir;
	int err;
};

static void *
tmount(void *p)
{
	struct tm_arg *a = p;

	prctl(PR_SET_NAME, a->name);
	a->err = mount("adv", a->dir, "tmpfs", 0, "size=4k") < 0 ? errno : 0;
	return NULL;
}

struct clone_args_ {
	unsigned long long flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls;
	unsigned long long set_tid, set_tid_size, cgroup;
};

static int run(int argc, char **argv);

/* The stalled call: its thread, the fault fd and the page its data is on. */
static struct {
	pthread_t thread;
	int uffd;
	char *page;
	unsigned long flags;
	const char *dir, *type;
} stall;

static void *
stall_call(void *p)
{
	if (mount("adv", stall.dir, stall.type, stall.flags, stall.page) == 0)
		warnx("the stalled call on %s succeeded", stall.dir);
	return p;
}

static void
stall_start(const char *how, const char *dir)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };

	struct uffd_msg msg;

	if (strcmp(how, "mount") != 0 && strcmp(how, "remount") != 0)
		errx(64, "stall %s: mount or remount", how);
	stall.dir = dir;
	stall.type = how[0] == 'm' ? "adv-no-such-type" : "tmpfs";
	stall.flags = how[0] == 'm' ? 0 : MS_REMOUNT | MS_RDONLY;
	if ((stall.uffd = (int)syscall(SYS_userfaultfd, O_CLOEXEC)) < 0 ||
	    ioctl(stall.uffd, UFFDIO_API, &api) < 0)
		err(77, "userfaultfd");
	stall.page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	reg.range = (struct uffdio_range){ (unsigned long)stall.page, 4096 };
	if (stall.page == MAP_FAILED || ioctl(stall.uffd, UFFDIO_REGISTER, &reg) < 0)
		err(1, "userfaultfd register");
	if (pthread_create(&stall.thread, NULL, stall_call, NULL) != 0)
		errx(1, "pthread_create");
	/* The call is in the kernel once it faults on the page (a blocking read of the fault). */
	if (read(stall.uffd, &msg, sizeof(msg)) != (ssize_t)sizeof(msg) ||
	    msg.event != UFFD_EVENT_PAGEFAULT)
		errx(1, "no fault from the stalled call");
}

/* Fill the page with an option no filesystem has: the stalled call goes on, and fails. */
static void
stall_release(void)
{
	static char data[4096] __attribute__((aligned(4096))) = "adv-no-such-option=1";
	struct uffdio_copy cp = { (unsigned long)stall.page, (unsigned long)data, 4096, 0, 0 };

	if (ioctl(stall.uffd, UFFDIO_COPY, &cp) < 0)
		err(1, "userfaultfd copy");
	pthread_join(stall.thread, NULL);
}

static int
waitfor(pid_t c)
{
	int st;

	while (waitpid(c, &st, 0) < 0)
		if (errno != EINTR)
			err(1, "waitpid");
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

#if defined(__x86_64__)
/* Whether the 32-bit entry is there: without ia32 emulation, int 0x80 is a fault (SIGSEGV). */
static bool
has_int80(void)
{
	pid_t c = fork();
	long r;

	if (c < 0)
		err(1, "fork");
	if (c == 0) {
		__asm__ volatile("int $0x80" : "=a"(r) : "a"(20L /* getpid */) : "memory");
		_exit(r > 0 ? 0 : 1);
	}
	return waitfor(c) == 0;
}
#endif

/* mount(2) through the 32-bit entry, its strings below 4 GiB; 77 (skip) where there is none. */
static long
mount32(const char *dir, unsigned long flags)
{
#if defined(__x86_64__)
	char *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT,
	    -1, 0);
	long r, nr = 21;	/* the 32-bit mount */

	if (!has_int80())
		errx(77, "no 32-bit entry (int 0x80 faults: no ia32 emulation)");
	if (m == MAP_FAILED)
		err(1, "mmap");
	strcpy(m, "adv32");
	snprintf(m + 64, 4000, "%s", dir);
	strcpy(m + 3000, "tmpfs");
	__asm__ volatile("push %%rbx\n\tmov %2, %%rbx\n\tint $0x80\n\tpop %%rbx"
	    : "=a"(r) : "a"(nr), "r"((long)m), "c"((long)(m + 64)), "d"((long)(m + 3000)),
	    "S"((long)flags), "D"(0L) : "memory");
	if (r == -ENOSYS)
		errx(77, "no 32-bit entry (int 0x80)");
	return r;
#else
	(void)dir;
	(void)flags;
	errx(77, "the 32-bit entry is tested on x86-64 only");
#endif
}

static int
run(int argc, char **argv)
{
	int i = 0;

#define NEED(n) do { if (i + (n) >= argc) errx(64, "%s: needs %d arguments", argv[i], n); } while (0)
	while (i < argc) {
		const char *s = argv[i];

		if (strcmp(s, "name") == 0) {
			NEED(1);
			prctl(PR_SET_NAME, argv[i + 1]);
			i += 2;
		} else if (strcmp(s, "mount") == 0) {
			NEED(1);
			if (mount("adv", argv[i + 1], "tmpfs", 0, "size=4k") < 0)
				err(1, "mount %s", argv[i + 1]);
			i += 2;
		} else if (strcmp(s, "rbind") == 0) {
			NEED(2);
			if (mount(argv[i + 1], argv[i + 2], NULL, MS_BIND | MS_REC, NULL) < 0)
				err(1, "rbind %s %s", argv[i + 1], argv[i + 2]);
			i += 3;
		} else if (strcmp(s, "umount") == 0 || strcmp(s, "lazy") == 0) {
			NEED(1);
			if (umount2(argv[i + 1], s[0] == 'l' ? MNT_DETACH : 0) < 0)
				err(1, "umount %s", argv[i + 1]);
			i += 2;
		} else if (strcmp(s, "walk") == 0) {
			int fd;

			NEED(1);
			if ((fd = open(argv[i + 1], O_RDONLY | O_DIRECTORY)) < 0)
				err(1, "open %s", argv[i + 1]);
			close(fd);
			i += 2;
		} else if (strcmp(s, "chdir") == 0) {
			NEED(1);
			if (chdir(argv[i + 1]) < 0)
				err(1, "chdir %s", argv[i + 1]);
			i += 2;
		} else if (strcmp(s, "chroot") == 0) {
			NEED(1);
			if (chroot(argv[i + 1]) < 0 || chdir("/") < 0)
				err(1, "chroot %s", argv[i + 1]);
			i += 2;
		} else if (strcmp(s, "remount") == 0) {
			NEED(2);
			if (mount(NULL, argv[i + 1], NULL, MS_REMOUNT |
			    (strcmp(argv[i + 2], "ro") == 0 ? MS_RDONLY : 0), NULL) < 0)
				err(1, "remount %s", argv[i + 1]);
			i += 3;
		} else if (strcmp(s, "bindro") == 0 || strcmp(s, "bindnosuid") == 0) {
			NEED(1);
			if (mount(NULL, argv[i + 1], NULL, MS_REMOUNT | MS_BIND |
			    (s[4] == 'r' ? MS_RDONLY : MS_NOSUID), NULL) < 0)
				err(1, "%s %s", s, argv[i + 1]);
			i += 2;
		} else if (strcmp(s, "tmount") == 0) {
			struct tm_arg a;
			pthread_t t;

			NEED(2);
			a = (struct tm_arg){ argv[i + 1], argv[i + 2], 0 };
			if (pthread_create(&t, NULL, tmount, &a) != 0)
				errx(1, "pthread_create");
			pthread_join(t, NULL);
			if (a.err)
				{ errno = a.err; err(1, "tmount %s", a.dir); }
			i += 3;
		} else if (strcmp(s, "clonemove") == 0) {
			int fd;

			NEED(2);
			fd = (int)syscall(SYS_open_tree, AT_FDCWD, argv[i + 1],
			    0x1 /* OPEN_TREE_CLONE */ | 0x8000 /* AT_RECURSIVE */ | O_CLOEXEC);
			if (fd < 0)
				err(1, "open_tree %s", argv[i + 1]);
			if (syscall(SYS_move_mount, fd, "", AT_FDCWD, argv[i + 2],
			    0x4 /* MOVE_MOUNT_F_EMPTY_PATH */) < 0)
				err(1, "move_mount %s", argv[i + 2]);
			close(fd);
			i += 3;
		} else if (strcmp(s, "move") == 0) {
			NEED(2);
			if (mount(argv[i + 1], argv[i + 2], NULL, MS_MOVE, NULL) < 0)
				err(1, "move %s %s", argv[i + 1], argv[i + 2]);
			i += 3;
		} else if (strcmp(s, "mmove") == 0) {
			NEED(2);
			if (syscall(429 /* move_mount */, AT_FDCWD, argv[i + 1], AT_FDCWD,
			    argv[i + 2], 0) < 0)
				err(1, "mmove %s %s", argv[i + 1], argv[i + 2]);
			i += 3;
		} else if (strcmp(s, "bindpriv") == 0 || strcmp(s, "bindmove") == 0) {
			NEED(2);
			if (mount(argv[i + 1], argv[i + 2], NULL, MS_BIND |
			    (s[4] == 'p' ? MS_PRIVATE : MS_MOVE), NULL) < 0)
				err(1, "%s %s %s", s, argv[i + 1], argv[i + 2]);
			i += 3;
		} else if (strcmp(s, "private") == 0 || strcmp(s, "slave") == 0) {
			NEED(1);
			if (mount(NULL, argv[i + 1], NULL, s[0] == 'p' ? MS_PRIVATE : MS_SLAVE,
			    NULL) < 0)
				err(1, "%s %s", s, argv[i + 1]);
			i += 2;
		} else if (strcmp(s, "noexec") == 0) {
			unsigned long long attr[4] = { 0x8 /* MOUNT_ATTR_NOEXEC */, 0, 0, 0 };

			NEED(1);
			if (syscall(442 /* mount_setattr */, AT_FDCWD, argv[i + 1], 0, attr,
			    sizeof(attr)) < 0)
				err(1, "noexec %s", argv[i + 1]);
			i += 2;
		} else if (strcmp(s, "fill") == 0) {
			long n;

			NEED(2);
			for (n = atol(argv[i + 1]); n > 0; n--)
				(void)umount2(argv[i + 2], 0);
			i += 3;
		} else if (strcmp(s, "rename") == 0) {
			NEED(2);
			if (rename(argv[i + 1], argv[i + 2]) < 0)
				err(1, "rename %s %s", argv[i + 1], argv[i + 2]);
			i += 3;
		} else if (strcmp(s, "stall") == 0) {
			NEED(2);
			stall_start(argv[i + 1], argv[i + 2]);
			i += 3;
		} else if (strcmp(s, "release") == 0) {
			stall_release();
			i++;
		} else if (strcmp(s, "mount32") == 0 || strcmp(s, "remount32") == 0) {
			long r;

			NEED(1);
			r = mount32(argv[i + 1], s[0] == 'r' ? MS_REMOUNT | MS_RDONLY : 0);
			if (r < 0)
				errx(1, "%s %s: %s", s, argv[i + 1], strerror((int)-r));
			i += 2;
		} else if (strcmp(s, "say") == 0) {
			NEED(1);
			printf("%s\n", argv[i + 1]);
			fflush(stdout);
			i += 2;
		} else if (strcmp(s, "usr1") == 0) {
			sigset_t set;
			int sig;

			sigemptyset(&set);
			sigaddset(&set, SIGUSR1);
			sigwait(&set, &sig);
			i++;
		} else if (strcmp(s, "hold") == 0) {
			for (;;)
				pause();
		} else if (strcmp(s, "nsas") == 0) {
			pid_t tids[2];
			struct clone_args_ a = { .flags = 0x20000000 /* CLONE_NEWPID */,
			    .exit_signal = SIGCHLD, .set_tid_size = 2 };
			long c;

			NEED(1);
			tids[0] = 1;
			tids[1] = (pid_t)atol(argv[i + 1]);
			a.set_tid = (unsigned long long)(uintptr_t)tids;
			if ((c = syscall(SYS_clone3, &a, sizeof(a))) < 0)
				err(3, "clone3 set_tid %s", argv[i + 1]);
			if (c == 0)
				_exit(run(argc - i - 2, argv + i + 2));
			return waitfor((pid_t)c);
		} else if (strcmp(s, "reuse") == 0) {
			pid_t want;
			long n;

			NEED(1);
			want = (pid_t)atol(argv[i + 1]);
			for (n = 0; n < 10000000; n++) {
				pid_t c = fork();

				if (c < 0)
					err(1, "fork");
				if (c == 0) {
					if (getpid() != want)
						_exit(0);
					_exit(run(argc - i - 2, argv + i + 2));
				}
				if (c == want)
					return waitfor(c);
				waitfor(c);
			}
			errx(3, "pid %ld never came back", (long)want);
		} else {
			errx(64, "unknown step %s", s);
		}
	}
	return 0;
}

int
main(int argc, char **argv)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	return run(argc - 1, argv + 1);
}
