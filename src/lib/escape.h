#ifndef WATCHQ_ESCAPE_H
#define WATCHQ_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"

/* Append s for a text column: backslash as \\; space, controls, invalid UTF-8 and the bytes of
 * C1, bidi and line-separator code points as \xHH (printf %b undoes it). */
void escape_text(struct buf *b, const char *s);
/* Append s as escape_text() does, or its exact bytes if raw. */
void escape_field(struct buf *b, const char *s, bool raw);
/* Append s as escape_field() does, for a column where - alone means unknown: NULL as -, a string
 * that is - as \x2d unless raw, an empty string as nothing. */
void escape_known(struct buf *b, const char *s, bool raw);
/* s escaped by escape_text() for an error message, errno kept for err(3); valid for four more
 * calls. */
const char *escape_arg(const char *s);
/* Append s as a quoted JSON string: invalid UTF-8 bytes as U+FFFD, C1, bidi and line-separator
 * code points as \uXXXX; true if any byte was replaced. */
bool escape_json(struct buf *b, const char *s);
/* Append the base64 (RFC 4648, padded) encoding of n bytes of p. */
void escape_base64(struct buf *b, const void *p, size_t n);

#endif
