#include <stdio.h>

#include "wait.h"

/*
 * --readonly and --writable open mounts too, though sb judges them: --backend and the readiness
 * line name the mount backend for them.
 */
const struct wait_kind wait_kinds[COND__N] = {
	[COND_MOUNT] = { "--mount", EV_MOUNT, 1u << EV_MOUNT, COND_UNMOUNT, WAIT_ARG_PATH, false },
	[COND_UNMOUNT] = { "--unmount", EV_MOUNT, 1u << EV_MOUNT, COND_MOUNT, WAIT_ARG_PATH,
	    false },
	[COND_MOUNTED] = { "--mounted", EV_MOUNT, 1u << EV_MOUNT, COND_UNMOUNTED, WAIT_ARG_SPEC,
	    true },
	[COND_UNMOUNTED] = { "--unmounted", EV_MOUNT, 1u << EV_MOUNT, COND_MOUNTED,
	    WAIT_ARG_SPEC, false },
	[COND_READONLY] = { "--readonly", EV_SB, 1u << EV_SB | 1u << EV_MOUNT, COND_WRITABLE,
	    WAIT_ARG_PATH, false },
	[COND_WRITABLE] = { "--writable", EV_SB, 1u << EV_SB | 1u << EV_MOUNT, COND_READONLY,
	    WAIT_ARG_PATH, false },
	[COND_KEY] = { "--key", EV_KEY, 1u << EV_KEY, COND_NO_KEY, WAIT_ARG_KEY, false },
	[COND_NO_KEY] = { "--no-key", EV_KEY, 1u << EV_KEY, COND_KEY, WAIT_ARG_KEY, false },
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

bool
wait_show(const struct config *cfg, struct source *src, size_t n)
{
	const struct cond *c;
	bool all = true;
	size_t i, k;

	for (i = 0; i < cfg->nconds; i++) {
		c = &cfg->conds[i];
		if (!wait_kinds[c->kind].prints)
			continue;
		for (k = 0; k < n; k++)
			if (src[k].backend->type == wait_kinds[c->kind].judge)
				all &= source_show(&src[k], c);
	}
	return all;
}

/* Whether some condition of cfg is of a kind for which has(kind) holds. */
static bool
wait_any(const struct config *cfg, bool (*has)(const struct wait_kind *kind))
{
	size_t i;

	for (i = 0; i < cfg->nconds; i++)
		if (has(&wait_kinds[cfg->conds[i].kind]))
			return true;
	return false;
}

static bool
kind_prints(const struct wait_kind *kind)
{
	return kind->prints;
}

static bool
kind_by_source(const struct wait_kind *kind)
{
	return kind->arg == WAIT_ARG_SPEC;
}

bool
wait_prints(const struct config *cfg)
{
	return wait_any(cfg, kind_prints);
}

bool
wait_by_source(const struct config *cfg)
{
	return wait_any(cfg, kind_by_source);
}

const char *
wait_options(void)
{
	static char list[256];
	size_t i, n = 0;

	for (i = 0; i < COND__N && n < sizeof(list); i++)
		n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s", i ? ", " : "",
		    wait_kinds[i].option);
	return list;
}
