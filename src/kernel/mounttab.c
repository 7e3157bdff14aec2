#include <stdlib.h>
#include <string.h>

#include "mounttab.h"
#include "xalloc.h"

/*
 * The token of a comma-separated list at *p (it may be empty) into *tok and *n, and *p past it
 * and its comma; false at the end of the list.
 */
static bool
next_token(const char **p, const char **tok, size_t *n)
{
	if (**p == '\0')
		return false;
	*tok = *p;
	*n = strcspn(*p, ",");
	*p += *n + ((*p)[*n] == ',');
	return true;
}

static bool
token_is(const char *tok, size_t n, const char *word)
{
	return n == strlen(word) && strncmp(tok, word, n) == 0;
}

bool
mounttab_opts_has(const char *opts, const char *opt)
{
	const char *tok;
	size_t n;

	while (opts && next_token(&opts, &tok, &n))
		if (token_is(tok, n, opt))
			return true;
	return false;
}

bool
mounttab_opts_readonly(const char *opts)
{
	return mounttab_opts_has(opts, "ro");
}

/*
 * Tokens the joined options leave out: empty ones; ro and rw, said once up front; and mand, which
 * statmount(2) cannot report (its sb_flags carry only the read-only, sync, dirsync and lazytime
 * flags) and which has had no effect since Linux 5.15. Leaving it out, both backends give the
 * same option string.
 */
static bool
left_out(const char *tok, size_t n)
{
	return n == 0 || token_is(tok, n, "rw") || token_is(tok, n, "ro") ||
	    token_is(tok, n, "mand");
}

static char *
append_tokens(char *o, const char *opts)
{
	const char *tok;
	size_t n;

	while (next_token(&opts, &tok, &n)) {
		if (left_out(tok, n))
			continue;
		*o++ = ',';
		memcpy(o, tok, n);
		o += n;
	}
	return o;
}

/*
 * "ro" or "rw" as readonly says, then ",TOKEN" for each token of vfs, then of fs, that left_out()
 * keeps. Past its first two bytes the result holds no ro or rw token, so two results differ there
 * exactly where more than ro/rw differs.
 */
static char *
join_options(bool readonly, const char *vfs, const char *fs)
{
	char *out = xmalloc(strlen(vfs) + strlen(fs) + 5), *o;

	memcpy(out, readonly ? "ro" : "rw", 2);
	o = append_tokens(out + 2, vfs);
	o = append_tokens(o, fs);
	*o = '\0';
	return out;
}

struct mounttab_entry *
mounttab_entry_new(uint64_t id, uint64_t parent_id, dev_t dev, const char *target,
    const char *source, const char *fstype, const char *root, const char *vfs_opts,
    const char *fs_opts)
{
	struct mounttab_entry *e = xcalloc(1, sizeof(*e));

	e->id = e->mount_id = e->seq = id;
	e->parent_id = e->parent_mount_id = parent_id;
	e->dev = dev;
	e->target = xstrdup(target ? target : "");
	e->source = xstrdup(source ? source : "");
	e->fstype = xstrdup(fstype ? fstype : "");
	e->root = xstrdup(root ? root : "");
	e->vfs_opts = xstrdup(vfs_opts ? vfs_opts : "");
	e->fs_opts = xstrdup(fs_opts ? fs_opts : "");
	e->readonly = mounttab_opts_readonly(e->vfs_opts) || mounttab_opts_readonly(e->fs_opts);
	e->options = join_options(e->readonly, e->vfs_opts, e->fs_opts);
	e->propagation = xstrdup("");
	return e;
}

void
mounttab_entry_set_propagation(struct mounttab_entry *e, const char *propagation)
{
	free(e->propagation);
	e->propagation = xstrdup(propagation ? propagation : "");
}

void
mounttab_entry_free(struct mounttab_entry *e)
{
	if (e == NULL)
		return;
	free(e->target);
	free(e->source);
	free(e->fstype);
	free(e->root);
	free(e->vfs_opts);
	free(e->fs_opts);
	free(e->options);
	free(e->propagation);
	free(e);
}

