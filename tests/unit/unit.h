/* A minimal table-driven test harness for watchq's pure code. */
#ifndef WATCHQ_UNIT_H
#define WATCHQ_UNIT_H

#include <stdio.h>
#include <string.h>

static int unit_pass, unit_fail;

#define CHECK(cond, ...) do { \
	if (cond) { \
		unit_pass++; \
	} else { \
		unit_fail++; \
		fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
		fprintf(stderr, __VA_ARGS__); \
		fputc('\n', stderr); \
	} \
} while (0)

#define CHECK_STR(got, want) CHECK(strcmp((got), (want)) == 0, "got \"%s\", want \"%s\"", (got), (want))

static int
unit_done(const char *name)
{
	printf("%s: %d passed, %d failed\n", name, unit_pass, unit_fail);
	return unit_fail ? 1 : 0;
}

#endif
