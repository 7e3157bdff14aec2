#ifndef WATCHQ_MOUNT_EVENTS_H
#define WATCHQ_MOUNT_EVENTS_H

#include "config.h"
#include "event.h"
#include "mounttab.h"
#include "source.h"
#include "who.h"

/* Turn one table change into events for every live watch of the mount source src it concerns
 * (by subtree, --fstype and --source). */
void mount_events_change(struct source *src, const struct mounttab_change *ch);
/* As mount_events_change(), saying who made the change (who is read only if an event is made). */
void mount_events_change_by(struct source *src, const struct mounttab_change *ch, struct who *who);
/* Report a remount (ch->kind MOUNTTAB_REMOUNT), its option changes made by who, its propagation
 * change by prop_who (each NULL: nobody). */
void mount_events_remount_by(struct source *src, const struct mounttab_change *ch, struct who *who,
    struct who *prop_who);
/* Report n mounts known only by their unique ids (gone before they could be read) to every live
 * watch of src: where they were is unknown, so no watch and no filter can rule them out. */
void mount_events_transient(struct source *src, const uint64_t *ids, size_t n);
/* Emit the transient record of those n mounts for watch w to sink. */
void mount_events_transient_of(struct sink *sink, const struct watch *w, const uint64_t *ids,
    size_t n);
/* Emit present records for every mount of t that src's watches cover (list --target: the mount
 * that holds each watched directory). */
void mount_events_present(struct source *src, const struct mounttab *t);
/* Emit the present record of mount e for watch w of src. */
void mount_events_present_of(struct source *src, const struct watch *w,
    const struct mounttab_entry *e);
/* Report each live watch of src whose directory no longer exists (in its namespace) as removed. */
void mount_events_removals(struct source *src);
/* The process src follows in a -N namespace has exited: follow another and say false, or, with
 * no process left in the namespace, report each watch of src removed and say true. */
bool mount_events_ns_exited(struct source *src);

/*
 * Whether e was a slave (its propagation has master:N): its master can leave its peer group from
 * another namespace, which no call here shows, so a propagation change of it is named after
 * nobody.
 */
bool mount_events_was_slave(const struct mounttab_entry *e);

#endif
