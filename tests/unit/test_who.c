/* Who made a change: the parsers of /proc's answers, and a record without a pidfd. */
#include "unit.h"
#include "who.h"

int
main(void)
{
	static const struct {
		const char *in;
		long pid;
	} fdinfo[] = {
		{ "pos:\t0\nflags:\t02000002\nmnt_id:\t4\nino:\t545005\nPid:\t25913\nNSpid:\t25913\n", 25913 },
		{ "Pid:\t7", 7 },
		{ "pos:\t0\nPid:\t-1\nNSpid:\t-1\n", 0 },	/* reaped */
		{ "pos:\t0\nPid:\t0\n", 0 },			/* not in /proc's pid namespace */
		{ "pos:\t0\nNSpid:\t12\n", 0 },
		{ "xPid:\t12\n", 0 },
		{ "Pid:\t12x\n", 0 },
		{ "Pid:\t\n", 0 },
		{ "Pid:\t99999999999\n", 0 },
		{ "", 0 },
	};
	static const struct {
		const char *in;
		size_t n;
		const char *out;	/* NULL: not a name */
	} comm[] = {
		{ "mount\n", 6, "mount" },
		{ "a\nb\n", 4, "a\nb" },
		{ "\n", 1, "" },
		{ "mount", 5, NULL },
		{ "", 0, NULL },
		{ "a\0b\n", 4, NULL },
	};
	static const struct {
		const char *in;
		bool own;	/* for pid 25913 */
	} own[] = {
		{ "pos:\t0\nPid:\t25913\nNSpid:\t25913\n", true },
		{ "Pid:\t25913\n", true },			/* no pid namespaces */
		{ "Pid:\t25913\nNSpid:\t25913\t1\n", false },	/* /proc's namespace is above ours */
		{ "Pid:\t25913\nNSpid:\t25913\t25913\n", false },	/* the same number, all the same */
		{ "Pid:\t0\nNSpid:\t0\n", false },		/* not in /proc's namespace */
		{ "Pid:\t12\nNSpid:\t12\n", false },
		{ "Pid:\t25913\nNSpid:\t12\n", false },
		{ "Pid:\t25913\nNSpid:\t25913", true },
		{ "Pid:\t25913\nNSpid:\t\n", false },
	};
	struct who w;
	char buf[16];
	size_t i;

	for (i = 0; i < sizeof(fdinfo) / sizeof(fdinfo[0]); i++)
		CHECK(who_fdinfo_pid(fdinfo[i].in) == fdinfo[i].pid, "fdinfo %zu: %ld", i, who_fdinfo_pid(fdinfo[i].in));
	for (i = 0; i < sizeof(comm) / sizeof(comm[0]); i++) {
		memcpy(buf, comm[i].in, comm[i].n);
		if (comm[i].out)
			CHECK(who_comm(buf, comm[i].n) && memcmp(buf, comm[i].out, strlen(comm[i].out) + 1) == 0,
			    "comm %zu", i);
		else
			CHECK(!who_comm(buf, comm[i].n), "comm %zu is not a name", i);
	}

	for (i = 0; i < sizeof(own) / sizeof(own[0]); i++)
		CHECK(who_fdinfo_own(own[i].in, 25913) == own[i].own, "own %zu", i);

	/* No pidfd: the pid alone; a hidden pid (0) or a negative one: nothing. */
	who_init(&w, NULL, 4242, -1);
	CHECK(who_get(&w)->pid == 4242 && who_get(&w)->comm == NULL && !who_get(&w)->has_uid, "pid only");
	who_done(&w);
	CHECK(who_get(&w)->pid == 0, "nothing after done");
	who_init(&w, NULL, 0, -2);
	CHECK(who_get(&w)->pid == 0 && who_get(&w)->comm == NULL, "hidden");
	who_done(&w);
	who_init(&w, NULL, -5, -1);
	CHECK(who_get(&w)->pid == 0, "negative pid");
	who_done(&w);
	return unit_done("test_who");
}
