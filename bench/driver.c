/*
 * Benchmark driver: populates a mount table, then performs mount/umount pairs
 * past a watcher (any command that prints one line per event) and measures
 * what the watcher delivered, the CPU it used, its latency and its peak RSS.
 *
 *   driver populate DIR N
 *   driver run DIR PAIRS PACE_HZ WAIT_MS READY MATCH -- CMD...
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
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long
now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

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
	long lines, losses, by_id, transient;
};

/* Read what is there; count complete lines that name the event path. */
static void
pump(struct watcher *w, int timeout_ms)
{
	struct pollfd p = { w->out, POLLIN, 0 };
	ssize_t n;
	char *nl, *c;

	if (poll(&p, 1, timeout_ms) <= 0)
		return;
	n = read(w->out, w->buf + w->len, sizeof(w->buf) - w->len - 1);
	if (n <= 0)
		return;
	w->len += (size_t)n;
	w->buf[w->len] = '\0';
	while ((nl = memchr(w->buf, '\n', w->len)) != NULL) {
		*nl = '\0';
		if (strstr(w->buf, " transient ") && (c = strstr(w->buf, "count=")) != NULL) {
			w->transient += atol(c + 6);
		} else if (strstr(w->buf, w->match)) {
			w->lines++;
			w->by_id += strstr(w->buf, w->path) == NULL;
		} else if (strstr(w->buf, "loss"))
			w->losses++;
		w->len -= (size_t)(nl + 1 - w->buf);
		memmove(w->buf, nl + 1, w->len);
	}
	if (w->len == sizeof(w->buf) - 1)
		w->len = 0;
}

static void
wait_ready(struct watcher *w, const char *ready)
{
	char buf[4096];
	size_t len = 0;
	long long deadline = now_us() + 60000000;
	ssize_t n;

	if (*ready == '\0') {
		usleep(500000);
		return;
	}
	while (now_us() < deadline) {
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
		if (len > sizeof(buf) / 2)
			len = 0;
	}
	errx(1, "watcher not ready after 60 s");
}

/* CPU time the process has run, in microseconds (/proc/PID/schedstat). */
static long long
cpu_us(pid_t pid)
{
	char p[64];
	unsigned long long ns = 0;
	FILE *f;

	snprintf(p, sizeof(p), "/proc/%d/schedstat", (int)pid);
	if ((f = fopen(p, "r")) == NULL)
		return 0;
	if (fscanf(f, "%llu", &ns) != 1)
		ns = 0;
	fclose(f);
	return (long long)(ns / 1000);
}

static int
cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
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

int
main(int argc, char **argv)
{
	struct watcher w = { 0 };
	int outp[2], errp[2];
	char path[4096];
	long pairs, i, performed = 0, rss;
	double hz;
	long long *lat, t0, quiet, wait_us, cpu0, cpu1;
	size_t nlat = 0;
	struct rusage ru;
	int status;

	if (argc == 4 && strcmp(argv[1], "populate") == 0)
		return populate(argv[2], atol(argv[3]));
	if (argc < 10 || strcmp(argv[1], "run") != 0 || strcmp(argv[8], "--") != 0)
		errx(64, "usage: driver populate DIR N | driver run DIR PAIRS PACE_HZ WAIT_MS READY MATCH -- CMD...");
	pairs = atol(argv[3]);
	hz = atof(argv[4]);
	wait_us = atol(argv[5]) * 1000LL;
	snprintf(path, sizeof(path), "%s/ev", argv[2]);
	mkdir(path, 0755);
	w.path = path;
	w.match = *argv[7] ? argv[7] : path;
	lat = calloc((size_t)pairs * 2 + 1, sizeof(*lat));
	if (pipe2(outp, O_CLOEXEC) < 0 || pipe2(errp, O_CLOEXEC) < 0)
		err(1, "pipe");
	if ((w.pid = fork()) == 0) {
		dup2(outp[1], 1);
		dup2(errp[1], 2);
		execvp(argv[9], argv + 9);
		err(127, "%s", argv[9]);
	}
	close(outp[1]);
	close(errp[1]);
	w.out = outp[0];
	w.errfd = errp[0];
	wait_ready(&w, argv[6]);
	cpu0 = cpu_us(w.pid);

	for (i = 0; i < pairs * 2; i++) {
		long before = w.lines;

		if (i % 2 == 0 ? mount("bench", path, "tmpfs", 0, "size=4k") : umount(path))
			err(1, "%s %s", i % 2 ? "umount" : "mount", path);
		performed++;
		if (hz <= 0) {
			pump(&w, 0);	/* keep the pipe drained: measure the watcher, not us */
			continue;
		}
		t0 = now_us();
		while (w.lines == before && now_us() - t0 < wait_us)
			pump(&w, 100);
		if (w.lines > before)
			lat[nlat++] = now_us() - t0;
		while (now_us() - t0 < (long long)(1e6 / hz))
			pump(&w, (int)((1e6 / hz - (double)(now_us() - t0)) / 1000) + 1);
	}
	/* Let the watcher catch up: stop after 1 s without a new line. */
	for (quiet = now_us(); now_us() - quiet < 1000000 && w.lines + 2 * w.transient < performed; ) {
		long before = w.lines + w.transient;

		pump(&w, 100);
		if (w.lines + w.transient > before)
			quiet = now_us();
	}
	rss = peak_rss_kb(w.pid);
	cpu1 = cpu_us(w.pid);
	kill(w.pid, SIGTERM);
	while (wait4(w.pid, &status, 0, &ru) < 0 && errno == EINTR)
		;
	qsort(lat, nlat, sizeof(*lat), cmp_ll);
	printf("%lld %ld %ld %lld %lld %ld %ld %ld %lld %ld\n", cpu1 - cpu0,
	    w.lines, performed, nlat ? lat[nlat / 2] : -1, nlat ? lat[(nlat * 99) / 100] : -1, rss, w.losses, w.by_id,
	    (long long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000 + ru.ru_utime.tv_usec + ru.ru_stime.tv_usec,
	    w.transient);
	return 0;
}
