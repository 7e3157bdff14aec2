#ifndef WATCHQ_CLI_NS_H
#define WATCHQ_CLI_NS_H

#include <stddef.h>

#include "config.h"

/*
 * Open the n arguments of -N into ns, in order, and make them cfg->ns; exits 64 for one that names
 * no mount namespace (or one named before), or any beside -N all (cfg->ns_all), 69 for one we may
 * not watch or that no process is in.
 */
void cli_ns_open(struct config *cfg, struct mntns *ns, char *const *args, size_t n);

#endif
