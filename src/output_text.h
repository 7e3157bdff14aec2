#ifndef WATCHQ_OUTPUT_TEXT_H
#define WATCHQ_OUTPUT_TEXT_H

#include "buf.h"
#include "config.h"
#include "event.h"

/* Append one text line (with newline) for ev: -T and --timefmt from cfg. */
void output_text(struct buf *b, const struct event *ev, const struct config *cfg);

#endif
