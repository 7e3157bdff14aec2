/* libFuzzer harness: the numeric command-line arguments (--timeout, --count, --space-below). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "number.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	double d, pct;
	long long n;
	uint64_t bytes;

	memcpy(s, data, size);
	s[size] = '\0';
	if (number_seconds(s, &d) == 0 && !(d >= 0 && d <= 1e9))
		abort();
	if (number_count(s, 1, 512, &n) == 0 && (n < 1 || n > 512))
		abort();
	if (number_space(s, &pct, &bytes) == 0 && !((pct > 0 && pct < 100 && bytes == 0) || (pct == 0 && bytes >= 1)))
		abort();
	free(s);
	return 0;
}
