#ifndef WATCHQ_OUTPUT_KEYCTL_H
#define WATCHQ_OUTPUT_KEYCTL_H

#include "buf.h"
#include "event.h"
#include "output_end.h"

/* Append ev as keyutils' keyctl watch prints the same record, then end; nothing at all for a
 * record keyctl watch has no line for. */
void output_keyctl(struct buf *b, const struct event *ev, enum output_end end);

#endif
