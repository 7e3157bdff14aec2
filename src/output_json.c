#include <string.h>
#include <time.h>

#include "escape.h"
#include "output.h"
#include "quota_nl.h"

/* A string field; where bytes had to be replaced, the exact bytes follow as NAME_b64. */
static void
json_str(struct buf *b, const char *name, const char *s)
{
	if (s == NULL)
		return;
	buf_addf(b, ",\"%s\":", name);
	if (escape_json(b, s)) {
		buf_addf(b, ",\"%s_b64\":\"", name);
		base64_encode(b, s, strlen(s));
		buf_addc(b, '"');
	}
}

static void
json_time(struct buf *b, const struct timespec *ts)
{
	struct tm tm;
	char s[64];
	time_t t = ts->tv_sec;

	if (gmtime_r(&t, &tm) == NULL)
		tm = (struct tm){ .tm_mday = 1, .tm_year = 70 };
	strftime(s, sizeof(s), "%Y-%m-%dT%H:%M:%S", &tm);
	buf_addf(b, "\"time\":\"%s.%06ldZ\"", s, ts->tv_nsec / 1000);
}

/* Mounts known only by their unique ids: every other field is unknown. */
static void
json_transient(struct buf *b, const struct ev_mount_fields *m)
{
	size_t i;

	buf_adds(b, ",\"mount_id\":null,\"unique_id\":null,\"parent_id\":null,\"path\":null,\"fstype\":null"
	    ",\"device\":null,\"options\":null,\"readonly\":null");
	buf_addf(b, ",\"count\":%zu,\"unique_ids\":[", m->count);
	for (i = 0; i < m->count; i++)
		buf_addf(b, "%s%llu", i ? "," : "", (unsigned long long)m->ids[i]);
	buf_addc(b, ']');
}

void
output_json(struct buf *b, const struct event *ev)
{
	buf_addc(b, '{');
	json_time(b, &ev->time);
	buf_addf(b, ",\"source\":\"%s\",\"event\":\"%s\"", event_type_name(ev->type), event_name(ev));
	json_str(b, "watch", ev->watch);
	buf_addf(b, ",\"tag\":%d", ev->tag);
	if (ev->type == EV_MOUNT && ev->subtype == MOUNT_TRANSIENT) {
		json_transient(b, &ev->u.mount);
	} else if (ev->type == EV_MOUNT) {
		const struct ev_mount_fields *m = &ev->u.mount;

		buf_addf(b, ",\"mount_id\":%llu", (unsigned long long)m->mount_id);
		if (m->unique_id)
			buf_addf(b, ",\"unique_id\":%llu", (unsigned long long)m->unique_id);
		else
			buf_adds(b, ",\"unique_id\":null");
		buf_addf(b, ",\"parent_id\":%llu", (unsigned long long)m->parent_id);
		json_str(b, "path", m->path);
		json_str(b, "old_path", m->old_path);
		json_str(b, "fstype", m->fstype);
		json_str(b, "device", m->device);
		json_str(b, "options", m->options);
		json_str(b, "old_options", m->old_options);
		buf_addf(b, ",\"readonly\":%s", m->readonly ? "true" : "false");
	} else if (ev->type == EV_KEY) {
		const struct ev_key_fields *k = &ev->u.key;

		if (k->keyring)
			buf_addf(b, ",\"keyring\":%d", (int)k->keyring);
		else
			buf_adds(b, ",\"keyring\":null");
		buf_addf(b, ",\"key\":%d", (int)k->key);
		json_str(b, "type", k->type);
		json_str(b, "description", k->description);
		buf_addf(b, ",\"aux\":%d", (int)k->aux);
	} else if (ev->type == EV_SB) {
		const struct ev_sb_fields *s = &ev->u.sb;
		const char *name;

		json_str(b, "path", s->path);
		json_str(b, "fstype", s->fstype);
		json_str(b, "device", s->device);
		switch (ev->subtype) {
		case SB_ERROR:
			buf_addf(b, ",\"error\":%d", s->error);
			if ((name = strerrorname_np(s->error)) != NULL)
				json_str(b, "error_name", name);
			else
				buf_adds(b, ",\"error_name\":null");
			buf_addf(b, ",\"count\":%u", s->count);
			break;
		case SB_READONLY:
			buf_addf(b, ",\"readonly\":%s,\"state\":\"%s\",\"old_state\":\"%s\"",
			    s->ro != SB_RO_RW ? "true" : "false", event_sb_ro_name(s->ro), event_sb_ro_name(s->old_ro));
			break;
		case SB_EDQUOT:
			buf_addf(b, ",\"quota_type\":\"%s\",\"id\":%llu,\"caused_id\":%llu",
			    quota_type_name(s->quota_type), (unsigned long long)s->id, (unsigned long long)s->caused_id);
			if (s->warning)
				json_str(b, "warning", s->warning);
			else
				buf_adds(b, ",\"warning\":null");
			break;
		case SB_LOWSPACE:
			buf_addf(b, ",\"low\":%s,\"avail\":%llu,\"size\":%llu,\"threshold\":%llu",
			    s->low ? "true" : "false", (unsigned long long)s->avail, (unsigned long long)s->size,
			    (unsigned long long)s->threshold);
			break;
		}
	} else if (ev->type == EV_META) {
		const struct ev_meta_fields *m = &ev->u.meta;

		json_str(b, "watch_source", ev->watch_source);
		if (ev->subtype == META_LOSS) {
			if (m->lost >= 0)
				buf_addf(b, ",\"lost\":%lld", m->lost);
			else
				buf_adds(b, ",\"lost\":null");
		}
		json_str(b, "backend", m->backend);
		json_str(b, "what", m->what);
	}
	buf_adds(b, "}\n");
}
