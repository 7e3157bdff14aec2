#include <string.h>

#include "escape.h"
#include "output_format.h"

static const char format_escapes[] = "seEwtpofdOriINPucKkyT%";

int
output_format_check(const char *fmt)
{
	const char *p;

	for (p = fmt; *p; p++) {
		if (*p != '%')
			continue;
		if (p[1] == '\0' || strchr(format_escapes, p[1]) == NULL)
			return -1;
		p++;
	}
	return 0;
}

bool
output_format_uses(const char *fmt, char c)
{
	const char *p;

	for (p = fmt; *p; p++)
		if (*p == '%' && *++p == c)
			return true;
	return false;
}

static void
field(struct buf *b, const char *s)
{
	if (s)
		escape_text(b, s);
}

void
output_format(struct buf *b, const char *fmt, const char *timefmt, const struct event *ev)
{
	/* A transient record knows no mount's fields: its escapes print nothing. */
	const struct ev_mount_fields *m = ev->type == EV_MOUNT && ev->subtype != MOUNT_TRANSIENT ? &ev->u.mount : NULL;
	const struct ev_sb_fields *sb = ev->type == EV_SB ? &ev->u.sb : NULL;
	const char *p;

	for (p = fmt; *p; p++) {
		if (*p != '%' || p[1] == '\0') {
			buf_addc(b, *p);
			continue;
		}
		switch (*++p) {
		case 's':
			buf_adds(b, event_type_name(ev->type));
			break;
		case 'e':
			buf_adds(b, event_name(ev));
			break;
		case 'E':
			field(b, ev->watch_source);
			break;
		case 'w':
			field(b, ev->watch);
			break;
		case 't':
			buf_addf(b, "%d", ev->tag);
			break;
		case 'p':
			if (m)
				field(b, m->path);
			else if (sb)
				field(b, sb->path);
			break;
		case 'o':
			if (m)
				field(b, m->old_path ? m->old_path : m->old_options);
			break;
		case 'f':
			if (m)
				field(b, m->fstype);
			else if (sb)
				field(b, sb->fstype);
			break;
		case 'd':
			if (m)
				field(b, m->device);
			else if (sb)
				field(b, sb->device);
			break;
		case 'O':
			if (m)
				field(b, m->options);
			break;
		case 'r':
			if (m)
				buf_adds(b, m->readonly ? "ro" : "rw");
			else if (sb && ev->subtype == SB_READONLY)
				buf_adds(b, event_sb_ro_name(sb->ro));
			break;
		case 'i':
			if (m)
				buf_addf(b, "%llu", (unsigned long long)m->mount_id);
			break;
		case 'I':
			if (m)
				buf_addf(b, "%llu", (unsigned long long)m->parent_id);
			break;
		case 'N':
			if (ev->mnt_ns)
				buf_addf(b, "%llu", (unsigned long long)ev->mnt_ns);
			break;
		case 'P':
			if (m && m->by.pid)
				buf_addf(b, "%ld", (long)m->by.pid);
			else if (m)
				buf_addc(b, '-');
			break;
		case 'u':
			if (m && m->by.has_uid)
				buf_addf(b, "%lu", (unsigned long)m->by.uid);
			else if (m)
				buf_addc(b, '-');
			break;
		case 'c':
			if (m)
				escape_known(b, m->by.comm);
			break;
		case 'k':
			if (ev->type == EV_KEY)
				buf_addf(b, "%d", (int)ev->u.key.key);
			break;
		case 'K':
			if (ev->type == EV_KEY && ev->u.key.keyring)
				buf_addf(b, "%d", (int)ev->u.key.keyring);
			break;
		case 'y':
			if (ev->type == EV_KEY && ev->u.key.type) {
				field(b, ev->u.key.type);
				buf_addc(b, ':');
				field(b, ev->u.key.description ? ev->u.key.description : "");
			}
			break;
		case 'T':
			buf_addtime(b, &ev->time, timefmt);
			break;
		case '%':
			buf_addc(b, '%');
			break;
		default:
			buf_addc(b, '%');
			buf_addc(b, *p);
			break;
		}
	}
	buf_addc(b, '\n');
}
