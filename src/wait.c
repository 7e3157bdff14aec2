#include "wait.h"

/*
 * --readonly and --writable open mounts too, though sb judges them: --backend and the readiness
 * line name the mount backend for them.
 */
const struct wait_kind wait_kinds[COND__N] = {
	[COND_MOUNT] = { "--mount", EV_MOUNT, 1u << EV_MOUNT, COND_UNMOUNT },
	[COND_UNMOUNT] = { "--unmount", EV_MOUNT, 1u << EV_MOUNT, COND_MOUNT },
	[COND_READONLY] = { "--readonly", EV_SB, 1u << EV_SB | 1u << EV_MOUNT, COND_WRITABLE },
	[COND_WRITABLE] = { "--writable", EV_SB, 1u << EV_SB | 1u << EV_MOUNT, COND_READONLY },
	[COND_KEY] = { "--key", EV_KEY, 1u << EV_KEY, COND_NO_KEY },
	[COND_NO_KEY] = { "--no-key", EV_KEY, 1u << EV_KEY, COND_KEY },
};

/*
 * Where c stands: with several -N, a mount condition holds when it holds in every namespace, and is
 * gone when one is.
 */
static enum wait_state
wait_check_one(const struct cond *c, struct source *src, size_t n)
{
	enum wait_state all = WAIT_PENDING, s;
	bool judged = false;
	size_t i;

	for (i = 0; i < n; i++) {
		if (src[i].backend->type != wait_kinds[c->kind].judge)
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
		s = wait_check_one(&cfg->conds[i], src, n);
		if (s == WAIT_GONE)
			return WAIT_GONE;
		if (s == WAIT_PENDING)
			all = WAIT_PENDING;
	}
	return all;
}
