/* libFuzzer harness: notification-queue records from an untrusted buffer. */
#include <stddef.h>
#include <stdint.h>

#include "wq_decode.h"

static bool
sink(void *ctx, const struct wq_rec *r)
{
	(void)ctx;
	return r->len >= 8;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	wq_decode(data, size, sink, NULL);
	return 0;
}
