/* libFuzzer harness: KEYCTL_DESCRIBE text and /proc/keys text, both untrusted (descriptions hold
 * any byte but NUL). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "keydesc.h"
#include "keyproc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Input: a 4-byte serial, the describe text, a NUL, the /proc/keys text. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct keyproc_line line;
	struct keydesc d;
	int32_t serial;
	char *text, *proc;
	size_t dl;

	if (size < sizeof(serial))
		return 0;
	memcpy(&serial, data, sizeof(serial));
	text = malloc(size - sizeof(serial) + 2);
	memcpy(text, data + sizeof(serial), size - sizeof(serial));
	text[size - sizeof(serial)] = '\0';
	text[size - sizeof(serial) + 1] = '\0';
	dl = strlen(text);
	proc = text + dl + 1;
	if (keydesc_parse(&d, text) == 0 && keyproc_find(proc, serial, &d, &line) == 0 &&
	    (line.summary < proc || line.summary + line.summary_len > proc + strlen(proc) ||
	    strlen(line.flags) != 7))
		abort();
	free(text);
	return 0;
}
