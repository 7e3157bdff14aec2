#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "xalloc.h"

/*
 * Code points a terminal acts on although they are not ASCII controls: the C1
 * controls (U+009B is CSI, a whole escape sequence in one character) and the
 * bidirectional marks, embeddings, overrides and isolates, which reorder what
 * follows them on the line, plus the line and paragraph separators.
 */
static const struct { unsigned long lo, hi; } cp_unsafe[] = {
	{ 0x80, 0x9f },
	{ 0x61c, 0x61c },
	{ 0x200e, 0x200f },
	{ 0x2028, 0x202e },
	{ 0x2066, 0x2069 },
};

/* Length of the valid UTF-8 sequence at p (at most n bytes), its code point in *cp; 0 if none. */
static size_t
utf8_decode(const unsigned char *p, size_t n, unsigned long *cp)
{
	size_t len, i;
	unsigned c = p[0];

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf)
		len = 2, *cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3, *cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4, *cp = c & 0x07;
	else
		return 0;
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		*cp = *cp << 6 | (p[i] & 0x3f);
	}
	/* Reject overlong forms, surrogates and values past U+10FFFF. */
	if ((len == 3 && *cp < 0x800) || (len == 4 && *cp < 0x10000) ||
	    (*cp >= 0xd800 && *cp <= 0xdfff) || *cp > 0x10ffff)
		return 0;
	return len;
}

static bool
cp_is_unsafe(unsigned long cp)
{
	size_t i;

	for (i = 0; i < sizeof(cp_unsafe) / sizeof(cp_unsafe[0]); i++)
		if (cp >= cp_unsafe[i].lo && cp <= cp_unsafe[i].hi)
			return true;
	return false;
}

void
escape_text(struct buf *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), k, i;
	unsigned long cp;

	while (n > 0) {
		if (*p == '\\') {
			buf_adds(b, "\\\\");
			k = 1;
		} else if (*p <= 0x20 || *p == 0x7f) {
			buf_addf(b, "\\x%02x", *p);
			k = 1;
		} else if ((k = utf8_decode(p, n, &cp)) == 0 || cp_is_unsafe(cp)) {
			/* Every byte of a terminal control, or the one byte that is not UTF-8. */
			k = k ? k : 1;
			for (i = 0; i < k; i++)
				buf_addf(b, "\\x%02x", p[i]);
		} else {
			buf_add(b, p, k);
		}
		p += k;
		n -= k;
	}
}

void
escape_field(struct buf *b, const char *s, bool raw)
{
	if (raw)
		buf_adds(b, s);
	else
		escape_text(b, s);
}

void
escape_known(struct buf *b, const char *s, bool raw)
{
	if (s == NULL)
		buf_addc(b, '-');
	else if (strcmp(s, "-") == 0 && !raw)
		buf_adds(b, "\\x2d");
	else
		escape_field(b, s, raw);
}

const char *
escape_arg(const char *s)
{
	/* Reachable from here until overwritten: err(3) exits with them in use. */
	static char *ring[4];
	static size_t next;
	struct buf b = { 0 };
	int saved = errno;	/* err(3) reads errno after its arguments are evaluated */

	escape_text(&b, s);
	free(ring[next]);
	ring[next] = b.data ? b.data : xstrdup("");
	s = ring[next];
	next = (next + 1) % (sizeof(ring) / sizeof(ring[0]));
	errno = saved;
	return s;
}

bool
escape_json(struct buf *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), k;
	unsigned long cp;
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
			} else if ((k = utf8_decode(p, n, &cp)) == 0) {
				buf_adds(b, "\\ufffd");
				replaced = true;
				k = 1;
			} else if (cp_is_unsafe(cp)) {
				/* The same code point, so the same bytes once decoded, but inert on
				 * a terminal. */
				buf_addf(b, "\\u%04lx", cp);
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
escape_base64(struct buf *b, const void *p, size_t n)
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
