/*
 * The text of a mountinfo file, read into a mount table. An entry is a function of its line alone,
 * so a read copies each line that the last read taken had for the same id from the entry made of
 * it, and only the other lines are parsed, by libmount: at 10,000 mounts and one change, one line.
 */
#include <errno.h>
#include <libmount.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compat.h"
#include "mitext.h"
#include "xalloc.h"

/* The mountinfo file fd, from where its last read ended, into raw; -1 with errno set. */
static int
read_on(int fd, struct buf *raw)
{
	char chunk[16384];
	ssize_t n;

	buf_reset(raw);
	while ((n = read(fd, chunk, sizeof(chunk))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		buf_add(raw, chunk, (size_t)n);
	}
	return 0;
}

/* Parse the file's text raw into tb; -1 with errno set. */
static int
parse(const struct buf *raw, struct libmnt_table *tb)
{
	FILE *f;
	int r;

	if (raw->len == 0)
		return 0;
	if ((f = fmemopen(raw->data, raw->len, "r")) == NULL)
		return -1;
	r = mnt_table_parse_stream(tb, f, PATH_MOUNTINFO);
	fclose(f);
	if (r < 0) {
		errno = -r;
		return -1;
	}
	return 0;
}

/* The field n fields after the one at q (fields end at one space each), or NULL before eol. */
static char *
skip_fields(char *q, const char *eol, int n)
{
	for (; n > 0; n--)
		if ((q = memchr(q, ' ', (size_t)(eol - q))) == NULL || ++q > eol)
			return NULL;
	return q;
}

/*
 * The superblock options of mount id as its line spells them, the kernel's escapes kept
 * (libmount decodes them, statmount does not), from the lines at *p on (libmount's order), the
 * line cut at its end; NULL if none has the id. Fields are escaped, so the first field from the
 * seventh on that is - alone ends the optional fields: FSTYPE SOURCE OPTIONS follow.
 */
static const char *
raw_fs_opts(char **p, char *end, int id)
{
	char *line, *eol, *q;

	for (line = *p; line < end; line = eol + 1) {
		if ((eol = memchr(line, '\n', (size_t)(end - line))) == NULL)
			eol = end;
		if (atoi(line) != id)
			continue;
		q = skip_fields(line, eol, 6);
		while (q && !(q[0] == '-' && q + 1 < eol && q[1] == ' '))
			q = skip_fields(q, eol, 1);
		if (q == NULL || (q = skip_fields(q, eol, 3)) == NULL)
			return NULL;
		*eol = '\0';
		*p = eol < end ? eol + 1 : end;
		return q;
	}
	return NULL;
}

/* Propagation from mountinfo's optional fields, separated by commas; "private" for none. */
static void
set_propagation(struct mounttab_entry *e, const char *fields)
{
	char *p;

	fields += fields ? strspn(fields, " ") : 0;
	mounttab_entry_set_propagation(e, fields && *fields ? fields : "private");
	for (p = e->propagation; *p; p++)
		if (*p == ' ')
			*p = ',';
}

/* A line of a read that is parsed: where it is in the read, and its place among its lines. */
struct line {
	uint64_t id;
	uint32_t off, len, seq;
};

/* The entry for the line at p (n bytes, no newline) of old, if old's text has that line alone. */
static const struct mounttab_entry *
same_line(const struct mounttab *old, const struct buf *text, const char *p, size_t n,
    uint64_t id)
{
	const struct mounttab_entry *o = old ? mounttab_find(old, id) : NULL;

	if (o == NULL || o->line_len != n || memcmp(text->data + o->line_off, p, n) != 0)
		return NULL;
	return o;
}

/* The entry of libmount's fs, from line l of its read; its fs options from the rest's text. */
static struct mounttab_entry *
entry_of(struct libmnt_fs *fs, const struct line *l, char **next, char *end)
{
	int parent = mnt_fs_get_parent_id(fs);
	const char *opts = raw_fs_opts(next, end, (int)l->id);
	struct mounttab_entry *e = mounttab_entry_new(l->id, parent < 0 ? 0 : (uint64_t)parent,
	    mnt_fs_get_devno(fs), mnt_fs_get_target(fs), mnt_fs_get_source(fs),
	    mnt_fs_get_fstype(fs), mnt_fs_get_root(fs), mnt_fs_get_vfs_options(fs),
	    opts ? opts : mnt_fs_get_fs_options(fs));

	set_propagation(e, mnt_fs_get_optional_fields(fs));
	return e;
}

/* Insert e, made of line l of the read, into t. */
static void
insert_at(struct mounttab *t, struct mounttab_entry *e, const struct line *l)
{
	e->seq = l->seq;
	e->line_off = l->off;
	e->line_len = l->len;
	mounttab_insert(t, e);
}

/*
 * Each line of m->next that old's text has as it is for the same id, into t, copied from old's
 * entry; the others into m->rest for libmount, and returned (*n of them, allocated).
 */
static struct line *
copy_same(struct mitext *m, struct mounttab *t, const struct mounttab *old, size_t *n)
{
	const struct mounttab_entry *o;
	struct line *lines = NULL, l;
	char *p, *eol, *end = m->next.data + m->next.len;
	size_t cap = 0;
	uint32_t seq = 0;

	*n = 0;
	buf_reset(&m->rest);
	for (p = m->next.data; p < end; p = eol + 1, seq++) {
		if ((eol = memchr(p, '\n', (size_t)(end - p))) == NULL)
			eol = end;
		l = (struct line){ strtoull(p, NULL, 10), (uint32_t)(p - m->next.data),
		    (uint32_t)(eol - p), seq };
		if ((o = same_line(old, &m->raw, p, l.len, l.id)) != NULL) {
			insert_at(t, mounttab_entry_at(o, o->target), &l);
			continue;
		}
		if (*n == cap) {
			cap = cap ? 2 * cap : 16;
			lines = xreallocarray(lines, cap, sizeof(*lines));
		}
		lines[(*n)++] = l;
		buf_add(&m->rest, p, l.len);
		buf_addc(&m->rest, '\n');
	}
	return lines;
}

/* Parse m->rest, whose lines are the n of lines, into t; -1 with errno set. */
static int
parse_rest(struct mitext *m, const struct line *lines, size_t n, struct mounttab *t)
{
	struct libmnt_table *tb;
	struct libmnt_iter *it;
	struct libmnt_fs *fs;
	char *next = m->rest.data;
	size_t k = 0;
	int r;

	if ((tb = mnt_new_table()) == NULL || (it = mnt_new_iter(MNT_ITER_FORWARD)) == NULL) {
		mnt_unref_table(tb);
		errno = ENOMEM;
		return -1;
	}
	if ((r = parse(&m->rest, tb)) < 0)
		goto out;
	/* libmount keeps the lines' order: each fs is the next line with its id. */
	while (mnt_table_next_fs(tb, it, &fs) == 0) {
		if (mnt_fs_get_id(fs) < 0)
			continue;
		while (k < n && lines[k].id != (uint64_t)mnt_fs_get_id(fs))
			k++;
		if (k == n)
			break;
		insert_at(t, entry_of(fs, &lines[k], &next, m->rest.data + m->rest.len), &lines[k]);
		k++;
	}
out:
	mnt_free_iter(it);
	mnt_unref_table(tb);
	return r;
}

int
mitext_read(struct mitext *m, int fd, struct mounttab *t, const struct mounttab *old)
{
	struct line *lines;
	size_t n;
	int r;

	if (lseek(fd, 0, SEEK_SET) < 0 || read_on(fd, &m->next) < 0)
		return -1;
	lines = copy_same(m, t, old, &n);
	r = parse_rest(m, lines, n, t);
	free(lines);
	return r;
}

int
mitext_read_more(struct mitext *m, int fd, struct mounttab *t, uint64_t *seq)
{
	struct line *lines = NULL;
	char *p, *eol, *end;
	size_t n = 0, cap = 0;
	int r;

	if (read_on(fd, &m->rest) < 0)
		return -1;
	end = m->rest.data + m->rest.len;
	for (p = m->rest.data; p < end; p = eol + 1) {
		if ((eol = memchr(p, '\n', (size_t)(end - p))) == NULL)
			eol = end;
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			lines = xreallocarray(lines, cap, sizeof(*lines));
		}
		/* No line of the text last taken: a later read parses it again. */
		lines[n++] = (struct line){ strtoull(p, NULL, 10), 0, 0, (uint32_t)(*seq)++ };
	}
	r = parse_rest(m, lines, n, t);
	free(lines);
	return r;
}

void
mitext_take(struct mitext *m)
{
	struct buf b = m->raw;

	m->raw = m->next;
	m->next = b;
}

void
mitext_free(struct mitext *m)
{
	buf_free(&m->raw);
	buf_free(&m->next);
	buf_free(&m->rest);
}
