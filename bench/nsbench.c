/*
 * nsbench: a watcher of every mount namespace (watchq -N all) on many namespaces, for make bench.
 *
 *   nsbench cost DIR NS MOUNTS PAIRS HZ IDLE_S -- CMD...
 *       NS namespaces, each a child that unshare(2)s a private copy of ours and mounts a tmpfs on
 *       DIR/n with MOUNTS tmpfs mounts below it; CMD is started once they all are, and is ready
 *       once it has announced them (NS ns_new lines). Then IDLE_S seconds without a change, then
 *       PAIRS mount+umount pairs of a tmpfs on DIR/n/ev, round robin over the namespaces
 *       (setns(2)), HZ pairs a second.
 *       Prints: cpu_us_per_event idle_cpu_percent delivered performed
 *   nsbench latency DIR ROUNDS -- CMD...
 *       ROUNDS times, one after the other: a child unshare(2)s a mount namespace; the time from
 *       its unshare(2) returning to CMD's ns_new line naming that namespace (5 s at most).
 *       Prints: p50_us p99_us seen rounds
 *
 * CMD prints JSON lines (watchq --json). delivered counts mount and unmount lines under DIR, plus
 * two for each mount a transient line counts. The watcher's CPU is read from its schedstat.
 */
#define _GNU_SOURCE
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

#define NS_MAX	1000

struct watcher {
	pid_t pid;
	int out;
	char buf[1 << 16];
	size_t len;
	const char *dir;
	long events, ns_new;
	unsigned long long want_ns;	/* latency: the namespace whose ns_new is awaited */
	bool seen;
};

/* One JSON line of the watcher. */
static void
line(struct watcher *w, const char *s)
{
	char key[64];
	const char *c;

	if (strstr(s, "\"event\":\"ns_new\"")) {
		w->ns_new++;
		snprintf(key, sizeof(key), "\"mnt_ns\":%llu", w->want_ns);
		w->seen |= w->want_ns && strstr(s, key) != NULL;
	} else if (strstr(s, "\"event\":\"transient\"") && (c = strstr(s, "\"count\":"))) {
		w->events += 2 * atol(c + 8);
	} else if ((strstr(s, "\"event\":\"mount\"") || strstr(s, "\"event\":\"unmount\"")) &&
	    strstr(s, w->dir)) {
		w->events++;
	}
}

/* Read what is there, within timeout_ms. */
static void
pump(struct watcher *w, int timeout_ms)
{
	struct pollfd p = { w->out, POLLIN, 0 };
	ssize_t n;
	char *nl;

	if (poll(&p, 1, timeout_ms) <= 0)
		return;
	if ((n = read(w->out, w->buf + w->len, sizeof(w->buf) - w->len - 1)) <= 0)
		return;
	w->len += (size_t)n;
	w->buf[w->len] = '\0';
	while ((nl = memchr(w->buf, '\n', w->len)) != NULL) {
		*nl = '\0';
		line(w, w->buf);
		w->len -= (size_t)(nl + 1 - w->buf);
		memmove(w->buf, nl + 1, w->len);
	}
	if (w->len == sizeof(w->buf) - 1)
		w->len = 0;
}

static void
start(struct watcher *w, char **cmd)
{
	int p[2];

	if (pipe2(p, O_CLOEXEC) < 0)
		err(1, "pipe");
	if ((w->pid = fork()) < 0)
		err(1, "fork");
	if (w->pid == 0) {
		dup2(p[1], 1);
		execvp(cmd[0], cmd);
		err(127, "%s", cmd[0]);
	}
	close(p[1]);
	w->out = p[0];
}

static void
stop(struct watcher *w)
{
	kill(w->pid, SIGTERM);
	waitpid(w->pid, NULL, 0);
}

