#ifndef WATCHQ_CLI_WATCH_H
#define WATCHQ_CLI_WATCH_H

#include <stddef.h>

#include "config.h"

/* Turn the positional words (after "wait", if any) into watches, each source's default target where none follows it (a mounts TARGET once per -N namespace, looked up there); exits 64 on a bad word, or on none unless cfg is a state wait. */
void cli_watch_sources(struct config *cfg, char **args, size_t nargs);
/* Canonicalise the paths of cfg's wait conditions and add the watches they need: the keyring (default @s) of every key condition, once, and an internal sb watch per --readonly/--writable; exits 64 on bad input. */
void cli_watch_conditions(struct config *cfg, const char *keyring);

#endif
