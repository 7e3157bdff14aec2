/*
 * Key source on the kernel's general notification queue (Linux 5.8,
 * CONFIG_WATCH_QUEUE + CONFIG_KEY_NOTIFICATIONS): a notification pipe sized
 * with --queue-size, the -e/-E filter handed to the kernel so that unwanted
 * records never leave it, and one KEYCTL_WATCH_KEY per watched key with its
 * tag as the watch id (--recursive adds keyrings linked below, --follow the
 * other keys linked in a followed keyring, under the same id). A full ring
 * becomes a loss record: then each followed key is re-read and compared with
 * its snapshot, kept current by the records (a resync).
 *
 * The kernel marks a loss on the last record queued before the first one it
 * dropped, and read(2) returns the loss record right after that one: the
 * loss is reported there and the resync done at once. Every record queued
 * by then describes a change the resync saw, so those are dropped; those
 * queued while it read may or may not have been seen, so each is reported
 * only if it is news to the snapshot (a link it lacks, an unlink of a key it
 * has, a revocation it has not seen; other records always).
 */
#include <errno.h>
#include <fcntl.h>
#include <keyutils.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "compat.h"
#include "debug.h"
#include "key_events.h"
#include "keyproc.h"
#include "keyset.h"
#include "source.h"
#include "xalloc.h"
#include "wq_decode.h"

enum { FD_PIPE };	/* the source's one slot */

struct wq {
	int rfd;		/* the notification pipe's read end: the keys are watched on it */
	int wfd;		/* the write end: kept open, or reads see EOF */
	size_t seen;		/* bytes queued before the last resync read: it saw those records */
	size_t unsure;		/* bytes of records queued while it read */
	bool links_changed;	/* --recursive, --follow: which keys to follow may have changed */
	struct keyset ks;	/* snapshots, for the resync after a loss */
	unsigned char buf[4096] __attribute__((aligned(8)));
};

/* Whether this kernel was built with key notifications, as KEYCTL_CAPABILITIES reports. */
static bool
wq_kernel_has_notifications(void)
{
	unsigned char caps[2] = { 0, 0 };

	return keyctl_capabilities(caps, sizeof(caps)) >= 2 &&
	    (caps[1] & KAPI_KEYCTL_CAPS1_NOTIFICATIONS);
}

/* Bytes of records waiting in the notification pipe: whole records, since the kernel queues each
 * record as one buffer. */
static size_t
wq_queued_bytes(int fd)
{
	int n = 0;

	return ioctl(fd, FIONREAD, &n) == 0 && n > 0 ? (size_t)n : 0;
}

/* Report a loss, re-read every followed key and report what the queue lost. Removals are not
 * reported here: the kernel sends them. */
static void
wq_resync(struct source *src)
{
	struct wq *q = src->priv;
	char *proc;

	source_loss(src);
	q->seen = wq_queued_bytes(q->rfd);
	proc = keyproc_read();
	keyset_refresh(&q->ks, src, proc, false);
	free(proc);
	q->unsure = wq_queued_bytes(q->rfd);
	q->unsure = q->unsure > q->seen ? q->unsure - q->seen : 0;
	q->links_changed = true;
}

static int
wq_watch_child(void *ctx, struct keyent *e)
{
	struct source *src = ctx;
	struct wq *q = src->priv;

	/* The child reports under its watch's tag; EBUSY means it is watched already. */
	if (keyctl_watch_key(e->serial, q->rfd, e->sw->w->tag) < 0 && errno != EBUSY)
		return -1;
	return 0;
}

static int
wq_unwatch_child(void *ctx, struct keyent *e)
{
	struct source *src = ctx;
	struct wq *q = src->priv;

	keyctl_watch_key(e->serial, q->rfd, -1);
	return 0;
}

/* Count record r against the bytes the last resync saw: 1 if the resync saw it, 0 if it may have,
 * -1 if it cannot have. */
static int
wq_resync_saw(struct wq *q, const struct wq_rec *r)
{
	if (q->seen > 0) {
		q->seen -= r->len < q->seen ? r->len : q->seen;
		return 1;
	}
	if (q->unsure > 0) {
		q->unsure -= r->len < q->unsure ? r->len : q->unsure;
		return 0;
	}
	return -1;
}

static void
wq_removal(struct source *src, const struct wq_rec *r)
{
	struct wq *q = src->priv;
	struct keyent *e = NULL;
	size_t i;

	/* The removed key is named in 16-byte records; else the tag's watched key. */
	for (i = 0; i < q->ks.n && e == NULL; i++)
		if (!q->ks.v[i].gone &&
		    (r->has_removed_id ? q->ks.v[i].serial == (int32_t)r->removed_id :
		    !q->ks.v[i].child && q->ks.v[i].sw->w->tag == (int)r->tag))
			e = &q->ks.v[i];
	if (e == NULL)
		return;
	e->gone = true;
	if (!e->child)
		source_gone(src, e->sw, "watched key is gone");
	else
		DEBUG(DEBUG_KEYS, "no longer following %d: gone", (int)e->serial);
}

/* With --recursive or --follow: whether record r may change which keys are followed. */
static bool
wq_moves_links(struct wq *q, const struct config *cfg, const struct wq_rec *r)
{
	struct keyent *f;

	switch (r->subtype) {
	case KEY_LINKED:
		return keyset_would_follow(&q->ks, cfg, r->aux);
	case KEY_UNLINKED:
		return (f = keyset_find(&q->ks, r->aux)) != NULL && f->child;
	case KEY_CLEARED:
		return true;
	}
	return false;
}