struct mounttab_entry *
mounttab_entry_at(const struct mounttab_entry *e, const char *target)
{
	struct mounttab_entry *c = mounttab_entry_new(e->id, e->parent_id, e->dev, target,
	    e->source, e->fstype, e->root, e->vfs_opts, e->fs_opts);

	c->mount_id = e->mount_id;
	c->parent_mount_id = e->parent_mount_id;
	c->unique_id = e->unique_id;
	c->seq = e->seq;
	mounttab_entry_set_propagation(c, e->propagation);
	return c;
}

static size_t
hash_id(uint64_t id, size_t cap)
{
	id ^= id >> 33;
	id *= 0xff51afd7ed558ccdULL;
	id ^= id >> 33;
	return (size_t)id & (cap - 1);
}

void
mounttab_clear(struct mounttab *t)
{
	size_t i;

	for (i = 0; i < t->cap; i++)
		mounttab_entry_free(t->slot[i]);
	free(t->slot);
	free(t->ids);
	free(t->twins.v);
	free(t->groups.v);
	*t = (struct mounttab){ 0 };
}

/* FNV-1a: a target's key in the twin counts; a collision only costs a needless listing. */
uint64_t
mounttab_target_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

static struct mounttab_count *
count_find(const struct mounttab_counts *c, uint64_t a, uint64_t b)
{
	size_t i = hash_id(a ^ b, c->cap);

	while (c->v[i].n || c->v[i].a || c->v[i].b) {
		if (c->v[i].a == a && c->v[i].b == b)
			return &c->v[i];
		i = (i + 1) & (c->cap - 1);
	}
	return &c->v[i];
}

/* How many entries have the key (a, b). */
static uint32_t
count_of(const struct mounttab_counts *c, uint64_t a, uint64_t b)
{
	return c->cap > 0 ? count_find(c, a, b)->n : 0;
}

/* Hash again into room for twice the keys counted now, leaving out the keys counted 0. */
static void
count_rehash(struct mounttab_counts *c)
{
	struct mounttab_count *old = c->v;
	size_t oldcap = c->cap, live = 0, i;

	for (i = 0; i < oldcap; i++)
		live += old[i].n > 0;
	for (c->cap = 64; c->cap < live * 4; c->cap *= 2)
		;
	c->v = xcalloc(c->cap, sizeof(*c->v));
	c->used = live;
	for (i = 0; i < oldcap; i++)
		if (old[i].n > 0)
			*count_find(c, old[i].a, old[i].b) = old[i];
	free(old);
}

/* Count one more (delta 1) or one fewer (-1) entry with the key (a, b). */
static void
count_add(struct mounttab_counts *c, uint64_t a, uint64_t b, int delta)
{
	struct mounttab_count *w;

	if ((c->used + 1) * 4 > c->cap * 3)
		count_rehash(c);
	w = count_find(c, a, b);
	if (w->n == 0 && w->a == 0 && w->b == 0) {
		if (delta < 0)
			return;
		*w = (struct mounttab_count){ a, b, 0 };
		c->used++;
	}
	w->n += delta;
}

/* Call fn with each peer group e's propagation names (shared:N, master:N; not propagate_from:N,
 * a group of another namespace), and ctx. */
static void
each_group(const struct mounttab_entry *e, void (*fn)(void *ctx, uint64_t g), void *ctx)
{
	static const char *const kinds[] = { "shared:", "master:" };
	const char *p = e->propagation;
	size_t k, len;

	while (*p) {
		for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
			len = strlen(kinds[k]);
			if (strncmp(p, kinds[k], len) == 0 && (p == e->propagation || p[-1] == ','))
				fn(ctx, strtoull(p + len, NULL, 10));
		}
		p += strcspn(p, ",");
		p += *p == ',';
	}
}

struct group_delta {
	struct mounttab_counts *c;
	int delta;
};

static void
group_count(void *p, uint64_t g)
{
	struct group_delta *d = p;

	count_add(d->c, g, 0, d->delta);
}

/* Count e in (delta 1) or out (-1) of the entries with its parent and target, and its groups. */
static void
entry_count(struct mounttab *t, const struct mounttab_entry *e, int delta)
{
	count_add(&t->twins, e->parent_id, mounttab_target_hash(e->target), delta);
	each_group(e, group_count, &(struct group_delta){ &t->groups, delta });
	if (delta > 0 && mounttab_peer_group(e) != 0)
		t->had_shared = true;
}

