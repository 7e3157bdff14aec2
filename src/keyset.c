#include <errno.h>
#include <keyutils.h>
#include <stdlib.h>
#include <string.h>

#include "keyset.h"
#include "util.h"

static struct keyent *
push(struct keyset *ks, int32_t serial, struct source_watch *sw, bool child, const char *proc)
{
	struct keyent *e;

	ks->v = xreallocarray(ks->v, ks->n + 1, sizeof(*ks->v));
	e = &ks->v[ks->n++];
	memset(e, 0, sizeof(*e));
	e->serial = serial;
	e->sw = sw;
	e->child = child;
	keysnap_take(&e->snap, serial, proc);
	return e;
}

void
keyset_init(struct keyset *ks, struct source *src, const char *proc)
{
	size_t i;

	memset(ks, 0, sizeof(*ks));
	for (i = 0; i < src->nwatches; i++)
		push(ks, src->watches[i].w->key, &src->watches[i], false, proc);
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
			e = push(wk->ks, links[k], wk->ks->v[i].sw, true, wk->proc);
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

void
keyset_refresh(struct keyset *ks, struct source *src, const char *proc, bool removals)
{
	struct key_snap fresh;
	size_t i;

	for (i = 0; i < ks->n; i++) {
		struct keyent *e = &ks->v[i];
		const struct watch *w = e->sw->w;

		if (e->gone)
			continue;
		keysnap_take(&fresh, e->serial, proc);
		if (!fresh.exists && removals) {
			/* A followed child keyring that went is no news of its own. */
			e->gone = true;
			if (!e->child)
				source_gone(src, e->sw, "watched key is gone");
			keysnap_free(&fresh);
			continue;
		}
		if (fresh.exists)
			keysnap_diff(&e->snap, &fresh, w, src->sink);
		keysnap_free(&e->snap);
		e->snap = fresh;
	}
}

/* Whether "type;uid;gid;perm;description" (KEYCTL_DESCRIBE) names the condition's key. */
static bool
describes(const char *d, const struct cond *c)
{
	size_t tl = strlen(c->type);
	int semis = 0;

	if (strncmp(d, c->type, tl) != 0 || d[tl] != ';')
		return false;
	while (*d && semis < 4)
		semis += *d++ == ';';
	return semis == 4 && strcmp(d, c->desc) == 0;
}

int
keyset_check(const struct cond *c)
{
	int32_t *links = NULL;
	char *desc;
	long n, i;
	bool found = false;

	if (c->kind != COND_KEY && c->kind != COND_NO_KEY)
		return WAIT_PENDING;
	if ((n = keyctl_read_alloc(c->keyring, (void **)&links)) < 0)
		return errno == ENOKEY || errno == EKEYREVOKED || errno == EKEYEXPIRED ? WAIT_GONE : WAIT_PENDING;
	for (i = 0; i < n / (long)sizeof(int32_t) && !found; i++) {
		if (keyctl_describe_alloc(links[i], &desc) < 0)
			continue;
		found = describes(desc, c);
		free(desc);
	}
	free(links);
	return found == (c->kind == COND_KEY) ? WAIT_MET : WAIT_PENDING;
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
