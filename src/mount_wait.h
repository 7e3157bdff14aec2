#ifndef WATCHQ_MOUNT_WAIT_H
#define WATCHQ_MOUNT_WAIT_H

#include "config.h"
#include "mntns.h"
#include "mounttab.h"

/* Where mount condition c stands by statx(2) of its path alone (an enum wait_state); -1 where the
 * kernel cannot say and only the table can. */
int mount_wait_statx(const struct mntns *ns, const struct cond *c);
/* Whether mount condition c holds in mount namespace ns (NULL: ours), whose table is t: an enum
 * wait_state, WAIT_GONE once ns is gone. */
int mount_wait_check(const struct mntns *ns, const struct mounttab *t, const struct cond *c);

#endif