static size_t
find_slot(const struct mounttab *t, uint64_t id)
{
	size_t i = hash_id(id, t->cap);

	while (t->slot[i] && t->ids[i] != id)
		i = (i + 1) & (t->cap - 1);
	return i;
}

struct mounttab_entry *
mounttab_find(const struct mounttab *t, uint64_t id)
{
	if (t->cap == 0)
		return NULL;
	return t->slot[find_slot(t, id)];
}

static void
grow(struct mounttab *t)
{
	struct mounttab_entry **old = t->slot;
	uint64_t *oldids = t->ids;
	size_t oldcap = t->cap, i, j;

	t->cap = oldcap ? oldcap * 2 : 64;
	t->slot = xcalloc(t->cap, sizeof(*t->slot));
	t->ids = xcalloc(t->cap, sizeof(*t->ids));
	for (i = 0; i < oldcap; i++)
		if (old[i]) {
			j = find_slot(t, old[i]->id);
			t->slot[j] = old[i];
			t->ids[j] = old[i]->id;
		}
	free(old);
	free(oldids);
}

void
mounttab_insert(struct mounttab *t, struct mounttab_entry *e)
{
	size_t i;

	if ((t->count + 1) * 4 > t->cap * 3)
		grow(t);
	i = find_slot(t, e->id);
	if (t->slot[i]) {
		entry_count(t, t->slot[i], -1);
		mounttab_entry_free(t->slot[i]);
	} else {
		t->count++;
	}
	t->slot[i] = e;
	t->ids[i] = e->id;
	entry_count(t, e, 1);
	if (e->id > t->top_id)
		t->top_id = e->id;
}

struct mounttab_entry *
mounttab_remove(struct mounttab *t, uint64_t id)
{
	struct mounttab_entry *e;
	size_t i, j, k;

	if (t->cap == 0)
		return NULL;
	i = find_slot(t, id);
	if ((e = t->slot[i]) == NULL)
		return NULL;
	t->slot[i] = NULL;
	t->count--;
	entry_count(t, e, -1);
	/* Backward-shift deletion keeps linear probing chains intact without tombstones. */
	for (j = (i + 1) & (t->cap - 1); t->slot[j]; j = (j + 1) & (t->cap - 1)) {
		k = hash_id(t->ids[j], t->cap);
		if ((j > i && (k <= i || k > j)) || (j < i && k <= i && k > j)) {
			t->slot[i] = t->slot[j];
			t->ids[i] = t->ids[j];
			t->slot[j] = NULL;
			i = j;
		}
	}
	return e;
}

bool
mounttab_has_target(const struct mounttab *t, const char *target)
{
	size_t i;

	for (i = 0; i < t->cap; i++)
		if (t->slot[i] && strcmp(t->slot[i]->target, target) == 0)
			return true;
	return false;
}

struct mounttab_entry *
mounttab_find_mount_id(const struct mounttab *t, uint64_t mount_id)
{
	size_t i;

	for (i = 0; i < t->cap; i++)
		if (t->slot[i] && t->slot[i]->mount_id == mount_id)
			return t->slot[i];
	return NULL;
}

struct mounttab_entry *
mounttab_top_at(const struct mounttab *t, const char *target)
{
	struct mounttab_entry *top = NULL, *o;
	size_t i, hops;

	for (i = 0; i < t->cap && top == NULL; i++)
		if ((o = t->slot[i]) && strcmp(o->target, target) == 0)
			top = o;
	/* Mounts stacked at one target: each is the parent of the next; climb to the last. */
	for (hops = 0; top != NULL && hops < t->count; hops++) {
		for (i = 0; i < t->cap; i++)
			if ((o = t->slot[i]) && o != top && o->parent_id == top->id &&
			    strcmp(o->target, target) == 0)
				break;
		if (i == t->cap)
			break;
		top = t->slot[i];
	}
	return top;
}

bool
mounttab_has_twin(const struct mounttab *t, const struct mounttab_entry *e)
{
	return count_of(&t->twins, e->parent_id, mounttab_target_hash(e->target)) > 1;
}

