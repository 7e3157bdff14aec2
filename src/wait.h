#ifndef WATCHQ_WAIT_H
#define WATCHQ_WAIT_H

#include <stddef.h>

#include "config.h"
#include "source.h"

/* Whether every state condition of cfg holds now, each judged by the open sources of its kind (src[0..n)): in each -N namespace. */
enum wait_state wait_check(const struct config *cfg, struct source *src, size_t n);

#endif
