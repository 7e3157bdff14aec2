#ifndef WATCHQ_KEYSET_H
#define WATCHQ_KEYSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "keysnap.h"
#include "source.h"

/* One key a key source follows: a watched key, or (--recursive) a keyring linked below one. */
struct keyent {
	int32_t serial;
	struct source_watch *sw;	/* the watch it reports under */
	bool child;		/* found by --recursive */
	bool gone;
	struct keysnap snap;
};

struct keyset {
	struct keyent *v;
	size_t n;
	int32_t *leaves;	/* --recursive: keys found not to be keyrings, sorted (a key keeps its type) */
	size_t nleaves;
	struct keynames names;	/* of the keys reported linked */
};

typedef int keyent_fn(void *ctx, struct keyent *e);

/* One entry per watch of the key source src, snapshotted (proc: the text of /proc/keys). */
void keyset_init(struct keyset *ks, struct source *src, const char *proc);
/* The entry following serial, or NULL. */
struct keyent *keyset_find(struct keyset *ks, int32_t serial);
/* With --recursive: follow every keyring now linked below a watched one (add(ctx, e) for each new entry) and stop following those no longer linked (drop(ctx, e) before removal; add and drop may be NULL); one KEYCTL_DESCRIBE per key not met before; -1 if add failed. */
int keyset_children(struct keyset *ks, const struct config *cfg, const char *proc,
    keyent_fn *add, keyent_fn *drop, void *ctx);
/* Re-read every followed key (proc: the text of /proc/keys) and report its changes under its watch; a key no longer there is, with removals, marked gone and (a watched one) reported removed through src. */
void keyset_refresh(struct keyset *ks, struct source *src, const char *proc, bool removals);
/* With --recursive: whether a key just linked below a followed keyring is a keyring not followed yet (remembering it if it is not a keyring). */
bool keyset_is_new_keyring(struct keyset *ks, int32_t serial);
/* Whether key condition c holds now: a key of its type and description linked in its keyring (an enum wait_state). */
int keyset_check(const struct cond *c);
/* Release everything. */
void keyset_free(struct keyset *ks);

#endif
