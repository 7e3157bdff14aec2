/*
 * Key source on the kernel's general notification queue (Linux 5.8,
 * CONFIG_WATCH_QUEUE + CONFIG_KEY_NOTIFICATIONS): a notification pipe sized
 * with --queue-size, the -e/-E filter handed to the kernel so that unwanted
 * records never leave it, and one KEYCTL_WATCH_KEY per watched key with its
 * tag as the watch id. A full ring becomes a loss record: then each watched
 * keyring is re-read and compared with the last snapshot (a resync).
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
#include "source.h"
#include "util.h"
#include "wq_decode.h"

struct wq {
	int wfd;		/* the write end: kept open, or reads see EOF */
	bool loss;
	bool gone[WATCHQ_MAX_WATCHES];
	struct key_snap snap[WATCHQ_MAX_WATCHES];	/* for the resync after a loss */
	unsigned char buf[4096] __attribute__((aligned(8)));
};

/* The kernel keeps the notification queue out of kernels built without it. */
static bool
kernel_has_key_notifications(void)
{
	unsigned char caps[2] = { 0, 0 };

	return keyctl_capabilities(caps, sizeof(caps)) >= 2 && (caps[1] & KAPI_KEYCTL_CAPS1_NOTIFICATIONS);
}

static void
snapshot(struct source *src, bool report)
{
	struct wq *q = src->priv;
	const struct config *cfg = src->cfg;
	struct key_snap fresh;
	char *proc = key_read_proc();
	size_t i;

	for (i = 0; i < cfg->nwatches; i++) {
		if (cfg->watches[i].type != EV_KEY || q->gone[i])
			continue;
		keysnap_take(&fresh, cfg->watches[i].key, proc ? proc : "");
		if (report && fresh.exists)
			keysnap_diff(&q->snap[i], &fresh, &cfg->watches[i], src->sink);
		keysnap_free(&q->snap[i]);
		q->snap[i] = fresh;
	}
	free(proc);
}

static const struct watch *
watch_of_tag(const struct config *cfg, unsigned tag, size_t *idx)
{
	if (tag >= cfg->nwatches || cfg->watches[tag].type != EV_KEY)
		return NULL;
	*idx = tag;
	return &cfg->watches[tag];
}

static void
on_record(void *p, const struct wq_rec *r)
{
	struct source *src = p;
	struct wq *q = src->priv;
	const struct watch *w;
	size_t i;

	if (r->type == KAPI_WATCH_TYPE_META && r->subtype == KAPI_WATCH_META_LOSS) {
		q->loss = true;
		return;
	}
	if ((w = watch_of_tag(src->cfg, r->tag, &i)) == NULL || q->gone[i])
		return;
	if (r->type == KAPI_WATCH_TYPE_META && r->subtype == KAPI_WATCH_META_REMOVAL) {
		q->gone[i] = true;
		src->nwatches--;
		key_events_meta(src->sink, w, META_REMOVAL, src->ops->name, "watched key is gone");
	} else if (r->type == KAPI_WATCH_TYPE_KEY_NOTIFY) {
		if (r->key_id == w->key)
			keysnap_apply(&q->snap[i], r->subtype, r->aux);
		key_events_emit(src->sink, w, r->subtype, r->key_id, r->aux, &q->snap[i]);
	}
}

static int
wq_drain(struct source *src, size_t i)
{
	struct wq *q = src->priv;
	const struct config *cfg = src->cfg;
	ssize_t n;
	size_t k;

	for (;;) {
		n = read(src->pfd[i].fd, q->buf, sizeof(q->buf));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				break;
			return -1;
		}
		if (n == 0)
			break;
		if (wq_decode(q->buf, (size_t)n, on_record, src) < 0)
			q->loss = true;
	}
	if (q->loss) {
		q->loss = false;
		for (k = 0; k < cfg->nwatches; k++)
			if (cfg->watches[k].type == EV_KEY && !q->gone[k])
				key_events_meta(src->sink, &cfg->watches[k], META_LOSS, src->ops->name, NULL);
		snapshot(src, true);
	}
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
	int p[2];
	size_t i;

	src->priv = q;
	q->wfd = -1;
	src->pfd[0] = (struct pollfd){ -1, POLLIN, 0 };
	src->nfds = 1;
	if (!kernel_has_key_notifications()) {
		errno = EOPNOTSUPP;
		return -1;
	}
	if (pipe2(p, KAPI_O_NOTIFICATION_PIPE | O_CLOEXEC | O_NONBLOCK) < 0)
		return -1;
	src->pfd[0].fd = p[0];
	q->wfd = p[1];
	/* The size first: a queue without slots loses everything. */
	if (ioctl(p[0], KAPI_IOC_WATCH_QUEUE_SET_SIZE, (unsigned long)cfg->queue_size) < 0 ||
	    set_filter(p[0], cfg) < 0)
		return -1;
	for (i = 0; i < cfg->nwatches; i++) {
		if (cfg->watches[i].type != EV_KEY)
			continue;
		if (keyctl_watch_key(cfg->watches[i].key, p[0], cfg->watches[i].tag) < 0)
			return -1;
		src->nwatches++;
	}
	snapshot(src, false);
	return 0;
}

static void
wq_close(struct source *src)
{
	struct wq *q = src->priv;
	size_t i;

	if (src->nfds > 0 && src->pfd[0].fd >= 0)
		close(src->pfd[0].fd);
	src->nfds = 0;
	if (q) {
		if (q->wfd >= 0)
			close(q->wfd);
		for (i = 0; i < WATCHQ_MAX_WATCHES; i++)
			keysnap_free(&q->snap[i]);
		free(q);
	}
	src->priv = NULL;
}

const struct source_ops source_watchqueue_ops = {
	.name = "watch-queue",
	.open = wq_open,
	.drain = wq_drain,
	.present = NULL,	/* --initial reports mounts only */
	.close = wq_close,
};
