#ifndef WATCHQ_BENCH_H
#define WATCHQ_BENCH_H

/* What the bench drivers (driver.c, nsbench.c) share: a clock, a process's CPU, a sort order. */
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

/* Now, in µs of CLOCK_MONOTONIC. */
static inline long long
bench_now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

/* PID's user and system time from /proc/PID/stat, in clock ticks made µs; 0 if unknown. */
static inline long long
bench_ticks_us(pid_t pid)
{
	char p[64], buf[1024], *q;
	unsigned long long ut = 0, st = 0;
	FILE *f;
	size_t n;

	snprintf(p, sizeof(p), "/proc/%d/stat", (int)pid);
	if ((f = fopen(p, "r")) == NULL)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* After the name in parentheses: state, then fields 4 to 13, then utime and stime. */
	if ((q = strrchr(buf, ')')) == NULL ||
	    sscanf(q + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2)
		return 0;
	return (long long)((ut + st) * 1000000ULL / (unsigned long long)sysconf(_SC_CLK_TCK));
}

/* PID's CPU time in µs: its scheduler's count (ns), or, where the kernel keeps none
 * (CONFIG_SCHED_INFO off, as in the test VMs), its clock ticks. */
static inline long long
bench_cpu_us(pid_t pid)
{
	char p[64];
	unsigned long long ns = 0;
	FILE *f;

	snprintf(p, sizeof(p), "/proc/%d/schedstat", (int)pid);
	if ((f = fopen(p, "r")) == NULL)
		return bench_ticks_us(pid);
	if (fscanf(f, "%llu", &ns) != 1)
		ns = 0;
	fclose(f);
	return (long long)(ns / 1000);
}

/* qsort(3) order of long longs, lowest first. */
static inline int
bench_cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

#endif
