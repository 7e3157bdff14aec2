/* libFuzzer harness: the text and JSON escapers on arbitrary bytes, with their promises checked. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Whether b holds a C1 control or a bidi override or isolate (U+202A-U+202E, U+2066-U+2069)
 * as raw UTF-8. */
static int
has_terminal_control(const struct buf *b)
{
	const unsigned char *p = (const unsigned char *)b->data;
	size_t i;

	for (i = 0; i + 1 < b->len; i++) {
		if (p[i] == 0xc2 && p[i + 1] >= 0x80 && p[i + 1] <= 0x9f)
			return 1;
		if (i + 2 < b->len && p[i] == 0xe2 && ((p[i + 1] == 0x80 && p[i + 2] >= 0xaa && p[i + 2] <= 0xae) ||
		    (p[i + 1] == 0x81 && p[i + 2] >= 0xa6 && p[i + 2] <= 0xa9)))
			return 1;
	}
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buf b = { 0 };
	char *s = malloc(size + 1);
	size_t i;

	memcpy(s, data, size);
	s[size] = '\0';
	/* Text: one column, one line: no space, control byte, DEL or terminal control survives. */
	escape_text(&b, s);
	for (i = 0; i < b.len; i++)
		if ((unsigned char)b.data[i] <= ' ' || (unsigned char)b.data[i] == 0x7f)
			abort();
	if (has_terminal_control(&b))
		abort();
	/* Error messages: escaped the same way. */
	if (strcmp(escape_arg(s), b.data ? b.data : "") != 0)
		abort();
	buf_reset(&b);
	/* JSON: a quoted string with no raw control byte. */
	escape_json(&b, s);
	if (b.len < 2 || b.data[0] != '"' || b.data[b.len - 1] != '"')
		abort();
	for (i = 0; i < b.len; i++)
		if ((unsigned char)b.data[i] < ' ')
			abort();
	if (has_terminal_control(&b))
		abort();
	buf_reset(&b);
	escape_base64(&b, data, size);
	if (b.len != (size + 2) / 3 * 4)
		abort();
	buf_free(&b);
	free(s);
	return 0;
}
