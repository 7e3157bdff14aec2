#ifndef WATCHQ_MITEXT_H
#define WATCHQ_MITEXT_H

#include "buf.h"
#include "mounttab.h"

/* A mountinfo file's text, as last taken, and the reads that follow it. */
struct mitext {
	struct buf raw;		/* the text last taken: the lines of the table read from it */
	struct buf next;	/* a read being taken */
	struct buf rest;	/* its lines not in raw as they were, for libmount */
};

/*
 * Read the mountinfo file fd, from its start, into t (empty): each entry with its line's place
 * (seq) and where its line is (line_off, line_len). A line that the text last taken has for the
 * same id is copied from old's entry: old must be the table read from that text (NULL: parse
 * every line). -1 with errno set.
 */
int mitext_read(struct mitext *m, int fd, struct mounttab *t, const struct mounttab *old);
/*
 * Read on from where the last read of fd ended, into t: since Linux 6.8 the file lists mounts by
 * unique id, and a read at its end goes on with the mounts made since (ids only grow), and only
 * those. Each entry's place (seq) is *seq on, which is advanced; none has a line of the text last
 * taken. -1 with errno set.
 */
int mitext_read_more(struct mitext *m, int fd, struct mounttab *t, uint64_t *seq);
/* The read just made becomes the text last taken (the table read by it is the one kept). */
void mitext_take(struct mitext *m);
void mitext_free(struct mitext *m);

#endif
