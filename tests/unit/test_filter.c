/* The filter keeps the kernel's semantics: type, subtype bit, (info & mask) == value. */
#include "event.h"
#include "filter.h"
#include "unit.h"

static struct event
mk(enum ev_type type, unsigned subtype, unsigned info)
{
	struct event ev = { .type = type, .subtype = subtype, .info = info };

	return ev;
}

struct name_case {
	const char *include;	/* comma-separated, applied in order; "-x" removes x */
	unsigned typemask;
	struct { enum ev_type type; unsigned sub, info; int want; } rec[6];
};

static const struct name_case cases[] = {
	{ "mount", 1u << EV_MOUNT, {
		{ EV_MOUNT, MOUNT_MOUNT, 0, 1 }, { EV_MOUNT, MOUNT_UNMOUNT, 0, 0 },
		{ EV_KEY, KEY_LINKED, 0, 0 }, { EV_MOUNT, MOUNT_MOVE, 0, 0 } } },
	{ "new_mount", 1u << EV_MOUNT, { { EV_MOUNT, MOUNT_MOUNT, 0, 1 } } },
	{ "move", 1u << EV_MOUNT, {
		{ EV_MOUNT, MOUNT_MOVE, 0, 1 }, { EV_MOUNT, MOUNT_MOVE, EV_INFO_MOVE_FROM, 1 },
		{ EV_MOUNT, MOUNT_MOVE, EV_INFO_MOVE_TO, 1 } } },
	{ "move_from", 1u << EV_MOUNT, {
		{ EV_MOUNT, MOUNT_MOVE, 0, 0 }, { EV_MOUNT, MOUNT_MOVE, EV_INFO_MOVE_FROM, 1 },
		{ EV_MOUNT, MOUNT_MOVE, EV_INFO_MOVE_TO, 0 } } },
	{ "move,-move_to", 1u << EV_MOUNT, {
		{ EV_MOUNT, MOUNT_MOVE, 0, 1 }, { EV_MOUNT, MOUNT_MOVE, EV_INFO_MOVE_FROM, 1 },
		{ EV_MOUNT, MOUNT_MOVE, EV_INFO_MOVE_TO, 0 } } },
	{ "readonly", 1u << EV_MOUNT | 1u << EV_SB, {
		{ EV_MOUNT, MOUNT_READONLY, 0, 1 }, { EV_SB, SB_READONLY, 0, 1 },
		{ EV_MOUNT, MOUNT_SETATTR, 0, 0 }, { EV_MOUNT, MOUNT_WRITABLE, 0, 0 } } },
	{ "writable", 1u << EV_MOUNT | 1u << EV_SB, {
		{ EV_MOUNT, MOUNT_WRITABLE, 0, 1 }, { EV_MOUNT, MOUNT_READONLY, 0, 0 },
		{ EV_SB, SB_READONLY, 0, 0 } } },
	{ "readonly", 1u << EV_SB, {
		{ EV_MOUNT, MOUNT_READONLY, 0, 0 }, { EV_SB, SB_READONLY, 0, 1 } } },
	{ "setattr", 1u << EV_KEY, {
		{ EV_KEY, KEY_SETATTR, 0, 1 }, { EV_MOUNT, MOUNT_SETATTR, 0, 0 } } },
	{ "linked,unlinked", 1u << EV_KEY, {
		{ EV_KEY, KEY_LINKED, 0, 1 }, { EV_KEY, KEY_UNLINKED, 0, 1 },
		{ EV_KEY, KEY_UPDATED, 0, 0 } } },
	/* Names ignore case; findmnt's and inotifywait's names are aliases. */
	{ "UNMOUNT,Linked", 1u << EV_MOUNT | 1u << EV_KEY, {
		{ EV_MOUNT, MOUNT_UNMOUNT, 0, 1 }, { EV_KEY, KEY_LINKED, 0, 1 },
		{ EV_MOUNT, MOUNT_MOUNT, 0, 0 } } },
	{ "umount", 1u << EV_MOUNT, { { EV_MOUNT, MOUNT_UNMOUNT, 0, 1 }, { EV_MOUNT, MOUNT_MOUNT, 0, 0 } } },
	{ "remount", 1u << EV_MOUNT | 1u << EV_SB | 1u << EV_KEY, {
		{ EV_MOUNT, MOUNT_READONLY, 0, 1 }, { EV_MOUNT, MOUNT_WRITABLE, 0, 1 },
		{ EV_MOUNT, MOUNT_SETATTR, 0, 1 },
		{ EV_SB, SB_READONLY, 0, 0 }, { EV_KEY, KEY_SETATTR, 0, 0 }, { EV_MOUNT, MOUNT_MOUNT, 0, 0 } } },
	{ "moved_from", 1u << EV_MOUNT, {
		{ EV_MOUNT, MOUNT_MOVE, 0, 0 }, { EV_MOUNT, MOUNT_MOVE, EV_INFO_MOVE_FROM, 1 },
		{ EV_MOUNT, MOUNT_MOVE, EV_INFO_MOVE_TO, 0 } } },
	{ "MOVED_TO", 1u << EV_MOUNT, {
		{ EV_MOUNT, MOUNT_MOVE, 0, 0 }, { EV_MOUNT, MOUNT_MOVE, EV_INFO_MOVE_FROM, 0 },
		{ EV_MOUNT, MOUNT_MOVE, EV_INFO_MOVE_TO, 1 } } },
};

