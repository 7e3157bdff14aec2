/*
 * Key source for kernels without the notification queue: every --interval,
 * re-read /proc/keys and each watched keyring's contents, and report what
 * changed as the kernel would have (with --recursive, for the keyrings linked
 * below a watched one too; with --follow, for the other keys linked in them).
 * Polling sees links and unlinks, revocation, invalidation, attribute and
 * (for keys with a summary) content changes, but not what is undone between
 * two polls, nor updates that keep the summary.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "keyproc.h"
#include "keyset.h"
#include "source.h"
#include "xalloc.h"

enum { FD_TIMER };	/* the source's one slot */

struct keypoll {
	struct keyset ks;
	int timer_fd;		/* every --interval */
};

static void
keypoll_refresh(struct source *src)
{
	struct keypoll *kp = src->priv;
	char *proc = keyproc_read();

	keyset_refresh(&kp->ks, src, proc, true);
	keyset_children(&kp->ks, src->cfg, proc, NULL, NULL, src);
	free(proc);
}

static int
keypoll_open(struct source *src)
{
	struct keypoll *kp = xcalloc(1, sizeof(*kp));
	const struct config *cfg = src->cfg;
	struct itimerspec its;
	long long ns = (long long)(cfg->interval * 1e9);
	char *proc;

	src->priv = kp;
	kp->timer_fd = -1;
	if (access("/proc/keys", R_OK) < 0)
		return -1;
	if ((kp->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK)) < 0)
		return -1;
	its.it_value.tv_sec = its.it_interval.tv_sec = (time_t)(ns / 1000000000LL);
	its.it_value.tv_nsec = its.it_interval.tv_nsec = (long)(ns % 1000000000LL);
	if (timerfd_settime(kp->timer_fd, 0, &its, NULL) < 0)
		return -1;
	source_poll(src, FD_TIMER, kp->timer_fd, POLLIN);
	proc = keyproc_read();
	keyset_init(&kp->ks, src, proc);
	keyset_children(&kp->ks, cfg, proc, NULL, NULL, src);
	free(proc);
	return 0;
}

static int
keypoll_drain(struct source *src, size_t i)
{
	struct keypoll *kp = src->priv;
	uint64_t ticks;

	if (read(kp->timer_fd, &ticks, sizeof(ticks)) < 0 && errno != EAGAIN && errno != EINTR)
		return -1;
	keypoll_refresh(src);
	return 0;
}

static void
keypoll_close(struct source *src)
{
	struct keypoll *kp = src->priv;

	if (kp == NULL)
		return;
	source_close_fd(src, FD_TIMER, &kp->timer_fd);
	keyset_free(&kp->ks);
	free(kp);
	src->priv = NULL;
}

static void
keypoll_present(struct source *src)
{
	struct keypoll *kp = src->priv;

	keyset_present(&kp->ks, src);
}

static int
keypoll_check(struct source *src, const struct cond *c)
{
	return keyset_check(c);
}

const struct source_ops source_keypoll_ops = {
	.open = keypoll_open,
	.drain = keypoll_drain,
	.present = keypoll_present,
	.check = keypoll_check,
	.close = keypoll_close,
};
