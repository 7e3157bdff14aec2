/*
 * nsburst: mount namespaces made and destroyed faster than a shell can, for the
 * -N all tests (tests/nsall.bats).
 *
 *   nsburst loop N MS DIR   N mount namespaces, at most 20 at once, each a child that
 *                           unshares one, mounts a tmpfs "nsburst" on DIR in it and
 *                           exits after 0 to MS milliseconds (some before watchq
 *                           sees them, some while it reads them); says "done" when
 *                           the last has exited
 *   nsburst par N K DIR [umount]
 *                           N mount namespaces, K at a time: each batch of K children is
 *                           let go at once, each unshares one, mounts a tmpfs
 *                           "par-PID-I" (PID: nsburst's) on DIR in it (and unmounts it
 *                           again with umount) and exits at once; prints "par-PID-I INO"
 *                           (its namespace's inode) for each mount made, then "done"
 *   nsburst reuse PID DIR   a child with pid PID again (through ns_last_pid; it
 *                           must be free), in a mount namespace of its own with a
 *                           tmpfs "reused" on DIR; says "ready", then waits for a
 *                           signal
 *   nsburst clone DIR       a child made by clone(2) with CLONE_NEWNS (clone3 DIR: by
 *                           clone3(2)), which mounts a tmpfs "cloned" on DIR in its
 *                           namespace; says its pid once it has, then waits for a signal
 */
#define _GNU_SOURCE
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define AT_ONCE	20

/* Unshare a private mount namespace and mount a tmpfs called src on dir; exits 1 on failure. */
static void
own_ns(const char *src, const char *dir)
{
	if (unshare(CLONE_NEWNS) < 0)
		err(1, "unshare");
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		err(1, "make-rprivate");
	if (mount(src, dir, "tmpfs", 0, NULL) < 0)
		err(1, "mount %s", dir);
}

static void
reap_one(int *alive)
{
	while (wait(NULL) < 0)
		if (errno != EINTR)
			err(1, "wait");
	(*alive)--;
}

static int
ns_loop(long n, long ms, const char *dir)
{
	int alive = 0;
	long i;

	srand((unsigned)getpid());
	for (i = 0; i < n; i++) {
		long life = ms > 0 ? rand() % (ms + 1) : 0;
		pid_t pid;

		if (alive == AT_ONCE)
			reap_one(&alive);
		if ((pid = fork()) < 0)
			err(1, "fork");
		if (pid == 0) {
			own_ns("nsburst", dir);
			nanosleep(&(struct timespec){ life / 1000, life % 1000 * 1000000L }, NULL);
			_exit(0);
		}
		alive++;
	}
	while (alive > 0)
		reap_one(&alive);
	puts("done");
	return 0;
}

/* Child i of ns_par: once the gate opens, its own namespace, one mount (and its unmount), its
 * line on out, and exit. */
static void
par_child(long i, int gate, int out, const char *dir, bool umount_too)
{
	char src[32], line[64];
	struct stat st;
	int n;

	if (read(gate, src, 1) < 0)
		_exit(1);
	snprintf(src, sizeof(src), "par-%ld-%ld", (long)getppid(), i);
	own_ns(src, dir);
	if (umount_too && umount2(dir, 0) < 0)
		err(1, "umount %s", dir);
	if (stat("/proc/self/ns/mnt", &st) < 0)
		err(1, "ns/mnt");
	/* One write(2) of less than PIPE_BUF: the lines of the batch do not mix. */
	n = snprintf(line, sizeof(line), "%s %llu\n", src, (unsigned long long)st.st_ino);
	if (write(out, line, (size_t)n) != n)
		_exit(1);
	_exit(0);
}

