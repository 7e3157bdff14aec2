/*
 * Key source for kernels without the notification queue: every --interval,
 * re-read /proc/keys and each watched keyring's contents, and report what
 * changed as the kernel would have (with --recursive, for the keyrings linked
 * below a watched one too). Polling sees links and unlinks, revocation,
 * invalidation, attribute and (for keys with a summary) content changes, but
 * not what is undone between two polls, nor updates that keep the summary.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "key_events.h"
#include "keyset.h"
#include "source.h"
#include "util.h"

static int
follow(void *ctx, struct keyent *e)
{
	return 0;	/* polling follows whatever is in the set */
}

static void
take_all(struct source *src, bool report)
{
	struct keyset *ks = src->priv;
	const struct config *cfg = src->cfg;
	struct key_snap fresh;
	char *proc = key_read_proc();
	size_t i;

	for (i = 0; i < ks->n; i++) {
		struct keyent *e = &ks->v[i];
		const struct watch *w = &cfg->watches[e->watch];

		if (e->gone)
			continue;
		keysnap_take(&fresh, e->serial, proc ? proc : "");
		if (!fresh.exists) {
			/* A followed child keyring that went is no news of its own. */
			e->gone = true;
			if (!e->child) {
				src->nwatches--;
				event_meta(src->sink, w, "keys", META_REMOVAL, src->ops->name, "watched key is gone");
			}
			keysnap_free(&fresh);
			continue;
		}
		if (report)
			keysnap_diff(&e->snap, &fresh, w, src->sink);
		keysnap_free(&e->snap);
		e->snap = fresh;
	}
	keyset_children(ks, cfg, proc ? proc : "", follow, follow, src);
	free(proc);
}

static int
kp_open(struct source *src)
{
	struct keyset *ks = xcalloc(1, sizeof(*ks));
	const struct config *cfg = src->cfg;
	struct itimerspec its;
	long long ns = (long long)(cfg->interval * 1e9);
	char *proc;
	size_t i;

	src->priv = ks;
	src->pfd[0] = (struct pollfd){ timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK), POLLIN, 0 };
	src->nfds = 1;
	if (src->pfd[0].fd < 0)
		return -1;
	its.it_value.tv_sec = its.it_interval.tv_sec = (time_t)(ns / 1000000000LL);
	its.it_value.tv_nsec = its.it_interval.tv_nsec = (long)(ns % 1000000000LL);
	if (timerfd_settime(src->pfd[0].fd, 0, &its, NULL) < 0)
		return -1;
	proc = key_read_proc();
	keyset_init(ks, cfg, proc ? proc : "");
	keyset_children(ks, cfg, proc ? proc : "", follow, follow, src);
	free(proc);
	for (i = 0; i < ks->n; i++)
		src->nwatches += !ks->v[i].child;
	return 0;
}

static int
kp_drain(struct source *src, size_t i)
{
	uint64_t ticks;

	if (read(src->pfd[i].fd, &ticks, sizeof(ticks)) < 0 && errno != EAGAIN && errno != EINTR)
		return -1;
	take_all(src, true);
	return 0;
}

static void
kp_close(struct source *src)
{
	struct keyset *ks = src->priv;

	if (src->nfds > 0 && src->pfd[0].fd >= 0)
		close(src->pfd[0].fd);
	src->nfds = 0;
	if (ks) {
		keyset_free(ks);
		free(ks);
	}
	src->priv = NULL;
}

const struct source_ops source_keypoll_ops = {
	.name = "poll",
	.open = kp_open,
	.drain = kp_drain,
	.present = NULL,	/* --initial reports mounts only */
	.close = kp_close,
};
