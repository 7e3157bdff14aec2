#include <err.h>
#include <errno.h>
#include <string.h>

#include "source.h"

static const char *const backend_names[] = {
	[BACKEND_AUTO] = "auto",
	[BACKEND_FANOTIFY] = "fanotify",
	[BACKEND_MOUNTINFO] = "mountinfo",
	[BACKEND_WATCH_QUEUE] = "watch-queue",
	[BACKEND_POLL] = "poll",
};

int
source_open_mounts(struct source *src, const struct config *cfg, struct sink *sink)
{
	memset(src, 0, sizeof(*src));
	src->cfg = cfg;
	src->sink = sink;
	src->fd = -1;
	switch (cfg->backend) {
	case BACKEND_AUTO:
	case BACKEND_MOUNTINFO:
		src->ops = &source_mountinfo_ops;
		break;
	case BACKEND_FANOTIFY:
		errx(EXIT_UNAVAILABLE, "--backend=fanotify: fanotify mount events (Linux 6.15) are not supported yet by this build; use mountinfo");
	case BACKEND_WATCH_QUEUE:
	case BACKEND_POLL:
		errx(EXIT_USAGE, "--backend=%s does not serve mounts (auto, fanotify, mountinfo)",
		    backend_names[cfg->backend]);
	}
	return src->ops->open(src);
}
