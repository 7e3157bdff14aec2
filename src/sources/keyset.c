#include <errno.h>
#include <keyutils.h>
#include <stdlib.h>
#include <string.h>

#include "debug.h"
#include "keydesc.h"
#include "keyset.h"
#include "xalloc.h"

/* A new entry following serial, not read yet: watch it first, then snapshot it. */
static struct keyent *
keyset_push(struct keyset *ks, int32_t serial, struct source_watch *sw, bool child)
{
	struct keyent *e;

	ks->v = xreallocarray(ks->v, ks->n + 1, sizeof(*ks->v));
	e = &ks->v[ks->n++];
	memset(e, 0, sizeof(*e));
	e->serial = serial;
	e->sw = sw;
	e->child = child;
	return e;
}

void
keyset_init(struct keyset *ks, struct source *src, const char *proc)
{
	struct keyent *e;
	size_t i;

	memset(ks, 0, sizeof(*ks));
	for (i = 0; i < src->nwatches; i++) {
		e = keyset_push(ks, src->watches[i].w->key, &src->watches[i], false);
		keysnap_take(&e->snap, e->serial, proc);
	}
}

bool
keyset_follows_links(const struct config *cfg)
{
	return cfg->recursive || cfg->follow;
}

struct keyent *
keyset_find(struct keyset *ks, int32_t serial)
{
	size_t i;

	for (i = 0; i < ks->n; i++)
		if (ks->v[i].serial == serial && !ks->v[i].gone)
			return &ks->v[i];
	return NULL;
}

static bool
keyset_is_leaf(const struct keyset *ks, int32_t serial)
{
	return ks->nleaves > 0 &&
	    bsearch(&serial, ks->leaves, ks->nleaves, sizeof(serial), keysnap_serial_cmp) != NULL;
}

/* Whether serial is a keyring, by its description; a key that is not is remembered as a leaf. */
static bool
keyset_describe_keyring(struct keyset *ks, int32_t serial)
{
	struct keydesc d;
	bool ring;
	size_t i;

	if (keydesc_get(&d, serial) < 0)
		return false;	/* gone or not viewable: nothing to follow */
	ring = strcmp(d.type, "keyring") == 0;
	keydesc_free(&d);
	if (ring)
		return true;
	for (i = ks->nleaves; i > 0 && ks->leaves[i - 1] > serial; i--)
		;
	ks->leaves = xreallocarray(ks->leaves, ks->nleaves + 1, sizeof(*ks->leaves));
	memmove(ks->leaves + i + 1, ks->leaves + i, (ks->nleaves - i) * sizeof(*ks->leaves));
	ks->leaves[i] = serial;
	ks->nleaves++;
	return false;
}

bool
keyset_would_follow(struct keyset *ks, const struct config *cfg, int32_t serial)
{
	if (keyset_find(ks, serial) != NULL)
		return false;
	if (!keyset_is_leaf(ks, serial) && keyset_describe_keyring(ks, serial))
		return cfg->recursive;
	return cfg->follow && keyset_is_leaf(ks, serial);
}

struct walk {
	struct keyset *ks;
	const struct config *cfg;
	const char *proc;
	keyent_fn *add;
	void *ctx;
	bool *seen;		/* per entry, grown with the set */
	size_t nseen;
	int32_t *leaves;	/* the leaves met on this walk: the cache for the next */
	size_t nleaves;
	int failed;
};

static void
walk_mark(struct walk *wk, size_t i)
{
	if (i >= wk->nseen) {
		wk->seen = xreallocarray(wk->seen, i + 1, sizeof(*wk->seen));
		memset(wk->seen + wk->nseen, 0, (i + 1 - wk->nseen) * sizeof(*wk->seen));
		wk->nseen = i + 1;
	}
	wk->seen[i] = true;
}

static bool
walk_seen(const struct walk *wk, size_t i)
{
	return i < wk->nseen && wk->seen[i];
}

/* What serial, linked in a followed keyring and not followed, is: 1 a keyring, 0 a key that is
 * not (remembered for the next walk), -1 unknown (not described: it may be later). */
static int
walk_kind(struct walk *wk, int32_t serial)
{
	if (!keyset_is_leaf(wk->ks, serial) && keyset_describe_keyring(wk->ks, serial))
		return 1;
	if (!keyset_is_leaf(wk->ks, serial))
		return -1;
	wk->leaves = xreallocarray(wk->leaves, wk->nleaves + 1, sizeof(*wk->leaves));
	wk->leaves[wk->nleaves++] = serial;
	return 0;
}

