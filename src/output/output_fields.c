#include <stdio.h>
#include <string.h>
#include <time.h>

#include "output_fields.h"
#include "quota_nl.h"

/* The walk of one event: fields go to fn one at a time. */
struct walk {
	void (*fn)(void *ctx, const struct output_field *f);
	void *ctx;
};

/* A string field; NULL is unknown. */
static void
put_str(struct walk *w, const char *name, const char *s)
{
	struct output_field f = { .name = name, .kind = s ? OUTPUT_FIELD_STR : OUTPUT_FIELD_NULL,
	    .v.s = s };

	w->fn(w->ctx, &f);
}

/* A string field that is unknown (null) where s is NULL or empty. */
static void
put_str_known(struct walk *w, const char *name, const char *s)
{
	put_str(w, name, s && *s ? s : NULL);
}

/* A string field the record has only when s is set (old_path: moves only). */
static void
put_str_if_set(struct walk *w, const char *name, const char *s)
{
	if (s)
		put_str(w, name, s);
}

static void
put_int(struct walk *w, const char *name, long long i)
{
	struct output_field f = { .name = name, .kind = OUTPUT_FIELD_INT, .v.i = i };

	w->fn(w->ctx, &f);
}

static void
put_uint(struct walk *w, const char *name, unsigned long long u)
{
	struct output_field f = { .name = name, .kind = OUTPUT_FIELD_UINT, .v.u = u };

	w->fn(w->ctx, &f);
}

static void
put_bool(struct walk *w, const char *name, bool b)
{
	struct output_field f = { .name = name, .kind = OUTPUT_FIELD_BOOL, .v.b = b };

	w->fn(w->ctx, &f);
}

static void
put_null(struct walk *w, const char *name)
{
	put_str(w, name, NULL);
}

/* A number where it is known, else null. */
static void
put_int_known(struct walk *w, const char *name, bool known, long long i)
{
	if (known)
		put_int(w, name, i);
	else
		put_null(w, name);
}

static void
put_uint_known(struct walk *w, const char *name, bool known, unsigned long long u)
{
	if (known)
		put_uint(w, name, u);
	else
		put_null(w, name);
}

