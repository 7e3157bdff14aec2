/*
 * The mountinfo source's table kept by mount id, with the capture, from Linux 6.8: listmount(2),
 * statmount(2), and a mountinfo file that lists mounts by unique id. The mountinfo signal still
 * says that the table changed; what changed is read at a cost of the changes, not of the table:
 *
 * - Mounts made: listmount(2) of the ids above the newest one listed (unique ids only grow), then
 *   the file read on from where its last read ended, which gives the lines of those mounts alone
 *   (mitext_read_more()). A line is the entry, as a whole read makes it. Its unique id is that of
 *   the listed mount with its mountinfo id, if that mount is still there once the line is read: a
 *   mountinfo id is taken again once its mount is gone, but a mount listed before the read and
 *   there after it was there during it, and no other mount had its id meanwhile. A line or a
 *   listed mount left unmatched takes the whole read. A mount made before and attached since
 *   (open_tree(2), fsmount(2)) has an older id; only move_mount(2) attaches one, and that call
 *   takes the whole read (below).
 * - Mounts gone: those at the place of each kept umount2(2) (and below it, for a lazy one), asked
 *   for by unique id: ENOENT is the kernel's word that one is gone. A place is only a hint: the
 *   check below makes it proof.
 * - The check: the namespace's own count of mounts (NS_MNT_GET_INFO, Linux 6.12), read after the
 *   rest, must be the table's after those. A mount gone otherwise (propagation, expiry, a call the
 *   capture does not place) makes it differ: then every id is listed (no statmount(2) of a known
 *   mount), and the mounts not listed are gone. Before 6.12, every id is listed at each change. A
 *   mount made meanwhile and another gone unseen may make the count agree by chance; the one made
 *   raises the signal again, and at that read they differ.
 * - Flips and moves change no count: while the capture keeps a flip or a move call (failed ones
 *   aside), or may have missed one, the whole table is read. So is it where a mount gone from a
 *   peer group leaves members that name that group (its peers, or slaves that another master may
 *   take), and, while the table has slaves, at each call elsewhere that may take their master.
 *
 * A whole read lists every mount before the text is read, and asks for each again after it, to
 * give each entry its unique id by the same rule.
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

/* What a step found: the mounts made, read; the mountinfo ids of those gone. */
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

