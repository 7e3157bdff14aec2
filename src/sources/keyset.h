#ifndef WATCHQ_KEYSET_H
#define WATCHQ_KEYSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "keysnap.h"
#include "source.h"

/* One key a key source follows: a watched key, or a key linked below one (--recursive: a keyring,
 * at any depth; --follow: another key, in a watched or followed keyring). */
struct keyent {
	int32_t serial;
	struct source_watch *sw;	/* the watch it reports under */
	bool child;		/* found by --recursive or --follow */
	bool gone;
	struct keysnap snap;
};

struct keyset {
	struct keyent *v;
	size_t n;
	/* --recursive: keys found not to be keyrings (a key keeps its type), sorted. */
	int32_t *leaves;
	size_t nleaves;
	struct keynames names;	/* of the keys reported linked */
};

typedef int keyent_fn(void *ctx, struct keyent *e);

/* One snapshotted entry per watch of the key source src (proc is the text of /proc/keys). */
void keyset_init(struct keyset *ks, struct source *src, const char *proc);
/* The entry following serial, or NULL. */
struct keyent *keyset_find(struct keyset *ks, int32_t serial);
/* Whether cfg follows keys linked below the watched ones (--recursive, --follow). */
bool keyset_follows_links(const struct config *cfg);
/* With --recursive or --follow: follow each key now linked below a watched one that cfg follows
 * and stop following those no longer linked, calling add(ctx, e) before its snapshot and drop(ctx,
 * e) (each may be NULL); -1 if add failed. */
int keyset_children(struct keyset *ks, const struct config *cfg, const char *proc,
    keyent_fn *add, keyent_fn *drop, void *ctx);
/* Re-read each followed key (proc is the text of /proc/keys) and report its changes; with removals,
 * a key no longer there is marked gone, and a watched one is reported removed through src. */
void keyset_refresh(struct keyset *ks, struct source *src, const char *proc, bool removals);
/* Whether a key just linked below a followed keyring is one cfg follows and not followed yet; a
 * key that is not a keyring is remembered as such. */
bool keyset_would_follow(struct keyset *ks, const struct config *cfg, int32_t serial);
/* Whether key condition c holds now (an enum wait_state): a key of its type and description is
 * linked in its keyring. */
int keyset_check(const struct cond *c);
/* Emit a present record of each watched key's own state and of each key linked in a followed
 * keyring, depth first (keyctl show's tree), from the snapshots. */
void keyset_present(struct keyset *ks, struct source *src);
/* Release everything. */
void keyset_free(struct keyset *ks);

#endif
