#include <err.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "escape.h"
#include "filter.h"
#include "mntns.h"
#include "mount_events.h"
#include "path.h"
#include "srcmatch.h"

static bool
passes_filters(const struct config *cfg, const struct mounttab_entry *e)
{
	char **t;
	bool listed = false;

	if (cfg->fstypes) {
		for (t = cfg->fstypes; *t; t++)
			if (strcmp(*t, e->fstype) == 0)
				listed = true;
		if (listed == cfg->fstypes_negated)
			return false;
	}
	if (cfg->optlist && !filter_options_match(cfg->optlist, e->options))
		return false;
	if (cfg->source_dev &&
	    !srcmatch_matches(cfg->source_dev, cfg->source_real, e->source, e->dev))
		return false;
	return true;
}

static void
fill(struct event *ev, const struct watch *w, unsigned subtype, const struct mounttab_entry *e)
{
	source_event_init(ev, EV_MOUNT, subtype, w);
	ev->u.mount.at = e;
}

static void
emit_by(struct sink *sink, struct event *ev, struct who *who)
{
	const char *cg;

	if (who)
		ev->u.mount.by = *who_get(who);
	/* With -N: the cgroup of the process at its call, where the capture told it. */
	if (who && ev->cgroup && who_cgroup(who, &cg))
		ev->cgroup = cg;
	sink->emit(sink, ev);
}

/*
 * A remount's events for watch w: options (readonly, writable, setattr) said to be made by who, a
 * propagation change by prop_who (NULL: nobody).
 */
static void
remount_for_watch(const struct config *cfg, struct sink *sink, const struct watch *w,
    const struct mounttab_change *ch, struct who *who, struct who *prop_who)
{
	struct event ev;

	if (!path_within(w->path, ch->new->target) || !passes_filters(cfg, ch->new))
		return;
	if (ch->old->readonly != ch->new->readonly) {
		fill(&ev, w, ch->new->readonly ? MOUNT_READONLY : MOUNT_WRITABLE, ch->new);
		emit_by(sink, &ev, who);
	}
	/* Past "ro" or "rw", options hold no ro/rw token (mounttab.h). */
	if (strcmp(ch->old->options + 2, ch->new->options + 2) != 0) {
		fill(&ev, w, MOUNT_SETATTR, ch->new);
		ev.u.mount.old_options = ch->old->options;
		emit_by(sink, &ev, who);
	}
	if (strcmp(ch->old->propagation, ch->new->propagation) != 0) {
		fill(&ev, w, MOUNT_PROPAGATION, ch->new);
		ev.u.mount.old_propagation = ch->old->propagation;
		emit_by(sink, &ev, prop_who);
	}
}

static void
change_for_watch(const struct config *cfg, struct sink *sink, const struct watch *w,
    const struct mounttab_change *ch, struct who *who)
{
	struct event ev;
	bool in_old, in_new;

	switch (ch->kind) {
	case MOUNTTAB_MOUNT:
	case MOUNTTAB_UNMOUNT: {
		const struct mounttab_entry *e = ch->new ? ch->new : ch->old;

		if (!path_within(w->path, e->target) || !passes_filters(cfg, e))
			return;
		fill(&ev, w, ch->kind == MOUNTTAB_MOUNT ? MOUNT_MOUNT : MOUNT_UNMOUNT, e);
		emit_by(sink, &ev, who);
		return;
	}
	case MOUNTTAB_MOVE:
		in_old = path_within(w->path, ch->old->target);
		in_new = path_within(w->path, ch->new->target);
		if ((!in_old && !in_new) || !passes_filters(cfg, ch->new))
			return;
		fill(&ev, w, MOUNT_MOVE, ch->new);
		ev.u.mount.old_path = ch->old->target;
		ev.info = in_old && in_new ? 0 : in_old ? EV_INFO_MOVE_FROM : EV_INFO_MOVE_TO;
		emit_by(sink, &ev, who);
		return;
	case MOUNTTAB_REMOUNT:
		remount_for_watch(cfg, sink, w, ch, who, who);
		return;
	}
}

/*
 * With -N of a chrooted process, a mount outside its root has no path there (statmount.c). A move
 * out of that root is what the process's mountinfo shows as an unmount, and a move into it as a
 * mount: every backend reports them so, and no path is ever empty.
 */
static struct mounttab_change
as_seen(const struct mounttab_change *ch)
{
	if (ch->kind == MOUNTTAB_MOVE && ch->new->target[0] == '\0')
		return (struct mounttab_change){ MOUNTTAB_UNMOUNT, ch->old, NULL };
	if (ch->kind == MOUNTTAB_MOVE && ch->old->target[0] == '\0')
		return (struct mounttab_change){ MOUNTTAB_MOUNT, NULL, ch->new };
	return *ch;
}

