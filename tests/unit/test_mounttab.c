/* The mount-table cache and its diff. */
#include <stdlib.h>

#include "mounttab.h"
#include "unit.h"

struct log {
	char s[1024];
};

static void
record(void *p, const struct mounttab_change *ch)
{
	static const char *const kind[] = { "U", "V", "R", "M" };
	struct log *l = p;
	size_t n = strlen(l->s);

	snprintf(l->s + n, sizeof(l->s) - n, "%s%s:%s%s%s;", kind[ch->kind], "",
	    ch->old ? ch->old->target : "", ch->old && ch->new ? ">" : "", ch->new ? ch->new->target : "");
}

static void
add(struct mounttab *t, uint64_t id, const char *target, const char *src, const char *vfs, const char *fs)
{
	mounttab_insert(t, mounttab_entry_new(id, 1, (dev_t)id, target, src, "tmpfs", "/", vfs, fs));
}

/* Ids, as they come. */
static void
note_id(void *p, uint64_t id)
{
	struct log *l = p;
	size_t n = strlen(l->s);

	snprintf(l->s + n, sizeof(l->s) - n, "%llu,", (unsigned long long)id);
}

int
main(void)
{
	struct mounttab a = { 0 }, b = { 0 };
	struct log log = { "" };
	struct mounttab_entry *e;
	uint64_t i;

	/* Insert, find, remove across growth and wrap-around. */
	for (i = 1; i <= 1000; i++)
		add(&a, i * 64, "/x", "s", "rw", "rw");
	CHECK(a.count == 1000, "count %zu", a.count);
	for (i = 1; i <= 1000; i += 2)
		mounttab_entry_free(mounttab_remove(&a, i * 64));
	CHECK(a.count == 500, "count after remove %zu", a.count);
	for (i = 1; i <= 1000; i++)
		CHECK((mounttab_find(&a, i * 64) != NULL) == (i % 2 == 0), "find %llu", (unsigned long long)i);
	CHECK(mounttab_remove(&a, 3) == NULL, "remove missing");
	mounttab_clear(&a);

	/* Options: effective ro first, rw/ro tokens of both lists folded. */
	e = mounttab_entry_new(1, 0, 0, "/", "s", "tmpfs", "/", "rw,nosuid", "ro,size=1k");
	CHECK(e->readonly, "sb ro makes the mount read-only");
	CHECK_STR(e->options, "ro,nosuid,size=1k");
	mounttab_entry_free(e);
	CHECK(mounttab_opts_readonly("x,ro") && !mounttab_opts_readonly("rox,rw") && !mounttab_opts_readonly(""), "ro token");
	/* Past ro/rw, no ro, rw, mand or empty token, wherever it stood. */
	e = mounttab_entry_new(1, 0, 0, "/", "s", "tmpfs", "/", "nosuid,ro,,x", "mand,rw,y");
	CHECK_STR(e->options, "ro,nosuid,x,y");
	mounttab_entry_free(e);

	/* A diff: unmount deepest first, move, remount, mounts shallowest first. */
	add(&a, 10, "/a", "s", "rw", "rw");
	add(&a, 11, "/a/b", "s", "rw", "rw");
	add(&a, 12, "/a/b/c", "s", "rw", "rw");
	add(&a, 20, "/m", "s", "rw", "rw");
	add(&a, 30, "/r", "s", "rw", "rw");
	add(&a, 40, "/reused", "old", "rw", "rw");
	add(&b, 20, "/n", "s", "rw", "rw");
	add(&b, 30, "/r", "s", "ro", "rw");
	add(&b, 40, "/reused", "new", "rw", "rw");
	add(&b, 51, "/x/y", "s", "rw", "rw");
	add(&b, 50, "/x", "s", "rw", "rw");
	mounttab_diff(&a, &b, record, &log);
	CHECK_STR(log.s, "U:/a/b/c;U:/a/b;U:/reused;U:/a;V:/m>/n;R:/r>/r;M:/reused;M:/x;M:/x/y;");
	CHECK(mounttab_has_target(&b, "/x/y") && !mounttab_has_target(&b, "/a"), "has_target");

	/* Among 2000 unchanged: moves and remounts each shallowest first, a move before a remount. */
	mounttab_clear(&a);
	mounttab_clear(&b);
	log.s[0] = '\0';
	for (i = 1000; i < 3000; i++) {
		add(&a, i, "/k/k/k", "s", "rw", "rw");
		add(&b, i, "/k/k/k", "s", "rw", "rw");
	}
	add(&a, 73, "/p/q/r", "s", "rw", "rw");
	add(&a, 72, "/p/q", "s", "rw", "rw");
	add(&a, 71, "/p", "s", "rw", "rw");
	add(&b, 73, "/p/q/s", "s", "ro", "rw");
	add(&b, 72, "/p/q", "s", "ro", "rw");
	add(&b, 71, "/o", "s", "rw", "rw");
	mounttab_diff(&a, &b, record, &log);
	CHECK_STR(log.s, "V:/p>/o;V:/p/q/r>/p/q/s;R:/p/q>/p/q;R:/p/q/r>/p/q/s;");
	mounttab_clear(&a);
	mounttab_clear(&b);
	log.s[0] = '\0';

	/* mand is left out (statmount cannot report it), nodiratime kept. */
	e = mounttab_entry_new(1, 0, 0, "/", "s", "tmpfs", "/", "rw,noatime,nodiratime", "rw,mand,size=1k");
	CHECK_STR(e->options, "rw,noatime,nodiratime,size=1k");
	mounttab_entry_free(e);

	/* A stack (L, Y on L, X over L): a move or an unmount of the top is that alone. */
	mounttab_clear(&a);
	mounttab_clear(&b);
	log.s[0] = '\0';
	add(&a, 60, "/w/m", "L", "rw", "rw");
	mounttab_insert(&a, mounttab_entry_new(61, 60, 61, "/w/m/sub", "Y", "tmpfs", "/", "rw", "rw"));
	mounttab_insert(&a, mounttab_entry_new(62, 60, 62, "/w/m", "X", "tmpfs", "/", "rw", "rw"));
	add(&b, 60, "/w/m", "L", "rw", "rw");
	mounttab_insert(&b, mounttab_entry_new(61, 60, 61, "/w/m/sub", "Y", "tmpfs", "/", "rw", "rw"));
	mounttab_insert(&b, mounttab_entry_new(62, 1, 62, "/w/n", "X", "tmpfs", "/", "rw", "rw"));
	mounttab_diff(&a, &b, record, &log);
	CHECK_STR(log.s, "V:/w/m>/w/n;");
	log.s[0] = '\0';
	mounttab_entry_free(mounttab_remove(&b, 62));
	mounttab_diff(&a, &b, record, &log);
	CHECK_STR(log.s, "U:/w/m;");
	CHECK(mounttab_has_target(&b, "/w/m") && mounttab_has_target(&b, "/w/m/sub"), "the stack below stays");

	/* No change, no records. */
	log.s[0] = '\0';
	mounttab_diff(&b, &b, record, &log);
	CHECK_STR(log.s, "");
	mounttab_clear(&a);
	mounttab_clear(&b);

	/* An id and a device taken again: two unique ids make it an unmount and a mount; where
	 * either entry has none, it looks like a move. */
	add(&a, 80, "/i1/x", "s", "rw", "rw");
	add(&b, 80, "/i2/x", "s", "rw", "rw");
	mounttab_find(&a, 80)->unique_id = 1000;
	mounttab_find(&b, 80)->unique_id = 1001;
	mounttab_diff(&a, &b, record, &log);
	CHECK_STR(log.s, "U:/i1/x;M:/i2/x;");
	log.s[0] = '\0';
	mounttab_find(&b, 80)->unique_id = 1000;
	mounttab_diff(&a, &b, record, &log);
	CHECK_STR(log.s, "V:/i1/x>/i2/x;");
	log.s[0] = '\0';
	mounttab_find(&b, 80)->unique_id = 0;
	mounttab_diff(&a, &b, record, &log);
	CHECK_STR(log.s, "V:/i1/x>/i2/x;");
	log.s[0] = '\0';
	mounttab_clear(&a);
	mounttab_clear(&b);
	/* Twins: two mounts with one parent at one target, counted through insert, replace, remove. */
	{
		struct mounttab t = { 0 };
		struct mounttab_entry *x, *y;
		uint64_t id;

		for (id = 10; id < 3000; id++)	/* enough to make both hashes grow */
			add(&t, id, id % 2 ? "/a" : "/b", "s", "rw", "rw");
		x = mounttab_find(&t, 10);
		CHECK(mounttab_has_twin(&t, x), "1499 mounts of parent 1 at /b");
		for (id = 12; id < 3000; id++)
			mounttab_entry_free(mounttab_remove(&t, id));
		x = mounttab_find(&t, 10);
		y = mounttab_find(&t, 11);
		CHECK(!mounttab_has_twin(&t, x) && !mounttab_has_twin(&t, y), "one at /b, one at /a");
		add(&t, 12, "/b", "s", "rw", "rw");
		CHECK(mounttab_has_twin(&t, mounttab_find(&t, 12)), "two at /b again");
		add(&t, 12, "/c", "s", "rw", "rw");	/* replaces 12 */
		CHECK(!mounttab_has_twin(&t, mounttab_find(&t, 10)), "12 moved to /c");
		CHECK(mounttab_top_at(&t, "/c") == mounttab_find(&t, 12), "the one at /c");
		mounttab_insert(&t, mounttab_entry_new(13, 12, 13, "/c", "s", "tmpfs", "/", "rw", "rw"));
		CHECK(mounttab_top_at(&t, "/c") == mounttab_find(&t, 13), "13 stacked on 12");
		CHECK(mounttab_top_at(&t, "/nowhere") == NULL, "none there");
		mounttab_clear(&t);
	}
	/* Peer groups: the entries in one or slaves of it, counted through insert and remove. */
	{
		struct mounttab t = { 0 };
		static const char *const props[] = { "shared:7", "master:7", "shared:8,master:7",
			"shared:70", "private", "master:17,propagate_from:7" };
		struct log ids = { "" };
		struct mounttab_entry *p;
		uint64_t id;

		for (id = 0; id < 6; id++) {
			p = mounttab_entry_new(20 + id, 1, 1, "/p", "s", "tmpfs", "/", "rw", "rw");
			mounttab_entry_set_propagation(p, props[id]);
			mounttab_insert(&t, p);
		}
		CHECK(mounttab_peer_group(mounttab_find(&t, 20)) == 7, "shared:7");
		CHECK(mounttab_peer_group(mounttab_find(&t, 21)) == 0, "a slave is in no group");
		CHECK(mounttab_peer_group(mounttab_find(&t, 22)) == 8, "shared:8,master:7");
		mounttab_each_in_group(&t, 7, note_id, &ids);
		CHECK_STR(ids.s, "20,21,22,");
		ids.s[0] = '\0';
		mounttab_each_in_group(&t, 8, note_id, &ids);
		CHECK_STR(ids.s, "22,");
		CHECK(t.had_shared, "shared:7 was inserted");
		CHECK(t.top_id == 25, "the highest id: %llu", (unsigned long long)t.top_id);
		mounttab_entry_free(mounttab_remove(&t, 22));
		ids.s[0] = '\0';
		mounttab_each_in_group(&t, 8, note_id, &ids);
		CHECK_STR(ids.s, "");
		mounttab_clear(&t);
		p = mounttab_entry_new(20, 1, 1, "/p", "s", "tmpfs", "/", "rw", "rw");
		mounttab_entry_set_propagation(p, "master:7");
		mounttab_insert(&t, p);
		CHECK(!t.had_shared, "a slave alone is in no peer group");
		mounttab_clear(&t);
	}
	return unit_done("test_mounttab");
}
