#ifndef WATCHQ_CLI_WATCH_H
#define WATCHQ_CLI_WATCH_H

#include <stddef.h>

#include "config.h"

/* Open the n arguments of -N into ns, in order, and make them cfg->ns; exits 64 for one that names no mount namespace (or one named before), 69 for one we may not watch or that no process is in. */
void cli_watch_namespaces(struct config *cfg, struct mntns *ns, char *const *args, size_t n);
/* Turn the positional words (after "wait", if any) into watches, each source's default target where none follows it (a mounts TARGET once per -N namespace, looked up there); exits 64 on a bad word, or on none unless cfg is a state wait. */
void cli_watch_sources(struct config *cfg, char **args, size_t nargs);
/* Canonicalise the paths of cfg's wait conditions and add the watches they need: the keyring (default @s) of every key condition, once, and an internal sb watch per --readonly/--writable; exits 64 on bad input. */
void cli_watch_conditions(struct config *cfg, const char *keyring);

#endif