void
mount_events_change_by(struct source *src, const struct mounttab_change *ch, struct who *who)
{
	struct mounttab_change seen = as_seen(ch);
	size_t i;

	for (i = 0; i < src->nwatches; i++)
		if (src->watches[i].alive)
			change_for_watch(src->cfg, src->sink, src->watches[i].w, &seen, who);
}

void
mount_events_remount_by(struct source *src, const struct mounttab_change *ch, struct who *who,
    struct who *prop_who)
{
	size_t i;

	for (i = 0; i < src->nwatches; i++)
		if (src->watches[i].alive)
			remount_for_watch(src->cfg, src->sink, src->watches[i].w, ch, who,
			    prop_who);
}

bool
mount_events_was_slave(const struct mounttab_entry *e)
{
	return e && strstr(e->propagation, "master:") != NULL;
}

void
mount_events_change(struct source *src, const struct mounttab_change *ch)
{
	mount_events_change_by(src, ch, NULL);
}

void
mount_events_transient_of(struct sink *sink, const struct watch *w, const uint64_t *ids,
    size_t n)
{
	struct event ev;

	source_event_init(&ev, EV_MOUNT, MOUNT_TRANSIENT, w);
	ev.u.mount.ids = ids;
	ev.u.mount.count = n;
	sink->emit(sink, &ev);
}

void
mount_events_transient(struct source *src, const uint64_t *ids, size_t n)
{
	size_t i;

	for (i = 0; i < src->nwatches; i++)
		if (src->watches[i].alive && !src->watches[i].w->internal)
			mount_events_transient_of(src->sink, src->watches[i].w, ids, n);
}

static void
present_one(void *p, const struct mounttab_entry *e)
{
	struct source *src = p;
	size_t i;

	for (i = 0; i < src->nwatches; i++) {
		const struct watch *w = src->watches[i].w;

		if (!src->watches[i].alive || !path_within(w->path, e->target) ||
		    !passes_filters(src->cfg, e))
			continue;
		mount_events_present_of(src, w, e);
	}
}

void
mount_events_present_of(struct source *src, const struct watch *w, const struct mounttab_entry *e)
{
	struct event ev;

	fill(&ev, w, MOUNT_PRESENT, e);
	src->sink->emit(src->sink, &ev);
}

/*
 * list --target: the mount that holds each DIR, as findmnt -T finds it. The kernel says which, by
 * its id: a mount above a directory higher up can hide the one the paths would point to.
 */
static void
present_holding(struct source *src, const struct mounttab *t)
{
	const struct mounttab_entry *e;
	const struct watch *w;
	struct statx stx;
	size_t i;

	for (i = 0; i < src->nwatches; i++) {
		w = src->watches[i].w;
		if (!src->watches[i].alive || mntns_statx(src->ns, w->path, &stx) < 0)
			continue;
		if (!(stx.stx_mask & STATX_MNT_ID)) {
			warnx("--target %s: this kernel does not say which mount holds a path "
			    "(statx STATX_MNT_ID, Linux 5.8)", escape_arg(w->target));
			continue;
		}
		if ((e = mounttab_find_mount_id(t, stx.stx_mnt_id)) != NULL &&
		    passes_filters(src->cfg, e))
			mount_events_present_of(src, w, e);
	}
}

void
mount_events_present(struct source *src, const struct mounttab *t)
{
	if (src->cfg->list_target)
		present_holding(src, t);
	else
		mounttab_each(t, present_one, src);
}

void
mount_events_removals(struct source *src)
{
	struct statx stx;
	size_t i;

	for (i = 0; i < src->nwatches; i++) {
		if (!src->watches[i].alive)
			continue;
		if (mntns_statx(src->ns, src->watches[i].w->path, &stx) == 0 ?
		    S_ISDIR(stx.stx_mode) :
		    /* Out of fds or memory: that says nothing of the directory. */
		    errno == EMFILE || errno == ENFILE || errno == ENOMEM)
			continue;
		source_gone(src, &src->watches[i], "watched directory is gone");
	}
}

bool
mount_events_ns_exited(struct source *src)
{
	size_t i;

	if (mntns_follow(src->ns))
		return false;
	for (i = 0; i < src->nwatches; i++) {
		/* -N all says so once for the namespace: its ns_gone record (nsall.c). */
		if (src->cfg->ns_all)
			src->watches[i].alive = false;
		else
			source_gone(src, &src->watches[i],
			    "mount namespace is gone: no process is left in it");
	}
	return true;
}
