/* The numeric arguments of the command line: untrusted strings, checked whole. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "number.h"

int
number_seconds(const char *s, double *out)
{
	char *end;
	double v;

	if (*s == '\0' || strchr(" \t\n", *s))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end != '\0' || !isfinite(v) || v < 0 || v > 1e9)
		return -1;
	*out = v;
	return 0;
}

int
number_count(const char *s, long long lo, long long hi, long long *out)
{
	char *end;
	long long v;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || *end != '\0' || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

int
number_space(const char *s, double *pct, uint64_t *bytes)
{
	static const char units[] = "BKMGTPE";
	const char *u;
	char *end;
	double v;
	int shift;

	*pct = 0;
	*bytes = 0;
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || !isfinite(v) || v <= 0)
		return -1;
	if (strcmp(end, "%") == 0) {
		if (v >= 100)
			return -1;
		*pct = v;
		return 0;
	}
	/* A bare number would be bytes, so small that it never fires: it is refused. */
	if (*end == '\0')
		return -2;
	if ((u = strchr(units, toupper((unsigned char)end[0]))) == NULL)
		return -1;
	shift = 10 * (int)(u - units);
	end++;
	if (shift > 0 && strcmp(end, "iB") != 0 && strcmp(end, "B") != 0 && *end != '\0')
		return -1;
	if (shift == 0 && *end != '\0')
		return -1;
	v = ldexp(v, shift);
	if (v < 1 || v >= 0x1p63)
		return -1;
	*bytes = (uint64_t)v;
	return 0;
}
