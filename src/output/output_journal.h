#ifndef WATCHQ_OUTPUT_JOURNAL_H
#define WATCHQ_OUTPUT_JOURNAL_H

#include "buf.h"
#include "event.h"

/* Where journald takes native entries (sd_journal_send(3) writes there). */
extern const char output_journal_socket[];

/* 0 if journald listens on output_journal_socket, -1 with errno set (ENOENT or ECONNREFUSED when
 * it is not running). */
int output_journal_check(void);
/* The MESSAGE_ID of ev's kind of event (32 hex digits, as watchq.catalog has it); NULL if none. */
const char *output_journal_message_id(const struct event *ev);
/* Send ev as one journal entry, b holding its MESSAGE= item; 0, or -1 with errno set (ENOENT when
 * journald's socket is gone). */
int output_journal_send(struct buf *b, const struct event *ev);

#endif