size_t
mounttab_group_size(const struct mounttab *t, uint64_t g)
{
	return count_of(&t->groups, g, 0);
}

uint64_t
mounttab_peer_group(const struct mounttab_entry *e)
{
	/* shared:N comes first where there is one, as in mountinfo. */
	if (strncmp(e->propagation, "shared:", 7) != 0)
		return 0;
	return strtoull(e->propagation + 7, NULL, 10);
}

bool
mounttab_parent_shared(const struct mounttab *t, const struct mounttab_entry *e)
{
	const struct mounttab_entry *up;

	return e && (up = mounttab_find(t, e->parent_id)) && mounttab_peer_group(up) != 0;
}

static void
group_any(void *p, uint64_t g)
{
	*(bool *)p |= g != 0;
}

bool
mounttab_parent_receives(const struct mounttab *t, const struct mounttab_entry *e)
{
	const struct mounttab_entry *up;
	bool any = false;

	if (e && (up = mounttab_find(t, e->parent_id)))
		each_group(up, group_any, &any);
	return any;
}

struct group_find {
	uint64_t g;
	bool in;
};

static void
group_match(void *p, uint64_t g)
{
	struct group_find *f = p;

	f->in |= f->g == g;
}

void
mounttab_each_in_group(const struct mounttab *t, uint64_t g, void (*fn)(void *ctx, uint64_t id),
    void *ctx)
{
	uint64_t *ids;
	size_t i, n = 0;
	struct group_find find;

	if (g == 0 || count_of(&t->groups, g, 0) == 0)
		return;
	/* Gathered first: fn may change the table. */
	ids = xcalloc(t->count + 1, sizeof(*ids));
	for (i = 0; i < t->cap; i++) {
		if (t->slot[i] == NULL)
			continue;
		find = (struct group_find){ g, false };
		each_group(t->slot[i], group_match, &find);
		if (find.in)
			ids[n++] = t->slot[i]->id;
	}
	qsort(ids, n, sizeof(*ids), mounttab_cmp_id);
	for (i = 0; i < n; i++)
		fn(ctx, ids[i]);
	free(ids);
}

int
mounttab_cmp_id(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

void
mounttab_ids_push(struct mounttab_ids *s, uint64_t id)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 64;
		s->v = xreallocarray(s->v, s->cap, sizeof(*s->v));
	}
	s->v[s->n++] = id;
}

void
mounttab_ids_unique(struct mounttab_ids *s)
{
	size_t i, n = 0;

	if (s->n == 0)
		return;
	qsort(s->v, s->n, sizeof(*s->v), mounttab_cmp_id);
	for (i = 0; i < s->n; i++)
		if (n == 0 || s->v[n - 1] != s->v[i])
			s->v[n++] = s->v[i];
	s->n = n;
}

static size_t
depth(const char *path)
{
	size_t d = 0;

	for (; *path; path++)
		d += *path == '/';
	return d;
}

/* An entry and its depth, counted once: a sort compares it O(log n) times. */
struct ranked {
	size_t depth;
	struct mounttab_entry *e;
};

static int
cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->depth != y->depth)
		return x->depth < y->depth ? -1 : 1;
	return mounttab_cmp_id(&x->e->id, &y->e->id);
}

/* Sort the n entries of v shallowest first (deep: deepest first); an id breaks a tie. */
static void
by_depth(struct mounttab_entry **v, size_t n, bool deep)
{
	struct ranked *r = xcalloc(n + 1, sizeof(*r));
	size_t i;

	for (i = 0; i < n; i++)
		r[i] = (struct ranked){ depth(v[i]->target), v[i] };
	qsort(r, n, sizeof(*r), cmp_ranked);
	for (i = 0; i < n; i++)
		v[i] = r[deep ? n - 1 - i : i].e;
	free(r);
}

/* Mount order; an id breaks a tie, which only a backend that sets no seq leaves. */
static int
cmp_seq(const void *a, const void *b)
{
	const struct mounttab_entry *x = *(struct mounttab_entry *const *)a;
	const struct mounttab_entry *y = *(struct mounttab_entry *const *)b;

	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return mounttab_cmp_id(&x->id, &y->id);
}