/* RFC 3339 in UTC with microseconds. */
static void
put_time(struct walk *w, const struct timespec *ts)
{
	struct tm tm;
	char s[64];
	time_t sec = ts->tv_sec;
	size_t n;

	if (gmtime_r(&sec, &tm) == NULL)
		tm = (struct tm){ .tm_mday = 1, .tm_year = 70 };
	n = strftime(s, sizeof(s) - 16, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(s + n, 16, ".%06uZ", (unsigned)(ts->tv_nsec / 1000 % 1000000));
	put_str(w, "time", s);
}

/* Mounts known only by their unique ids: every other field is unknown. */
static void
walk_transient(struct walk *w, const struct ev_mount_fields *m)
{
	static const char *const unknown[] = { "mount_id", "unique_id", "parent_id", "path",
	    "fstype", "device", "root", "options", "propagation", "readonly", "pid", "comm",
	    "uid" };
	struct output_field f = { .name = "unique_ids", .kind = OUTPUT_FIELD_UINTS,
	    .v.list = { m->ids, m->count } };
	size_t i;

	for (i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++)
		put_null(w, unknown[i]);
	put_uint(w, "count", m->count);
	w->fn(w->ctx, &f);
}

/* Who made the change: each part null where the kernel does not say or watchq is not sure. */
static void
walk_by(struct walk *w, const struct ev_who *by)
{
	put_int_known(w, "pid", by->pid != 0, by->pid);
	put_str(w, "comm", by->comm);
	put_uint_known(w, "uid", by->has_uid, by->uid);
}

static void
walk_mount(struct walk *w, unsigned subtype, const struct ev_mount_fields *m)
{
	const struct mounttab_entry *e = m->at;	/* NULL: transient */

	if (subtype == MOUNT_TRANSIENT) {
		walk_transient(w, m);
		return;
	}
	put_uint(w, "mount_id", e->mount_id);
	put_uint_known(w, "unique_id", e->unique_id != 0, e->unique_id);
	put_uint(w, "parent_id", e->parent_mount_id);
	put_str_if_set(w, "path", e->target);
	put_str_if_set(w, "old_path", m->old_path);
	put_str_known(w, "fstype", e->fstype);
	put_str_known(w, "device", e->source);
	put_str_known(w, "root", e->root);
	put_str_if_set(w, "options", e->options);
	put_str_if_set(w, "old_options", m->old_options);
	put_str_known(w, "propagation", e->propagation);
	put_str_if_set(w, "old_propagation", m->old_propagation);
	put_bool(w, "readonly", e->readonly);
	walk_by(w, &m->by);
}

static void
walk_key(struct walk *w, const struct ev_key_fields *k)
{
	put_int_known(w, "keyring", k->keyring != 0, k->keyring);
	put_int(w, "key", k->key);
	put_str(w, "type", k->type);
	put_str(w, "description", k->description);
	put_int(w, "aux", k->aux);
	put_uint_known(w, "perm", k->has_attr, k->perm);
	put_int_known(w, "uid", k->has_attr, k->uid);
	put_int_known(w, "gid", k->has_attr, k->gid);
}

static void
walk_sb(struct walk *w, unsigned subtype, const struct ev_sb_fields *s)
{
	put_str_if_set(w, "path", s->path);
	put_str_known(w, "fstype", s->fstype);
	put_str_known(w, "device", s->device);
	switch (subtype) {
	case SB_ERROR:
		put_int(w, "error", s->error);
		put_str(w, "error_name", strerrorname_np(s->error));
		put_uint(w, "count", s->count);
		break;
	case SB_READONLY:
		put_bool(w, "readonly", s->ro != SB_RO_RW);
		put_str(w, "state", event_sb_ro_name(s->ro));
		put_str(w, "old_state", event_sb_ro_name(s->old_ro));
		walk_by(w, &s->by);
		break;
	case SB_EDQUOT:
		put_str(w, "quota_type", quota_nl_type_name(s->quota_type));
		put_uint(w, "id", s->id);
		put_uint(w, "caused_id", s->caused_id);
		put_str(w, "warning", s->warning);
		break;
	case SB_LOWSPACE:
		put_bool(w, "low", s->low);
		put_uint(w, "avail", s->avail);
		put_uint(w, "size", s->size);
		put_uint(w, "threshold", s->threshold);
		break;
	case SB_PRESENT:
		put_bool(w, "readonly", s->ro != SB_RO_RW);
		put_str(w, "state", event_sb_ro_name(s->ro));
		put_uint_known(w, "avail", s->has_space, s->avail);
		put_uint_known(w, "size", s->has_space, s->size);
		break;
	}
}

static void
walk_meta(struct walk *w, const struct event *ev)
{
	const struct ev_meta_fields *m = &ev->u.meta;

	put_str_if_set(w, "watch_source", ev->watch_source);
	if (ev->subtype == META_LOSS) {
		put_int_known(w, "lost", m->lost >= 0, m->lost);
	}
	if (ev->subtype == META_NS_NEW || ev->subtype == META_NS_GONE)
		put_int_known(w, "pid", m->pid != 0, m->pid);
	put_str_if_set(w, "backend", m->backend);
	put_str_if_set(w, "what", m->what);
}

void
output_fields_walk(const struct event *ev, void (*fn)(void *ctx, const struct output_field *f),
    void *ctx)
{
	struct walk w = { fn, ctx };

	put_time(&w, &ev->time);
	put_uint(&w, "time_us", (unsigned long long)ev->time.tv_sec * 1000000ULL +
	    (unsigned long long)ev->time.tv_nsec / 1000);
	put_str(&w, "source", event_type_name(ev->type));
	put_str(&w, "event", event_name(ev));
	put_str_if_set(&w, "watch", ev->watch);
	put_int(&w, "tag", ev->tag);
	/* Mount records, and meta records (of a mounts watch), carry their namespace and its cgroup
	 * (-N). */
	if (ev->type == EV_MOUNT || ev->type == EV_META) {
		put_uint_known(&w, "mnt_ns", ev->mnt_ns != 0, ev->mnt_ns);
		put_str(&w, "cgroup", ev->cgroup);
	}
	if (ev->type == EV_MOUNT)
		walk_mount(&w, ev->subtype, &ev->u.mount);
	else if (ev->type == EV_KEY)
		walk_key(&w, &ev->u.key);
	else if (ev->type == EV_SB)
		walk_sb(&w, ev->subtype, &ev->u.sb);
	else if (ev->type == EV_META)
		walk_meta(&w, ev);
}
