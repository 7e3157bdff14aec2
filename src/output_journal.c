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

/*
 * Each kind of event, by the name it prints under: its MESSAGE_ID (made once with systemd-id128
 * new, never to change: watchq.catalog and users' queries name it) and its priority.
 */
static const struct journal_kind {
	enum ev_type type;
	const char *event;
	const char *message_id;
	int priority;
} journal_kinds[] = {
	{ EV_MOUNT, "present", "e6d00a8a0eee4642b677b5978a8f0e00", LOG_INFO },
	{ EV_MOUNT, "mount", "7126bf6314fe4efebcee6fd8379f8930", LOG_INFO },
	{ EV_MOUNT, "unmount", "7b42f54dd0134a92b06fe62e8d891409", LOG_INFO },
	{ EV_MOUNT, "move", "3daf7e56f3364843b2fb74249ad488be", LOG_INFO },
	{ EV_MOUNT, "move_from", "05332dd799814eeca66fbdea761f8aa3", LOG_INFO },
	{ EV_MOUNT, "move_to", "a5e4d75cca0f4092a095cbed1455c317", LOG_INFO },
	{ EV_MOUNT, "readonly", "3f50eea74684451282e8989dc9b61af4", LOG_WARNING },
	{ EV_MOUNT, "writable", "1f0224450e624ff8bf111a682623393e", LOG_INFO },
	{ EV_MOUNT, "setattr", "8a0afb69d2384330993c3fbeaba0da87", LOG_INFO },
	{ EV_MOUNT, "propagation", "1007e75004d04c169f3840974de01093", LOG_INFO },
	{ EV_MOUNT, "transient", "9ae6ed05d51349e8bf49efce514b96fb", LOG_INFO },
	{ EV_KEY, "instantiated", "73e4a413d5e4488c823cae550af3820c", LOG_INFO },
	{ EV_KEY, "updated", "9477f569c458428dae9da7e3374d9a21", LOG_INFO },
	{ EV_KEY, "linked", "8517a7b661034fcaaeaff2bbd89279e8", LOG_INFO },
	{ EV_KEY, "unlinked", "894f2ed435a242e4844e2d18c2b62106", LOG_INFO },
	{ EV_KEY, "cleared", "14364cb0b15444058333778ade48cef2", LOG_INFO },
	{ EV_KEY, "revoked", "8c7941313a0642f6be2ec29283f67cf5", LOG_INFO },
	{ EV_KEY, "invalidated", "f2cc70dd9d0b4f0cb2305ab1ddf72dd5", LOG_INFO },
	{ EV_KEY, "setattr", "344c83ddc57c4f1b982a2853b4393232", LOG_INFO },
	{ EV_KEY, "present", "45b6861337d24e0cb4598a7650979f19", LOG_INFO },
	{ EV_SB, "error", "b7df2cfdc9644f16a4ee4b05566e6c89", LOG_ERR },
	{ EV_SB, "readonly", "4f283b87319d4444856e8574f87a96e9", LOG_WARNING },
	{ EV_SB, "edquot", "e16efbd32f4045dca97a9391cb86c621", LOG_WARNING },
	{ EV_SB, "lowspace", "84af2e7b76cc4d27bbb6f2ca878a8967", LOG_WARNING },
	{ EV_SB, "present", "e860a6d54df147e380368ab5addd48e4", LOG_INFO },
	{ EV_META, "loss", "d4577f0b04444851aaae9c5ef670c444", LOG_WARNING },
	{ EV_META, "removal", "baab567b4b06496c8d985f19d62ab4c0", LOG_NOTICE },
	{ EV_META, "ns_new", "9c152da4c32141c9a0919294220db28d", LOG_INFO },
	{ EV_META, "ns_gone", "4ab5f6a03ad0439eb35dd5a5b3d2e7d0", LOG_INFO },
};

static const struct journal_kind *
journal_kind(const struct event *ev)
{
	const char *name = event_name(ev);
	size_t i;

	for (i = 0; i < sizeof(journal_kinds) / sizeof(journal_kinds[0]); i++)
		if (journal_kinds[i].type == ev->type && strcmp(journal_kinds[i].event, name) == 0)
			return &journal_kinds[i];
	return NULL;
}

const char *
output_journal_message_id(const struct event *ev)
{
	const struct journal_kind *k = journal_kind(ev);

	return k ? k->message_id : NULL;
}

static int
journal_priority(const struct event *ev)
{
	const struct journal_kind *k = journal_kind(ev);

	/* A filesystem back to writable or above its threshold is good news. */
	if (ev->type == EV_SB && ((ev->subtype == SB_READONLY && ev->u.sb.ro == SB_RO_RW) ||
	    (ev->subtype == SB_LOWSPACE && !ev->u.sb.low)))
		return LOG_NOTICE;
	return k ? k->priority : LOG_INFO;
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
