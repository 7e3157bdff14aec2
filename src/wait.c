#include <errno.h>
#include <sys/statvfs.h>

#include "wait.h"

static enum wait_state
check_one(const struct cond *c, const struct mounttab *t)
{
	struct statvfs sv;
	bool ro;

	switch (c->kind) {
	case COND_MOUNT:
		return mounttab_has_target(t, c->path) ? WAIT_MET : WAIT_PENDING;
	case COND_UNMOUNT:
		return mounttab_has_target(t, c->path) ? WAIT_PENDING : WAIT_MET;
	case COND_READONLY:
	case COND_WRITABLE:
		/* ST_RDONLY covers both a read-only mount and a read-only superblock. */
		if (statvfs(c->path, &sv) < 0)
			return errno == ENOENT || errno == ENOTDIR ? WAIT_GONE : WAIT_PENDING;
		ro = (sv.f_flag & ST_RDONLY) != 0;
		return ro == (c->kind == COND_READONLY) ? WAIT_MET : WAIT_PENDING;
	}
	return WAIT_PENDING;
}

enum wait_state
wait_check(const struct config *cfg, const struct mounttab *t)
{
	enum wait_state all = WAIT_MET, s;
	size_t i;

	for (i = 0; i < cfg->nconds; i++) {
		s = check_one(&cfg->conds[i], t);
		if (s == WAIT_GONE)
			return WAIT_GONE;
		if (s == WAIT_PENDING)
			all = WAIT_PENDING;
	}
	return all;
}
