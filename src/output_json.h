#ifndef WATCHQ_OUTPUT_JSON_H
#define WATCHQ_OUTPUT_JSON_H

#include "buf.h"
#include "event.h"

/* Append one JSON object line (with newline) for ev. */
void output_json(struct buf *b, const struct event *ev);

#endif
