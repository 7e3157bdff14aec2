#include <string.h>

#include "escape.h"
#include "output_format.h"

/* The event being formatted, with its mount or superblock fields where it has them. */
struct format_event {
	const struct event *ev;
	const struct ev_mount_fields *m;	/* NULL unless a mount record, not transient */
	const struct mounttab_entry *at;	/* its mount, where m is set */
	const struct ev_sb_fields *sb;		/* NULL unless a superblock record */
	const struct ev_who *by;	/* who made it: mount records, sb readonly; NULL: none */
	const char *timefmt;
	bool raw;		/* strings as their exact bytes: -0, or %#X */
};

/* The flag after % that prints a string escape's exact bytes: %#p. */
#define FORMAT_RAW	'#'

/* One %-escape: its letter, what it needs and how it is written. */
struct format_escape {
	char c;
	bool string;		/* writes strings of any bytes: escaped, or raw with FORMAT_RAW */
	bool needs_who;		/* shows who made a mount change (looked up only if shown) */
	void (*write)(struct buf *b, const struct format_event *x);
};

/*
 * A string field where the record has it, known and not empty; else -, as in text output, so that
 * a line has every column whatever the record (a literal - prints as \x2d, unless raw).
 */
static void
format_str(struct buf *b, const struct format_event *x, const char *s)
{
	escape_known(b, s && *s ? s : NULL, x->raw);
}

/* A number where the record has it, else -. */
static void
format_num(struct buf *b, bool has, unsigned long long n)
{
	if (has)
		buf_addf(b, "%llu", n);
	else
		buf_addc(b, '-');
}

static void
format_source(struct buf *b, const struct format_event *x)
{
	buf_adds(b, event_type_name(x->ev->type));
}

static void
format_event_name(struct buf *b, const struct format_event *x)
{
	buf_adds(b, event_name(x->ev));
}

static void
format_watch_source(struct buf *b, const struct format_event *x)
{
	format_str(b, x, x->ev->watch_source);
}

static void
format_watch(struct buf *b, const struct format_event *x)
{
	format_str(b, x, x->ev->watch);
}

static void
format_tag(struct buf *b, const struct format_event *x)
{
	buf_addf(b, "%d", x->ev->tag);
}

static void
format_path(struct buf *b, const struct format_event *x)
{
	format_str(b, x, x->at ? x->at->target : x->sb ? x->sb->path : NULL);
}

/* The path a move came from, or the options a change replaced. */
static void
format_old(struct buf *b, const struct format_event *x)
{
	format_str(b, x, !x->m ? NULL : x->m->old_path ? x->m->old_path : x->m->old_options);
}

static void
format_fstype(struct buf *b, const struct format_event *x)
{
	format_str(b, x, x->at ? x->at->fstype : x->sb ? x->sb->fstype : NULL);
}

static void
format_device(struct buf *b, const struct format_event *x)
{
	format_str(b, x, x->at ? x->at->source : x->sb ? x->sb->device : NULL);
}

static void
format_root(struct buf *b, const struct format_event *x)
{
	format_str(b, x, x->at ? x->at->root : NULL);
}

static void
format_options(struct buf *b, const struct format_event *x)
{
	format_str(b, x, x->at ? x->at->options : NULL);
}

static void
format_propagation(struct buf *b, const struct format_event *x)
{
	format_str(b, x, x->at ? x->at->propagation : NULL);
}

/* ro or rw for a mount; a superblock has a read-only state only in its readonly and present
 * records. */
static void
format_readonly(struct buf *b, const struct format_event *x)
{
	if (x->at)
		buf_adds(b, x->at->readonly ? "ro" : "rw");
	else if (x->sb && (x->ev->subtype == SB_READONLY || x->ev->subtype == SB_PRESENT))
		buf_adds(b, event_sb_ro_name(x->sb->ro));
	else
		buf_addc(b, '-');
}

static void
format_mount_id(struct buf *b, const struct format_event *x)
{
	format_num(b, x->at != NULL, x->at ? x->at->mount_id : 0);
}

static void
format_parent_id(struct buf *b, const struct format_event *x)
{
	format_num(b, x->at != NULL, x->at ? x->at->parent_mount_id : 0);
}

