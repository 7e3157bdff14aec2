#ifndef WATCHQ_OUTPUT_H
#define WATCHQ_OUTPUT_H

#include "buf.h"
#include "config.h"
#include "event.h"

struct output {
	int fd;
	int sigfd;		/* a signal ends a wait for a slow reader */
	bool may_block;		/* a pipe or terminal: wait for room, in chunks it takes whole */
	bool own_fd;
	const struct config *cfg;
	struct buf line;
};

/* Open the destination (stdout or --output FILE, appended); a signal on sigfd ends a blocked write; -1 with errno set. */
int output_open(struct output *o, const struct config *cfg, int sigfd);
/* Format and write one event line; 0 written, 1 the reader went away (EPIPE) or a signal ended the wait for it, -1 error with errno set. */
int output_event(struct output *o, const struct event *ev);
/* Close the destination; -1 with errno set if a pending write failed. */
int output_close(struct output *o);


#endif
