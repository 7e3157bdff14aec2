#include <stdlib.h>

#include "nscalls.h"
#include "xalloc.h"

/* The entry of ino's calls, or NULL. */
static struct capture_nscalls *
nscalls_of(const struct nscalls *c, uint64_t ino)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (c->v[i].ns == ino)
			return &c->v[i];
	return NULL;
}

static void
nscalls_drop(struct nscalls *c, struct capture_nscalls *e)
{
	*e = c->v[--c->n];
}

static enum nscalls_known
nscalls_known(const struct nscalls_ask *q, uint64_t ino, uint64_t *since)
{
	*since = 0;
	return q->known(q->ctx, ino, since);
}

void
nscalls_start(struct nscalls *c, struct capture *cap)
{
	c->n = 0;
	c->missed = false;
	if (cap) {
		capture_drain(cap);
		capture_ns_calls_clear(cap);
		c->losses = capture_losses(cap);
	}
	c->started = true;
}

void
nscalls_take(struct nscalls *c, struct capture *cap, const struct nscalls_ask *q)
{
	const struct capture_nscalls *v;
	struct capture_nscalls *e;
	uint64_t since;
	size_t n, i;
	bool lost;

	if (cap == NULL)
		return;
	v = capture_ns_calls(cap, &n, &lost);
	if (lost || capture_losses(cap) != c->losses)
		c->missed = true;
	c->losses = capture_losses(cap);
	for (i = 0; i < n; i++) {
		if (nscalls_known(q, v[i].ns, &since) == NSCALLS_WATCHED)
			continue;
		if ((e = nscalls_of(c, v[i].ns)) == NULL) {
			c->v = xreallocarray(c->v, c->n + 1, sizeof(*c->v));
			e = &c->v[c->n++];
			*e = v[i];
		}
		e->last = v[i].last;
	}
	capture_ns_calls_clear(cap);
}

bool
nscalls_due(const struct nscalls *c, const struct nscalls_ask *q)
{
	enum nscalls_known k;
	uint64_t since;
	size_t i;

	for (i = 0; i < c->n; i++) {
		k = nscalls_known(q, c->v[i].ns, &since);
		if (k != NSCALLS_IDLE && k != NSCALLS_PIDLESS)
			return true;
	}
	return c->missed;
}

bool
nscalls_opened(struct nscalls *c, struct capture *cap, uint64_t ino, const struct nscalls_ask *q)
{
	struct capture_nscalls *e;
	bool lost = false;

	if (cap == NULL)
		return c->started;
	/* Every call that changed its mounts before its table was read has its entry read now. */
	capture_drain(cap);
	nscalls_take(c, cap, q);
	if ((e = nscalls_of(c, ino)) != NULL) {
		lost = c->started;
		nscalls_drop(c, e);
	}
	/* A record still being written holds back those after it. */
	return lost || (c->started && (c->missed || capture_stalled(cap)));
}

void
nscalls_settle(struct nscalls *c, uint64_t before, const struct nscalls_ask *q)
{
	struct capture_nscalls *e;
	enum nscalls_known k;
	uint64_t since;
	size_t i = 0;

	while (i < c->n) {
		e = &c->v[i];
		if (e->first > before) {
			i++;
			continue;
		}
		k = nscalls_known(q, e->ns, &since);
		if (k == NSCALLS_UNKNOWN || k == NSCALLS_PIDLESS ||
		    (k == NSCALLS_IDLE && e->first <= since))
			q->loss(q->ctx, e->ns);
		nscalls_drop(c, e);
	}
	if (c->missed)
		q->loss(q->ctx, 0);
	c->missed = false;
}

void
nscalls_free(struct nscalls *c)
{
	free(c->v);
	c->v = NULL;
	c->n = 0;
}
