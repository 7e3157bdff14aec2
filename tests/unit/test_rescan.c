/* The re-scan rule of the fanotify mount source (rescan.h), as tables. */
#include "unit.h"
#include "rescan.h"

#define MS	1000000LL
#define BIG	(RESCAN_PROMPT_MAX + 1)

static const char *const acts[] = { "none", "now", "owe", "owe lazy" };

int
main(void)
{
	static const struct {
		const char *what;
		struct rescan r;
		bool signal, explained, sure;
		enum rescan_act want;
	} wake[] = {
		{ "nothing: no signal, none owed", { .scan_cost = 3, .since_scan = 1 },
		  false, false, false, RESCAN_NONE },
		{ "a signal alone, small: at once", { .scan_cost = 3 }, true, false, false, RESCAN_NOW },
		{ "a signal with records: owed", { .scan_cost = 3 }, true, true, false, RESCAN_OWE },
		{ "a signal alone, large: owed", { .scan_cost = BIG }, true, false, false, RESCAN_OWE },
		{ "a signal alone, capture sure: a safety net", { .scan_cost = 3 },
		  true, false, true, RESCAN_OWE_LAZY },
		{ "records, capture sure: a safety net", { .scan_cost = BIG, .since_scan = 5 },
		  true, true, true, RESCAN_OWE_LAZY },
		{ "owed, RATIO events per mount since: now", { .owed = true, .scan_cost = 10,
		  .since_scan = RESCAN_RATIO * 10 }, false, true, false, RESCAN_NOW },
		{ "owed, one event short of RATIO: still owed", { .owed = true, .scan_cost = 10,
		  .since_scan = RESCAN_RATIO * 10 - 1 }, false, true, false, RESCAN_OWE },
		{ "large, RATIO events per mount since: now, sure or not", { .scan_cost = BIG,
		  .since_scan = RESCAN_RATIO * BIG }, true, true, true, RESCAN_NOW },
		{ "no watched mount: a re-scan costs nothing", { .scan_cost = 0 },
		  true, true, false, RESCAN_NOW },
		{ "the limit of small is small", { .scan_cost = RESCAN_PROMPT_MAX },
		  true, false, false, RESCAN_NOW },
	};
	static const struct {
		const char *what;
		struct rescan r;
		long long now;
		bool lazy;
		bool armed;
		long long arm;		/* when armed */
		bool owed, lazy_after;
	} owe[] = {
		{ "strict, small, quiet since now: IDLE", { .last_event = 10 * MS, .scan_cost = 3 },
		  10 * MS, false, true, RESCAN_IDLE_NS, true, false },
		{ "lazy: IDLE too", { .last_event = 10 * MS, .scan_cost = 3 },
		  10 * MS, true, true, RESCAN_IDLE_NS, true, true },
		{ "lazy, -N all's namespaces: no timer (RATIO pays it)", { .spread = true,
		  .scan_cost = 3 }, 10 * MS, true, false, 0, true, true },
		{ "strict, -N all's namespaces: the timer", { .spread = true, .last_event = 10 * MS,
		  .scan_cost = 3 }, 10 * MS, false, true, RESCAN_IDLE_NS, true, false },
		{ "large: a second after the last re-scan began", { .last_event = 300 * MS,
		  .last_scan = 100 * MS, .scan_cost = BIG }, 300 * MS, false, true, 800 * MS,
		  true, false },
		{ "owed strictly already: nothing new", { .owed = true, .owed_since = 5 * MS,
		  .scan_cost = 3 }, 10 * MS, false, false, 0, true, false },
		{ "owed strictly, asked lazily: stays strict", { .owed = true, .scan_cost = 3 },
		  10 * MS, true, false, 0, true, false },
		{ "owed lazily, asked strictly: strict from now", { .owed = true, .lazy = true,
		  .last_event = 10 * MS, .scan_cost = 3 }, 10 * MS, false, true, RESCAN_IDLE_NS,
		  true, false },
	};
	static const struct {
		const char *what;
		struct rescan r;
		long long now;
		bool rescan;
		long long arm;
	} timer[] = {
		{ "none owed: nothing", { .scan_cost = 3 }, 10 * MS, false, -1 },
		{ "quiet for IDLE: now", { .owed = true, .owed_since = 0, .last_event = 0,
		  .scan_cost = 3 }, RESCAN_IDLE_NS, true, -1 },
		{ "not quiet yet: the rest of IDLE", { .owed = true, .last_event = 50 * MS,
		  .scan_cost = 3 }, 100 * MS, false, 50 * MS },
		{ "never quiet, owed for OWED_MAX: now", { .owed = true, .owed_since = 0,
		  .last_event = RESCAN_OWED_MAX_NS, .scan_cost = 3 }, RESCAN_OWED_MAX_NS, true, -1 },
		{ "never quiet, owed almost OWED_MAX: the rest", { .owed = true, .owed_since = 0,
		  .last_event = 990 * MS, .scan_cost = 3 }, 990 * MS, false, 10 * MS },
		{ "lazy, never quiet: a safety net waits for quiet", { .owed = true, .lazy = true,
		  .owed_since = 0, .last_event = 2000 * MS, .scan_cost = 3 }, 2000 * MS, false,
		  RESCAN_IDLE_NS },
		{ "lazy, -N all's: RATIO pays it", { .owed = true, .lazy = true, .spread = true,
		  .scan_cost = 3 }, 5000 * MS, false, -1 },
		{ "large, quiet, re-scanned 0.5 s ago: at 1 s", { .owed = true, .owed_since = 600 * MS,
		  .last_event = 0, .last_scan = 500 * MS, .scan_cost = BIG }, 1000 * MS, false,
		  500 * MS },
	};
	struct rescan r;
	enum rescan_act a;
	long long arm;
	bool armed, now;
	size_t i;

	for (i = 0; i < sizeof(wake) / sizeof(wake[0]); i++) {
		a = rescan_on_wake(&wake[i].r, wake[i].signal, wake[i].explained, wake[i].sure);
		CHECK(a == wake[i].want, "%s: %s, want %s", wake[i].what, acts[a], acts[wake[i].want]);
	}
	for (i = 0; i < sizeof(owe) / sizeof(owe[0]); i++) {
		r = owe[i].r;
		arm = -7;
		armed = rescan_owe(&r, owe[i].lazy, owe[i].now, &arm);
		CHECK(armed == owe[i].armed, "%s: armed %d", owe[i].what, armed);
		CHECK(!armed || arm == owe[i].arm, "%s: arm %lld, want %lld", owe[i].what, arm,
		    owe[i].arm);
		CHECK(r.owed == owe[i].owed && r.lazy == owe[i].lazy_after, "%s: owed %d lazy %d",
		    owe[i].what, r.owed, r.lazy);
	}
	for (i = 0; i < sizeof(timer) / sizeof(timer[0]); i++) {
		now = rescan_on_timer(&timer[i].r, timer[i].now, &arm);
		CHECK(now == timer[i].rescan && arm == timer[i].arm, "%s: now %d arm %lld",
		    timer[i].what, now, arm);
	}

	/* A flip call under way holds a re-scan back for a second from the first hold, no more. */
	r = (struct rescan){ .owed = true, .scan_cost = 3 };
	CHECK(rescan_hold(&r, 5 * MS), "the first hold");
	CHECK(rescan_hold(&r, 5 * MS + RESCAN_OWED_MAX_NS - 1), "held within a second");
	CHECK(!rescan_hold(&r, 5 * MS + RESCAN_OWED_MAX_NS), "not past a second");
	CHECK(rescan_paid(&r) && !r.owed && !r.lazy && r.held_since == 0, "paid: all cleared");
	CHECK(!rescan_paid(&r), "paid again: none was owed");
	CHECK(rescan_hold(&r, 10000 * MS), "a new hold after a re-scan");

	/* A re-scan done: the events since and its cost. */
	r = (struct rescan){ .since_scan = 9 };
	rescan_began(&r, 42);
	rescan_done(&r, 12);
	CHECK(r.last_scan == 42 && r.since_scan == 0 && r.scan_cost == 12, "began and done");

	/* The signal is polled unless it can say nothing new. */
	CHECK(rescan_polls_signal(&(struct rescan){ .scan_cost = BIG }, false), "large, none owed");
	CHECK(!rescan_polls_signal(&(struct rescan){ .owed = true, .scan_cost = BIG }, false),
	    "large, owed: each change would wake us for nothing");
	CHECK(rescan_polls_signal(&(struct rescan){ .owed = true, .lazy = true, .scan_cost = BIG },
	    false), "large, a safety net owed");
	CHECK(rescan_polls_signal(&(struct rescan){ .owed = true, .scan_cost = 3 }, false),
	    "small, owed");
	CHECK(!rescan_polls_signal(&(struct rescan){ .scan_cost = 3 }, true),
	    "the capture sure: records and calls stand for it");
	return unit_done("test_rescan");
}
