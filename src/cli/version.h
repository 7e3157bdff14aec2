#ifndef WATCHQ_VERSION_H
#define WATCHQ_VERSION_H

#include <stdio.h>

/* Print the version, the schema's, and whether each backend and kernel feature works here. */
void version_print(FILE *f);

#endif
