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

/* --include/--exclude: "+re" includes, "-re" excludes, "i" after the sign ignores case. */
struct path_case {
	const char *res[3];
	enum ev_type type;
	unsigned sub;
	const char *path, *old;
	int want;
};

static const struct path_case path_cases[] = {
	{ { "-^/run/" }, EV_MOUNT, MOUNT_MOUNT, "/run/user", NULL, 0 },
	{ { "-^/run/" }, EV_MOUNT, MOUNT_MOUNT, "/srv/run/x", NULL, 1 },
	{ { "+^/mnt" }, EV_MOUNT, MOUNT_UNMOUNT, "/media/x", NULL, 0 },
	{ { "+i^/MNT" }, EV_MOUNT, MOUNT_PRESENT, "/mnt/x", NULL, 1 },
	{ { "-iUSB" }, EV_MOUNT, MOUNT_MOUNT, "/media/usb", NULL, 0 },
	/* Repeated: any include keeps, any exclude drops, and an exclude wins. */
	{ { "+^/a", "+^/b" }, EV_MOUNT, MOUNT_MOUNT, "/b/x", NULL, 1 },
	{ { "+^/a", "-x$" }, EV_MOUNT, MOUNT_MOUNT, "/a/x", NULL, 0 },
	{ { "-^/a", "-^/b" }, EV_MOUNT, MOUNT_MOUNT, "/b", NULL, 0 },
	/* A move passes if either end would. */
	{ { "-^/run/" }, EV_MOUNT, MOUNT_MOVE, "/mnt/x", "/run/x", 1 },
	{ { "-^/run/" }, EV_MOUNT, MOUNT_MOVE, "/run/y", "/run/x", 0 },
	{ { "+^/mnt/" }, EV_MOUNT, MOUNT_MOVE, "/run/x", "/mnt/x", 1 },
	{ { "+^/mnt/" }, EV_MOUNT, MOUNT_MOVE, "/run/x", "/srv/x", 0 },
	/* Only a move's old path counts. */
	{ { "+^/mnt/" }, EV_MOUNT, MOUNT_SETATTR, "/run/x", "/mnt/x", 0 },
	{ { "+^/srv" }, EV_SB, SB_ERROR, "/srv", NULL, 1 },
	{ { "-^/srv" }, EV_SB, SB_PRESENT, "/srv", NULL, 0 },
	/* No path: keys, transient mounts, loss and removal pass. */
	{ { "+^/nothing" }, EV_KEY, KEY_LINKED, NULL, NULL, 1 },
	{ { "+^/nothing" }, EV_MOUNT, MOUNT_TRANSIENT, NULL, NULL, 1 },
	{ { "+^/nothing" }, EV_META, META_LOSS, NULL, NULL, 1 },
	{ { NULL }, EV_MOUNT, MOUNT_MOUNT, "/x", NULL, 1 },
};

/* findmnt -O's cases (libmount's mnt_match_options() documentation) on a mount's options. */
static const struct { const char *list, *options; int want; } option_cases[] = {
	{ "ro", "ro,nosuid,size=1024k", 1 },
	{ "noro", "ro,nosuid", 0 },
	{ "rw,noexec", "rw,nosuid", 1 },
	{ "nosuid", "rw,relatime", 1 },
	{ "nosuid", "rw,nosuid", 1 },
	{ "+nosuid", "rw,relatime", 0 },
	{ "+nosuid", "rw,nosuid", 1 },
	{ "size=1024k", "rw,size=1024k", 1 },
	{ "size=2048k", "rw,size=1024k", 0 },
	{ "nosize", "rw,size=1024k", 0 },
};

static void
check_paths(void)
{
	struct mounttab_entry at = { 0 };
	struct filter_paths p;
	struct event ev;
	char err[128];
	size_t i, j;

	for (i = 0; i < sizeof(path_cases) / sizeof(path_cases[0]); i++) {
		const struct path_case *c = &path_cases[i];

		memset(&p, 0, sizeof(p));
		for (j = 0; j < 3 && c->res[j]; j++) {
			bool icase = c->res[j][1] == 'i', exclude = c->res[j][0] == '-';

			CHECK(filter_paths_add(&p, c->res[j] + 1 + icase, icase, exclude, err,
			    sizeof(err)) == 0, "case %zu: %s", i, err);
		}
		ev = mk(c->type, c->sub, 0);
		if (c->type == EV_SB)
			ev.u.sb.path = c->path;
		else if (c->type == EV_MOUNT) {
			at.target = (char *)c->path;
			ev.u.mount.at = c->path ? &at : NULL;
			ev.u.mount.old_path = c->old;
		}
		CHECK(filter_paths_match(&p, &ev) == c->want, "path case %zu (%s)", i,
		    c->path ? c->path : "no path");
		filter_paths_free(&p);
	}
	CHECK(filter_paths_add(&p, "(", false, true, err, sizeof(err)) == -1 && err[0],
	    "a bad regex says why");
	filter_paths_free(&p);
}

static void
check_options(void)
{
	size_t i;

	for (i = 0; i < sizeof(option_cases) / sizeof(option_cases[0]); i++)
		CHECK(filter_options_match(option_cases[i].list, option_cases[i].options) ==
		    option_cases[i].want, "-O %s on %s", option_cases[i].list,
		    option_cases[i].options);
	CHECK(filter_options_check("ro,+nosuid,size=1m") == 0, "a good list");
	CHECK(filter_options_check(",,") == -1, "an empty list");
	CHECK(filter_options_check("ro,no") == -2, "no alone");
	CHECK(filter_options_check("context=\"a,b") == -3, "an unclosed quote");
	CHECK(filter_options_check("context=\"a,b\",ro") == 0, "a quoted comma");
	CHECK_STR(filter_options_trap("ro,noatime") ? filter_options_trap("ro,noatime") : "",
	    "noatime");
	CHECK(filter_options_trap("ro,+nosuid,noro") == NULL, "+nosuid and noro are no trap");
}

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
	check_paths();
	check_options();
	return unit_done("test_filter");
}