static int
ns_par(long n, long k, const char *dir, bool umount_too)
{
	int gate[2], alive;
	long i = 0, b;

	if (k < 1)
		errx(64, "par: K must be at least 1");
	while (i < n) {
		if (pipe(gate) < 0)
			err(1, "pipe");
		for (b = 0, alive = 0; b < k && i < n; b++, i++, alive++) {
			pid_t pid = fork();

			if (pid < 0)
				err(1, "fork");
			if (pid == 0) {
				close(gate[1]);
				par_child(i, gate[0], STDOUT_FILENO, dir, umount_too);
			}
		}
		/* Closed, the gate lets the whole batch go at once (read(2) returns 0). */
		close(gate[0]);
		close(gate[1]);
		while (alive > 0)
			reap_one(&alive);
	}
	puts("done");
	return 0;
}

/* Make the next pid the kernel gives want; false if this kernel has no ns_last_pid. */
static int
next_pid_is(pid_t want)
{
	FILE *f = fopen("/proc/sys/kernel/ns_last_pid", "w");
	int r;

	if (f == NULL)
		return -1;
	r = fprintf(f, "%ld", (long)want - 1);
	return fclose(f) == 0 && r > 0 ? 0 : -1;
}

static int
ns_reuse(pid_t want, const char *dir)
{
	int i, ready[2];
	char c;

	if (pipe(ready) < 0)
		err(1, "pipe");
	/* Another process may take the pid between the write and the fork: try again. */
	for (i = 0; i < 1000; i++) {
		pid_t pid;

		if (next_pid_is(want) < 0)
			err(77, "ns_last_pid");
		if ((pid = fork()) < 0)
			err(1, "fork");
		if (pid == 0) {
			if (getpid() != want)
				_exit(0);
			own_ns("reused", dir);
			if (write(ready[1], "r", 1) != 1)
				_exit(1);
			for (;;)
				pause();
		}
		if (pid == want)
			break;
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	if (i == 1000)
		errx(1, "pid %ld never came back", (long)want);
	close(ready[1]);
	if (read(ready[0], &c, 1) != 1)
		errx(1, "the child with pid %ld failed", (long)want);
	puts("ready");
	fflush(stdout);
	for (;;)
		pause();
}

/* clone3(2)'s arguments: flags, then exit_signal at the fifth u64 (linux/sched.h). */
struct clone3_args {
	unsigned long long flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls;
};

static int
ns_clone(const char *dir, bool three)
{
	struct clone3_args a = { .flags = CLONE_NEWNS, .exit_signal = SIGCHLD };
	int ready[2];
	long pid;
	char c;

	if (pipe(ready) < 0)
		err(1, "pipe");
	/* Without a stack of its own, the child goes on from here, as after fork(2). */
	pid = three ? syscall(SYS_clone3, &a, sizeof(a)) :
	    syscall(SYS_clone, CLONE_NEWNS | SIGCHLD, 0, 0, 0, 0);
	if (pid < 0)
		err(errno == ENOSYS ? 77 : 1, three ? "clone3" : "clone");
	if (pid == 0) {
		if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
		    mount("cloned", dir, "tmpfs", 0, NULL) < 0 || write(ready[1], "r", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(ready[1]);
	if (read(ready[0], &c, 1) != 1)
		errx(1, "the cloned child failed");
	printf("%ld\n", pid);
	fflush(stdout);
	for (;;)
		pause();
}

int
main(int argc, char **argv)
{
	if (argc == 5 && strcmp(argv[1], "loop") == 0)
		return ns_loop(atol(argv[2]), atol(argv[3]), argv[4]);
	if ((argc == 5 || (argc == 6 && strcmp(argv[5], "umount") == 0)) &&
	    strcmp(argv[1], "par") == 0)
		return ns_par(atol(argv[2]), atol(argv[3]), argv[4], argc == 6);
	if (argc == 4 && strcmp(argv[1], "reuse") == 0)
		return ns_reuse((pid_t)atol(argv[2]), argv[3]);
	if (argc == 3 && (strcmp(argv[1], "clone") == 0 || strcmp(argv[1], "clone3") == 0))
		return ns_clone(argv[2], strcmp(argv[1], "clone3") == 0);
	errx(64, "usage: nsburst loop N MS DIR | par N K DIR [umount] | reuse PID DIR | clone DIR | clone3 DIR");
}
