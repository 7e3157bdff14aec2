#ifndef WATCHQ_NUMBER_H
#define WATCHQ_NUMBER_H

#include <stdint.h>

/* A duration in seconds ("1.5"), 0 to 1e9; -1 if malformed or out of range. */
int number_seconds(const char *s, double *out);
/* A whole number from lo to hi; -1 if malformed or out of range. */
int number_count(const char *s, long long lo, long long hi, long long *out);
/*
 * --space-below: "10%" sets *pct, "512M" (B K M G T P E, powers of 1024) sets *bytes; -2 if a
 * number has no unit, -1 if malformed.
 */
int number_space(const char *s, double *pct, uint64_t *bytes);

#endif
