/*
 * Where the fanotify source's records come from: its own group, read with the capture around it, or
 * -N all's one group, which routes each record to the member whose namespace holds the mount.
 */
#include <err.h>
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fanotify.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "compat.h"
#include "fan.h"
#include "mount_events.h"
#include "path.h"
#include "xalloc.h"

/*
 * Records just read: the capture is read again before they are, so that the entry record of each
 * call that caused one is in hand when its process is named.
 */
static int
fan_decode_records(void *ctx, const void *buf, size_t n)
{
	struct source *src = ctx;
	struct fan *f = src->priv;

	if (f->cap) {
		capture_reading(f->cap);
		capture_drain(f->cap);
	}
	return fan_decode(buf, n, fan_table_record, ctx);
}

/* Read the fanotify queue until it is empty, with the capture around it; as source_read_ready(). */
int
fan_feed_read(struct source *src)
{
	struct fan *f = src->priv;
	int r;

	if (f->group) {
		r = fangroup_read(f->group);
		f->member.pending = false;
		return r;
	}
	if (f->cap)
		capture_begin_read(f->cap);
	/* A record is at most PIDFD_RECORD bytes, and a read takes every record that fits. */
	r = source_read_ready(f->fan_fd, f->buf, f->read_size, FAN_PIDFD_RECORD,
	    fan_decode_records, src);
	if (f->cap && r >= 0)
		capture_settle(f->cap);
	/* Once: the changes of the calls it missed name nobody from now on, silently. */
	if (f->cap && !f->cap_loss_said && capture_losses(f->cap) > 0) {
		f->cap_loss_said = true;
		if (!src->cfg->quiet)
			warnx("the process capture missed calls (its ring or tables were full): "
			    "the changes they made name nobody");
	}
	return r;
}

/*
 * The kernel raises the signal of a mount, unmount or move just before it queues the record:
 * whether a record comes within RECORD_WAIT_NS of a signal that came alone. On -N all's one
 * group, whether one of this namespace does (it is read and routed here: records of others may
 * come first); none is read while the group's members are woken (fangroup_pump()).
 */
bool
fan_feed_record_soon(struct source *src)
{
	struct fan *f = src->priv;
	struct pollfd p = { f->group ? f->group->fd : f->fan_fd, POLLIN, 0 };
	unsigned long long was = f->records;
	struct timespec wait;
	long long start = rescan_clock(), left;

	if (f->group && f->group->pumping)
		return false;
	while ((left = RECORD_WAIT_NS - (rescan_clock() - start)) > 0) {
		wait = (struct timespec){ 0, left };
		p.revents = 0;
		if (ppoll(&p, 1, &wait, NULL) < 0 && errno == EINTR)
			continue;
		if (!(p.revents & POLLIN))
			return false;
		/* A failed read is the next one's error. */
		if (f->group == NULL || fangroup_read(f->group) < 0 || f->records != was)
			return true;
	}
	return false;
}

/* The member of -N all's one group (fangroup.c): each record routed to it, and its wake. */
static bool
fan_member_holds(void *p, uint64_t id)
{
	struct source *src = p;
	struct fan *f = src->priv;

	return mounttab_find(&f->tab, id) != NULL;
}

static bool
fan_member_take(void *p, const struct fan_rec *r)
{
	struct source *src = p;
	struct fan *f = src->priv;
	struct mounttab_entry *new = NULL;

	/* A failed read is the next drain's error; one leaving needs no table. */
	if (!f->member.leaving)
		(void)fan_table_read_owed(f);
	/* A mount attached (or moved) is in this namespace if statmount(2) finds it here: read it
	 * once. */
	if (r->has_id && (r->mask & FAN_MNT_ATTACH) && mounttab_find(&f->tab, r->mnt_id) == NULL &&
	    (new = statmount_one(&f->sm, r->mnt_id)) == NULL)
		return false;
	if (f->member.leaving) {
		mounttab_entry_free(new);
		if (r->pidfd >= 0)
			close(r->pidfd);
		return true;
	}
	fan_table_act(src, r, new);
	return true;
}

static void
fan_member_transient(void *p, uint64_t id)
{
	struct source *src = p;
	struct fan *f = src->priv;

	/* A record of this namespace, as for a group of its own: its signal is explained. */
	f->rs.since_scan++;
	f->records++;
	fan_table_add_transient(f, id);
}

static bool
fan_member_spreads(void *p)
{
	struct source *src = p;
	struct fan *f = src->priv;
	bool open;

	/*
	 * Once and for all, not as of the last re-read: a re-read may come after calls whose
	 * records are still unread (a copy made under a mount made private since).
	 */
	if (f->tab.had_shared || f->ns_cap == NULL || f->props_unsure)
		return true;
	return capture_ns_props(f->ns_cap, f->ns_ino, &open) != f->ns_props || open;
}

static int
fan_member_wake(void *p)
{
	/* Through the source's operations: the feed is below the source it feeds. */
	return source_drain(p, FD_FAN);
}

const struct fangroup_ops fan_feed_member_ops = {
	.holds = fan_member_holds,
	.take = fan_member_take,
	.transient = fan_member_transient,
	.spreads = fan_member_spreads,
	.wake = fan_member_wake,
};