static void
format_mnt_ns(struct buf *b, const struct format_event *x)
{
	format_num(b, x->ev->mnt_ns, x->ev->mnt_ns);
}

/* The cgroup of a process in the record's namespace (-N). */
static void
format_cgroup(struct buf *b, const struct format_event *x)
{
	format_str(b, x, x->ev->cgroup);
}

/* Who made a mount change or an sb readonly flip: - where it is unknown, and for other records. */
static void
format_pid(struct buf *b, const struct format_event *x)
{
	format_num(b, x->by && x->by->pid, x->by ? (unsigned long long)x->by->pid : 0);
}

static void
format_uid(struct buf *b, const struct format_event *x)
{
	format_num(b, x->by && x->by->has_uid, x->by ? x->by->uid : 0);
}

/* A name that is - prints as \x2d (unless raw): - alone means unknown; an empty one, nothing. */
static void
format_comm(struct buf *b, const struct format_event *x)
{
	escape_known(b, x->by ? x->by->comm : NULL, x->raw);
}

/* Serials are signed, as keyctl prints them. */
static void
format_key(struct buf *b, const struct format_event *x)
{
	if (x->ev->type == EV_KEY)
		buf_addf(b, "%d", (int)x->ev->u.key.key);
	else
		buf_addc(b, '-');
}

static void
format_keyring(struct buf *b, const struct format_event *x)
{
	if (x->ev->type == EV_KEY && x->ev->u.key.keyring)
		buf_addf(b, "%d", (int)x->ev->u.key.keyring);
	else
		buf_addc(b, '-');
}

/* TYPE:DESCRIPTION of a key whose type is known. */
static void
format_key_desc(struct buf *b, const struct format_event *x)
{
	const struct ev_key_fields *k = &x->ev->u.key;

	if (x->ev->type != EV_KEY || k->type == NULL) {
		buf_addc(b, '-');
		return;
	}
	escape_field(b, k->type, x->raw);
	buf_addc(b, ':');
	escape_field(b, k->description ? k->description : "", x->raw);
}

/* low or ok: which way a lowspace record crossed its threshold. */
static void
format_low(struct buf *b, const struct format_event *x)
{
	if (x->sb && x->ev->subtype == SB_LOWSPACE)
		buf_adds(b, x->sb->low ? "low" : "ok");
	else
		buf_addc(b, '-');
}

/* Bytes of a lowspace record, or of a present one whose space is known. */
static void
format_space(struct buf *b, const struct format_event *x, uint64_t n)
{
	format_num(b, x->sb && (x->ev->subtype == SB_LOWSPACE ||
	    (x->ev->subtype == SB_PRESENT && x->sb->has_space)), n);
}

static void
format_avail(struct buf *b, const struct format_event *x)
{
	format_space(b, x, x->sb ? x->sb->avail : 0);
}

static void
format_size(struct buf *b, const struct format_event *x)
{
	format_space(b, x, x->sb ? x->sb->size : 0);
}

/* The bytes --space-below set, which only a lowspace record carries. */
static void
format_threshold(struct buf *b, const struct format_event *x)
{
	format_num(b, x->sb && x->ev->subtype == SB_LOWSPACE, x->sb ? x->sb->threshold : 0);
}

static void
format_time(struct buf *b, const struct format_event *x)
{
	buf_addtime(b, &x->ev->time, x->timefmt);
}

static void
format_percent(struct buf *b, const struct format_event *x)
{
	buf_addc(b, '%');
}

