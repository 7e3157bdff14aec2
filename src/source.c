#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "source.h"

static void
reset(struct source *src, const struct config *cfg, struct sink *sink, const struct source_ops *ops,
    enum ev_type type)
{
	memset(src, 0, sizeof(*src));
	src->cfg = cfg;
	src->sink = sink;
	src->ops = ops;
	src->type = type;
}

int
source_open_mounts(struct source *src, const struct config *cfg, struct sink *sink,
    const char **why)
{
	static char msg[256];
	int saved;

	if (cfg->backend == BACKEND_AUTO || cfg->backend == BACKEND_FANOTIFY) {
		reset(src, cfg, sink, &source_fanotify_ops, EV_MOUNT);
		if (src->ops->open(src) == 0)
			return 0;
		saved = errno;
		src->ops->close(src);
		if (saved != EINVAL && saved != EPERM && saved != ENOSYS && saved != EACCES) {
			*why = "fanotify";
			errno = saved;
			return -1;
		}
		snprintf(msg, sizeof(msg), "fanotify mount events need Linux 6.15 and CAP_SYS_ADMIN "
		    "(6.16+: in the mount namespace's user namespace): %s", strerror(saved));
		if (cfg->backend == BACKEND_FANOTIFY) {
			*why = msg;
			errno = ENOSYS;
			return -1;
		}
		if (!cfg->quiet)
			fprintf(stderr, "watchq: %s; using mountinfo\n", msg);
	}
	reset(src, cfg, sink, &source_mountinfo_ops, EV_MOUNT);
	*why = "/proc/self/mountinfo (is /proc mounted?)";
	return src->ops->open(src);
}

int
source_open_keys(struct source *src, const struct config *cfg, struct sink *sink, const char **why)
{
	static char msg[320];
	int saved;

	if (cfg->backend == BACKEND_AUTO || cfg->backend == BACKEND_WATCH_QUEUE) {
		reset(src, cfg, sink, &source_watchqueue_ops, EV_KEY);
		if (src->ops->open(src) == 0)
			return 0;
		saved = errno;
		src->ops->close(src);
		if (saved != EOPNOTSUPP && saved != ENOPKG && saved != ENOSYS) {
			*why = "watch-queue: KEYCTL_WATCH_KEY";
			errno = saved;
			return -1;
		}
		snprintf(msg, sizeof(msg), "key notifications need Linux 5.8 with CONFIG_WATCH_QUEUE and "
		    "CONFIG_KEY_NOTIFICATIONS, which this kernel lacks");
		if (cfg->backend == BACKEND_WATCH_QUEUE) {
			*why = msg;
			errno = ENOSYS;
			return -1;
		}
		if (!cfg->quiet)
			fprintf(stderr, "watchq: %s; polling every %gs instead, which misses changes undone "
			    "between two polls and updates that keep a key's size\n", msg, cfg->interval);
	}
	reset(src, cfg, sink, &source_keypoll_ops, EV_KEY);
	*why = "/proc/keys (is /proc mounted?)";
	if (access("/proc/keys", R_OK) < 0)
		return -1;
	return src->ops->open(src);
}

int
source_open_sb(struct source *src, const struct config *cfg, struct sink *sink, const char **why)
{
	reset(src, cfg, sink, &source_sb_ops, EV_SB);
	*why = "sb: none of the events asked for can be had here (see above)";
	if (src->ops->open(src) == 0)
		return 0;
	if (errno != ENOSYS)
		*why = "sb";
	return -1;
}
