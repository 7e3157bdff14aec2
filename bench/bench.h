#ifndef WATCHQ_BENCH_H
#define WATCHQ_BENCH_H

/* What the bench drivers (driver.c, nsbench.c) share: a clock, a process's CPU, a sort order. */
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

/* Now, in µs of CLOCK_MONOTONIC. */
static inline long long
bench_now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

/* CPU time the process has run, in microseconds (/proc/PID/schedstat); 0 if unknown. */
static inline long long
bench_cpu_us(pid_t pid)
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

/* qsort(3) order of long longs, lowest first. */
static inline int
bench_cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

#endif
