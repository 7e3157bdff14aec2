/*
 * Benchmark driver: populates a mount table, then performs mount/umount pairs
 * past a watcher (any command that prints one line per event) and measures
 * what the watcher delivered, the CPU it used, its latency and its peak RSS.
 *
 *   driver populate DIR N
 *   driver run DIR PAIRS PACE_HZ WAIT_MS READY MATCH -- CMD...
 *   driver flip DIR FLIPS GAP_MS BUDGET_S CHURN_US WAIT_MS READY RO RW -- CMD...
 *
 * run prints: cpu_us delivered performed p50_us p99_us maxrss_kb losses by_id tree_cpu_us transient
 * (by_id: delivered lines that do not name the path; transient: mounts that a
 * "transient ... count=N" line says came and went unread, each standing for two
 * events, a mount and its unmount)
 * PACE_HZ 0 is a burst (no waiting); otherwise operations are paced and the
 * latency from mount(2)/umount(2) returning to the watcher's line is measured.
 * READY is a string the watcher prints on stderr once watching ("" = wait 0.5 s);
 * a line counts as delivered if it holds MATCH ("" = the event path); WAIT_MS
 * bounds the wait for each line in paced mode; lines with "loss" are counted too.
 * cpu_us is the watcher's own CPU from readiness to the end (schedstat, ns
 * precision, start-up excluded); tree_cpu_us is its whole process tree's from
 * start to end (wait4 rusage), for watchers that work through child processes.
 *
 * flip makes FLIPS read-only flips of the mount DIR/flip (fewer if BUDGET_S seconds run out),
 * remount,ro and remount,rw in turn, as mount(8) passes them (MS_REMOUNT|MS_RDONLY|MS_RELATIME,
 * then without MS_RDONLY), at least GAP_MS apart and each awaited (WAIT_MS at most) before the
 * next, so that each is measured alone, while a second process mounts and unmounts a tmpfs on
 * DIR/churn, one call every CHURN_US (0: back to back). A flip's line
 * names DIR/flip and holds RO (RW for a flip back to rw); one that does not come is missing.
 * flip prints: flips_made reported p50_us p99_us max_us churn_calls_per_s
 * (latency from the flip's mount(2) returning to its line). READY here must be on the
 * readiness line: a watcher whose readiness line lacks it is not run (exit 69).
 */
#define _GNU_SOURCE
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

static int
populate(const char *dir, long n)
{
	char p[4096];
	long i;

	snprintf(p, sizeof(p), "%s/t", dir);
	mkdir(p, 0755);
	for (i = 0; i < n; i++) {
		snprintf(p, sizeof(p), "%s/t/%ld", dir, i);
		if (mkdir(p, 0755) < 0 && errno != EEXIST)
			err(1, "mkdir %s", p);
		if (mount("bench", p, "tmpfs", 0, "size=4k") < 0)
			err(1, "mount %s", p);
	}
	return 0;
}

struct watcher {
	pid_t pid;
	int out, errfd;
	char buf[1 << 16];
	size_t len;
	const char *match;
	const char *path;
	int need_path;			/* a line counts only if it also names path */
	long lines, losses, by_id, transient;
};

/* Read what is there; count complete lines that name the event path. 0: nothing read. */
static int
pump(struct watcher *w, int timeout_ms)
{
	struct pollfd p = { w->out, POLLIN, 0 };
	ssize_t n;
	char *nl, *c;

	if (poll(&p, 1, timeout_ms) <= 0)
		return 0;
	n = read(w->out, w->buf + w->len, sizeof(w->buf) - w->len - 1);
	if (n <= 0)
		return 0;
	w->len += (size_t)n;
	w->buf[w->len] = '\0';
	while ((nl = memchr(w->buf, '\n', w->len)) != NULL) {
		*nl = '\0';
		if (strstr(w->buf, " transient ") && (c = strstr(w->buf, "count=")) != NULL) {
			w->transient += atol(c + 6);
		} else if (strstr(w->buf, w->match) && (!w->need_path || strstr(w->buf, w->path))) {
			w->lines++;
			w->by_id += strstr(w->buf, w->path) == NULL;
		} else if (strstr(w->buf, "loss"))
			w->losses++;
		w->len -= (size_t)(nl + 1 - w->buf);
		memmove(w->buf, nl + 1, w->len);
	}
	if (w->len == sizeof(w->buf) - 1)
		w->len = 0;
	return 1;
}