static int
at_cmp(const void *a, const void *b)
{
	const struct mibyid_at *x = a, *y = b;

	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* Where (hash, id) is in b->at, or would be. */
static size_t
at_place(const struct mibyid *b, uint64_t hash, uint64_t id)
{
	struct mibyid_at k = { hash, id };
	size_t lo = 0, hi = b->nat, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (at_cmp(&b->at[mid], &k) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Room in b->at for one more. */
static void
at_room(struct mibyid *b)
{
	if (b->nat == b->at_cap) {
		b->at_cap = b->at_cap ? 2 * b->at_cap : 64;
		b->at = xreallocarray(b->at, b->at_cap, sizeof(*b->at));
	}
}

static void
at_add(struct mibyid *b, const struct mounttab_entry *e)
{
	uint64_t h = mounttab_target_hash(e->target);
	size_t i = at_place(b, h, e->id);

	at_room(b);
	memmove(&b->at[i + 1], &b->at[i], (b->nat - i) * sizeof(*b->at));
	b->at[i] = (struct mibyid_at){ h, e->id };
	b->nat++;
}

static void
at_del(struct mibyid *b, const struct mounttab_entry *e)
{
	uint64_t h = mounttab_target_hash(e->target);
	size_t i = at_place(b, h, e->id);

	if (i < b->nat && b->at[i].hash == h && b->at[i].id == e->id) {
		memmove(&b->at[i], &b->at[i + 1], (b->nat - i - 1) * sizeof(*b->at));
		b->nat--;
	}
}

/* The namespace's count of mounts; -1 where not known. */
static long long
ns_count(const struct mibyid *b)
{
	uint64_t n;

	return b->nsfd >= 0 && statmount_ns_mounts(b->nsfd, &n) == 0 ? (long long)n : -1;
}

/* The mounts listed above after, with their mountinfo ids, into b->pairs (those gone meanwhile
 * left out); -1 with errno set. */
static int
list_pairs(struct mibyid *b, uint64_t after)
{
	struct mounttab_ids ids = { NULL, 0, 0 };
	uint64_t old;
	size_t i;
	int r = statmount_each_after(&b->sm, after, add_id, &ids);

	b->npairs = 0;
	b->pairs = xreallocarray(b->pairs, ids.n + 1, sizeof(*b->pairs));
	for (i = 0; i < ids.n && r >= 0; i++) {
		if (ids.v[i] > b->top)
			b->top = ids.v[i];
		if ((r = statmount_old_id(&b->sm, ids.v[i], &old)) == 1)
			b->pairs[b->npairs++] = (struct mibyid_pair){ ids.v[i], old };
	}
	free(ids.v);
	return r < 0 ? -1 : 0;
}

int
mibyid_open(struct mibyid *b)
{
	*b = (struct mibyid){ .nsfd = -1 };
	if (statmount_probe() < 0)
		return -1;
	b->nsfd = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
	return 0;
}

int
mibyid_whole_begin(struct mibyid *b, const struct capture *cap)
{
	b->losses = capture_losses(cap);
	b->count_before = ns_count(b);
	return list_pairs(b, 0);
}

int
mibyid_whole_end(struct mibyid *b, struct mounttab *t)
{
	struct mounttab_entry *e;
	long long after = ns_count(b);
	uint64_t old;
	size_t i, n = 0;
	int r;

	/* A line copied from the last read's table may be another mount's since: none is kept. */
	for (i = 0; i < t->cap; i++)
		if (t->slot[i])
			t->slot[i]->unique_id = 0;
	for (i = 0; i < b->npairs; i++) {
		if ((e = mounttab_find(t, b->pairs[i].old)) == NULL)
			continue;
		if ((r = statmount_old_id(&b->sm, b->pairs[i].id, &old)) < 0)
			return -1;
		if (r == 1) {
			e->unique_id = b->pairs[i].id;
			n++;
		}
	}
	b->paired = n == t->count;
	b->counted = b->count_before >= 0 && b->count_before == after && (size_t)after == t->count;
	b->seq = 0;
	b->slaves = 0;
	b->nat = 0;
	for (i = 0; i < t->cap; i++) {
		if ((e = t->slot[i]) == NULL)
			continue;
		if (e->seq >= b->seq)
			b->seq = e->seq + 1;
		b->slaves += is_slave(e);
		at_room(b);
		b->at[b->nat++] = (struct mibyid_at){ mounttab_target_hash(e->target), e->id };
	}
	qsort(b->at, b->nat, sizeof(*b->at), at_cmp);
	return 0;
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

/*
 * The lines read on (lines, emptied), each with its listed mount, into f->made: 1; 0 where a line
 * or a mount still there is left unmatched, or a line's mountinfo id is still the table's (a mount
 * gone and its id taken again within one read); -1 with errno set.
 */
static int
take_made(struct mibyid *b, const struct mounttab *t, struct mounttab *lines, struct found *f)
{
	struct mounttab_entry *e;
	uint64_t old;
	size_t i;
	int r;

	for (i = 0; i < b->npairs; i++) {
		e = mounttab_remove(lines, b->pairs[i].old);
		if ((r = statmount_old_id(&b->sm, b->pairs[i].id, &old)) != 1 || e == NULL ||
		    mounttab_find(t, e->id) != NULL) {
			mounttab_entry_free(e);
			if (r != 0)
				return r < 0 ? -1 : 0;
			continue;	/* gone since it was listed: its line, if any, too */
		}
		e->unique_id = b->pairs[i].id;
		f->made = xreallocarray(f->made, f->nmade + 1, sizeof(*f->made));
		f->made[f->nmade++] = e;
	}
	return lines->count == 0;
}

/* Whether call c may have unmounted e. */
static bool
unmounts(const struct capjoin_call *c, const struct mounttab_entry *e)
{
	return strcmp(c->path, e->target) == 0 || (c->below && path_within(c->path, e->target));
}

/* Into at, the mounts of t that detach call c may have unmounted: those at its place, found by
 * hash; for a lazy one, every mount of t is looked at. */
static void
places(const struct mibyid *b, const struct mounttab *t, const struct capjoin_call *c,
    struct mounttab_ids *at)
{
	uint64_t h = mounttab_target_hash(c->path);
	const struct mounttab_entry *e;
	size_t i;

	if (c->below) {
		for (i = 0; i < t->cap; i++)
			if ((e = t->slot[i]) && unmounts(c, e))
				add_id(at, e->id);
		return;
	}
	for (i = at_place(b, h, 0); i < b->nat && b->at[i].hash == h; i++)
		if ((e = mounttab_find(t, b->at[i].id)) && unmounts(c, e))
			add_id(at, e->id);
}

/* The mounts of t at the place of a detach call that are gone, into f; -1 with errno set. */
static int
read_gone(struct mibyid *b, const struct mounttab *t, const struct capjoin_call **detach,
    size_t n, struct found *f)
{
	struct mounttab_ids at = { NULL, 0, 0 };
	const struct mounttab_entry *e;
	uint64_t old;
	size_t i;
	int r = 1;

	for (i = 0; i < n; i++)
		places(b, t, detach[i], &at);
	mounttab_ids_unique(&at);
	for (i = 0; i < at.n && r >= 0; i++) {
		e = mounttab_find(t, at.v[i]);
		if (e->unique_id == 0)
			f->whole = true;
		else if ((r = statmount_old_id(&b->sm, e->unique_id, &old)) == 0)
			add_id(&f->gone, e->id);
	}
	free(at.v);
	return r < 0 ? -1 : 0;
}

/* The peer groups of the mounts gone: one that other mounts still name takes the whole read. */
static void
check_groups(const struct mounttab *t, struct found *f)
{
	size_t i, k, n;
	uint64_t g;

	for (i = 0; i < f->gone.n && !f->whole; i++) {
		if ((g = mounttab_peer_group(mounttab_find(t, f->gone.v[i]))) == 0)
			continue;
		for (k = n = 0; k < f->gone.n; k++)
			n += mounttab_peer_group(mounttab_find(t, f->gone.v[k])) == g;
		f->whole = mounttab_group_size(t, g) > n;
	}
}

/* List every id: the mounts of t not listed are gone; one listed that is neither t's nor made
 * takes the whole read. -1 with errno set. */
static int
list_all(struct mibyid *b, const struct mounttab *t, struct found *f)
{
	struct mounttab_ids ids = { NULL, 0, 0 };
	long long before = ns_count(b), after;
	size_t i;

	f->gone.n = 0;
	if (statmount_each_after(&b->sm, 0, add_id, &ids) < 0) {
		free(ids.v);
		return -1;
	}
	after = ns_count(b);
	qsort(ids.v, ids.n, sizeof(*ids.v), mounttab_cmp_id);
	for (i = 0; i < t->cap; i++)
		if (t->slot[i] && bsearch(&t->slot[i]->unique_id, ids.v, ids.n, sizeof(*ids.v),
		    mounttab_cmp_id) == NULL)
			add_id(&f->gone, t->slot[i]->id);
	f->whole = ids.n != t->count - f->gone.n + f->nmade;
	b->counted = before >= 0 && before == after && (size_t)after == ids.n;
	free(ids.v);
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
		at_add(b, f->made[i]);
		b->slaves += is_slave(f->made[i]);
		ch = (struct mounttab_change){ MOUNTTAB_MOUNT, NULL, f->made[i] };
		fn(ctx, &ch);
	}
	f->nmade = 0;
}

/* The mounts made and gone since the last read, into f; -1 with errno set. */
static int
find(struct mibyid *b, const struct mounttab *t, int fd, struct mitext *text,
    const struct capjoin_call **detach, size_t n, struct found *f)
{
	struct mounttab lines = { 0 };
	long long count;
	int r;

	if (list_pairs(b, b->top) < 0 || mitext_read_more(text, fd, &lines, &b->seq) < 0 ||
	    (r = take_made(b, t, &lines, f)) < 0) {
		mounttab_clear(&lines);
		return -1;
	}
	mounttab_clear(&lines);
	if (r == 0 || read_gone(b, t, detach, n, f) < 0) {
		f->whole = true;
		return r == 0 ? 0 : -1;
	}
	count = b->counted ? ns_count(b) : -1;
	if (count >= 0 && (size_t)count == t->count + f->nmade - f->gone.n)
		return 0;
	DEBUG(DEBUG_MOUNTINFO, "by id: %lld mounts counted, %zu known: every id listed", count,
	    t->count + f->nmade - f->gone.n);
	return list_all(b, t, f);
}

int
mibyid_step(struct mibyid *b, struct mounttab *t, const struct capture *cap, uint64_t mnt_ns,
    int fd, struct mitext *text, mounttab_change_fn *fn, void *ctx)
{
	const struct capjoin_call **detach;
	struct found f = { 0 };
	size_t ncalls, n;
	int r;

	(void)capture_calls(cap, &ncalls);
	detach = xcalloc(ncalls + 1, sizeof(*detach));
	if (!b->paired || unsure(b, cap, mnt_ns, detach, &n)) {
		DEBUG(DEBUG_MOUNTINFO, "by id: a flip, a move or a loss: the whole table");
		free(detach);
		return 0;
	}
	r = find(b, t, fd, text, detach, n, &f);
	free(detach);
	if (r == 0 && !f.whole)
		check_groups(t, &f);
	if (r == 0 && !f.whole) {
		DEBUG(DEBUG_MOUNTINFO, "by id: %zu made, %zu gone", f.nmade, f.gone.n);
		apply(b, t, &f, fn, ctx);
		r = 1;
	} else if (r == 0) {
		DEBUG(DEBUG_MOUNTINFO, "by id: a change the ids do not explain: the whole table");
	}
	found_free(&f);
	return r;
}

void
mibyid_finish(struct mibyid *b, struct mounttab *t)
{
	struct mounttab_entry *e;
	size_t i;

	for (i = 0; i < b->gone.n; i++) {
		if ((e = mounttab_remove(t, b->gone.v[i])) != NULL)
			at_del(b, e);
		mounttab_entry_free(e);
	}
	b->gone.n = 0;
}

void
mibyid_close(struct mibyid *b)
{
	if (b->nsfd >= 0)
		close(b->nsfd);
	b->nsfd = -1;
	statmount_free(&b->sm);
	free(b->pairs);
	free(b->gone.v);
	free(b->at);
	b->at = NULL;
	b->nat = b->at_cap = 0;
	b->pairs = NULL;
	b->gone = (struct mounttab_ids){ NULL, 0, 0 };
}
