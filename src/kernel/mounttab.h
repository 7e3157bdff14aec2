#ifndef WATCHQ_MOUNTTAB_H
#define WATCHQ_MOUNTTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* One mount as the cache knows it; every string is owned and non-NULL. */
struct mounttab_entry {
	uint64_t id, parent_id;		/* the keys: 64-bit unique ids where the backend has them */
	uint64_t mount_id, parent_mount_id;	/* the reusable ids of mountinfo and findmnt */
	uint64_t unique_id;		/* the 64-bit unique id, 0 where unknown */
	/* The place in the kernel's order (mountinfo's lines): the line, else id (unique: oldest) */
	uint64_t seq;
	dev_t dev;
	char *target, *source, *fstype, *root;
	char *vfs_opts, *fs_opts;	/* per-mount and superblock options */
	/* mountinfo's optional fields, comma-separated ("shared:1,master:2"), or "private" */
	char *propagation;
	/*
	 * "ro" or "rw" (the effective state), then ",TOKEN" for each token of vfs_opts, then of
	 * fs_opts, except ro, rw, mand and empty tokens. So past their first two bytes, the options
	 * of two entries differ exactly where more than ro/rw differs.
	 */
	char *options;
	bool readonly;			/* per-mount or superblock read-only */
	bool mark;			/* scratch for mounttab_diff() */
	uint32_t line_off, line_len;	/* mountinfo: its line in the text it was read from */
};

/* How many entries have a key of two numbers: one slot of a hash of counts. */
struct mounttab_count {
	uint64_t a, b;
	uint32_t n;			/* 0: a key no entry has now (kept until a rehash) */
};

struct mounttab_counts {
	struct mounttab_count *v;
	size_t cap, used;		/* used: keys held, counted or not */
};

/* The mount-table cache: a hash of entries keyed by mount id. */
struct mounttab {
	struct mounttab_entry **slot;
	uint64_t *ids;		/* slot[i]'s id, beside it: probes compare without a load */
	size_t cap, count;
	struct mounttab_counts twins;	/* per parent_id and a 64-bit hash of the target */
	struct mounttab_counts groups;	/* per peer group an entry is in or a slave of */
	uint64_t top_id;		/* the highest id inserted: none above it is here */
	bool had_shared;		/* an entry in a peer group (shared:N) has been inserted */
};

enum mounttab_change_kind {
	MOUNTTAB_UNMOUNT,
	MOUNTTAB_MOVE,
	MOUNTTAB_REMOUNT,
	MOUNTTAB_MOUNT,
};

struct mounttab_change {
	enum mounttab_change_kind kind;
	const struct mounttab_entry *old, *new;	/* old: NULL for mount; new: NULL for unmount */
};

typedef void mounttab_change_fn(void *ctx, const struct mounttab_change *ch);

/* Build an entry from its fields (strings copied; NULL becomes ""), with readonly and options
 * derived; mount_id and parent_mount_id start as id and parent_id. */
struct mounttab_entry *mounttab_entry_new(uint64_t id, uint64_t parent_id, dev_t dev,
    const char *target, const char *source, const char *fstype, const char *root,
    const char *vfs_opts, const char *fs_opts);
/* Set e's propagation (NULL: unknown, ""). */
void mounttab_entry_set_propagation(struct mounttab_entry *e, const char *propagation);
/* Free an entry. */
void mounttab_entry_free(struct mounttab_entry *e);
/* A copy of e mounted at target instead. */
struct mounttab_entry *mounttab_entry_at(const struct mounttab_entry *e, const char *target);
/* Whether a comma-separated options string (or NULL) has the token opt. */
bool mounttab_opts_has(const char *opts, const char *opt);
/* Whether an options string has the token ro. */
bool mounttab_opts_readonly(const char *opts);

/* Free every entry and the table itself; it may be reused after. */
void mounttab_clear(struct mounttab *t);
/* Entry with this id, or NULL. */
struct mounttab_entry *mounttab_find(const struct mounttab *t, uint64_t id);
/* Insert e, taking ownership; an entry with the same id is freed. */
void mounttab_insert(struct mounttab *t, struct mounttab_entry *e);
/* Take the entry with this id out of the table and return it (NULL if none). */
struct mounttab_entry *mounttab_remove(struct mounttab *t, uint64_t id);
/* Whether another entry than e has e's parent and target (stacked beneath, or tucked under). */
bool mounttab_has_twin(const struct mounttab *t, const struct mounttab_entry *e);
/* The peer group e is in (its shared:N), 0 if none. */
uint64_t mounttab_peer_group(const struct mounttab_entry *e);
/* The hash of a mount point (FNV-1a): a key for the mounts at one place. */
uint64_t mounttab_target_hash(const char *target);
/* How many entries name peer group g (shared:g or master:g). */
size_t mounttab_group_size(const struct mounttab *t, uint64_t g);
/* Whether e (NULL: false) has a parent in t that is in a peer group: a mount there may be a copy
 * made by propagation. */
bool mounttab_parent_shared(const struct mounttab *t, const struct mounttab_entry *e);
/* Whether e (NULL: false) has a parent in t that receives copies by propagation: one in a peer
 * group or a slave of one (shared:N, master:N). */
bool mounttab_parent_receives(const struct mounttab *t, const struct mounttab_entry *e);
/* Call fn with the id of each entry in peer group g or a slave of it, oldest first (none: at no
 * cost); fn may change the table. */
void mounttab_each_in_group(const struct mounttab *t, uint64_t g, void (*fn)(void *ctx,
    uint64_t id), void *ctx);
/* The entry whose reusable id (mountinfo's, statx's stx_mnt_id) is mount_id, or NULL. */
struct mounttab_entry *mounttab_find_mount_id(const struct mounttab *t, uint64_t mount_id);
/* The mount on top of the others at exactly this target, or NULL. */
struct mounttab_entry *mounttab_top_at(const struct mounttab *t, const char *target);
/* Whether some mount has exactly this target. */
bool mounttab_has_target(const struct mounttab *t, const char *target);
/* Whether e lies below the mount with id top, by the parent ids the table holds. */
bool mounttab_below(const struct mounttab *t, const struct mounttab_entry *e, uint64_t top);
/* qsort(3) comparison of two uint64_t mount ids, lowest first (unique ids: oldest first). */
int mounttab_cmp_id(const void *a, const void *b);
/* Mount ids, gathered (zeroed: empty). */
struct mounttab_ids {
	uint64_t *v;
	size_t n, cap;
};
/* Append id to s. */
void mounttab_ids_push(struct mounttab_ids *s, uint64_t id);
/* Sort s by id and drop repeats. */
void mounttab_ids_unique(struct mounttab_ids *s);
/* Call fn for each entry in the kernel's order, as mountinfo and findmnt -l list them (by seq). */
void mounttab_each(const struct mounttab *t, void (*fn)(void *ctx, const struct mounttab_entry *e),
    void *ctx);
/* Replace the entry with e's id (it must exist) by e, taking ownership; report a move, whose
 * submounts (by parent id, never by path) move along, but not from an unseen path (""), and an
 * option or propagation change. */
void mounttab_update(struct mounttab *t, struct mounttab_entry *e, mounttab_change_fn *fn,
    void *ctx);
/* Report how old became new, in this order: unmounts (deepest first), moves, remounts, mounts
 * (shallowest first). */
void mounttab_diff(struct mounttab *old, struct mounttab *new, mounttab_change_fn *fn, void *ctx);

#endif
