#include <time.h>

#include "rescan.h"

long long
rescan_clock(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

bool
rescan_small(const struct rescan *r)
{
	return r->scan_cost <= RESCAN_PROMPT_MAX;
}

/* Whether the re-scan owed is paid once quiet. */
static bool
rescan_at_quiet(const struct rescan *r)
{
	return !r->lazy || !r->spread;
}

enum rescan_act
rescan_on_wake(const struct rescan *r, bool signal, bool explained, bool sure)
{
	if (!signal && !r->owed)
		return RESCAN_NONE;
	if ((rescan_small(r) && signal && !explained && !sure) ||
	    r->since_scan >= RESCAN_RATIO * r->scan_cost)
		return RESCAN_NOW;
	return sure ? RESCAN_OWE_LAZY : RESCAN_OWE;
}

long long
rescan_owed_left(const struct rescan *r, long long now)
{
	long long quiet = RESCAN_IDLE_NS - (now - r->last_event);
	long long cap = RESCAN_OWED_MAX_NS - (now - r->owed_since);
	long long gap;

	if (!rescan_small(r)) {
		gap = RESCAN_OWED_MAX_NS - (now - r->last_scan);
		quiet = quiet > gap ? quiet : gap;
	}
	return quiet < cap || r->lazy ? quiet : cap;
}

bool
rescan_owe(struct rescan *r, bool lazy, long long now, long long *arm)
{
	/* Owed already, as strictly or more. */
	if (r->owed && (lazy || !r->lazy))
		return false;
	if (!r->owed || !lazy)
		r->owed_since = now;
	r->owed = true;
	r->lazy = lazy;
	if (!rescan_at_quiet(r))
		return false;
	*arm = rescan_owed_left(r, now);
	return true;
}

bool
rescan_on_timer(const struct rescan *r, long long now, long long *arm)
{
	*arm = -1;
	if (!r->owed || !rescan_at_quiet(r))
		return false;
	if ((*arm = rescan_owed_left(r, now)) <= 0) {
		*arm = -1;
		return true;
	}
	return false;
}

bool
rescan_hold(struct rescan *r, long long now)
{
	if (r->held_since == 0)
		r->held_since = now;
	return now - r->held_since < RESCAN_OWED_MAX_NS;
}

bool
rescan_paid(struct rescan *r)
{
	bool owed = r->owed;

	r->held_since = 0;
	r->owed = false;
	r->lazy = false;
	return owed;
}

void
rescan_began(struct rescan *r, long long now)
{
	r->last_scan = now;
}

void
rescan_done(struct rescan *r, size_t cost)
{
	r->since_scan = 0;
	r->scan_cost = cost;
}

bool
rescan_polls_signal(const struct rescan *r, bool sure)
{
	return !((r->owed && !r->lazy && !rescan_small(r)) || sure);
}
