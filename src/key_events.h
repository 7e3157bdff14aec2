#ifndef WATCHQ_KEY_EVENTS_H
#define WATCHQ_KEY_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "event.h"

/* What can be seen of one key without notifications: /proc/keys and KEYCTL_READ. */
struct key_snap {
	int32_t serial;
	bool exists;
	char flags[8];		/* I R D Q U N i, '-' when clear */
	unsigned perm;
	long uid, gid;
	char timeout[16];
	char *summary;		/* the type's summary after the description */
	char *type, *description;
	bool keyring;
	int32_t *links;		/* a keyring's contents, sorted */
	size_t nlinks;
};

/* Read /proc/keys whole (NUL-terminated; caller frees); NULL with errno set. */
char *key_read_proc(void);
/* Snapshot key serial from the text of /proc/keys and, for a keyring, its contents. */
void keysnap_take(struct key_snap *s, int32_t serial, const char *proc_keys);
/* Release a snapshot's allocations. */
void keysnap_free(struct key_snap *s);
/* Emit the events the kernel would post to a watch of w between old and new (both exist). */
void keysnap_diff(const struct key_snap *old, const struct key_snap *new, const struct watch *w,
    struct sink *sink);
/* Keep a keyring's snapshot current with a linked, unlinked or cleared record, so a resync reports only what was missed. */
void keysnap_apply(struct key_snap *s, unsigned subtype, int32_t aux);
/* Emit one key event for watch w, describing the key concerned as well as it still can (from known, a snapshot of key_id, if the key cannot be described any more). */
void key_events_emit(struct sink *sink, const struct watch *w, unsigned subtype, int32_t key_id, int32_t aux,
    const struct key_snap *known);

#endif
