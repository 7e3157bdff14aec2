#ifndef WATCHQ_OUTPUT_END_H
#define WATCHQ_OUTPUT_END_H

#include "buf.h"

/* How a writer ends a record: a newline, a NUL (-0), or nothing (the journal's MESSAGE= item). */
enum output_end {
	OUTPUT_END_NEWLINE,
	OUTPUT_END_NUL,
	OUTPUT_END_NONE,
};

/* Append the bytes that end a record to b. */
void output_end(struct buf *b, enum output_end end);

#endif