/* A child in a mount namespace of its own: a tmpfs on DIR/n with mounts below; its nsfs fd. */
static int
ns_child(const char *dir, int n, long mounts, pid_t *pid)
{
	char d[4096], path[4160];
	int p[2], fd;
	long i;
	char c;

	if (pipe(p) < 0)
		err(1, "pipe");
	snprintf(d, sizeof(d), "%s/%d", dir, n);
	if (mkdir(d, 0755) < 0 && errno != EEXIST)
		err(1, "mkdir %s", d);
	if ((*pid = fork()) < 0)
		err(1, "fork");
	if (*pid == 0) {
		close(p[0]);
		if (unshare(CLONE_NEWNS) < 0 ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
			err(1, "unshare");
		if (mount("nsbench", d, "tmpfs", 0, NULL) < 0)
			err(1, "mount %s", d);
		for (i = 0; i < mounts; i++) {
			snprintf(path, sizeof(path), "%s/%ld", d, i);
			if (mkdir(path, 0755) < 0 ||
			    mount("nsbench", path, "tmpfs", 0, "size=4k") < 0)
				err(1, "mount %s", path);
		}
		snprintf(path, sizeof(path), "%s/ev", d);
		if (mkdir(path, 0755) < 0 || write(p[1], "", 1) != 1)
			err(1, "%s", path);
		pause();
		_exit(0);
	}
	close(p[1]);
	if (read(p[0], &c, 1) != 1)
		errx(1, "namespace %d: its child failed", n);
	close(p[0]);
	snprintf(path, sizeof(path), "/proc/%d/ns/mnt", (int)*pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		err(1, "%s", path);
	return fd;
}

static int
cost(char **argv, char **cmd)
{
	const char *dir = argv[0];
	long ns = atol(argv[1]), mounts = atol(argv[2]), pairs = atol(argv[3]);
	long hz = atol(argv[4]), idle = atol(argv[5]), i;
	static pid_t kids[NS_MAX];
	static int fds[NS_MAX];
	struct watcher w = { .dir = dir };
	long long c0, c1, c2, next, deadline;
	char ev[4096];
	int self;

	if (ns < 1 || ns > NS_MAX || hz < 1)
		errx(64, "cost: 1 to %d namespaces, a pace above 0", NS_MAX);
	if ((self = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC)) < 0)
		err(1, "/proc/self/ns/mnt");
	for (i = 0; i < ns; i++)
		fds[i] = ns_child(dir, (int)i, mounts, &kids[i]);
	start(&w, cmd);
	for (deadline = bench_now_us() + 60000000; w.ns_new < ns && bench_now_us() < deadline; )
		pump(&w, 100);
	if (w.ns_new < ns)
		errx(1, "the watcher announced %ld of %ld namespaces", w.ns_new, ns);
	c0 = bench_cpu_us(w.pid);
	for (deadline = bench_now_us() + idle * 1000000; bench_now_us() < deadline; )
		pump(&w, 100);
	c1 = bench_cpu_us(w.pid);
	next = bench_now_us();
	for (i = 0; i < pairs; i++) {
		snprintf(ev, sizeof(ev), "%s/%ld/ev", dir, i % ns);
		if (setns(fds[i % ns], CLONE_NEWNS) < 0 ||
		    mount("nsbench", ev, "tmpfs", 0, NULL) < 0 ||
		    umount(ev) < 0)
			err(1, "pair %ld in namespace %ld", i, i % ns);
		for (next += 1000000 / hz; bench_now_us() < next; )
			pump(&w, (int)((next - bench_now_us()) / 1000) + 1);
	}
	if (setns(self, CLONE_NEWNS) < 0)
		err(1, "setns back");
	deadline = bench_now_us() + 10000000;
	while (w.events < 2 * pairs && bench_now_us() < deadline)
		pump(&w, 100);
	c2 = bench_cpu_us(w.pid);
	stop(&w);
	for (i = 0; i < ns; i++) {
		kill(kids[i], SIGKILL);
		waitpid(kids[i], NULL, 0);
	}
	printf("%.1f %.3f %ld %ld\n", (double)(c2 - c1) / (2.0 * (double)pairs),
	    idle > 0 ? (double)(c1 - c0) / ((double)idle * 1e4) : 0.0, w.events, 2 * pairs);
	return 0;
}

static int
latency(char **argv, char **cmd)
{
	long rounds = atol(argv[1]), i, seen = 0;
	long long *lat = calloc((size_t)rounds + 1, sizeof(*lat)), t0, deadline;
	struct watcher w = { .dir = argv[0] };
	struct stat st;
	char path[64];
	pid_t kid;
	int p[2];

	if (lat == NULL || rounds < 1)
		errx(64, "latency: at least one round");
	start(&w, cmd);
	for (deadline = bench_now_us() + 60000000; w.ns_new < 1 && bench_now_us() < deadline; )
		pump(&w, 100);
	for (i = 0; i < rounds; i++) {
		if (pipe(p) < 0 || (kid = fork()) < 0)
			err(1, "fork");
		if (kid == 0) {
			if (unshare(CLONE_NEWNS) < 0)
				err(1, "unshare");
			t0 = bench_now_us();
			if (write(p[1], &t0, sizeof(t0)) != sizeof(t0))
				_exit(1);
			pause();
			_exit(0);
		}
		if (read(p[0], &t0, sizeof(t0)) != sizeof(t0))
			errx(1, "round %ld: the child failed", i);
		close(p[0]);
		close(p[1]);
		snprintf(path, sizeof(path), "/proc/%d/ns/mnt", (int)kid);
		if (stat(path, &st) < 0)
			err(1, "%s", path);
		w.want_ns = (unsigned long long)st.st_ino;
		w.seen = false;
		for (deadline = t0 + 5000000; !w.seen && bench_now_us() < deadline; )
			pump(&w, 10);
		if (w.seen)
			lat[seen++] = bench_now_us() - t0;
		kill(kid, SIGKILL);
		waitpid(kid, NULL, 0);
	}
	stop(&w);
	qsort(lat, (size_t)seen, sizeof(*lat), bench_cmp_ll);
	if (seen == 0)
		printf("- - 0 %ld\n", rounds);
	else
		printf("%lld %lld %ld %ld\n", lat[(seen - 1) / 2], lat[(seen * 99 + 99) / 100 - 1],
		    seen, rounds);
	free(lat);
	return 0;
}

int
main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		;
	if (i == argc || i + 1 == argc)
		errx(64, "usage: nsbench cost DIR NS MOUNTS PAIRS HZ IDLE_S -- CMD... | "
		    "latency DIR ROUNDS -- CMD...");
	argv[i] = NULL;
	signal(SIGPIPE, SIG_IGN);
	if (strcmp(argv[1], "cost") == 0 && i == 8)
		return cost(argv + 2, argv + i + 1);
	if (strcmp(argv[1], "latency") == 0 && i == 4)
		return latency(argv + 2, argv + i + 1);
	errx(64, "usage: nsbench cost DIR NS MOUNTS PAIRS HZ IDLE_S -- CMD... | "
	    "latency DIR ROUNDS -- CMD...");
}
