#ifndef WATCHQ_ESCAPE_H
#define WATCHQ_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"

/* Append s for a text column: backslash as \\; space, control bytes, invalid UTF-8 and the bytes of C1, bidi and line-separator code points as \xHH (undo with printf %b). */
void escape_text(struct buf *b, const char *s);
/* Append s as escape_text() does, in a column where - alone means unknown: NULL as -, a string that is - as \x2d, an empty one as nothing. */
void escape_known(struct buf *b, const char *s);
/* s escaped as by escape_text() for an error message, errno kept for err(3); valid until four more calls. */
const char *escape_arg(const char *s);
/* Append s as a quoted JSON string, invalid UTF-8 bytes as U+FFFD, C1, bidi and line-separator code points as \uXXXX; returns true if any byte was replaced. */
bool escape_json(struct buf *b, const char *s);
/* Append the base64 (RFC 4648, padded) encoding of n bytes of p. */
void escape_base64(struct buf *b, const void *p, size_t n);

#endif
