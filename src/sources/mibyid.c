/*
 * The mountinfo source's table kept by mount id, with the capture, where statmount(2) says all
 * that a mountinfo line does (Linux 6.13). The mountinfo signal still says that the table
 * changed; what changed is read from the kernel's ids and the calls the capture kept, at a cost of
 * the changes, not of the table:
 *
 * - Mounts made: listmount(2) of the ids above the newest one listed (unique ids only grow), each
 *   read by statmount(2). A mount made before and attached since (open_tree(2), fsmount(2)) has
 *   an older id; only move_mount(2) attaches one, and that call takes the whole read (below).
 * - Mounts gone: those at the place of each kept umount2(2) (and below it, for a lazy one), each
 *   asked by id: ENOENT is the kernel's word that it is gone. A place is only a hint: the check
 *   below makes it proof.
 * - The check: the namespace's own count of mounts (NS_MNT_GET_INFO, Linux 6.12), read after the
 *   rest, must be the table's after those. A mount gone otherwise (propagation, expiry, a call the
 *   capture does not place) makes it differ: then every id is listed (no statmount(2) of a mount
 *   known), and the mounts not listed are gone. A mount made meanwhile and another gone unseen may
 *   make it agree by chance; the one made raises the signal again, and at that read they differ.
 * - Flips and moves change no count: while the capture keeps a flip or a move call (failed ones
 *   aside), or may have missed one, the whole table is read, as the mountinfo source does without
 *   this. So is it where a mount gone from a peer group leaves a member whose options or
 *   propagation changed (slaves handed to another master), and, while the table has slaves, at
 *   each call elsewhere that may take their master from them (an unmount, a propagation change).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capjoin.h"
#include "debug.h"
#include "mibyid.h"
#include "path.h"
#include "xalloc.h"

/* What a step found: the mounts made, read; the ids of those gone. */
struct found {
	struct mounttab_entry **made;
	size_t nmade;
	struct mounttab_ids gone;
	bool whole;		/* a change needs the whole read */
};

static void
add_id(void *p, uint64_t id)
{
	mounttab_ids_push(p, id);
}

static bool
is_slave(const struct mounttab_entry *e)
{
	return strstr(e->propagation, "master:") != NULL;
}

static void
found_free(struct found *f)
{
	size_t i;

	for (i = 0; i < f->nmade; i++)
		mounttab_entry_free(f->made[i]);
	free(f->made);
	free(f->gone.v);
	*f = (struct found){ 0 };
}

/* The namespace's count of mounts; -1 where not known. */
static long long
ns_count(const struct mibyid *b)
{
	uint64_t n;

	return b->nsfd >= 0 && statmount_ns_mounts(b->nsfd, &n) == 0 ? (long long)n : -1;
}

int
mibyid_read_all(struct mibyid *b, struct mounttab *t, const struct capture *cap)
{
	long long before = ns_count(b), after;
	size_t i;

	b->losses = capture_losses(cap);
	if (statmount_read_table(&b->sm, t) < 0)
		return -1;
	after = ns_count(b);
	b->counted = before >= 0 && before == after && (size_t)after == t->count;
	b->slaves = 0;
	for (i = 0; i < t->cap; i++) {
		if (t->slot[i] && t->slot[i]->id > b->top)
			b->top = t->slot[i]->id;
		b->slaves += t->slot[i] && is_slave(t->slot[i]);
	}
	return 0;
}

int
mibyid_open(struct mibyid *b, struct mounttab *t, const struct capture *cap)
{
	struct mounttab_entry *root = NULL, *e;
	bool partial;
	size_t i;

	*b = (struct mibyid){ .nsfd = -1 };
	if (statmount_probe() < 0)
		return -1;
	b->nsfd = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
	if (mibyid_read_all(b, t, cap) < 0)
		goto fail;
	/* Our root's mount has a source and options: what statmount(2) leaves out, it cannot say. */
	for (i = 0; i < t->cap; i++)
		if (t->slot[i] && (root == NULL || t->slot[i]->id < root->id))
			root = t->slot[i];
	if (root == NULL || (e = statmount_one(&b->sm, root->id)) == NULL)
		goto fail;
	partial = b->sm.partial;
	mounttab_entry_free(e);
	if (!partial)
		return 0;
	errno = EOPNOTSUPP;
fail:
	mounttab_clear(t);
	mibyid_close(b);
	return -1;
}

/*
 * Whether a kept call may have changed what no id or count shows: a flip, or a move or attach of
 * an old mount in our namespace; or one may be missing. The detach calls into *detach.
 */
