/* The read-only state that superblock options describe. */
#include "sb_info.h"
#include "unit.h"

static const struct {
	const char *opts;
	enum sb_ro want;
} cases[] = {
	{ "rw", SB_RO_RW },
	{ "ro", SB_RO_RO },
	{ "rw,errors=remount-ro", SB_RO_RW },
	{ "rw,errors=remount-ro,emergency_ro", SB_RO_EMERGENCY },
	{ "ro,emergency_ro", SB_RO_EMERGENCY },
	{ "rw,relatime,errors=continue", SB_RO_RW },
	{ "rw,noemergency_ro", SB_RO_RW },
	{ "rw,emergency_ro_x", SB_RO_RW },
	{ "", SB_RO_RW },
};

int
main(void)
{
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CHECK(sb_info_ro_of(cases[i].opts) == cases[i].want, "\"%s\"", cases[i].opts);
	return unit_done("test_sb_info");
}
