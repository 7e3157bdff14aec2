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
	/* C1 controls: CSI (U+009B) would start an escape sequence on a terminal. */
	{ "a\xc2\x9b" "2J", "a\\xc2\\x9b2J", "\"a\\u009b2J\"", 0 },
	{ "\xc2\x80\xc2\x9f\xc2\xa0", "\\xc2\\x80\\xc2\\x9f\xc2\xa0", "\"\\u0080\\u009f\xc2\xa0\"", 0 },
	/* Bidi embeddings, overrides, isolates and marks; line separators. */
	{ "\xe2\x80\xae" "txt", "\\xe2\\x80\\xaetxt", "\"\\u202etxt\"", 0 },
	{ "\xe2\x80\xaa\xe2\x81\xa6\xe2\x81\xa9", "\\xe2\\x80\\xaa\\xe2\\x81\\xa6\\xe2\\x81\\xa9",
	    "\"\\u202a\\u2066\\u2069\"", 0 },
	{ "\xe2\x80\x8f\xe2\x80\xa8\xd8\x9c", "\\xe2\\x80\\x8f\\xe2\\x80\\xa8\\xd8\\x9c", "\"\\u200f\\u2028\\u061c\"", 0 },
	/* Neighbours that are ordinary text. */
	{ "\xe2\x80\xa9\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa", "\\xe2\\x80\\xa9\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa",
	    "\"\\u2029\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa\"", 0 },
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
		escape_base64(&b, b64[i].in, strlen(b64[i].in));
		CHECK_STR(b.data ? b.data : "", b64[i].out);
	}
	/* Error messages: the same escaping, one line whatever the argument holds. */
	CHECK_STR(escape_arg("/a\nwatchq: forged"), "/a\\x0awatchq:\\x20forged");
	CHECK_STR(escape_arg("\xc2\x9b"), "\\xc2\\x9b");
	CHECK_STR(escape_arg(""), "");
	/* A column where - alone is unknown: NULL is -, a string - is not. */
	{
		static const struct {
			const char *in, *out;
		} known[] = {
			{ NULL, "-" }, { "-", "\\x2d" }, { "", "" }, { "--", "--" }, { "-x", "-x" }, { "a b", "a\\x20b" },
			{ "\\", "\\\\" },
		};

		for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
			buf_reset(&b);
			buf_addc(&b, '[');
			escape_known(&b, known[i].in, false);
			buf_addc(&b, ']');
			CHECK(b.len == strlen(known[i].out) + 2 && memcmp(b.data + 1, known[i].out, b.len - 2) == 0,
			    "case %zu: %s", i, b.data);
		}
	}
	buf_free(&b);
	return unit_done("test_escape");
}