/* Follow serial, linked in entry parent, under its watch: the new entry's index. */
static size_t
walk_follow(struct walk *wk, size_t parent, int32_t serial)
{
	struct keyent *e = keyset_push(wk->ks, serial, wk->ks->v[parent].sw, true);
	size_t j = (size_t)(e - wk->ks->v);

	walk_mark(wk, j);
	/* Watched before it is read: a change in between is reported, never lost. */
	if (wk->add && wk->add(wk->ctx, e) < 0)
		wk->failed = -1;
	keysnap_take(&wk->ks->v[j].snap, serial, wk->proc);
	DEBUG(DEBUG_KEYS, "following %d, linked in %d, under %s", (int)serial,
	    (int)wk->ks->v[parent].serial, wk->ks->v[j].sw->w->target);
	return j;
}

/* Follow what is linked in entry i, depth first: with --recursive the keyrings, visiting each
 * keyring and describing each key once; with --follow the other keys. */
static void
walk(struct walk *wk, size_t i)
{
	struct keyent *e;
	size_t k, j, n = wk->ks->v[i].snap.nlinks;
	int32_t *links = xcalloc(n, sizeof(*links));
	int kind;

	if (n > 0)
		memcpy(links, wk->ks->v[i].snap.links, n * sizeof(*links));
	for (k = 0; k < n; k++) {
		if ((e = keyset_find(wk->ks, links[k])) != NULL) {
			j = (size_t)(e - wk->ks->v);
			if (walk_seen(wk, j))
				continue;
			walk_mark(wk, j);
			walk(wk, j);
			continue;
		}
		kind = walk_kind(wk, links[k]);
		if (kind < 0 || (kind ? !wk->cfg->recursive : !wk->cfg->follow))
			continue;
		j = walk_follow(wk, i, links[k]);
		if (kind)
			walk(wk, j);
	}
	free(links);
}

/* Forget the followed keys that are gone: keys come and go below a watched keyring, and the set
 * must not grow with them. Watched keys stay, gone or not. */
static void
keyset_compact(struct keyset *ks)
{
	size_t i, n = 0;

	for (i = 0; i < ks->n; i++) {
		if (ks->v[i].child && ks->v[i].gone)
			keysnap_free(&ks->v[i].snap);
		else
			ks->v[n++] = ks->v[i];
	}
	ks->n = n;
}

int
keyset_children(struct keyset *ks, const struct config *cfg, const char *proc,
    keyent_fn *add, keyent_fn *drop, void *ctx)
{
	struct walk wk = { ks, cfg, proc, add, ctx, NULL, 0, NULL, 0, 0 };
	size_t i, top = ks->n;

	if (!keyset_follows_links(cfg))
		return 0;
	for (i = 0; i < top; i++) {
		if (ks->v[i].child || ks->v[i].gone || walk_seen(&wk, i))
			continue;
		walk_mark(&wk, i);
		walk(&wk, i);
	}
	for (i = 0; i < ks->n; i++) {
		if (!ks->v[i].child || ks->v[i].gone || walk_seen(&wk, i))
			continue;
		DEBUG(DEBUG_KEYS, "no longer following %d: not linked below %s",
		    (int)ks->v[i].serial, ks->v[i].sw->w->target);
		if (drop)
			drop(ctx, &ks->v[i]);
		ks->v[i].gone = true;
		keysnap_free(&ks->v[i].snap);
	}
	/* Keep only the leaves still linked: a serial can be reused once its key is collected. */
	if (wk.nleaves > 1)
		qsort(wk.leaves, wk.nleaves, sizeof(*wk.leaves), keysnap_serial_cmp);
	free(ks->leaves);
	ks->leaves = wk.leaves;
	ks->nleaves = wk.nleaves;
	free(wk.seen);
	keyset_compact(ks);
	return wk.failed;
}

