/* -o's guard: which words read as findmnt -o's column list. */
#include <stdbool.h>

#include "findmnt.h"
#include "unit.h"

static const struct {
	const char *arg;
	bool columns;
} lists[] = {
	{ "TARGET,SOURCE", true },
	{ "target", true },
	{ "+PROPAGATION", true },
	{ "SIZE,USE%,MAJ:MIN,INO.USE%", true },
	{ "TARGET,", false },
	{ "TARGET,NOSUCH", false },
	{ "./TARGET", false },
	{ "", false },
	{ "out.log", false },
};

int
main(void)
{
	size_t i;

	for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
		CHECK(findmnt_columns(lists[i].arg) == lists[i].columns, "%s", lists[i].arg);
	return unit_done("test_findmnt");
}