/* The entries of t in order; caller frees the array. */
static struct mounttab_entry **
sorted(const struct mounttab *t, int (*cmp)(const void *, const void *), size_t *n)
{
	struct mounttab_entry **v = xcalloc(t->count, sizeof(*v));
	size_t i;

	*n = 0;
	for (i = 0; i < t->cap; i++)
		if (t->slot[i])
			v[(*n)++] = t->slot[i];
	qsort(v, *n, sizeof(*v), cmp);
	return v;
}

/*
 * The entries of t that pick(other, e) keeps, by depth as by_depth() sorts them: only these are
 * sorted, a few at each change of a large table. Caller frees the array.
 */
static struct mounttab_entry **
picked(const struct mounttab *t, bool (*pick)(const struct mounttab *other,
    const struct mounttab_entry *e), const struct mounttab *other, bool deep, size_t *n)
{
	struct mounttab_entry **v = xcalloc(t->count + 1, sizeof(*v));
	size_t i;

	*n = 0;
	for (i = 0; i < t->cap; i++)
		if (t->slot[i] && pick(other, t->slot[i]))
			v[(*n)++] = t->slot[i];
	by_depth(v, *n, deep);
	return v;
}

/* A remount, a mount_setattr or a change of propagation. */
static bool
opts_changed(const struct mounttab_entry *a, const struct mounttab_entry *b)
{
	return strcmp(a->vfs_opts, b->vfs_opts) != 0 || strcmp(a->fs_opts, b->fs_opts) != 0 ||
	    strcmp(a->propagation, b->propagation) != 0;
}

/* A cycle or a missing parent ends the walk. */
bool
mounttab_below(const struct mounttab *t, const struct mounttab_entry *e, uint64_t top)
{
	size_t hops;

	for (hops = 0; hops <= t->count && e && e->parent_id != e->id; hops++) {
		if (e->parent_id == top)
			return true;
		e = mounttab_find(t, e->parent_id);
	}
	return false;
}

/*
 * A moved mount takes the mounts on it along, and only those: a mount stacked
 * under the moved one, or on the mount it covered, has another parent and
 * stays where it is although its path starts with the old one. Moved where
 * the cache has no path (""), they have none either; moved from there, their
 * paths cannot be told from the moved mount's, and they stay for the caller.
 */
static void
move_submounts(struct mounttab *t, const char *from, const struct mounttab_entry *top,
    mounttab_change_fn *fn, void *ctx)
{
	size_t i, n = strlen(from), cnt = 0;
	struct mounttab_entry **v = xcalloc(t->count + 1, sizeof(*v));
	uint64_t *ids = xcalloc(t->count + 1, sizeof(*ids));
	struct mounttab_entry *old, *new;
	struct mounttab_change ch;
	char *target;

	for (i = 0; i < t->cap; i++)
		if (t->slot[i] && t->slot[i] != top && mounttab_below(t, t->slot[i], top->id) &&
		    strncmp(t->slot[i]->target, from, n) == 0)
			v[cnt++] = t->slot[i];
	by_depth(v, cnt, false);
	for (i = 0; i < cnt; i++)
		ids[i] = v[i]->id;
	free(v);
	for (i = 0; i < cnt; i++) {
		old = mounttab_find(t, ids[i]);
		target = xmalloc(strlen(top->target) + strlen(old->target + n) + 1);
		strcpy(target, top->target);
		if (top->target[0] != '\0')
			strcat(target, strcmp(top->target, "/") == 0 && old->target[n] == '/' ?
			    old->target + n + 1 : old->target + n);
		new = mounttab_entry_at(old, target);
		free(target);
		ch = (struct mounttab_change){ MOUNTTAB_MOVE, old, new };
		fn(ctx, &ch);
		mounttab_insert(t, new);
	}
	free(ids);
}

void
mounttab_update(struct mounttab *t, struct mounttab_entry *e, mounttab_change_fn *fn, void *ctx)
{
	struct mounttab_entry *old = mounttab_remove(t, e->id);
	struct mounttab_change ch;

	if (strcmp(old->target, e->target) != 0) {
		ch = (struct mounttab_change){ MOUNTTAB_MOVE, old, e };
		fn(ctx, &ch);
	}
	if (opts_changed(old, e)) {
		ch = (struct mounttab_change){ MOUNTTAB_REMOUNT, old, e };
		fn(ctx, &ch);
	}
	mounttab_insert(t, e);
	if (strcmp(old->target, e->target) != 0 && old->target[0] != '\0')
		move_submounts(t, old->target, e, fn, ctx);
	mounttab_entry_free(old);
}

