#include <stdlib.h>
#include <string.h>

#include "keyset.h"
#include "util.h"

static struct keyent *
push(struct keyset *ks, int32_t serial, size_t watch, bool child, const char *proc)
{
	struct keyent *e;

	ks->v = xreallocarray(ks->v, ks->n + 1, sizeof(*ks->v));
	e = &ks->v[ks->n++];
	memset(e, 0, sizeof(*e));
	e->serial = serial;
	e->watch = watch;
	e->child = child;
	keysnap_take(&e->snap, serial, proc);
	return e;
}

void
keyset_init(struct keyset *ks, const struct config *cfg, const char *proc)
{
	size_t i;

	memset(ks, 0, sizeof(*ks));
	for (i = 0; i < cfg->nwatches; i++)
		if (cfg->watches[i].type == EV_KEY)
			push(ks, cfg->watches[i].key, i, false, proc);
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

struct walk {
	struct keyset *ks;
	const char *proc;
	keyent_fn *add;
	void *ctx;
	bool *seen;		/* per entry, grown with the set */
	size_t nseen;
	int failed;
};

static void
mark(struct walk *wk, size_t i)
{
	if (i >= wk->nseen) {
		wk->seen = xreallocarray(wk->seen, i + 1, sizeof(*wk->seen));
		memset(wk->seen + wk->nseen, 0, (i + 1 - wk->nseen) * sizeof(*wk->seen));
		wk->nseen = i + 1;
	}
	wk->seen[i] = true;
}

static bool
seen(const struct walk *wk, size_t i)
{
	return i < wk->nseen && wk->seen[i];
}

/* Follow the keyrings linked in entry i, depth first; each keyring once. */
static void
walk(struct walk *wk, size_t i)
{
	struct key_snap probe;
	struct keyent *e;
	size_t k, j, n = wk->ks->v[i].snap.nlinks;
	int32_t *links = xcalloc(n, sizeof(*links));

	memcpy(links, wk->ks->v[i].snap.links, n * sizeof(*links));
	for (k = 0; k < n; k++) {
		if ((e = keyset_find(wk->ks, links[k])) != NULL) {
			j = (size_t)(e - wk->ks->v);
			if (seen(wk, j))
				continue;
			mark(wk, j);
			walk(wk, j);
			continue;
		}
		keysnap_take(&probe, links[k], wk->proc);
		if (probe.exists && probe.keyring) {
			e = push(wk->ks, links[k], wk->ks->v[i].watch, true, wk->proc);
			j = (size_t)(e - wk->ks->v);
			mark(wk, j);
			if (wk->add(wk->ctx, e) < 0)
				wk->failed = -1;
			walk(wk, j);
		}
		keysnap_free(&probe);
	}
	free(links);
}

int
keyset_children(struct keyset *ks, const struct config *cfg, const char *proc,
    keyent_fn *add, keyent_fn *drop, void *ctx)
{
	struct walk wk = { ks, proc, add, ctx, NULL, 0, 0 };
	size_t i, top = ks->n;

	if (!cfg->recursive)
		return 0;
	for (i = 0; i < top; i++) {
		if (ks->v[i].child || ks->v[i].gone || seen(&wk, i))
			continue;
		mark(&wk, i);
		walk(&wk, i);
	}
	for (i = 0; i < ks->n; i++) {
		if (!ks->v[i].child || ks->v[i].gone || seen(&wk, i))
			continue;
		drop(ctx, &ks->v[i]);
		ks->v[i].gone = true;
		keysnap_free(&ks->v[i].snap);
	}
	free(wk.seen);
	return wk.failed;
}

size_t
keyset_refresh(struct keyset *ks, const struct config *cfg, const char *proc, struct sink *sink,
    const char *backend, bool removals)
{
	struct key_snap fresh;
	size_t i, went = 0;

	for (i = 0; i < ks->n; i++) {
		struct keyent *e = &ks->v[i];
		const struct watch *w = &cfg->watches[e->watch];

		if (e->gone)
			continue;
		keysnap_take(&fresh, e->serial, proc);
		if (!fresh.exists && removals) {
			/* A followed child keyring that went is no news of its own. */
			e->gone = true;
			if (!e->child) {
				went++;
				event_meta(sink, w, "keys", META_REMOVAL, backend, "watched key is gone");
			}
			keysnap_free(&fresh);
			continue;
		}
		if (fresh.exists)
			keysnap_diff(&e->snap, &fresh, w, sink);
		keysnap_free(&e->snap);
		e->snap = fresh;
	}
	return went;
}

void
keyset_free(struct keyset *ks)
{
	size_t i;

	for (i = 0; i < ks->n; i++)
		keysnap_free(&ks->v[i].snap);
	free(ks->v);
	ks->v = NULL;
	ks->n = 0;
}