static bool
unsure(const struct mibyid *b, const struct capture *cap, uint64_t mnt_ns,
    const struct capjoin_call **detach, size_t *ndetach)
{
	const struct capjoin_call *calls, *c;
	const struct capture_call *f;
	size_t n, i;

	*ndetach = 0;
	if (capture_losses(cap) != b->losses || capture_flips_lost(cap) ||
	    (calls = capture_calls(cap, &n)) == NULL)
		return true;
	for (i = 0; i < n; i++) {
		c = &calls[i];
		if (!c->open && !c->ok)
			continue;
		if ((c->kinds & CAPJOIN_MOVE) && (c->mnt_ns == 0 || c->mnt_ns == mnt_ns))
			return true;
		/* One that leaves a peer group elsewhere hands its slaves here to another master. */
		if ((c->kinds & CAPJOIN_DETACH) && c->mnt_ns != mnt_ns && b->slaves > 0)
			return true;
		if ((c->kinds & CAPJOIN_DETACH) && c->path_len > 0 && c->path[0] == '/')
			detach[(*ndetach)++] = c;
	}
	for (i = 0; i < capture_nflips(cap); i++) {
		f = capture_flip(cap, i);
		if ((f->done && !f->ok) || (f->elsewhere && !f->sb && !(f->props && b->slaves > 0)))
			continue;
		return true;
	}
	return false;
}

/* Read each listed id that t does not have into f; -1 with errno set. */
static int
read_made(struct mibyid *b, const struct mounttab *t, const struct mounttab_ids *ids,
    struct found *f)
{
	struct mounttab_entry *e;
	size_t i;

	for (i = 0; i < ids->n; i++) {
		if (ids->v[i] > b->top)
			b->top = ids->v[i];
		if (mounttab_find(t, ids->v[i]) != NULL)
			continue;
		if ((e = statmount_one(&b->sm, ids->v[i])) == NULL) {
			/* Gone since it was listed. */
			if (errno == ENOENT)
				continue;
			return -1;
		}
		f->made = xreallocarray(f->made, f->nmade + 1, sizeof(*f->made));
		f->made[f->nmade++] = e;
	}
	return 0;
}

/* Whether call c may have unmounted e. */
static bool
unmounts(const struct capjoin_call *c, const struct mounttab_entry *e)
{
	return strcmp(c->path, e->target) == 0 || (c->below && path_within(c->path, e->target));
}

/* The mounts of t at the place of a detach call that are gone, into f; -1 with errno set. */
static int
read_gone(struct mibyid *b, const struct mounttab *t, const struct capjoin_call **detach,
    size_t n, struct found *f)
{
	struct mounttab_ids at = { NULL, 0, 0 };
	size_t i, k;
	int r = 0;

	for (i = 0; n > 0 && i < t->cap; i++)
		for (k = 0; t->slot[i] && k < n; k++)
			if (unmounts(detach[k], t->slot[i])) {
				add_id(&at, t->slot[i]->id);
				break;
			}
	for (i = 0; i < at.n && r >= 0; i++)
		if ((r = statmount_gone(&b->sm, at.v[i])) == 1)
			add_id(&f->gone, at.v[i]);
	free(at.v);
	return r < 0 ? -1 : 0;
}

static bool
is_gone(const struct found *f, uint64_t id)
{
	size_t i;

	for (i = 0; i < f->gone.n; i++)
		if (f->gone.v[i] == id)
			return true;
	return false;
}

/* The context of regroup(). */
struct regroup {
	struct mibyid *b;
	const struct mounttab *t;
	struct found *f;
};

/* A member of a group that lost one: if it is not gone too, and not as cached, read the whole. */
static void
regroup(void *p, uint64_t id)
{
	struct regroup *r = p;
	const struct mounttab_entry *e = mounttab_find(r->t, id);

	if (e && !is_gone(r->f, id) && statmount_same_options(&r->b->sm, e) != 1)
		r->f->whole = true;
}

/* The peer groups of the mounts gone: those that others name are read again. */
static void
check_groups(struct mibyid *b, const struct mounttab *t, struct found *f)
{
	struct regroup r = { b, t, f };
	const struct mounttab_entry *e;
	size_t i, k, n;
	uint64_t g;

	for (i = 0; i < f->gone.n && !f->whole; i++) {
		e = mounttab_find(t, f->gone.v[i]);
		if ((g = mounttab_peer_group(e)) == 0)
			continue;
		for (k = n = 0; k < f->gone.n; k++)
			n += mounttab_peer_group(mounttab_find(t, f->gone.v[k])) == g;
		if (mounttab_group_size(t, g) > n)
			mounttab_each_in_group(t, g, regroup, &r);
	}
}

