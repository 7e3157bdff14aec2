#ifndef WATCHQ_CLI_H
#define WATCHQ_CLI_H

#include "config.h"

/* Parse argv into cfg; on bad input print one line and exit 64 (or 69 for an unavailable source). */
void cli_parse(struct config *cfg, int argc, char **argv);
/* Release what cli_parse() allocated. */
void cli_free(struct config *cfg);

#endif
