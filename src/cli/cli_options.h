#ifndef WATCHQ_CLI_OPTIONS_H
#define WATCHQ_CLI_OPTIONS_H

#include <argp.h>
#include <stdbool.h>
#include <stddef.h>

#include "config.h"
#include "event.h"
#include "mntns.h"

/* The option keys that are no letter. */
enum {
	OPT_FORMAT = 0x100,
	OPT_TIMEFMT,
	OPT_INITIAL,
	OPT_FSTYPE,
	OPT_BACKEND,
	OPT_INTERVAL,
	OPT_QUEUE_SIZE,
	OPT_NO_BPF,
	OPT_KEYRING,
	OPT_RECURSIVE,
	OPT_SPACE_BELOW,
	OPT_USAGE,
	OPT_JOURNAL,
	OPT_TARGET,
	OPT_KEYCTL,
	OPT_FOLLOW,
	OPT_PATH_RE,	/* --include; + 1: --includei; + 2: --exclude; + 3: --excludei */
	OPT_COND = OPT_PATH_RE + 4,	/* the wait conditions: OPT_COND + enum cond_kind */
	OPT__END = OPT_COND + COND__N,
};

/*
 * What an option applies to: the runs it goes with, and, for an option of some sources only, their
 * types' bits. watchq SOURCE --help, wait --help and list --help show what applies there, and an
 * option given where it does not apply is a usage error: one table says both.
 */
enum {
	APPLY_MOUNTS = 1u << EV_MOUNT,
	APPLY_KEYS = 1u << EV_KEY,
	APPLY_SB = 1u << EV_SB,
	APPLY_SOURCES = APPLY_MOUNTS | APPLY_KEYS | APPLY_SB,
	APPLY_MONITOR = 1u << EV__NTYPES,
	APPLY_STATE = APPLY_MONITOR << 1,	/* wait with state conditions */
	APPLY_EVENT = APPLY_MONITOR << 2,	/* wait -e EVENT SOURCE */
	APPLY_LIST = APPLY_MONITOR << 3,
	APPLY_WAIT = APPLY_STATE | APPLY_EVENT,
	APPLY_RUNS = APPLY_MONITOR | APPLY_WAIT | APPLY_LIST,
};

/* What the command line said, beside cfg, while it is parsed and checked. */
struct cli_state {
	struct config *cfg;
	char **args;
	size_t nargs;
	const char *include[64], *exclude[64];
	size_t ninclude, nexclude;
	bool any_include;
	const char *keyring;
	bool journal;
	unsigned quiet;		/* how many -q */
	bool monitor;		/* -m given */
	/* -N as given, with room for one more so that too many is said once they are resolved */
	char *ns_args[MNTNS_MAX + 1];
	size_t nns;
	bool ns_all;		/* -N all */
	bool given[OPT__END];	/* by key: the options on the command line */
};

/* Every option, grouped as --help shows them. */
extern const struct argp_option cli_options[];

/* What option o applies to (APPLY_*). */
unsigned cli_options_applies(const struct argp_option *o);
/* The option whose long name is the n bytes at name, whole (never a prefix), or NULL. */
const struct argp_option *cli_options_long(const char *name, size_t n);
/* The option whose short name is c, or NULL. */
const struct argp_option *cli_options_short(int c);
/* "auto, fanotify, ..." (with a source kind: its backends only), from the backend table. */
const char *cli_options_backends(const struct event_source *k);
/*
 * An option given where it does not apply, as --help leaves it out there, is a usage error: say
 * so (the table's words where it has them) and exit 64.
 */
void cli_options_check(const struct config *cfg, const struct cli_state *cs);

#endif
