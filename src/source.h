#ifndef WATCHQ_SOURCE_H
#define WATCHQ_SOURCE_H

#include <stdbool.h>
#include <poll.h>
#include <stddef.h>

#include "config.h"
#include "event.h"
#include "mounttab.h"

#define SOURCE_MAX_FDS	4

struct source;

/* One kernel mechanism behind the loop; see DESIGN §4. */
struct source_ops {
	const char *name;	/* backend name, as --backend spells it */
	/* Establish every watch of the source's type; -1 with errno set. */
	int (*open)(struct source *src);
	/* Consume everything ready on src->pfd[i] and emit the events; -1 with errno set. */
	int (*drain)(struct source *src, size_t i);
	/* Emit present records for the current state (--initial); NULL if the source has none. */
	void (*present)(struct source *src);
	/* Release everything. */
	void (*close)(struct source *src);
};

struct source {
	const struct source_ops *ops;
	enum ev_type type;	/* the watches it serves */
	const char *backend;	/* what the readiness line names; NULL: ops->name */
	const struct config *cfg;
	struct sink *sink;
	struct pollfd pfd[SOURCE_MAX_FDS];	/* polled by the loop; fd -1 is skipped */
	size_t nfds;
	size_t nwatches;	/* watches of this source still alive */
	const struct mounttab *table;	/* mount sources: the current table */
	void *priv;
};

extern const struct source_ops source_mountinfo_ops;
extern const struct source_ops source_fanotify_ops;
extern const struct source_ops source_watchqueue_ops;
extern const struct source_ops source_keypoll_ops;
extern const struct source_ops source_sb_ops;

/* Choose and open the mount source for cfg (its table serves wait even without watches); -1 with errno set and *why saying what failed, errno ENOSYS for a backend this kernel or build lacks. */
int source_open_mounts(struct source *src, const struct config *cfg, struct sink *sink,
    const char **why);

/* Choose and open the key source for cfg's key watches, as source_open_mounts() does for mounts. */
int source_open_keys(struct source *src, const struct config *cfg, struct sink *sink, const char **why);

/* Open the superblock source for cfg's sb watches (and wait --readonly/--writable), as above. */
int source_open_sb(struct source *src, const struct config *cfg, struct sink *sink, const char **why);

#endif
