#ifndef WATCHQ_KEY_EVENTS_H
#define WATCHQ_KEY_EVENTS_H

#include <stdint.h>

#include "config.h"
#include "event.h"
#include "keynames.h"

/* Emit one key event for watch w, describing the key concerned as well as it still can (from known, what a snapshot of that key said, or from names, what a linked event said of it, if it cannot be described any more); names (may be NULL) learns the keys linked and forgets those unlinked. */
void key_events_emit(struct sink *sink, const struct watch *w, unsigned subtype, int32_t key_id, int32_t aux,
    const struct keyname *known, struct keynames *names);

#endif
