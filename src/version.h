#ifndef WATCHQ_VERSION_H
#define WATCHQ_VERSION_H

#include <stdio.h>

/*
 * Print the version, the JSON schema version, and whether each backend and kernel feature works
 * here, probed by opening and closing it: a line each.
 */
void version_print(FILE *f);

#endif
