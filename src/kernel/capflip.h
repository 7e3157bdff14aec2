#ifndef WATCHQ_CAPFLIP_H
#define WATCHQ_CAPFLIP_H

#include <stdbool.h>

#include "capture.h"
#include "capture_rec.h"

/* watchq's own mount namespace and root, as its own call showed them; ns 0: not known yet. */
struct capflip_self {
	unsigned int ns;
	unsigned long long root_mnt, root_dentry;
};

/*
 * What a captured call flips (options, propagation; a mount, a subtree or a superblock) and
 * where, into f (zeroed by the caller); false if it is no flip call. A path names a target only
 * when it is absolute and the caller shares self's namespace and root: a relative path, or one
 * resolved in another root, names none.
 */
bool capflip_decode(const struct capture_enter *e, const struct capflip_self *self,
    struct capture_call *f);

#endif
