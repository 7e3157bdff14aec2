#ifndef WATCHQ_MOUNTTAB_H
#define WATCHQ_MOUNTTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* One mount as the cache knows it; every string is owned and non-NULL. */
struct mnt_entry {
	uint64_t id, parent_id;
	dev_t dev;
	char *target, *source, *fstype, *root;
	char *vfs_opts, *fs_opts;	/* per-mount and superblock options */
	char *options;			/* effective ro/rw, then both lists */
	bool readonly;			/* per-mount or superblock read-only */
	bool mark;			/* scratch for mounttab_diff() */
};

/* The mount-table cache: a hash of entries keyed by mount id. */
struct mounttab {
	struct mnt_entry **slot;
	size_t cap, count;
};

enum mnt_change_kind {
	MNT_CH_UNMOUNT,
	MNT_CH_MOVE,
	MNT_CH_REMOUNT,
	MNT_CH_MOUNT,
};

struct mnt_change {
	enum mnt_change_kind kind;
	const struct mnt_entry *old, *new;	/* old: NULL for mount; new: NULL for unmount */
};

typedef void mnt_change_fn(void *ctx, const struct mnt_change *ch);

/* Build an entry from its fields (strings copied; NULL becomes ""); derives options and readonly. */
struct mnt_entry *mnt_entry_new(uint64_t id, uint64_t parent_id, dev_t dev, const char *target,
    const char *source, const char *fstype, const char *root, const char *vfs_opts, const char *fs_opts);
/* Free an entry. */
void mnt_entry_free(struct mnt_entry *e);
/* Whether a comma-separated options string (or NULL) has the token opt. */
bool mnt_opts_has(const char *opts, const char *opt);
/* Whether an options string has the token ro. */
bool mnt_opts_readonly(const char *opts);

/* Free every entry and the table itself; it may be reused after. */
void mounttab_clear(struct mounttab *t);
/* Entry with this id, or NULL. */
struct mnt_entry *mounttab_find(const struct mounttab *t, uint64_t id);
/* Insert e, taking ownership; an entry with the same id is freed. */
void mounttab_insert(struct mounttab *t, struct mnt_entry *e);
/* Take the entry with this id out of the table and return it (NULL if none). */
struct mnt_entry *mounttab_remove(struct mounttab *t, uint64_t id);
/* Whether some mount has exactly this target. */
bool mounttab_has_target(const struct mounttab *t, const char *target);
/* Call fn for each entry, parents before children (by path depth, then id). */
void mounttab_each(const struct mounttab *t, void (*fn)(void *ctx, const struct mnt_entry *e), void *ctx);
/* Report how old became new, in the order unmounts (deepest first), moves, remounts, mounts (shallowest first). */
void mounttab_diff(struct mounttab *old, struct mounttab *new, mnt_change_fn *fn, void *ctx);

#endif
