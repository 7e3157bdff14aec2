#ifndef WATCHQ_MOUNT_EVENTS_H
#define WATCHQ_MOUNT_EVENTS_H

#include "config.h"
#include "event.h"
#include "mounttab.h"

/* Turn one table change into events for every live mount watch it concerns (subtree, --fstype, --source); gone[i] marks watch i dead. */
void mount_events_change(const struct config *cfg, const bool *gone, struct sink *sink,
    const struct mnt_change *ch);
/* Emit present records for every cached mount that the mount watches cover. */
void mount_events_present(const struct config *cfg, struct sink *sink, const struct mounttab *t);
/* Report each live mount watch whose directory no longer exists as removed (marking gone[i]); returns how many. */
size_t mount_events_removals(const struct config *cfg, bool *gone, struct sink *sink, const char *backend);

#endif
