#ifndef WATCHQ_ESCAPE_H
#define WATCHQ_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"

/* Length of the valid UTF-8 sequence starting at p (at most n bytes), 0 if none. */
size_t utf8_seq_len(const unsigned char *p, size_t n);
/* Append s for a text column: backslash as \\, space, control bytes and invalid UTF-8 as \xHH (undo with printf %b). */
void escape_text(struct buf *b, const char *s);
/* Append s as a quoted JSON string, invalid UTF-8 bytes as U+FFFD; returns true if any byte was replaced. */
bool escape_json(struct buf *b, const char *s);
/* Append the base64 (RFC 4648, padded) encoding of n bytes of p. */
void base64_encode(struct buf *b, const void *p, size_t n);

#endif
