#ifndef WATCHQ_CLI_H
#define WATCHQ_CLI_H

#include "config.h"

/*
 * Parse argv into cfg, opening the -N namespaces into ns (MNTNS_MAX of them, the caller's to
 * close); on bad input print one line and exit 64 (or 69 for an unavailable source).
 */
void cli_parse(struct config *cfg, struct mntns *ns, int argc, char **argv);
/* Release what cli_parse() allocated. */
void cli_free(struct config *cfg);

#endif
