#include <err.h>
#include <errno.h>
#include <string.h>

#include "cli_ns.h"
#include "escape.h"
#include "exit.h"

void
cli_ns_open(struct config *cfg, struct mntns *ns, char *const *args, size_t n)
{
	size_t i, k;
	int e;

	if (cfg->ns_all && n > 0)
		errx(EXIT_USAGE, "-N all watches every mount namespace: no other -N goes with it");
	if (n > MNTNS_MAX)
		errx(EXIT_USAGE, "too many -N: at most %d mount namespaces", MNTNS_MAX);
	cfg->ns = ns;
	for (i = 0; i < n; i++) {
		if (mntns_open(&ns[i], args[i]) < 0) {
			e = errno;
			mntns_close(&ns[i]);
			switch (e) {
			case ESRCH:
				errx(EXIT_USAGE, "-N %s: no such process", escape_arg(args[i]));
			case EINVAL:
				errx(EXIT_USAGE,
				    "-N %s: not a mount namespace (a PID, or a file such as "
				    "/proc/PID/ns/mnt)",
				    escape_arg(args[i]));
			case EACCES:
			case EPERM:
				errx(EXIT_UNAVAILABLE,
				    "-N %s: may not watch this mount namespace: %s",
				    escape_arg(args[i]), strerror(e));
			case ENXIO:
				errx(EXIT_UNAVAILABLE,
				    "-N %s: no process is in this mount namespace (watchq sees one "
				    "through a process in it)",
				    escape_arg(args[i]));
			default:
				errno = e;
				err(EXIT_USAGE, "-N %s", escape_arg(args[i]));
			}
		}
		for (k = 0; k < cfg->nns; k++)
			if (ns[k].dev == ns[i].dev && ns[k].ino == ns[i].ino)
				errx(EXIT_USAGE, "-N %s: the same mount namespace as -N %s",
				    escape_arg(args[i]), escape_arg(cfg->ns[k].arg));
		cfg->nns++;
	}
}