static void
apply(struct evset *s, const char *list, unsigned typemask)
{
	char buf[128], *tok, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int remove = tok[0] == '-';

		CHECK(evset_apply_name(s, tok + remove, typemask, remove) > 0, "%s", tok);
	}
}

int
main(void)
{
	size_t i, j;
	struct evset s;
	struct filter f;
	struct event ev;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&s, 0, sizeof(s));
		apply(&s, cases[i].include, cases[i].typemask);
		filter_compile(&f, &s);
		for (j = 0; j < 6 && (cases[i].rec[j].type || cases[i].rec[j].sub || cases[i].rec[j].want); j++) {
			ev = mk(cases[i].rec[j].type, cases[i].rec[j].sub, cases[i].rec[j].info);
			CHECK(filter_match(&f, &ev) == cases[i].rec[j].want, "case %zu (%s) record %zu", i,
			    cases[i].include, j);
		}
	}

	/* Unknown names and names of other sources. */
	memset(&s, 0, sizeof(s));
	CHECK(evset_apply_name(&s, "unmounted", 1u << EV_MOUNT, 0) == -1, "unmounted is unknown");
	CHECK(evset_apply_name(&s, "remount", 1u << EV_SB, 0) == 0, "remount is not an sb event");
	CHECK(evset_apply_name(&s, "linked", 1u << EV_MOUNT, 0) == 0, "linked is not a mount event");

	/* A whole type compiles into one entry; a partial move adds entries with an info mask. */
	memset(&s, 0, sizeof(s));
	evset_add_type(&s, EV_MOUNT);
	filter_compile(&f, &s);
	CHECK(f.n == 1 && f.e[0].info_mask == 0, "whole type: %u entries", f.n);
	CHECK(evset_has_type(&s, EV_MOUNT) && !evset_has_type(&s, EV_KEY), "has_type");
	evset_apply_name(&s, "move_to", 1u << EV_MOUNT, 1);
	filter_compile(&f, &s);
	CHECK(f.n == 3, "partial move: %u entries", f.n);
	ev = mk(EV_MOUNT, MOUNT_MOVE, EV_INFO_MOVE_TO);
	CHECK(!filter_match(&f, &ev), "move_to removed");
	ev = mk(EV_MOUNT, MOUNT_UNMOUNT, 0);
	CHECK(filter_match(&f, &ev), "unmount kept");

	/* Removing every event leaves the type empty. */
	memset(&s, 0, sizeof(s));
	evset_add_type(&s, EV_MOUNT);
	apply(&s, "-present,-mount,-unmount,-move,-readonly,-writable,-setattr,-propagation,-transient", 1u << EV_MOUNT);
	CHECK(!evset_has_type(&s, EV_MOUNT), "all removed");
	filter_compile(&f, &s);
	CHECK(f.n == 0, "empty filter: %u entries", f.n);

	/* Names printed for records. */
	ev = mk(EV_MOUNT, MOUNT_MOVE, EV_INFO_MOVE_FROM);
	CHECK_STR(event_name(&ev), "move_from");
	ev = mk(EV_MOUNT, MOUNT_MOUNT, 0);
	CHECK_STR(event_name(&ev), "mount");
	ev = mk(EV_MOUNT, MOUNT_UNMOUNT, 0);
	CHECK_STR(event_name(&ev), "unmount");
	ev = mk(EV_META, META_LOSS, 0);
	CHECK_STR(event_name(&ev), "loss");
	CHECK_STR(event_type_name(EV_SB), "sb");
	return unit_done("test_filter");
}
