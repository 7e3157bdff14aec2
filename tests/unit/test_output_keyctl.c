/* --keyctl: each record as keyutils' keyctl watch prints it (keyctl_watch.c's printf formats). */
#include "output_keyctl.h"
#include "unit.h"

static const struct {
	enum ev_type type;
	unsigned subtype;
	int32_t key, keyring, meta_key;
	const char *line;	/* "": nothing at all */
} cases[] = {
	{ EV_KEY, KEY_INSTANTIATED, 2147483647, 0, 0, "2147483647 inst\n" },
	{ EV_KEY, KEY_UPDATED, 42, 0, 0, "42 upd\n" },
	{ EV_KEY, KEY_LINKED, 1035096409, 805056093, 0, "805056093 link 1035096409\n" },
	{ EV_KEY, KEY_UNLINKED, 1035096409, 805056093, 0, "805056093 unlk 1035096409\n" },
	{ EV_KEY, KEY_CLEARED, 805056093, 805056093, 0, "805056093 clr\n" },
	{ EV_KEY, KEY_REVOKED, 42, 0, 0, "42 rev\n" },
	{ EV_KEY, KEY_INVALIDATED, 42, 0, 0, "42 inv\n" },
	{ EV_KEY, KEY_SETATTR, 42, 0, 0, "42 attr\n" },
	{ EV_META, META_LOSS, 0, 0, 42, "-- LOSS --\n" },
	{ EV_META, META_REMOVAL, 0, 0, 42, "42 gc\n" },
	/* keyctl watch has no line for these: no half line, not even its end. */
	{ EV_KEY, KEY_PRESENT, 42, 0, 0, "" },
	{ EV_META, META_NS_NEW, 0, 0, 0, "" },
	{ EV_MOUNT, MOUNT_MOUNT, 0, 0, 0, "" },
};

int
main(void)
{
	struct buf b = { 0 };
	struct event ev;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ev = (struct event){ .type = cases[i].type, .subtype = cases[i].subtype,
			.watch = "@s", .u.key = { .key = cases[i].key, .keyring = cases[i].keyring,
			    .type = "user", .description = "d" } };
		if (cases[i].type == EV_META)
			ev.u.meta = (struct ev_meta_fields){ .lost = -1, .key = cases[i].meta_key };
		buf_reset(&b);
		output_keyctl(&b, &ev, OUTPUT_END_NEWLINE);
		CHECK_STR(b.len ? b.data : "", cases[i].line);
	}
	ev = (struct event){ .type = EV_KEY, .subtype = KEY_UPDATED, .u.key = { .key = 7 } };
	buf_reset(&b);
	output_keyctl(&b, &ev, OUTPUT_END_NUL);
	CHECK(b.len == 6 && memcmp(b.data, "7 upd\0", 6) == 0, "%zu", b.len);
	buf_free(&b);
	return unit_done("test_output_keyctl");
}
