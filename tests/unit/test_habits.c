/* Which options and events of findmnt and inotifywait get a pointer to the watchq way. */
#include <stdlib.h>

#include "habits.h"
#include "unit.h"

static const struct {
	int c;
	const char *name;	/* NULL: the letter alone */
	const char *is;		/* NULL: not a habit */
} cases[] = {
	{ 'J', NULL, "findmnt's --json" },
	{ 'l', "list", "findmnt's --list" },
	{ 'r', "raw", "findmnt's --raw or inotifywait's --recursive" },
	{ 'D', "df", "findmnt's --df" },
	{ 'c', "csv", "inotifywait's --csv" },
	{ 'd', "daemon", "inotifywait's --daemon" },
	/* watchq's own: -j, -n (--count), -T (--timestamps), -t (--timeout). */
	{ 'j', NULL, NULL },
	{ 'n', NULL, NULL },
	{ 'T', NULL, NULL },
	{ 't', NULL, NULL },
};

int
main(void)
{
	const struct habit *h;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		h = habits_short(cases[i].c);
		if (cases[i].is == NULL) {
			CHECK(h == NULL, "-%c is watchq's own", cases[i].c);
			continue;
		}
		CHECK(h != NULL && strcmp(h->is, cases[i].is) == 0, "-%c", cases[i].c);
		if (cases[i].name)
			CHECK(habits_long(cases[i].name, strlen(cases[i].name)) != NULL, "--%s",
			    cases[i].name);
	}
	/* A long name is whole: n bytes, no more, no less. */
	CHECK(habits_long("csv=x", 3) != NULL, "--csv=x");
	CHECK(habits_long("cs", 2) == NULL, "--cs");
	CHECK(habits_long("csvs", 4) == NULL, "--csvs");
	CHECK(habits_long("tree", 4) != NULL && strcmp(habits_long("tree", 4)->is, "findmnt's") == 0,
	    "--tree");
	/* inotifywait's file events, any case; watchq's own names are none. */
	CHECK(habits_event("create") != NULL, "create");
	CHECK(habits_event("MODIFY") != NULL, "MODIFY");
	CHECK(habits_event("close_write") != NULL, "close_write");
	CHECK(habits_event("unmount") == NULL, "unmount is watchq's");
	CHECK(habits_event("moved_to") == NULL, "moved_to is watchq's alias");
	return unit_done("test_habits");
}
