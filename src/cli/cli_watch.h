#ifndef WATCHQ_CLI_WATCH_H
#define WATCHQ_CLI_WATCH_H

#include <stddef.h>

#include "config.h"

/*
 * Turn the words after the options (and "wait") into watches, a source's default target where none
 * follows it (for --mounted and --unmounted, /); exits 64 on a bad word, or on no word outside a
 * state wait.
 */
void cli_watch_sources(struct config *cfg, char **args, size_t nargs);
/*
 * Canonicalise the paths of cfg's wait conditions and add the watches they need: the keyring of
 * the key conditions, once, and an sb watch per --readonly/--writable; exits 64 on bad input.
 */
void cli_watch_conditions(struct config *cfg, const char *keyring);

#endif
