/*
 * A mountinfo text read into a table: a read that copies the lines the last read had makes the
 * same table as one that parses every line, over a chain of reads with lines changed, gone, new,
 * moved about, reused ids and escaped names.
 */
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "buf.h"
#include "mitext.h"
#include "unit.h"

/* Replace the file's text with s. */
static void
put(int fd, const char *s)
{
	CHECK(ftruncate(fd, 0) == 0 && pwrite(fd, s, strlen(s), 0) == (ssize_t)strlen(s),
	    "write the text");
}

static bool
same_entry(const struct mounttab_entry *a, const struct mounttab_entry *b)
{
	return a->id == b->id && a->parent_id == b->parent_id && a->dev == b->dev &&
	    a->seq == b->seq && a->line_off == b->line_off && a->line_len == b->line_len &&
	    a->readonly == b->readonly && strcmp(a->target, b->target) == 0 &&
	    strcmp(a->source, b->source) == 0 && strcmp(a->fstype, b->fstype) == 0 &&
	    strcmp(a->root, b->root) == 0 && strcmp(a->vfs_opts, b->vfs_opts) == 0 &&
	    strcmp(a->fs_opts, b->fs_opts) == 0 && strcmp(a->options, b->options) == 0 &&
	    strcmp(a->propagation, b->propagation) == 0;
}

/* Whether t and u hold the same entries, field for field. */
static bool
same_table(const struct mounttab *t, const struct mounttab *u)
{
	const struct mounttab_entry *o;
	size_t i;

	if (t->count != u->count)
		return false;
	for (i = 0; i < t->cap; i++)
		if (t->slot[i] && ((o = mounttab_find(u, t->slot[i]->id)) == NULL ||
		    !same_entry(t->slot[i], o)))
			return false;
	return true;
}

/* One line of mount id for a state st of it (options, propagation, names by st). */
static void
line(struct buf *b, unsigned id, unsigned st)
{
	static const char *const prop[] = { "", " shared:7", " master:3", " shared:9 master:2" };
	static const char *const name[] = { "m", "a\\040b", "x\\011y\\134z", "n\\012l" };

	buf_addf(b, "%u %u 0:%u / /t/%s%u %s,nosuid%s - %s src%u%s %s,size=%uk,mode=%s\n", id,
	    id > 20 ? id / 2 : 1, 40 + id % 5 + st % 2, name[st % 4], id, st % 3 ? "rw" : "ro",
	    prop[st % 4], st % 5 ? "tmpfs" : "ext4", st % 7, st % 6 ? "" : "\\040dev",
	    st % 4 ? "rw" : "ro", 100 + st, st % 2 ? "755" : "1777");
}

