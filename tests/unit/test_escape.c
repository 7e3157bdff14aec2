/* Escapers: one line of text, valid JSON, exact bytes recoverable. */
#include "escape.h"
#include "unit.h"

static const struct { const char *in, *text, *json; int replaced; } cases[] = {
	{ "/mnt/usb", "/mnt/usb", "\"/mnt/usb\"", 0 },
	{ "a b", "a\\x20b", "\"a b\"", 0 },
	{ "new\nline", "new\\x0aline", "\"new\\nline\"", 0 },
	{ "tab\t", "tab\\x09", "\"tab\\t\"", 0 },
	{ "q\"uote", "q\"uote", "\"q\\\"uote\"", 0 },
	{ "back\\slash", "back\\\\slash", "\"back\\\\slash\"", 0 },
	{ "\x01\x7f", "\\x01\\x7f", "\"\\u0001\\u007f\"", 0 },
	{ "bad\xff", "bad\\xff", "\"bad\\ufffd\"", 1 },
	{ "\xc3\xbc", "\xc3\xbc", "\"\xc3\xbc\"", 0 },
	{ "\xc3", "\\xc3", "\"\\ufffd\"", 1 },
	{ "\xc0\xaf", "\\xc0\\xaf", "\"\\ufffd\\ufffd\"", 1 },		/* overlong */
	{ "\xed\xa0\x80", "\\xed\\xa0\\x80", "\"\\ufffd\\ufffd\\ufffd\"", 1 },	/* surrogate */
	{ "\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\"", 0 },
	{ "\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"", 1 },
	{ "", "", "\"\"", 0 },
};

static const struct { const char *in, *out; } b64[] = {
	{ "", "" }, { "f", "Zg==" }, { "fo", "Zm8=" }, { "foo", "Zm9v" },
	{ "foob", "Zm9vYg==" }, { "\xff\xfe\xfd", "//79" },
};

int
main(void)
{
	struct buf b = { 0 };
	size_t i;
	int r;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		buf_reset(&b);
		escape_text(&b, cases[i].in);
		CHECK_STR(b.data ? b.data : "", cases[i].text);
		buf_reset(&b);
		r = escape_json(&b, cases[i].in);
		CHECK_STR(b.data, cases[i].json);
		CHECK(r == cases[i].replaced, "case %zu replaced=%d", i, r);
	}
	for (i = 0; i < sizeof(b64) / sizeof(b64[0]); i++) {
		buf_reset(&b);
		base64_encode(&b, b64[i].in, strlen(b64[i].in));
		CHECK_STR(b.data ? b.data : "", b64[i].out);
	}
	buf_free(&b);
	return unit_done("test_escape");
}
