#ifndef WATCHQ_OUTPUT_H
#define WATCHQ_OUTPUT_H

#include "buf.h"
#include "config.h"
#include "event.h"
#include "stop.h"

struct output {
	int fd;
	const struct stop *stop;	/* a signal or the deadline ends a wait for a slow reader */
	struct stop untimed;	/* stop without its deadline: what ends a wait while whole */
	bool whole;		/* a listing: only a signal or the reader going away cut it */
	bool may_block;		/* a pipe or terminal: wait for room, in chunks it takes whole */
	bool try_first;		/* our own non-blocking file, or a socket: wait only on EAGAIN */
	bool is_sock;
	bool is_reg;		/* a regular file of -o: a record cut short is cut off */
	bool own_fd;
	const struct config *cfg;
	struct buf line;
};

/* Open stdout or --output FILE (appended; a FIFO waits for a reader): 0, the exit code of a stop
 * that ended the wait, or -1 with errno set. */
int output_open(struct output *o, const struct config *cfg, const struct stop *stop);
/* Format and write one event: 0, an exit code that ends the run (EXIT_SIGNAL + SIGPIPE when the
 * reader went away, or a stop while waiting for it), or -1 with errno set. */
int output_event(struct output *o, const struct event *ev);
/* While whole, the deadline does not end a wait for the reader (present records). */
void output_whole(struct output *o, bool whole);
/* Close the destination; -1 with errno set if a pending write failed. */
int output_close(struct output *o);

#endif
