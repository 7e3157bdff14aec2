#ifndef WATCHQ_KEYSNAP_H
#define WATCHQ_KEYSNAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "event.h"
#include "keynames.h"

/* What can be seen of one key without notifications: from KEYCTL_DESCRIBE, KEYCTL_READ and the
 * key's own line in /proc/keys. */
struct keysnap {
	int32_t serial;
	int err;		/* 0, else KEYCTL_DESCRIBE's errno (EKEYREVOKED, ENOKEY, ...) */
	char *type, *description;	/* NULL: not described */
	long uid, gid;
	unsigned perm;
	bool keyring;
	bool has_proc_line;	/* its /proc/keys line was found and agreed: flags, summary known */
	char flags[8];		/* I R D Q U N i, '-' when clear */
	char *summary;		/* the type's summary after the description */
	bool has_links;		/* a keyring whose contents could be read */
	int32_t *links;		/* its contents, sorted */
	size_t nlinks;
};

/* Compare two key serials (int32_t) for qsort(3) and bsearch(3): ascending, as links are kept. */
int keysnap_serial_cmp(const void *a, const void *b);
/* Whether the key was there when snapshotted (revoked and expired keys are, until collected). */
bool keysnap_exists(const struct keysnap *s);
/* Snapshot key serial: describe it, read it if it is a keyring, and take its flags from proc, the
 * text of /proc/keys read before. */
void keysnap_take(struct keysnap *s, int32_t serial, const char *proc);
/* Release a snapshot's allocations. */
void keysnap_free(struct keysnap *s);
/* Emit the events the kernel would post to a watch of w between old and new (both exist); names is
 * as key_events_emit() takes it. */
void keysnap_diff(const struct keysnap *old, const struct keysnap *new, const struct watch *w,
    struct sink *sink, struct keynames *names);
/* Apply a record to the snapshot of the key it is about; false if the snapshot showed it already
 * (the record is no news). */
bool keysnap_apply(struct keysnap *s, unsigned subtype, int32_t aux);
/* s's serial, type and description as a key name (pointing into s), or NULL if s is NULL. */
const struct keyname *keysnap_name(const struct keysnap *s, struct keyname *buf);
/* Give new what it could not see any more (a revoked key's type and description) from old. */
void keysnap_carry(struct keysnap *new, struct keysnap *old);

#endif
