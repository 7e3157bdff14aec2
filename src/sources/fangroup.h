#ifndef WATCHQ_FANGROUP_H
#define WATCHQ_FANGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "capture.h"
#include "fan_decode.h"
#include "mounttab.h"

/*
 * -N all's one fanotify group: a mount-namespace mark on every namespace watched, each namespace's
 * source a member. A record names a mount by its id and the process behind it, never its
 * namespace: fangroup_read() routes each record to the member whose namespace holds the mount.
 */

/* What a member does with what is routed to it. */
struct fangroup_ops {
	/* Whether its cache has the mount. */
	bool (*holds)(void *ctx, uint64_t id);
	/*
	 * Take r: a detach, or a move or attach of a mount it holds; a move or attach of another
	 * mount only if statmount(2) finds it in its namespace (false: it does not, and nothing was
	 * done); an overflow. The pidfd of a record taken is the member's to close.
	 */
	bool (*take)(void *ctx, const struct fan_rec *r);
	/* A mount of its namespace attached and gone before it could be read. */
	void (*transient)(void *ctx, uint64_t id);
	/* Whether a mount attached in its namespace may have copies in others: it has had a mount
	 * in a peer group (shared), or a call there may have made one so, since it was marked. */
	bool (*spreads)(void *ctx);
	/* Act on what was routed to it since it last did; -1 with errno set. */
	int (*wake)(void *ctx);
};

struct fangroup_member {
	const struct fangroup_ops *ops;
	void *ctx;
	uint64_t ino;		/* its namespace's inode number */
	/* No id its cache holds is above this one (the highest it has read); NULL: unknown */
	const uint64_t *top_id;
	int nsfd;		/* our own fd of its nsfs file: the mark is removed through it */
	bool pending;		/* something was routed to it since it last woke */
	bool leaving;		/* its mark is gone: what is still queued for it is dropped */
};

/* Transient mounts whose namespace cannot be told: handed to this, with its ctx. */
typedef void fangroup_unplaced_fn(void *ctx, const uint64_t *ids, size_t n);

struct fangroup {
	int fd;
	bool pidfd;		/* records carry a pidfd (FAN_REPORT_PIDFD) */
	size_t read_size;	/* bytes one read(2) may fill */
	struct fangroup_member **m;
	size_t n;
	size_t last;		/* the member the last record was routed to */
	int error;		/* a read failed with this errno; 0: none */
	bool left;		/* a member has left */
	/* The capture of every namespace's mount calls (CAPTURE_NS_PROCS), set by the group's
	 * owner, not ours to close; NULL: none */
	struct capture *cap;
	bool pumping;		/* fangroup_pump() runs: a member's wake reads nothing */
	fangroup_unplaced_fn *unplaced;
	void *ctx;
	/* The records of one read, the ids that read says are detached, its unplaced mounts */
	struct fan_rec *rec;
	size_t nrec, rec_cap;
	unsigned more;		/* fangroup_more()'s reads after them */
	bool bad;		/* a record could not be decoded: a loss everywhere */
	struct mounttab_ids gone, lost;
	unsigned char buf[65536] __attribute__((aligned(8)));
};

/* A mount-namespace fanotify group, with a pidfd per record if pidfd and allowed; *read_size: the
 * bytes one read(2) may fill (size without pidfds); -1 with errno set. */
int fangroup_init_fd(bool pidfd, size_t *read_size, size_t size);
/* Add (or remove) the mark of the namespace of dirfd and path on the group fd; -1 with errno
 * set. */
int fangroup_mark(int fd, bool add, int dirfd, const char *path);
/* Open the group, with a pidfd per record if pidfd and allowed; -1 with errno set (EINVAL,
 * EPERM: no mount records here, or not ours). */
int fangroup_open(struct fangroup *g, bool pidfd, fangroup_unplaced_fn *unplaced, void *ctx);
/* Mark the namespace of nsfd for m (its ops, ctx and ino set); -1 with errno set. */
int fangroup_join(struct fangroup *g, struct fangroup_member *m, int nsfd);
/* Remove m's mark, read the queue to its end (what m takes there is dropped), and forget m. */
void fangroup_leave(struct fangroup *g, struct fangroup_member *m);
/* Read every record queued and route each to its member; -1 with errno set (also kept in
 * g->error). */
int fangroup_read(struct fangroup *g);
/* Wake each member something was routed to, once, reading nothing meanwhile (what comes is read at
 * the next wake-up); -1 with errno set. */
int fangroup_pump(struct fangroup *g);
/* Close the group's fd: the members leave without another read. */
void fangroup_shut(struct fangroup *g);
/* Free what the group holds (its members have left). */
void fangroup_free(struct fangroup *g);

#endif
