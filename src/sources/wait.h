#ifndef WATCHQ_WAIT_H
#define WATCHQ_WAIT_H

#include <stdbool.h>
#include <stddef.h>

#include "config.h"
#include "source.h"

/* What a condition's argument names. */
enum wait_arg {
	WAIT_ARG_PATH,		/* a path: --mount PATH */
	WAIT_ARG_SPEC,		/* a source as --source takes it, looked for in the mounts TARGETs */
	WAIT_ARG_KEY,		/* TYPE:DESC in the --keyring */
};

/* One kind of wait condition; wait_kinds[] is indexed by enum cond_kind. */
struct wait_kind {
	const char *option;	/* the option that states it: "--mount" */
	enum ev_type judge;	/* the source whose check says where it stands */
	unsigned sources;	/* the sources it opens: 1 << type */
	enum cond_kind opposite;	/* the kind that cannot hold of the same target at once */
	enum wait_arg arg;
	bool prints;		/* once met, the wait prints what met it (source_show) */
};

/* Each kind of wait condition: the one place that says which source judges it and which open. */
extern const struct wait_kind wait_kinds[COND__N];

/*
 * Whether every state condition of cfg holds now, each judged by the open sources of its kind
 * (src[0..n)): in each -N namespace.
 */
enum wait_state wait_check(const struct config *cfg, struct source *src, size_t n);
/*
 * Print what met each condition of cfg that prints it, as each source of its kind sees it now;
 * false if one of them found nothing.
 */
bool wait_show(const struct config *cfg, struct source *src, size_t n);
/* Whether a condition of cfg prints what met it. */
bool wait_prints(const struct config *cfg);
/* Whether a condition of cfg looks for a source in the mounts TARGETs. */
bool wait_by_source(const struct config *cfg);
/* "--mount, --unmount, ... --no-key": every condition's option, from the table. */
const char *wait_options(void);

#endif
