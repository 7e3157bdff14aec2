#ifndef WATCHQ_FINDMNT_H
#define WATCHQ_FINDMNT_H

#include <stdbool.h>

/* Whether s reads as findmnt -o's column list (TARGET,SOURCE; +LIST; any case), as it parses it. */
bool findmnt_columns(const char *s);

#endif