void
keyset_refresh(struct keyset *ks, struct source *src, const char *proc, bool removals)
{
	struct keysnap fresh;
	size_t i;

	for (i = 0; i < ks->n; i++) {
		struct keyent *e = &ks->v[i];
		const struct watch *w = e->sw->w;

		if (e->gone)
			continue;
		keysnap_take(&fresh, e->serial, proc);
		if (!keysnap_exists(&fresh) && removals) {
			/* A followed key that went is no news of its own. */
			e->gone = true;
			if (!e->child)
				source_gone(src, e->sw, "watched key is gone");
			else
				DEBUG(DEBUG_KEYS, "no longer following %d: gone", (int)e->serial);
			keysnap_free(&fresh);
			continue;
		}
		if (keysnap_exists(&fresh))
			keysnap_diff(&e->snap, &fresh, w, src->sink, &ks->names);
		keysnap_carry(&fresh, &e->snap);
		keysnap_free(&e->snap);
		e->snap = fresh;
	}
}

int
keyset_check(const struct cond *c)
{
	int32_t *links = NULL;
	struct keydesc d;
	long n, i;
	bool found = false, unknown = false;

	if (c->kind != COND_KEY && c->kind != COND_NO_KEY)
		return WAIT_PENDING;
	if ((n = keyctl_read_alloc(c->keyring, (void **)&links)) < 0)
		return errno == ENOKEY || errno == EKEYREVOKED || errno == EKEYEXPIRED ?
		    WAIT_GONE : WAIT_PENDING;
	for (i = 0; i < n / (long)sizeof(int32_t) && !found; i++) {
		if (keydesc_get(&d, links[i]) < 0) {
			/* A revoked or expired key cannot be used. After another failure (no
			 * permission to view it), the key may be the one sought. */
			unknown = unknown ||
			    (errno != EKEYREVOKED && errno != EKEYEXPIRED && errno != ENOKEY);
			continue;
		}
		found = strcmp(d.type, c->type) == 0 && strcmp(d.description, c->desc) == 0;
		keydesc_free(&d);
	}
	free(links);
	if (c->kind == COND_KEY)
		return found ? WAIT_MET : WAIT_PENDING;
	/* --no-key holds only when every key linked there is known not to be the one. */
	return found || unknown ? WAIT_PENDING : WAIT_MET;
}

/* One present record: key in keyring (0: the watched key itself), named from snap if given. */
static void
keyset_present_one(struct source *src, const struct watch *w, int32_t keyring, int32_t key,
    const struct keysnap *snap)
{
	struct event ev;
	struct keydesc d;
	bool described = snap == NULL && keydesc_get(&d, key) == 0;

	source_event_init(&ev, EV_KEY, KEY_PRESENT, w);
	ev.u.key.keyring = keyring;
	ev.u.key.key = key;
	if (snap) {
		ev.u.key.type = snap->type;
		ev.u.key.description = snap->description;
		ev.u.key.has_attr = snap->err == 0;
		ev.u.key.perm = snap->perm;
		ev.u.key.uid = snap->uid;
		ev.u.key.gid = snap->gid;
	} else if (described) {
		ev.u.key.type = d.type;
		ev.u.key.description = d.description;
		ev.u.key.has_attr = true;
		ev.u.key.perm = d.perm;
		ev.u.key.uid = d.uid;
		ev.u.key.gid = d.gid;
	}
	src->sink->emit(src->sink, &ev);
	if (described)
		keydesc_free(&d);
}

/* The keys linked in entry i, each followed by what is linked in it if it is followed too. Keyrings
 * cannot hold themselves (the kernel refuses such links); depth bounds stale snapshots. */
static void
keyset_present_links(struct keyset *ks, struct source *src, size_t i, size_t depth)
{
	const struct keyent *e = &ks->v[i];
	struct keyent *c;
	size_t k;

	for (k = 0; k < e->snap.nlinks; k++) {
		c = keyset_find(ks, e->snap.links[k]);
		keyset_present_one(src, e->sw->w, e->serial, e->snap.links[k],
		    c ? &c->snap : NULL);
		if (c && c->child && depth < ks->n)
			keyset_present_links(ks, src, (size_t)(c - ks->v), depth + 1);
	}
}

void
keyset_present(struct keyset *ks, struct source *src)
{
	size_t i;

	for (i = 0; i < ks->n; i++) {
		if (ks->v[i].child || ks->v[i].gone)
			continue;
		keyset_present_one(src, ks->v[i].sw->w, 0, ks->v[i].serial, &ks->v[i].snap);
		keyset_present_links(ks, src, i, 0);
	}
}

void
keyset_free(struct keyset *ks)
{
	size_t i;

	for (i = 0; i < ks->n; i++)
		keysnap_free(&ks->v[i].snap);
	free(ks->v);
	free(ks->leaves);
	keynames_free(&ks->names);
	memset(ks, 0, sizeof(*ks));
}
