#ifndef WATCHQ_OUTPUT_FORMAT_H
#define WATCHQ_OUTPUT_FORMAT_H

#include <stdbool.h>

#include "buf.h"
#include "event.h"
#include "output_end.h"

/* Append ev formatted with the %-escapes of fmt (%T in strftime format timefmt), then end. */
void output_format(struct buf *b, const char *fmt, const char *timefmt, const struct event *ev,
    enum output_end end);
/* 0 if every %-escape of fmt is known, -1 otherwise. */
int output_format_check(const char *fmt);
/* Whether fmt uses the %-escape c (a known fmt). */
bool output_format_uses(const char *fmt, char c);
/* Whether fmt has %w right before %f, as inotifywait's --format '%w%f' (a known fmt). */
bool output_format_inotify_path(const char *fmt);
/* Whether fmt uses an escape that shows who made a mount change (a known fmt). */
bool output_format_needs_who(const char *fmt);

#endif