static void
wait_ready(struct watcher *w, const char *ready)
{
	char buf[4096];
	size_t len = 0;
	long long deadline = bench_now_us() + 60000000;
	ssize_t n;

	if (*ready == '\0') {
		usleep(500000);
		return;
	}
	while (bench_now_us() < deadline) {
		struct pollfd p = { w->errfd, POLLIN, 0 };

		if (poll(&p, 1, 100) <= 0)
			continue;
		n = read(w->errfd, buf + len, sizeof(buf) - len - 1);
		if (n <= 0)
			errx(1, "watcher ended before it was ready");
		len += (size_t)n;
		buf[len] = '\0';
		if (strstr(buf, ready))
			return;
		if (strstr(buf, "watching") && strchr(strstr(buf, "watching"), '\n')) {
			kill(w->pid, SIGTERM);
			errx(69, "not ready as asked (%s): %s", ready, buf);
		}
		if (len > sizeof(buf) / 2)
			len = 0;
	}
	errx(1, "watcher not ready after 60 s");
}

static long
peak_rss_kb(pid_t pid)
{
	char p[64], line[256];
	long kb = 0;
	FILE *f;

	snprintf(p, sizeof(p), "/proc/%d/status", (int)pid);
	if ((f = fopen(p, "r")) == NULL)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmHWM: %ld", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/* Start the watcher CMD, its standard output and error each a pipe to us. */
static void
spawn(struct watcher *w, char **cmd)
{
	int outp[2], errp[2];

	if (pipe2(outp, O_CLOEXEC) < 0 || pipe2(errp, O_CLOEXEC) < 0)
		err(1, "pipe");
	if ((w->pid = fork()) == 0) {
		dup2(outp[1], 1);
		dup2(errp[1], 2);
		execvp(cmd[0], cmd);
		err(127, "%s", cmd[0]);
	}
	close(outp[1]);
	close(errp[1]);
	w->out = outp[0];
	w->errfd = errp[0];
}

/*
 * The churn: a child that mounts and unmounts a tmpfs on PATH, one call every EVERY_US (0: back
 * to back) on a fixed schedule, counting its calls in *calls, until it is killed.
 */
static pid_t
churn(const char *path, long every_us, long *calls)
{
	struct timespec next;
	pid_t pid;
	long i;

	if ((pid = fork()) != 0)
		return pid;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (i = 0;; i++) {
		if (i % 2 == 0 ? mount("churn", path, "tmpfs", 0, "size=4k") : umount(path))
			err(1, "churn %s", path);
		__atomic_store_n(calls, i + 1, __ATOMIC_RELAXED);
		if (every_us <= 0)
			continue;
		next.tv_nsec += every_us * 1000;
		next.tv_sec += next.tv_nsec / 1000000000;
		next.tv_nsec %= 1000000000;
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
			;
	}
}

/* Keep the watcher's pipe drained for US microseconds. */
static void
drain_for(struct watcher *w, long long us)
{
	long long t0 = bench_now_us();

	while (bench_now_us() - t0 < us)
		pump(w, (int)((us - (bench_now_us() - t0)) / 1000) + 1);
}

/* One flip of the mount PATH, to read-only if RO; its latency in µs, or -1 if no line came. */
static long long
flip_one(struct watcher *w, int ro, long long wait_us)
{
	unsigned long flags = MS_REMOUNT | MS_RELATIME | (ro ? MS_RDONLY : 0);
	long before;
	long long t0;

	while (pump(w, 0))
		;	/* what came before this flip is not its line */
	before = w->lines;
	if (mount("bench", w->path, "tmpfs", flags, NULL) < 0)
		err(1, "remount,%s %s", ro ? "ro" : "rw", w->path);
	t0 = bench_now_us();
	while (w->lines == before && bench_now_us() - t0 < wait_us)
		pump(w, 100);
	return w->lines > before ? bench_now_us() - t0 : -1;
}

/* driver flip DIR FLIPS GAP_MS BUDGET_S CHURN_US WAIT_MS READY RO RW -- CMD... (see the top) */
static int
flip(char **argv)
{
	struct watcher w = { 0 };
	char path[4096], cpath[4096];
	long flips = atol(argv[3]), i, *calls, calls0;
	long long gap_us = atol(argv[4]) * 1000LL, budget_us = atol(argv[5]) * 1000000LL;
	long long wait_us = atol(argv[7]) * 1000LL;
	long long *lat = calloc((size_t)flips + 1, sizeof(*lat)), t, start;
	size_t nlat = 0;
	pid_t cpid;

	snprintf(path, sizeof(path), "%s/flip", argv[2]);
	snprintf(cpath, sizeof(cpath), "%s/churn", argv[2]);
	calls = mmap(NULL, sizeof(*calls), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
	    -1, 0);
	if (calls == MAP_FAILED || lat == NULL)
		err(1, "memory");
	if ((mkdir(path, 0755) < 0 && errno != EEXIST) ||
	    (mkdir(cpath, 0755) < 0 && errno != EEXIST))
		err(1, "mkdir %s", argv[2]);
	if (mount("bench", path, "tmpfs", 0, "size=4k") < 0)
		err(1, "mount %s", path);
	w.path = path;
	w.need_path = 1;
	w.match = argv[9];
	spawn(&w, argv + 12);
	wait_ready(&w, argv[8]);
	cpid = churn(cpath, atol(argv[6]), calls);
	drain_for(&w, 500000);	/* the watcher in the churn's steady state before the first flip */
	calls0 = __atomic_load_n(calls, __ATOMIC_RELAXED);
	start = bench_now_us();
	for (i = 0; i < flips && bench_now_us() - start < budget_us; i++) {
		w.match = argv[i % 2 == 0 ? 9 : 10];
		t = bench_now_us();
		if ((lat[nlat] = flip_one(&w, i % 2 == 0, wait_us)) >= 0)
			nlat++;
		drain_for(&w, gap_us - (bench_now_us() - t));
	}
	t = bench_now_us();
	calls0 = __atomic_load_n(calls, __ATOMIC_RELAXED) - calls0;
	kill(cpid, SIGKILL);
	kill(w.pid, SIGTERM);
	while (waitpid(cpid, NULL, 0) < 0 && errno == EINTR)
		;
	while (waitpid(w.pid, NULL, 0) < 0 && errno == EINTR)
		;
	umount2(cpath, MNT_DETACH);	/* the churn may have been killed with its tmpfs mounted */
	umount2(path, MNT_DETACH);
	qsort(lat, nlat, sizeof(*lat), bench_cmp_ll);
	printf("%ld %zu %lld %lld %lld %.0f\n", i, nlat, nlat ? lat[nlat / 2] : -1,
	    nlat ? lat[(nlat * 99) / 100] : -1, nlat ? lat[nlat - 1] : -1,
	    (double)calls0 * 1e6 / (double)(t - start));
	return 0;
}

int
main(int argc, char **argv)
{
	struct watcher w = { 0 };
	char path[4096];
	long pairs, i, performed = 0, rss;
	double hz;
	long long *lat, t0, quiet, wait_us, cpu0, cpu1;
	size_t nlat = 0;
	struct rusage ru;
	int status;

	if (argc == 4 && strcmp(argv[1], "populate") == 0)
		return populate(argv[2], atol(argv[3]));
	if (argc >= 13 && strcmp(argv[1], "flip") == 0 && strcmp(argv[11], "--") == 0)
		return flip(argv);
	if (argc < 10 || strcmp(argv[1], "run") != 0 || strcmp(argv[8], "--") != 0)
		errx(64, "usage: driver populate DIR N | driver run DIR PAIRS PACE_HZ WAIT_MS READY MATCH -- CMD..."
		    " | driver flip DIR FLIPS GAP_MS BUDGET_S CHURN_US WAIT_MS READY RO RW"
		    " -- CMD...");
	pairs = atol(argv[3]);
	hz = atof(argv[4]);
	wait_us = atol(argv[5]) * 1000LL;
	snprintf(path, sizeof(path), "%s/ev", argv[2]);
	mkdir(path, 0755);
	w.path = path;
	w.match = *argv[7] ? argv[7] : path;
	lat = calloc((size_t)pairs * 2 + 1, sizeof(*lat));
	spawn(&w, argv + 9);
	wait_ready(&w, argv[6]);
	cpu0 = bench_cpu_us(w.pid);

	for (i = 0; i < pairs * 2; i++) {
		long before = w.lines;

		if (i % 2 == 0 ? mount("bench", path, "tmpfs", 0, "size=4k") : umount(path))
			err(1, "%s %s", i % 2 ? "umount" : "mount", path);
		performed++;
		if (hz <= 0) {
			pump(&w, 0);	/* keep the pipe drained: measure the watcher, not us */
			continue;
		}
		t0 = bench_now_us();
		while (w.lines == before && bench_now_us() - t0 < wait_us)
			pump(&w, 100);
		if (w.lines > before)
			lat[nlat++] = bench_now_us() - t0;
		while (bench_now_us() - t0 < (long long)(1e6 / hz))
			pump(&w, (int)((1e6 / hz - (double)(bench_now_us() - t0)) / 1000) + 1);
	}
	/* Let the watcher catch up: stop after 1 s without a new line. */
	for (quiet = bench_now_us();
	    bench_now_us() - quiet < 1000000 && w.lines + 2 * w.transient < performed; ) {
		long before = w.lines + w.transient;

		pump(&w, 100);
		if (w.lines + w.transient > before)
			quiet = bench_now_us();
	}
	rss = peak_rss_kb(w.pid);
	cpu1 = bench_cpu_us(w.pid);
	kill(w.pid, SIGTERM);
	while (wait4(w.pid, &status, 0, &ru) < 0 && errno == EINTR)
		;
	qsort(lat, nlat, sizeof(*lat), bench_cmp_ll);
	printf("%lld %ld %ld %lld %lld %ld %ld %ld %lld %ld\n", cpu1 - cpu0,
	    w.lines, performed, nlat ? lat[nlat / 2] : -1, nlat ? lat[(nlat * 99) / 100] : -1, rss, w.losses, w.by_id,
	    (long long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000 + ru.ru_utime.tv_usec + ru.ru_stime.tv_usec,
	    w.transient);
	return 0;
}
