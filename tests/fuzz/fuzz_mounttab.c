/*
 * libFuzzer harness: two mount tables from arbitrary bytes, diffed (the diff must explain the
 * change), then updated entry by entry.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mounttab.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct tally {
	long mounts, unmounts;
};

static void
count(void *ctx, const struct mounttab_change *ch)
{
	struct tally *t = ctx;

	switch (ch->kind) {
	case MOUNTTAB_MOUNT:
		if (ch->old || !ch->new)
			abort();
		t->mounts++;
		break;
	case MOUNTTAB_UNMOUNT:
		if (!ch->old || ch->new)
			abort();
		t->unmounts++;
		break;
	default:
		if (!ch->old || !ch->new || ch->old->id != ch->new->id)
			abort();
		break;
	}
}

/* Records of 4 bytes: table, id, parent, a path byte; options follow the id's parity. */
static void
fill(struct mounttab *t[2], const uint8_t *p, size_t n)
{
	static const char *const paths[] = { "/", "/a", "/a/b", "/c", "/a b", "/\xff", "/a/b/c", "/d" };
	size_t i;

	for (i = 0; i + 4 <= n; i += 4) {
		uint64_t id = p[i + 1] % 32 + 1, parent = p[i + 2] % 33;

		mounttab_insert(t[p[i] & 1], mounttab_entry_new(id, parent, p[i + 3] % 4, paths[p[i + 3] % 8], "src",
		    p[i] & 2 ? "tmpfs" : "ext4", "/", p[i] & 4 ? "ro,nosuid" : "rw", p[i] & 8 ? "ro" : "rw,size=1k"));
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mounttab a = { 0 }, b = { 0 };
	struct mounttab *t[2] = { &a, &b };
	struct tally tally = { 0, 0 }, tally2;
	long before = 0, after = 0;
	size_t i;

	fill(t, data, size);
	before = (long)a.count;
	after = (long)b.count;
	mounttab_diff(&a, &b, count, &tally);
	tally2 = tally;
	/* Ids in both tables are moves or remounts, so counts must balance. */
	if (before - tally.unmounts + tally.mounts != after)
		abort();
	/* Updating a entry by entry to b's (submounts follow their parent) adds or drops none. */
	for (i = 0; i < b.cap; i++)
		if (b.slot[i] && mounttab_find(&a, b.slot[i]->id))
			mounttab_update(&a, mounttab_entry_at(b.slot[i], b.slot[i]->target), count, &tally);
	if ((long)a.count != before || tally.mounts != tally2.mounts)
		abort();
	mounttab_clear(&a);
	mounttab_clear(&b);
	return 0;
}
