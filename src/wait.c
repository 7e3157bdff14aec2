#include "wait.h"

/* The source that judges each kind of condition. */
static const enum ev_type judge[] = {
	[COND_MOUNT] = EV_MOUNT,
	[COND_UNMOUNT] = EV_MOUNT,
	[COND_READONLY] = EV_SB,
	[COND_WRITABLE] = EV_SB,
	[COND_KEY] = EV_KEY,
	[COND_NO_KEY] = EV_KEY,
};

/* Where c stands: with several -N, a mount condition holds when it holds in every namespace, and is gone when one is. */
static enum wait_state
check_one(const struct cond *c, struct source *src, size_t n)
{
	enum wait_state all = WAIT_PENDING, s;
	bool judged = false;
	size_t i;

	for (i = 0; i < n; i++) {
		if (src[i].be->type != judge[c->kind])
			continue;
		s = (enum wait_state)source_check(&src[i], c);
		if (s == WAIT_GONE)
			return WAIT_GONE;
		all = !judged || all == WAIT_MET ? s : all;
		judged = true;
	}
	return all;
}

enum wait_state
wait_check(const struct config *cfg, struct source *src, size_t n)
{
	enum wait_state all = WAIT_MET, s;
	size_t i;

	for (i = 0; i < cfg->nconds; i++) {
		s = check_one(&cfg->conds[i], src, n);
		if (s == WAIT_GONE)
			return WAIT_GONE;
		if (s == WAIT_PENDING)
			all = WAIT_PENDING;
	}
	return all;
}