static const struct format_escape format_escapes[] = {
	{ 's', false, false, format_source },
	{ 'e', false, false, format_event_name },
	{ 'E', true, false, format_watch_source },
	{ 'w', true, false, format_watch },
	{ 't', false, false, format_tag },
	{ 'p', true, false, format_path },
	{ 'o', true, false, format_old },
	{ 'f', true, false, format_fstype },
	{ 'd', true, false, format_device },
	{ 'F', true, false, format_root },
	{ 'O', true, false, format_options },
	{ 'g', true, false, format_propagation },
	{ 'r', false, false, format_readonly },
	{ 'i', false, false, format_mount_id },
	{ 'I', false, false, format_parent_id },
	{ 'N', false, false, format_mnt_ns },
	{ 'G', true, false, format_cgroup },
	{ 'P', false, true, format_pid },
	{ 'u', false, true, format_uid },
	{ 'c', true, true, format_comm },
	{ 'K', false, false, format_keyring },
	{ 'k', false, false, format_key },
	{ 'y', true, false, format_key_desc },
	{ 'l', false, false, format_low },
	{ 'a', false, false, format_avail },
	{ 'z', false, false, format_size },
	{ 'b', false, false, format_threshold },
	{ 'T', false, false, format_time },
	{ '%', false, false, format_percent },
};

/* The escape %c, or NULL if there is none. */
static const struct format_escape *
format_escape_find(char c)
{
	size_t i;

	for (i = 0; i < sizeof(format_escapes) / sizeof(format_escapes[0]); i++)
		if (format_escapes[i].c == c)
			return &format_escapes[i];
	return NULL;
}

/*
 * The escape that starts at p (%X, or %#X for a string escape), its length in *len; NULL if p
 * starts none.
 */
static const struct format_escape *
format_escape_at(const char *p, size_t *len)
{
	const struct format_escape *e;
	size_t raw;

	if (p[0] != '%')
		return NULL;
	raw = p[1] == FORMAT_RAW;
	if (p[1 + raw] == '\0' || (e = format_escape_find(p[1 + raw])) == NULL)
		return NULL;
	if (raw && !e->string)
		return NULL;
	*len = 2 + raw;
	return e;
}

int
output_format_check(const char *fmt)
{
	const char *p;
	size_t len;

	for (p = fmt; *p; p++) {
		if (*p != '%')
			continue;
		if (format_escape_at(p, &len) == NULL)
			return -1;
		p += len - 1;
	}
	return 0;
}

bool
output_format_uses(const char *fmt, char c)
{
	const struct format_escape *e;
	const char *p;
	size_t len;

	for (p = fmt; *p; p++) {
		if ((e = format_escape_at(p, &len)) == NULL)
			continue;
		if (e->c == c)
			return true;
		p += len - 1;
	}
	return false;
}

bool
output_format_inotify_path(const char *fmt)
{
	const struct format_escape *e, *prev = NULL;
	const char *p;
	size_t len;

	for (p = fmt; *p; p++) {
		if ((e = format_escape_at(p, &len)) == NULL) {
			prev = NULL;
			continue;
		}
		if (prev && prev->c == 'w' && e->c == 'f')
			return true;
		prev = e;
		p += len - 1;
	}
	return false;
}

bool
output_format_needs_who(const char *fmt)
{
	const struct format_escape *e;
	const char *p;
	size_t len;

	for (p = fmt; *p; p++) {
		if ((e = format_escape_at(p, &len)) == NULL)
			continue;
		if (e->needs_who)
			return true;
		p += len - 1;
	}
	return false;
}

void
output_format(struct buf *b, const char *fmt, const char *timefmt, const struct event *ev,
    enum output_end end)
{
	struct format_event x = { .ev = ev, .timefmt = timefmt };
	const struct format_escape *e;
	const char *p;
	size_t len;

	/* A transient record knows no mount's fields: its escapes print -. */
	if (ev->type == EV_MOUNT && ev->subtype != MOUNT_TRANSIENT)
		x.m = &ev->u.mount;
	else if (ev->type == EV_SB)
		x.sb = &ev->u.sb;
	if (x.m) {
		x.at = x.m->at;
		x.by = &x.m->by;
	} else if (ev->type == EV_SB && ev->subtype == SB_READONLY)
		x.by = &x.sb->by;
	for (p = fmt; *p; p++) {
		if ((e = format_escape_at(p, &len)) != NULL) {
			/* -0 ends records with the one byte no string holds: all are raw. */
			x.raw = end == OUTPUT_END_NUL || len == 3;
			e->write(b, &x);
			p += len - 1;
		} else {
			buf_addc(b, *p);
		}
	}
	output_end(b, end);
}
