#ifndef WATCHQ_WAIT_H
#define WATCHQ_WAIT_H

#include <stddef.h>

#include "config.h"
#include "source.h"

/* One kind of wait condition; wait_kinds[] is indexed by enum cond_kind. */
struct wait_kind {
	const char *option;	/* the option that states it: "--mount" */
	enum ev_type judge;	/* the source whose check says where it stands */
	unsigned sources;	/* the sources it opens: 1 << type */
	enum cond_kind opposite;	/* the kind that cannot hold of the same target at once */
};

/* Each kind of wait condition: the one place that says which source judges it and which open. */
extern const struct wait_kind wait_kinds[COND__N];

/*
 * Whether every state condition of cfg holds now, each judged by the open sources of its kind
 * (src[0..n)): in each -N namespace.
 */
enum wait_state wait_check(const struct config *cfg, struct source *src, size_t n);

#endif
