/*
 * Key source on the kernel's general notification queue (Linux 5.8,
 * CONFIG_WATCH_QUEUE + CONFIG_KEY_NOTIFICATIONS): a notification pipe sized
 * with --queue-size, the -e/-E filter handed to the kernel so that unwanted
 * records never leave it, and one KEYCTL_WATCH_KEY per watched key with its
 * tag as the watch id (--recursive adds keyrings linked below, under the same
 * id). A full ring becomes a loss record: then each followed key is re-read
 * and compared with its snapshot, kept current by the records (a resync).
 */
#include <errno.h>
#include <fcntl.h>
#include <keyutils.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "compat.h"
#include "key_events.h"
#include "keyset.h"
#include "source.h"
#include "util.h"
#include "wq_decode.h"

struct wq {
	int wfd;		/* the write end: kept open, or reads see EOF */
	bool loss;
	bool links_changed;	/* --recursive: which keyrings to follow may have changed */
	struct keyset ks;	/* snapshots, for the resync after a loss */
	unsigned char buf[4096] __attribute__((aligned(8)));
};

/* The kernel keeps the notification queue out of kernels built without it. */
static bool
kernel_has_key_notifications(void)
{
	unsigned char caps[2] = { 0, 0 };

	return keyctl_capabilities(caps, sizeof(caps)) >= 2 && (caps[1] & KAPI_KEYCTL_CAPS1_NOTIFICATIONS);
}

/* Re-read every followed key and report what the queue lost; removals come from the kernel. */
static void
resync(struct source *src)
{
	struct wq *q = src->priv;
	char *proc = key_read_proc();

	keyset_refresh(&q->ks, src, proc ? proc : "", false);
	free(proc);
	q->links_changed = true;
}

static int
follow(void *ctx, struct keyent *e)
{
	struct source *src = ctx;

	/* The child reports under its watch's tag; EBUSY: it is watched already. */
	if (keyctl_watch_key(e->serial, src->pfd[0].fd, e->sw->w->tag) < 0 && errno != EBUSY)
		return -1;
	return 0;
}

static int
unfollow(void *ctx, struct keyent *e)
{
	struct source *src = ctx;

	keyctl_watch_key(e->serial, src->pfd[0].fd, -1);
	return 0;
}

static void
on_record(void *p, const struct wq_rec *r)
{
	struct source *src = p;
	struct wq *q = src->priv;
	struct keyent *e;
	size_t i;

	if (r->type == KAPI_WATCH_TYPE_META && r->subtype == KAPI_WATCH_META_LOSS) {
		q->loss = true;
		return;
	}
	if (r->type == KAPI_WATCH_TYPE_META && r->subtype == KAPI_WATCH_META_REMOVAL) {
		/* The removed key is named in 16-byte records; else the tag's watched key. */
		e = NULL;
		for (i = 0; i < q->ks.n && e == NULL; i++)
			if (!q->ks.v[i].gone && (r->has_removed_id ? q->ks.v[i].serial == (int32_t)r->removed_id :
			    !q->ks.v[i].child && q->ks.v[i].sw->w->tag == (int)r->tag))
				e = &q->ks.v[i];
		if (e == NULL)
			return;
		e->gone = true;
		if (!e->child)
			source_gone(src, e->sw, "watched key is gone");
		return;
	}
	if (r->type != KAPI_WATCH_TYPE_KEY_NOTIFY || (e = keyset_find(&q->ks, r->key_id)) == NULL)
		return;
	keysnap_apply(&e->snap, r->subtype, r->aux);
	if (r->subtype == KEY_LINKED || r->subtype == KEY_UNLINKED || r->subtype == KEY_CLEARED)
		q->links_changed = true;
	key_events_emit(src->sink, e->sw->w, r->subtype, r->key_id, r->aux, &e->snap);
}

static int
decode(void *ctx, const void *buf, size_t n)
{
	return wq_decode(buf, n, on_record, ctx);
}

static int
wq_drain(struct source *src, size_t i)
{
	struct wq *q = src->priv;
	const struct config *cfg = src->cfg;

	switch (source_read_ready(src->pfd[i].fd, q->buf, sizeof(q->buf), decode, src)) {
	case -1:
		return -1;
	case 1:
		q->loss = true;	/* a record we cannot trust: treat as lost */
		break;
	}
	if (q->loss) {
		q->loss = false;
		source_loss(src);
		resync(src);
	}
	if (q->links_changed && cfg->recursive) {
		char *proc = key_read_proc();
		int r = keyset_children(&q->ks, cfg, proc ? proc : "", follow, unfollow, src);

		free(proc);
		if (r < 0)
			return -1;
	}
	q->links_changed = false;
	return 0;
}

/* The -e/-E choice of key events, as the kernel's own filter. */
static int
set_filter(int fd, const struct config *cfg)
{
	struct kapi_watch_filter f;

	memset(&f, 0, sizeof(f));
	f.nr_filters = 1;
	f.filters[0].type = KAPI_WATCH_TYPE_KEY_NOTIFY;
	f.filters[0].subtype_filter[0] = cfg->events.leaf[EV_KEY][0];
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
	q->wfd = -1;
	src->pfd[0] = (struct pollfd){ -1, POLLIN, 0 };
	src->nfds = 1;
	if (!kernel_has_key_notifications()) {
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
	src->pfd[0].fd = p[0];
	q->wfd = p[1];
	/* The size first: a queue without slots loses everything. */
	if (ioctl(p[0], KAPI_IOC_WATCH_QUEUE_SET_SIZE, (unsigned long)cfg->queue_size) < 0 ||
	    set_filter(p[0], cfg) < 0)
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
	proc = key_read_proc();
	keyset_init(&q->ks, src, proc ? proc : "");
	i = keyset_children(&q->ks, cfg, proc ? proc : "", follow, unfollow, src) < 0;
	free(proc);
	return i ? -1 : 0;
}

static void
wq_close(struct source *src)
{
	struct wq *q = src->priv;

	if (src->nfds > 0 && src->pfd[0].fd >= 0)
		close(src->pfd[0].fd);
	src->nfds = 0;
	if (q) {
		if (q->wfd >= 0)
			close(q->wfd);
		keyset_free(&q->ks);
		free(q);
	}
	src->priv = NULL;
}

static int
wq_check(struct source *src, const struct cond *c)
{
	return keyset_check(c);
}

const struct source_ops source_watchqueue_ops = {
	.open = wq_open,
	.drain = wq_drain,
	.present = NULL,	/* --initial reports mounts only */
	.check = wq_check,
	.close = wq_close,
};
