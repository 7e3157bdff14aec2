/* Who made a change: a record without the capture names its pid alone. */
#include "unit.h"
#include "who.h"

int
main(void)
{
	struct who_proc none = { NULL, 0, NULL, -1, NULL };
	struct who w;

	/* No capture: the pid alone; a hidden pid (0) or a negative one: nothing. */
	who_init(&w, NULL, 4242, -1);
	CHECK(who_get(&w)->pid == 4242 && who_get(&w)->comm == NULL && !who_get(&w)->has_uid, "pid only");
	who_done(&w);
	CHECK(who_get(&w)->pid == 0, "nothing after done");
	who_init(&w, &none, 4242, -1);
	who_at(&w, WHO_ATTACH, "/mnt", false);
	CHECK(who_get(&w)->pid == 4242 && who_get(&w)->comm == NULL, "no capture: pid only");
	who_done(&w);
	who_init(&w, NULL, 0, -2);
	CHECK(who_get(&w)->pid == 0 && who_get(&w)->comm == NULL, "hidden");
	who_done(&w);
	who_init(&w, NULL, -5, -1);
	CHECK(who_get(&w)->pid == 0, "negative pid");
	who_done(&w);
	/* A process known already: as it was at its call. */
	who_known(&w, 7, 1000, "remounter");
	CHECK(who_get(&w)->pid == 7 && who_get(&w)->has_uid && who_get(&w)->uid == 1000 &&
	    strcmp(who_get(&w)->comm, "remounter") == 0, "known");
	who_done(&w);
	return unit_done("test_who");
}
