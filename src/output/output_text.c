#include <string.h>

#include "escape.h"
#include "keydesc.h"
#include "output_text.h"
#include "quota_nl.h"

/* One column after a space: - where s is unknown or empty, \x2d where s is - (unless raw); its
 * exact bytes if raw (-0). */
static void
text_col(struct buf *b, const char *s, bool raw)
{
	buf_addc(b, ' ');
	escape_known(b, s && *s ? s : NULL, raw);
}

/*
 * Who made the change, last on the line: pid=N uid=N comm=NAME, each - where unknown. A process
 * name may hold any byte but NUL. Escaped, it is one word, and - alone always means unknown: a
 * name that is - prints as \x2d, an empty name prints nothing.
 */
static void
text_by(struct buf *b, const struct ev_who *by, bool raw)
{
	if (by->pid)
		buf_addf(b, " pid=%ld", (long)by->pid);
	else
		buf_adds(b, " pid=-");
	if (by->has_uid)
		buf_addf(b, " uid=%lu", (unsigned long)by->uid);
	else
		buf_adds(b, " uid=-");
	buf_adds(b, " comm=");
	escape_known(b, by->comm, raw);
}

/* The source, then [ROOT] where the mount shows a part of its filesystem, as findmnt does. */
static void
text_source(struct buf *b, const struct mounttab_entry *e, bool raw)
{
	struct buf s = { 0 };

	if (e->root == NULL || *e->root == '\0' || strcmp(e->root, "/") == 0) {
		text_col(b, e->source, raw);
		return;
	}
	buf_adds(&s, e->source ? e->source : "");
	buf_addc(&s, '[');
	buf_adds(&s, e->root);
	buf_addc(&s, ']');
	text_col(b, s.data, raw);
	buf_free(&s);
}

/* A state that changed: PATH NOW (was BEFORE). */
static void
text_change(struct buf *b, const char *path, const char *now, const char *before, bool raw)
{
	text_col(b, path, raw);
	text_col(b, now, raw);
	buf_adds(b, " (was");
	text_col(b, before, raw);
	buf_addc(b, ')');
}

static void
text_mount(struct buf *b, const struct event *ev, bool raw)
{
	const struct ev_mount_fields *m = &ev->u.mount;
	const struct mounttab_entry *e = m->at;

	switch (ev->subtype) {
	case MOUNT_MOVE:
		text_col(b, m->old_path, raw);
		buf_adds(b, " ->");
		text_col(b, e->target, raw);
		text_by(b, &m->by, raw);
		break;
	case MOUNT_READONLY:
	case MOUNT_WRITABLE:
		text_col(b, e->target, raw);
		buf_adds(b, e->readonly ? " ro (was rw)" : " rw (was ro)");
		text_by(b, &m->by, raw);
		break;
	case MOUNT_SETATTR:
		text_change(b, e->target, e->options, m->old_options, raw);
		text_by(b, &m->by, raw);
		break;
	case MOUNT_PROPAGATION:
		text_change(b, e->target, e->propagation, m->old_propagation, raw);
		text_by(b, &m->by, raw);
		break;
	case MOUNT_TRANSIENT:
		buf_addf(b, " - - - count=%zu", m->count);
		break;
	default:
		text_col(b, e->target, raw);
		text_col(b, e->fstype, raw);
		text_source(b, e, raw);
		if (ev->subtype != MOUNT_PRESENT)
			text_by(b, &m->by, raw);
		break;
	}
}

/*
 * A present key's permissions as keyctl show's column prints them (what we may do with it), its
 * owner and its group; each - where the key cannot be described.
 */
static void
text_key_attr(struct buf *b, const struct ev_key_fields *k)
{
	char perm[9];

	if (!k->has_attr) {
		buf_adds(b, " perm=- uid=- gid=-");
		return;
	}
	keydesc_show_perm(perm, k->perm, k->uid, k->gid, keydesc_creds());
	buf_addf(b, " perm=%s uid=%ld gid=%ld", perm, k->uid, k->gid);
}

/*
 * Every serial in decimal, as keyctl and JSON print them, so that ids can be pasted from one
 * tool to the other. The serial beside a description is always the key it describes, as in
 * keyctl show; the keyring of a link or unlink is printed as keyring=N.
 */
