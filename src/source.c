#include <errno.h>
#include <string.h>

#include "source.h"

int
source_open_mounts(struct source *src, const struct config *cfg, struct sink *sink,
    const char **why)
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
	default:
		*why = "--backend=fanotify: fanotify mount events (Linux 6.15) are not supported yet by this build; use mountinfo";
		errno = ENOSYS;
		return -1;
	}
	*why = "/proc/self/mountinfo (is /proc mounted?)";
	return src->ops->open(src);
}
