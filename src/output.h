#ifndef WATCHQ_OUTPUT_H
#define WATCHQ_OUTPUT_H

#include <time.h>

#include "buf.h"
#include "config.h"
#include "event.h"
#include "stop.h"

struct output {
	int fd;
	const struct stop *stop;	/* a signal or the deadline ends a wait for a slow reader */
	bool may_block;		/* a pipe or terminal: wait for room, in chunks it takes whole */
	bool own_fd;
	const struct config *cfg;
	struct buf line;
};

/* Open the destination (stdout or --output FILE, appended; a FIFO waits for its reader): 0, the exit code of a stop that ended the wait, or -1 with errno set. */
int output_open(struct output *o, const struct config *cfg, const struct stop *stop);
/* Format and write one event line: 0 written, an exit code that ends the run (EXIT_SIGNAL + SIGPIPE: the reader went away; a stop while waiting for the reader), or -1 with errno set. */
int output_event(struct output *o, const struct event *ev);
/* Close the destination; -1 with errno set if a pending write failed. */
int output_close(struct output *o);

/* Append ts formatted with strftime format fmt in local time. */
void output_time(struct buf *b, const struct timespec *ts, const char *fmt);
/* Append one text line (with newline) for ev. */
void output_text(struct buf *b, const struct event *ev, const struct config *cfg);
/* Append one JSON object line (with newline) for ev. */
void output_json(struct buf *b, const struct event *ev);
/* Append ev formatted with the %-escapes of fmt, then a newline. */
void output_format(struct buf *b, const char *fmt, const char *timefmt, const struct event *ev);
/* 0 if every %-escape of fmt is known, -1 otherwise. */
int output_format_check(const char *fmt);

#endif
