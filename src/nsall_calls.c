/*
 * -N all: the changes made in a namespace before it was watched. No notification tells of a new
 * mount namespace, and one may have its mounts made, and be gone again, before a listing finds it
 * (container runtimes make namespaces in parallel and mount at once). Such a change has no record:
 * the namespace had no mark, and its first table read takes what it did for its state. The
 * capture notes the namespace in which each call that may attach, detach or move a mount begins
 * (capture_ns_calls()), at its entry, which is written before the call changes anything. A call
 * read before a namespace was watched, or by the first drain after its source opened, is such a
 * change:
 *
 * - in a namespace watched now: a loss after its ns_new;
 * - in one a listing finds gone, or without a process we may look into: a loss of that namespace
 *   (its inode number; no cgroup), which has no ns_new;
 * - in one a listing finds with no TARGET a directory there: its own, if it was listed before
 *   the call was read (it held the inode number since); else a loss all the same. The inode
 *   number of a namespace gone is taken again at once, and only a namespace we hold cannot go.
 *
 * A call the capture may have missed (its ring full, a record still being written as a namespace
 * opened) is a loss of no namespace, and each namespace found next has one after its ns_new.
 * Without the capture, each namespace found after the first listing has a loss after its ns_new,
 * and one gone before a listing finds it is not seen at all. Remounts and propagation changes
 * made before a namespace was watched are its state as first read, as at the start.
 */
#include <stdlib.h>
#include <string.h>

#include "nsall.h"
#include "xalloc.h"

/* The namespace of ino, watched now; NULL if none. Its inode number is its own: we hold it. */
static struct nsall_ns *
calls_watched(const struct nsall *a, uint64_t ino)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		if (a->ns[i]->ns.ino == ino)
			return a->ns[i];
	return NULL;
}

/* The entry of ino's calls, or NULL. */
static struct capture_nscalls *
calls_of(const struct nsall *a, uint64_t ino)
{
	size_t i;

	for (i = 0; i < a->ncalls; i++)
		if (a->calls[i].ns == ino)
			return &a->calls[i];
	return NULL;
}

static void
calls_drop(struct nsall *a, struct capture_nscalls *c)
{
	*c = a->calls[--a->ncalls];
}

void
nsall_calls_start(struct nsall *a)
{
	a->ncalls = 0;
	a->calls_missed = false;
	if (a->cap) {
		capture_drain(a->cap);
		capture_ns_calls_clear(a->cap);
		a->calls_losses = capture_losses(a->cap);
	}
	a->started = true;
}

void
nsall_calls_take(struct nsall *a)
{
	const struct capture_nscalls *v;
	struct capture_nscalls *c;
	size_t n, i;
	bool lost;

	if (a->cap == NULL)
		return;
	v = capture_ns_calls(a->cap, &n, &lost);
	if (lost || capture_losses(a->cap) != a->calls_losses)
		a->calls_missed = true;
	a->calls_losses = capture_losses(a->cap);
	for (i = 0; i < n; i++) {
		if (calls_watched(a, v[i].ns))
			continue;
		if ((c = calls_of(a, v[i].ns)) == NULL) {
			a->calls = xreallocarray(a->calls, a->ncalls + 1, sizeof(*a->calls));
			c = &a->calls[a->ncalls++];
			*c = v[i];
		}
		c->last = v[i].last;
	}
	capture_ns_calls_clear(a->cap);
}

/* The idle entry of ino that the last listing had, or NULL. */
static const struct nsall_idle *
calls_idle(const struct nsall *a, uint64_t ino)
{
	size_t i;

	for (i = 0; i < a->nidle; i++)
		if (a->idle[i].ino == ino && a->idle[i].listed)
			return &a->idle[i];
	return NULL;
}

bool
nsall_calls_due(const struct nsall *a)
{
	size_t i;

	for (i = 0; i < a->ncalls; i++)
		if (calls_idle(a, a->calls[i].ns) == NULL)
			return true;
	return a->calls_missed;
}

void
nsall_calls_opened(struct nsall *a, struct nsall_ns *e)
{
	struct capture_nscalls *c;

	if (a->cap == NULL) {
		e->lost_before = a->started;
		return;
	}
	/* Every call that changed its mounts before its table was read has its entry read now. */
	capture_drain(a->cap);
	nsall_calls_take(a);
	if ((c = calls_of(a, e->ns.ino)) != NULL) {
		e->lost_before = a->started;
		calls_drop(a, c);
	}
	/* A record still being written holds back those after it. */
	if (a->started && (a->calls_missed || capture_stalled(a->cap)))
		e->lost_before = true;
}

/* The backend named in a meta record of a namespace not watched. */
static const char *
calls_backend(const struct nsall *a)
{
	if (a->group)
		return "fanotify";
	if (a->cfg->backend)
		return a->cfg->backend->name;
	return a->n ? nsall_backend_name(a) : "mountinfo";
}

/* A loss of the namespace ino (0: of none) for each mounts TARGET. */
static void
calls_loss(struct nsall *a, uint64_t ino)
{
	const struct watch *w;
	struct event ev;
	size_t i;

	for (i = 0; i < a->cfg->nwatches; i++) {
		w = &a->cfg->watches[i];
		if (w->type != EV_MOUNT || w->internal)
			continue;
		source_event_init(&ev, EV_META, META_LOSS, w);
		ev.mnt_ns = ino;
		ev.u.meta.lost = -1;
		ev.u.meta.backend = calls_backend(a);
		a->sink->emit(a->sink, &ev);
	}
}

void
nsall_calls_settle(struct nsall *a, uint64_t before)
{
	const struct nsall_idle *idle;
	struct capture_nscalls *c;
	size_t i = 0;

	while (i < a->ncalls) {
		c = &a->calls[i];
		if (c->first > before) {
			i++;
			continue;
		}
		idle = calls_idle(a, c->ns);
		if (calls_watched(a, c->ns) == NULL &&
		    (idle == NULL || idle->pidless || c->first <= idle->since))
			calls_loss(a, c->ns);
		calls_drop(a, c);
	}
	if (a->calls_missed)
		calls_loss(a, 0);
	a->calls_missed = false;
}
