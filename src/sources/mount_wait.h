#ifndef WATCHQ_MOUNT_WAIT_H
#define WATCHQ_MOUNT_WAIT_H

#include "config.h"
#include "mntns.h"
#include "mounttab.h"
#include "source.h"

/* Where mount condition c stands by statx(2) of its path alone (an enum wait_state); -1 where the
 * kernel cannot say, or c names no path, and only the table can. */
int mount_wait_statx(const struct mntns *ns, const struct cond *c);
/* Whether mount condition c holds as the mount source src sees it, whose table is t: an enum
 * wait_state, WAIT_GONE once its namespace is gone (or, for a SPEC, every DIR of its scope). */
int mount_wait_check(const struct source *src, const struct mounttab *t, const struct cond *c);
/* Emit the present record of the mount that meets --mounted c in src's scope; whether one does. */
bool mount_wait_show(struct source *src, const struct mounttab *t, const struct cond *c);

#endif
