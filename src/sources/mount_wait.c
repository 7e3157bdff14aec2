/* The mount conditions of wait: whether a path is a mount's root, or a source is mounted, now. */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "mntns.h"
#include "mount_events.h"
#include "mount_wait.h"
#include "path.h"
#include "srcmatch.h"
#include "wait.h"

/*
 * Whether path, resolved now as the kernel resolves it, is the root of a mount (what mountpoint(1)
 * answers): a retargeted symlink, a mount over a directory above the path, a path that names no
 * directory all count. A path that resolves to nothing (missing, a file on the way, a symlink
 * loop, too long) is no mount's root. -1 where statx(2) cannot say (no permission, or a kernel
 * before 5.8).
 */
static int
is_mount_root(const struct mntns *ns, const char *path)
{
	struct statx stx;

	if (mntns_statx(ns, path, &stx) < 0) {
		if (errno == ENOENT || errno == ENOTDIR || errno == ELOOP || errno == ENAMETOOLONG)
			return 0;
		return -1;
	}
	if (!(stx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT))
		return -1;
	return (stx.stx_attributes & STATX_ATTR_MOUNT_ROOT) != 0;
}

/* Whether c holds while its object is there (a mount's root, a mount), not while it is not. */
static bool
wants_there(const struct cond *c)
{
	return c->kind == COND_MOUNT || c->kind == COND_MOUNTED;
}

/* Where c stands if its object is (there 1) or is not (0) there. */
static int
state_of(const struct cond *c, int there)
{
	return (there == 1) == wants_there(c) ? WAIT_MET : WAIT_PENDING;
}

/* The context of find_one(). */
struct finder {
	const struct source *src;
	const struct cond *c;
	char *real;		/* the SPEC's canonical path now, or NULL */
	bool maybe;		/* a mount that may be of SPEC counts as one */
	const struct mounttab_entry *found;
	const struct watch *w;	/* the watch whose subtree holds found */
};

/* The first live watch of src whose subtree holds e, or NULL. */
static const struct watch *
scope_of(const struct source *src, const struct mounttab_entry *e)
{
	size_t i;

	for (i = 0; i < src->nwatches; i++)
		if (src->watches[i].alive && path_within(src->watches[i].w->path, e->target))
			return src->watches[i].w;
	return NULL;
}

static void
find_one(void *p, const struct mounttab_entry *e)
{
	struct finder *f = p;
	const struct watch *w;
	int r;

	if (f->found || (w = scope_of(f->src, e)) == NULL)
		return;
	r = srcmatch_judge(f->c->arg, f->real, e->source, e->dev);
	if (r == 0 || (r < 0 && !f->maybe))
		return;
	f->found = e;
	f->w = w;
}

/*
 * The first mount of t in src's scope whose source is c's SPEC, in the order a listing prints
 * them (parents first), and in *w the watch whose subtree holds it; NULL if none. The SPEC is
 * resolved afresh: a device path or a tag may name a device plugged in since the last look. A
 * mount that cannot be told apart from one of SPEC is not one for --mounted, and keeps
 * --unmounted from holding: neither says yes on a guess.
 */
static const struct mounttab_entry *
find(const struct source *src, const struct mounttab *t, const struct cond *c,
    const struct watch **w)
{
	struct finder f = { src, c, NULL, !wants_there(c), NULL, NULL };
	dev_t devno;

	if (srcmatch_kind(c->arg, &devno) == SRCMATCH_SOURCE)
		f.real = path_canon(c->arg);
	mounttab_each(t, find_one, &f);
	free(f.real);
	*w = f.w;
	return f.found;
}

/* Where --mounted or --unmounted stands in src's scope: gone with the namespace or every DIR. */
static int
by_source(const struct source *src, const struct mounttab *t, const struct cond *c)
{
	const struct watch *w;
	size_t i, live = 0;

	if (src->ns && src->ns->gone)
		return WAIT_GONE;
	for (i = 0; i < src->nwatches; i++)
		live += src->watches[i].alive;
	if (live == 0)
		return WAIT_GONE;
	return state_of(c, find(src, t, c, &w) != NULL);
}

int
mount_wait_statx(const struct mntns *ns, const struct cond *c)
{
	int root;

	if (wait_kinds[c->kind].arg != WAIT_ARG_PATH)
		return -1;
	if (ns && ns->gone)
		return WAIT_GONE;
	return (root = is_mount_root(ns, c->arg)) < 0 ? -1 : state_of(c, root);
}

int
mount_wait_check(const struct source *src, const struct mounttab *t, const struct cond *c)
{
	const struct mntns *ns = src->ns;
	char *path;
	int s;

	if (wait_kinds[c->kind].arg == WAIT_ARG_SPEC)
		return by_source(src, t, c);
	/*
	 * The path as given, now; where the kernel cannot say, the table (with -N, at the path
	 * as it resolves now in that namespace).
	 */
	if ((s = mount_wait_statx(ns, c)) >= 0)
		return s;
	path = ns ? mntns_canon(ns, c->arg, true) : NULL;
	s = state_of(c, mounttab_has_target(t, ns ? (path ? path : "") : c->path));
	free(path);
	return s;
}

bool
mount_wait_show(struct source *src, const struct mounttab *t, const struct cond *c)
{
	const struct watch *w;
	const struct mounttab_entry *e = find(src, t, c, &w);

	if (e)
		mount_events_present_of(src, w, e);
	return e != NULL;
}