int
main(void)
{
	static const char one[] = "36 35 98:0 /mnt1 /mnt\\040point rw,noatime master:1 - ext3 "
	    "/dev/root rw,errors=continue\n";
	struct mitext m = { 0 }, full = { 0 };
	struct mounttab t = { 0 }, u = { 0 }, v = { 0 };
	const struct mounttab_entry *e;
	struct mounttab_entry *w;
	unsigned state[200], order[200], round, i, j, k, x;
	uint64_t seq = 40;
	struct buf text = { 0 };
	int fd = memfd_create("mountinfo", 0);

	CHECK(fd >= 0, "memfd");
	/* One line, every field. */
	put(fd, one);
	CHECK(mitext_read(&m, fd, &t, NULL) == 0, "read");
	CHECK((e = mounttab_find(&t, 36)) != NULL, "id 36");
	CHECK_STR(e->target, "/mnt point");
	CHECK_STR(e->root, "/mnt1");
	CHECK_STR(e->source, "/dev/root");
	CHECK_STR(e->fstype, "ext3");
	CHECK_STR(e->propagation, "master:1");
	CHECK_STR(e->fs_opts, "rw,errors=continue");
	CHECK(e->parent_id == 35 && e->seq == 0 && e->line_off == 0 &&
	    e->line_len == strlen(one) - 1,
	    "parent %llu seq %llu line %u+%u", (unsigned long long)e->parent_id,
	    (unsigned long long)e->seq, e->line_off, e->line_len);
	mitext_take(&m);
	mounttab_clear(&t);

	/* A chain of reads, each against the last: the same tables as full parses. */
	srand(7);
	for (i = 0; i < 200; i++) {
		state[i] = i % 200 < 150 ? 1 : 0;	/* 0: not mounted */
		order[i] = i;
	}
	for (round = 0; round < 300; round++) {
		buf_reset(&text);
		for (i = 0; i < 200; i++)
			if (state[order[i]])
				line(&text, order[i] + 1, state[order[i]]);
		put(fd, text.data ? text.data : "");
		CHECK(mitext_read(&m, fd, &u, round ? &t : NULL) == 0, "read, round %u", round);
		CHECK(mitext_read(&full, fd, &v, NULL) == 0, "full read, round %u", round);
		CHECK(same_table(&u, &v), "round %u: %zu entries copied and parsed, %zu parsed",
		    round, u.count, v.count);
		mitext_take(&m);
		mounttab_clear(&t);
		t = u;
		u = (struct mounttab){ 0 };
		mounttab_clear(&v);
		/* A few changes: options, unmounts, mounts (reusing ids), lines moved about. */
		for (k = 0; k < 1 + (unsigned)rand() % 6; k++) {
			x = (unsigned)rand() % 200;
			switch (rand() % 4) {
			case 0:
				state[x] = state[x] ? state[x] + 1 : 0;
				break;
			case 1:
				state[x] = 0;
				break;
			case 2:
				state[x] = 1 + (unsigned)rand() % 50;
				break;
			default:
				j = (unsigned)rand() % 200;
				x = order[j];
				order[j] = order[k % 200];
				order[k % 200] = x;
				break;
			}
		}
	}
	/* An empty text, then lines again. */
	put(fd, "");
	CHECK(mitext_read(&m, fd, &u, &t) == 0 && u.count == 0, "empty");
	mitext_take(&m);
	mounttab_clear(&t);
	mounttab_clear(&u);

	/*
	 * Read on: the lines written after a read ended are read alone, each the entry a full read
	 * makes of it but for its place (from seq on) and its line (none: a later read parses it).
	 */
	buf_reset(&text);
	for (i = 1; i <= 3; i++)
		line(&text, i, i);
	put(fd, text.data);
	CHECK(mitext_read(&m, fd, &t, NULL) == 0 && t.count == 3, "read before reading on");
	mitext_take(&m);
	CHECK(mitext_read_more(&m, fd, &u, &seq) == 0 && u.count == 0 && seq == 40,
	    "nothing new: %zu read", u.count);
	buf_reset(&text);
	for (i = 4; i <= 5; i++)
		line(&text, i, 7 * i);
	CHECK(pwrite(fd, text.data, text.len, lseek(fd, 0, SEEK_END)) == (ssize_t)text.len,
	    "append");
	CHECK(mitext_read_more(&m, fd, &u, &seq) == 0 && u.count == 2 && seq == 42,
	    "two new: %zu read, next place %llu", u.count, (unsigned long long)seq);
	CHECK(mitext_read(&full, fd, &v, NULL) == 0 && v.count == 5, "full read");
	for (i = 4; i <= 5; i++) {
		e = mounttab_find(&u, i);
		CHECK(e != NULL && e->seq == 40 + i - 4 && e->line_len == 0 && e->line_off == 0,
		    "line %u: its place and no line", i);
		if (e != NULL) {
			w = mounttab_entry_at(e, e->target);
			w->seq = mounttab_find(&v, i)->seq;
			w->line_off = mounttab_find(&v, i)->line_off;
			w->line_len = mounttab_find(&v, i)->line_len;
			CHECK(same_entry(w, mounttab_find(&v, i)), "line %u: the full read's entry", i);
			mounttab_entry_free(w);
		}
	}
	mounttab_clear(&t);
	mounttab_clear(&u);
	mounttab_clear(&v);
	buf_free(&text);
	mitext_free(&m);
	mitext_free(&full);
	close(fd);
	return unit_done("test_mitext");
}
