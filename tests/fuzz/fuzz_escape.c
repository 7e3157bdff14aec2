/* libFuzzer harness: the text and JSON escapers on arbitrary bytes, with their promises checked. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buf b = { 0 };
	char *s = malloc(size + 1);
	size_t i;

	memcpy(s, data, size);
	s[size] = '\0';
	/* Text: one column, one line: no space, control byte or DEL survives. */
	escape_text(&b, s);
	for (i = 0; i < b.len; i++)
		if ((unsigned char)b.data[i] <= ' ' || (unsigned char)b.data[i] == 0x7f)
			abort();
	buf_reset(&b);
	/* JSON: a quoted string with no raw control byte. */
	escape_json(&b, s);
	if (b.len < 2 || b.data[0] != '"' || b.data[b.len - 1] != '"')
		abort();
	for (i = 0; i < b.len; i++)
		if ((unsigned char)b.data[i] < ' ')
			abort();
	buf_reset(&b);
	base64_encode(&b, data, size);
	if (b.len != (size + 2) / 3 * 4)
		abort();
	buf_free(&b);
	free(s);
	return 0;
}
