#ifndef WATCHQ_KEY_EVENTS_H
#define WATCHQ_KEY_EVENTS_H

#include <stdint.h>

#include "config.h"
#include "event.h"
#include "keynames.h"

/* Emit one key event for watch w; a key that cannot be described any more is named from known (a
 * snapshot) or names (may be NULL), which learns linked keys and forgets unlinked ones. */
void key_events_emit(struct sink *sink, const struct watch *w, unsigned subtype, int32_t key_id,
    int32_t aux, const struct keyname *known, struct keynames *names);

#endif