void
mounttab_each(const struct mounttab *t, void (*fn)(void *ctx, const struct mounttab_entry *e),
    void *ctx)
{
	size_t n, i;
	struct mounttab_entry **v = sorted(t, cmp_seq, &n);

	for (i = 0; i < n; i++)
		fn(ctx, v[i]);
	free(v);
}

/*
 * The same id names the same mount only while it stays the same filesystem at the same root:
 * mountinfo ids are reused, so an id whose device, root, type or source changed between two reads
 * was an unmount followed by a mount. So was one whose two entries carry two unique ids. (Where
 * either has none, an unmount and a mount that reuse both the id and the device in one burst look
 * like a move here: a freed anonymous device number is handed out again.)
 */
static bool
same_mount(const struct mounttab_entry *a, const struct mounttab_entry *b)
{
	return (a->unique_id == 0 || b->unique_id == 0 || a->unique_id == b->unique_id) &&
	    a->dev == b->dev && strcmp(a->root, b->root) == 0 &&
	    strcmp(a->fstype, b->fstype) == 0 && strcmp(a->source, b->source) == 0;
}

/* mounttab_diff()'s picks: not continued in the other table (or not continuing one)... */
static bool
unmarked(const struct mounttab *other, const struct mounttab_entry *e)
{
	return !e->mark;
}

/* ... continued there at another path ... */
static bool
moved(const struct mounttab *other, const struct mounttab_entry *e)
{
	return e->mark && strcmp(e->target, mounttab_find(other, e->id)->target) != 0;
}

/* ... or with other options. */
static bool
reopted(const struct mounttab *other, const struct mounttab_entry *e)
{
	return e->mark && opts_changed(e, mounttab_find(other, e->id));
}

/* Report each of the n changes of v, of this kind, with its counterpart in new. */
static void
report(struct mounttab_entry **v, size_t n, enum mounttab_change_kind kind,
    const struct mounttab *new, mounttab_change_fn *fn, void *ctx)
{
	struct mounttab_change ch;
	size_t i;

	for (i = 0; i < n; i++) {
		ch = (struct mounttab_change){ kind, v[i], NULL };
		if (kind == MOUNTTAB_MOUNT)
			ch = (struct mounttab_change){ kind, NULL, v[i] };
		else if (kind != MOUNTTAB_UNMOUNT)
			ch.new = mounttab_find(new, v[i]->id);
		fn(ctx, &ch);
	}
	free(v);
}

/*
 * Unmounts deepest first, then moves, then remounts, then mounts, shallowest first. Only the
 * entries that changed are sorted: a read of a large table with one change costs O(n).
 */
void
mounttab_diff(struct mounttab *old, struct mounttab *new, mounttab_change_fn *fn, void *ctx)
{
	struct mounttab_entry **v, *n;
	size_t i, cnt;

	for (i = 0; i < new->cap; i++)
		if (new->slot[i])
			new->slot[i]->mark = false;
	/* Mark the entries that continue one in the other table. */
	for (i = 0; i < old->cap; i++) {
		if (old->slot[i] == NULL)
			continue;
		n = mounttab_find(new, old->slot[i]->id);
		old->slot[i]->mark = n && same_mount(old->slot[i], n);
		if (old->slot[i]->mark)
			n->mark = true;
	}
	v = picked(old, unmarked, new, true, &cnt);
	report(v, cnt, MOUNTTAB_UNMOUNT, new, fn, ctx);
	v = picked(old, moved, new, false, &cnt);
	report(v, cnt, MOUNTTAB_MOVE, new, fn, ctx);
	v = picked(old, reopted, new, false, &cnt);
	report(v, cnt, MOUNTTAB_REMOUNT, new, fn, ctx);
	v = picked(new, unmarked, old, false, &cnt);
	report(v, cnt, MOUNTTAB_MOUNT, new, fn, ctx);
}
