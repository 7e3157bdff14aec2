/* libFuzzer harness: fanotify mount records from an untrusted buffer. */
#include <stddef.h>
#include <stdint.h>

#include "fan_decode.h"

static void
sink(void *ctx, const struct fan_rec *r)
{
	(void)ctx;
	(void)r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fan_decode(data, size, sink, NULL);
	return 0;
}
