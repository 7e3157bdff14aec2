#include <string.h>

#include "escape.h"

size_t
utf8_seq_len(const unsigned char *p, size_t n)
{
	size_t len, i;
	unsigned c = p[0];
	unsigned long cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4, cp = c & 0x07;
	else
		return 0;
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	/* Reject overlong forms, surrogates and values past U+10FFFF. */
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

void
escape_text(struct buf *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), k;

	while (n > 0) {
		if (*p == '\\') {
			buf_adds(b, "\\\\");
			k = 1;
		} else if (*p <= 0x20 || *p == 0x7f) {
			buf_addf(b, "\\x%02x", *p);
			k = 1;
		} else if ((k = utf8_seq_len(p, n)) == 0) {
			buf_addf(b, "\\x%02x", *p);
			k = 1;
		} else {
			buf_add(b, p, k);
		}
		p += k;
		n -= k;
	}
}

bool
escape_json(struct buf *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), k;
	bool replaced = false;

	buf_addc(b, '"');
	while (n > 0) {
		k = 1;
		switch (*p) {
		case '"':
			buf_adds(b, "\\\"");
			break;
		case '\\':
			buf_adds(b, "\\\\");
			break;
		case '\n':
			buf_adds(b, "\\n");
			break;
		case '\t':
			buf_adds(b, "\\t");
			break;
		case '\r':
			buf_adds(b, "\\r");
			break;
		default:
			if (*p < 0x20 || *p == 0x7f) {
				buf_addf(b, "\\u%04x", *p);
			} else if ((k = utf8_seq_len(p, n)) == 0) {
				buf_adds(b, "\\ufffd");
				replaced = true;
				k = 1;
			} else {
				buf_add(b, p, k);
			}
		}
		p += k;
		n -= k;
	}
	buf_addc(b, '"');
	return replaced;
}

void
base64_encode(struct buf *b, const void *p, size_t n)
{
	static const char tab[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char *s = p;
	unsigned long v;

	for (; n >= 3; s += 3, n -= 3) {
		v = (unsigned long)s[0] << 16 | s[1] << 8 | s[2];
		buf_addc(b, tab[v >> 18 & 63]);
		buf_addc(b, tab[v >> 12 & 63]);
		buf_addc(b, tab[v >> 6 & 63]);
		buf_addc(b, tab[v & 63]);
	}
	if (n == 0)
		return;
	v = (unsigned long)s[0] << 16 | (n == 2 ? s[1] << 8 : 0);
	buf_addc(b, tab[v >> 18 & 63]);
	buf_addc(b, tab[v >> 12 & 63]);
	buf_addc(b, n == 2 ? tab[v >> 6 & 63] : '=');
	buf_addc(b, '=');
}
