/* libFuzzer harness: key specs as given on the command line (@s, serials, %TYPE:DESC). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "keyspec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	int32_t serial;

	memcpy(s, data, size);
	s[size] = '\0';
	(void)keyspec_resolve(s, &serial);
	free(s);
	return 0;
}