static void
text_key(struct buf *b, const struct event *ev, bool raw)
{
	const struct ev_key_fields *k = &ev->u.key;

	text_col(b, ev->watch, raw);
	buf_addf(b, " %d", (int)k->key);
	if (ev->subtype == KEY_CLEARED)
		return;
	buf_addc(b, ' ');
	if (k->type) {
		escape_field(b, k->type, raw);
		buf_addc(b, ':');
		escape_field(b, k->description ? k->description : "", raw);
	} else {
		buf_addc(b, '-');
	}
	if (ev->subtype == KEY_LINKED || ev->subtype == KEY_UNLINKED ||
	    (ev->subtype == KEY_PRESENT && k->keyring))
		buf_addf(b, " keyring=%d", (int)k->keyring);
	else if (k->aux)
		buf_addf(b, " (error %d)", (int)k->aux);
	if (ev->subtype == KEY_PRESENT)
		text_key_attr(b, k);
}

static void
text_sb(struct buf *b, const struct event *ev, bool raw)
{
	const struct ev_sb_fields *s = &ev->u.sb;
	const char *name;

	text_col(b, s->path, raw);
	text_col(b, s->fstype, raw);
	text_col(b, s->device, raw);
	switch (ev->subtype) {
	case SB_ERROR:
		name = strerrorname_np(s->error);
		if (name)
			buf_addf(b, " %s", name);
		else
			buf_addf(b, " %d", s->error);
		buf_addf(b, " count=%u", s->count);
		break;
	case SB_READONLY:
		buf_addf(b, " %s (was %s)", event_sb_ro_name(s->ro), event_sb_ro_name(s->old_ro));
		text_by(b, &s->by, raw);
		break;
	case SB_EDQUOT:
		buf_addf(b, " %s %s %llu (by uid %llu)", s->warning ? s->warning : "unknown",
		    quota_nl_type_name(s->quota_type), (unsigned long long)s->id,
		    (unsigned long long)s->caused_id);
		break;
	case SB_LOWSPACE:
		buf_addf(b, " %s avail=%llu size=%llu threshold=%llu", s->low ? "low" : "ok",
		    (unsigned long long)s->avail, (unsigned long long)s->size,
		    (unsigned long long)s->threshold);
		break;
	case SB_PRESENT:
		buf_addf(b, " %s", event_sb_ro_name(s->ro));
		if (s->has_space)
			buf_addf(b, " avail=%llu size=%llu", (unsigned long long)s->avail,
			    (unsigned long long)s->size);
		else
			buf_adds(b, " avail=- size=-");
		break;
	}
}

static void
text_meta(struct buf *b, const struct event *ev, bool raw)
{
	const struct ev_meta_fields *m = &ev->u.meta;

	text_col(b, ev->watch_source, raw);
	text_col(b, ev->watch, raw);
	if (ev->subtype == META_LOSS) {
		if (m->lost >= 0)
			buf_addf(b, " %lld events lost, resynchronised", m->lost);
		else
			buf_adds(b, " events lost, resynchronised");
	} else if (ev->subtype == META_NS_NEW || ev->subtype == META_NS_GONE) {
		if (m->pid)
			buf_addf(b, " pid=%d", (int)m->pid);
		else
			buf_adds(b, " pid=-");
	} else {
		buf_addc(b, ' ');
		buf_adds(b, m->what ? m->what : "gone");
	}
}

void
output_text(struct buf *b, const struct event *ev, const struct config *cfg,
    enum output_end end)
{
	/* NUL-ended records carry each string's exact bytes: NUL is the one byte none holds. */
	bool raw = end == OUTPUT_END_NUL;

	if (cfg->timestamps) {
		buf_addtime(b, &ev->time, cfg->timefmt);
		buf_addc(b, ' ');
	}
	buf_adds(b, event_type_name(ev->type));
	buf_addc(b, ' ');
	buf_adds(b, event_name(ev));
	if (ev->type == EV_MOUNT)
		text_mount(b, ev, raw);
	else if (ev->type == EV_KEY)
		text_key(b, ev, raw);
	else if (ev->type == EV_SB)
		text_sb(b, ev, raw);
	else if (ev->type == EV_META)
		text_meta(b, ev, raw);
	/* With -N, the record's namespace and its cgroup come last, after everything else. */
	if ((cfg->nns > 0 || cfg->ns_all) && ev->mnt_ns) {
		buf_addf(b, " ns=%llu cgroup=", (unsigned long long)ev->mnt_ns);
		escape_known(b, ev->cgroup && *ev->cgroup ? ev->cgroup : NULL, raw);
	}
	output_end(b, end);
}
