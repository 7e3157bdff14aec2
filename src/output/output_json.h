#ifndef WATCHQ_OUTPUT_JSON_H
#define WATCHQ_OUTPUT_JSON_H

#include "buf.h"
#include "event.h"
#include "output_end.h"

/* Append one JSON object for ev, then end. */
void output_json(struct buf *b, const struct event *ev, enum output_end end);

#endif
