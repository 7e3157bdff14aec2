#ifndef WATCHQ_WAIT_H
#define WATCHQ_WAIT_H

#include "config.h"
#include "mounttab.h"

enum wait_state {
	WAIT_PENDING,
	WAIT_MET,
	WAIT_GONE,	/* a path a condition needs no longer exists */
};

/* Whether every state condition of cfg holds now, judged from the mount table, statvfs(3) and the keyrings. */
enum wait_state wait_check(const struct config *cfg, const struct mounttab *t);

#endif
