/* libFuzzer harness: quota netlink messages from an untrusted buffer. */
#include <stddef.h>
#include <stdint.h>

#include "quota_nl.h"

static void
sink(void *ctx, const struct quota_warning *w)
{
	(void)ctx;
	(void)quota_nl_warning_name(w->warning);
	(void)quota_nl_type_name(w->qtype);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	quota_nl_decode(data, size, sink, NULL);
	return 0;
}
