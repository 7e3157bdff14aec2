#ifndef WATCHQ_OUTPUT_TEXT_H
#define WATCHQ_OUTPUT_TEXT_H

#include "buf.h"
#include "config.h"
#include "event.h"
#include "output_end.h"

/* Append one text record for ev, then end: -T and --timefmt from cfg. */
void output_text(struct buf *b, const struct event *ev, const struct config *cfg,
    enum output_end end);

#endif
