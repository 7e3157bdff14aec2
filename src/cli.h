#ifndef WATCHQ_CLI_H
#define WATCHQ_CLI_H

#include "config.h"

/* Parse argv into cfg; on bad input print one line and exit 64 (or 69 for an unavailable source). */
void cli_parse(struct config *cfg, int argc, char **argv);
/* Release what cli_parse() allocated. */
void cli_free(struct config *cfg);
/* The option that states a wait condition ("--mount"). */
const char *cli_cond_option(enum cond_kind kind);

#endif