/* List every id: those t lacks are made, those it has and the list lacks are gone. */
static int
list_all(struct mibyid *b, const struct mounttab *t, struct found *f)
{
	struct mounttab_ids ids = { NULL, 0, 0 };
	long long before = ns_count(b), after;
	size_t i;
	int r;

	found_free(f);
	for (i = 0; i < t->cap; i++)
		if (t->slot[i])
			t->slot[i]->mark = false;
	if ((r = statmount_each_after(&b->sm, 0, add_id, &ids)) == 0) {
		for (i = 0; i < ids.n; i++)
			if (mounttab_find(t, ids.v[i]))
				mounttab_find(t, ids.v[i])->mark = true;
		r = read_made(b, t, &ids, f);
	}
	free(ids.v);
	if (r < 0)
		return -1;
	for (i = 0; i < t->cap; i++)
		if (t->slot[i] && !t->slot[i]->mark)
			add_id(&f->gone, t->slot[i]->id);
	after = ns_count(b);
	b->counted = before >= 0 && before == after &&
	    (size_t)after == t->count + f->nmade - f->gone.n;
	return 0;
}

/* Report what f found to fn, and put the mounts made in t. */
static void
apply(struct mibyid *b, struct mounttab *t, struct found *f, mounttab_change_fn *fn, void *ctx)
{
	struct mounttab_change ch;
	size_t i;

	for (i = 0; i < f->gone.n; i++) {
		ch = (struct mounttab_change){ MOUNTTAB_UNMOUNT, mounttab_find(t, f->gone.v[i]), NULL };
		fn(ctx, &ch);
		b->slaves -= is_slave(ch.old);
		add_id(&b->gone, f->gone.v[i]);
	}
	for (i = 0; i < f->nmade; i++) {
		mounttab_insert(t, f->made[i]);
		b->slaves += is_slave(f->made[i]);
		ch = (struct mounttab_change){ MOUNTTAB_MOUNT, NULL, f->made[i] };
		fn(ctx, &ch);
	}
	f->nmade = 0;
}

int
mibyid_step(struct mibyid *b, struct mounttab *t, const struct capture *cap, uint64_t mnt_ns,
    mounttab_change_fn *fn, void *ctx)
{
	const struct capjoin_call **detach;
	struct mounttab_ids ids = { NULL, 0, 0 };
	struct found f = { 0 };
	long long count;
	size_t ncalls, n;
	int r = 0;

	(void)capture_calls(cap, &ncalls);
	detach = xcalloc(ncalls + 1, sizeof(*detach));
	if (unsure(b, cap, mnt_ns, detach, &n)) {
		DEBUG(DEBUG_MOUNTINFO, "by id: a flip, a move or a loss: the whole table");
		free(detach);
		return 0;
	}
	if (statmount_each_after(&b->sm, b->top, add_id, &ids) < 0 ||
	    read_made(b, t, &ids, &f) < 0 || read_gone(b, t, detach, n, &f) < 0)
		r = -1;
	free(ids.v);
	free(detach);
	count = r == 0 && b->counted ? ns_count(b) : -1;
	if (r == 0 && (count < 0 || (size_t)count != t->count + f.nmade - f.gone.n)) {
		DEBUG(DEBUG_MOUNTINFO, "by id: %lld mounts counted, %zu known: every id listed",
		    count, t->count + f.nmade - f.gone.n);
		r = list_all(b, t, &f);
	}
	if (r == 0)
		check_groups(b, t, &f);
	if (r == 0 && !f.whole) {
		DEBUG(DEBUG_MOUNTINFO, "by id: %zu made, %zu gone", f.nmade, f.gone.n);
		apply(b, t, &f, fn, ctx);
		r = 1;
	}
	found_free(&f);
	return r;
}

void
mibyid_finish(struct mibyid *b, struct mounttab *t)
{
	size_t i;

	for (i = 0; i < b->gone.n; i++)
		mounttab_entry_free(mounttab_remove(t, b->gone.v[i]));
	b->gone.n = 0;
}

void
mibyid_close(struct mibyid *b)
{
	if (b->nsfd >= 0)
		close(b->nsfd);
	b->nsfd = -1;
	statmount_free(&b->sm);
	free(b->gone.v);
	b->gone = (struct mounttab_ids){ NULL, 0, 0 };
}