static bool
wq_on_record(void *p, const struct wq_rec *r)
{
	struct source *src = p;
	struct wq *q = src->priv;
	struct keyname kn;
	struct keyent *e;
	int saw;

	if (r->type == KAPI_WATCH_TYPE_META && r->subtype == KAPI_WATCH_META_LOSS) {
		/* The rest of this buffer was queued before the resync: it saw that too. */
		wq_resync(src);
		return false;
	}
	saw = wq_resync_saw(q, r);
	if (r->type == KAPI_WATCH_TYPE_META && r->subtype == KAPI_WATCH_META_REMOVAL)
		wq_removal(src, r);
	if (r->type != KAPI_WATCH_TYPE_KEY_NOTIFY || saw > 0 ||
	    (e = keyset_find(&q->ks, r->key_id)) == NULL)
		return true;
	if (!keysnap_apply(&e->snap, r->subtype, r->aux) && saw == 0)
		return true;
	if (keyset_follows_links(src->cfg) && wq_moves_links(q, src->cfg, r))
		q->links_changed = true;
	key_events_emit(src->sink, e->sw->w, r->subtype, r->key_id, r->aux,
	    keysnap_name(&e->snap, &kn), &q->ks.names);
	return true;
}

static int
wq_on_read(void *ctx, const void *buf, size_t n)
{
	return wq_decode(buf, n, wq_on_record, ctx);
}

static int
wq_drain(struct source *src, size_t i)
{
	struct wq *q = src->priv;
	const struct config *cfg = src->cfg;

	switch (source_read_ready(q->rfd, q->buf, sizeof(q->buf), 0, wq_on_read, src)) {
	case -1:
		return -1;
	case 1:
		wq_resync(src);	/* a record we cannot trust: treat as lost */
		break;
	}
	if (q->links_changed && keyset_follows_links(cfg)) {
		char *proc = keyproc_read();
		int r = keyset_children(&q->ks, cfg, proc, wq_watch_child, wq_unwatch_child, src);

		free(proc);
		if (r < 0)
			return -1;
	}
	q->links_changed = false;
	return 0;
}

/*
 * Hand the -e/-E choice of key events to the kernel as its filter. With --recursive or --follow,
 * the records that say which keys to follow pass too, and the user's choice is applied after them.
 */
static int
wq_set_filter(int fd, const struct config *cfg)
{
	struct kapi_watch_filter f;

	memset(&f, 0, sizeof(f));
	f.nr_filters = 1;
	f.filters[0].type = KAPI_WATCH_TYPE_KEY_NOTIFY;
	/* present records are ours, not the kernel's. */
	f.filters[0].subtype_filter[0] = cfg->events.leaf[EV_KEY][0] & ~(1u << KEY_PRESENT);
	if (keyset_follows_links(cfg))
		f.filters[0].subtype_filter[0] |= 1u << KEY_LINKED | 1u << KEY_UNLINKED |
		    1u << KEY_CLEARED;
	return ioctl(fd, KAPI_IOC_WATCH_QUEUE_SET_FILTER, &f);
}

static int
wq_open(struct source *src)
{
	struct wq *q = xcalloc(1, sizeof(*q));
	const struct config *cfg = src->cfg;
	char *proc;
	int p[2];
	size_t i;

	src->priv = q;
	q->rfd = q->wfd = -1;
	if (!wq_kernel_has_notifications()) {
		src->cause = EOPNOTSUPP;
		errno = ENOSYS;
		return -1;
	}
	if (pipe2(p, KAPI_O_NOTIFICATION_PIPE | O_CLOEXEC | O_NONBLOCK) < 0) {
		src->cause = errno;
		if (errno == ENOPKG || errno == ENOSYS || errno == EINVAL)
			errno = ENOSYS;
		return -1;
	}
	q->rfd = p[0];
	q->wfd = p[1];
	source_poll(src, FD_PIPE, q->rfd, POLLIN);
	/* The size first: a queue without slots loses everything. */
	if (ioctl(p[0], KAPI_IOC_WATCH_QUEUE_SET_SIZE, (unsigned long)cfg->queue_size) < 0 ||
	    wq_set_filter(p[0], cfg) < 0)
		return -1;
	for (i = 0; i < src->nwatches; i++) {
		if (keyctl_watch_key(src->watches[i].w->key, p[0], src->watches[i].w->tag) < 0) {
			src->cause = errno;
			if (errno == EOPNOTSUPP || errno == ENOPKG || errno == ENOSYS)
				errno = ENOSYS;
			return -1;
		}
	}
	/* Watches first, then the state: nothing changes unseen in between. */
	proc = keyproc_read();
	keyset_init(&q->ks, src, proc);
	i = keyset_children(&q->ks, cfg, proc, wq_watch_child, wq_unwatch_child, src) < 0;
	free(proc);
	return i ? -1 : 0;
}

static void
wq_close(struct source *src)
{
	struct wq *q = src->priv;

	if (q == NULL)
		return;
	source_close_fd(src, FD_PIPE, &q->rfd);
	if (q->wfd >= 0)
		close(q->wfd);
	keyset_free(&q->ks);
	free(q);
	src->priv = NULL;
}

static void
wq_present(struct source *src)
{
	struct wq *q = src->priv;

	keyset_present(&q->ks, src);
}

static int
wq_check(struct source *src, const struct cond *c)
{
	return keyset_check(c);
}

const struct source_ops source_watchqueue_ops = {
	.open = wq_open,
	.drain = wq_drain,
	.present = wq_present,
	.check = wq_check,
	.close = wq_close,
};
