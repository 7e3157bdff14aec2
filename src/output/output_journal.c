#include <ctype.h>
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <syslog.h>
#include <unistd.h>

/* No CODE_FILE, CODE_LINE, CODE_FUNC: they would name this file, not the event. */
#define SD_JOURNAL_SUPPRESS_LOCATION
#include <systemd/sd-journal.h>

#include "buf.h"
#include "output_fields.h"
#include "output_journal.h"

const char output_journal_socket[] = "/run/systemd/journal/socket";

/* Room for the items of one entry: MESSAGE, PRIORITY, MESSAGE_ID, SYSLOG_IDENTIFIER and fewer
 * than 40 WATCHQ_ fields. */
#define JOURNAL_MAX_ITEMS	64

const char *
output_journal_message_id(const struct event *ev)
{
	const struct event_name *n = event_row(ev);

	return n ? n->message_id : NULL;
}

static int
journal_priority(const struct event *ev)
{
	const struct event_name *n = event_row(ev);

	/* A filesystem back to writable or above its threshold is good news. */
	if (ev->type == EV_SB && ((ev->subtype == SB_READONLY && ev->u.sb.ro == SB_RO_RW) ||
	    (ev->subtype == SB_LOWSPACE && !ev->u.sb.low)))
		return LOG_NOTICE;
	return n && n->message_id ? n->priority : LOG_INFO;
}

/* The entry being built: "NAME=value" items back to back in b, item i ending at end[i]. */
struct journal_entry {
	struct buf *b;
	size_t end[JOURNAL_MAX_ITEMS];
	size_t n;
};

/* Record where the item just appended ends. An item past JOURNAL_MAX_ITEMS is removed again; the
 * field list never has that many. */
static void
journal_entry_end(struct journal_entry *e)
{
	if (e->n < JOURNAL_MAX_ITEMS)
		e->end[e->n++] = e->b->len;
	else
		e->b->data[e->b->len = e->end[e->n - 1]] = '\0';
}

/* One field as WATCHQ_NAME=value. An unknown value (null in JSON) is left out: the journal has no
 * null. */
static void
journal_field(void *ctx, const struct output_field *f)
{
	struct journal_entry *e = ctx;
	struct output_field one;
	const char *p;
	size_t i;

	if (f->kind == OUTPUT_FIELD_NULL)
		return;
	/* A list is the same field once per element, as the journal allows. */
	if (f->kind == OUTPUT_FIELD_UINTS) {
		one = (struct output_field){ .name = f->name, .kind = OUTPUT_FIELD_UINT };
		for (i = 0; i < f->v.list.n; i++) {
			one.v.u = f->v.list.v[i];
			journal_field(ctx, &one);
		}
		return;
	}
	buf_adds(e->b, "WATCHQ_");
	for (p = f->name; *p; p++)
		buf_addc(e->b, (char)toupper((unsigned char)*p));
	buf_addc(e->b, '=');
	switch (f->kind) {
	case OUTPUT_FIELD_NULL:
		break;
	case OUTPUT_FIELD_STR:
		buf_adds(e->b, f->v.s);
		break;
	case OUTPUT_FIELD_INT:
		buf_addf(e->b, "%lld", f->v.i);
		break;
	case OUTPUT_FIELD_UINT:
		buf_addf(e->b, "%llu", f->v.u);
		break;
	case OUTPUT_FIELD_BOOL:
		buf_adds(e->b, f->v.b ? "true" : "false");
		break;
	case OUTPUT_FIELD_UINTS:
		break;
	}
	journal_entry_end(e);
}

int
output_journal_check(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd, r, saved;

	memcpy(sa.sun_path, output_journal_socket, sizeof(output_journal_socket));
	if ((fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0)) < 0)
		return -1;
	r = connect(fd, (struct sockaddr *)&sa, sizeof(sa));
	saved = errno;
	close(fd);
	errno = saved;
	return r;
}

int
output_journal_send(struct buf *b, const struct event *ev)
{
	struct journal_entry e = { .b = b };
	struct iovec iov[JOURNAL_MAX_ITEMS];
	struct stat stb;
	const char *id;
	size_t i, start;
	int r;

	journal_entry_end(&e);
	buf_addf(b, "PRIORITY=%d", journal_priority(ev));
	journal_entry_end(&e);
	if ((id = output_journal_message_id(ev)) != NULL) {
		buf_addf(b, "MESSAGE_ID=%s", id);
		journal_entry_end(&e);
	}
	buf_addf(b, "SYSLOG_IDENTIFIER=%s", program_invocation_short_name);
	journal_entry_end(&e);
	output_fields_walk(ev, journal_field, &e);
	for (i = 0, start = 0; i < e.n; start = e.end[i++])
		iov[i] = (struct iovec){ b->data + start, e.end[i] - start };
	if ((r = sd_journal_sendv(iov, (int)e.n)) < 0) {
		errno = -r;
		return -1;
	}
	/* libsystemd drops an entry silently when the socket is missing: report that, even though
	 * the entry is already lost. */
	if (stat(output_journal_socket, &stb) < 0 && errno == ENOENT)
		return -1;
	return 0;
}
