#ifndef WATCHQ_NSCALLS_H
#define WATCHQ_NSCALLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "capture.h"

/*
 * -N all: the changes made in a namespace before it was watched. No notification tells of a new
 * mount namespace, and one may have its mounts made, and be gone again, before a listing finds it
 * (container runtimes make namespaces in parallel and mount at once). Such a change has no record:
 * the namespace had no mark, and its first table read takes what it did for its state. The
 * capture notes the namespace in which each call that may attach, detach or move a mount begins
 * (capture_ns_calls()), at its entry, which is written before the call changes anything. A call
 * read before a namespace was watched, or by the first drain after its source opened, is such a
 * change:
 *
 * - in a namespace watched now: a loss after its ns_new;
 * - in one a listing finds gone, or without a process we may look into: a loss of that namespace
 *   (its inode number; no cgroup), which has no ns_new;
 * - in one a listing finds with no TARGET a directory there: its own, if it was listed before
 *   the call was read (it held the inode number since); else a loss all the same. The inode
 *   number of a namespace gone is taken again at once, and only a namespace we hold cannot go.
 *
 * A call the capture may have missed (its ring full, a record still being written as a namespace
 * opened) is a loss of no namespace, and each namespace found next has one after its ns_new.
 * Without the capture, each namespace found after the first listing has a loss after its ns_new,
 * and one gone before a listing finds it is not seen at all. Remounts and propagation changes
 * made before a namespace was watched are its state as first read, as at the start.
 *
 * This ledger knows namespaces by inode number alone; -N all says what it knows of each.
 */

/* What -N all knows of a namespace by its inode number. */
enum nscalls_known {
	NSCALLS_UNKNOWN,	/* not watched, not listed idle by the last listing */
	NSCALLS_WATCHED,
	NSCALLS_IDLE,		/* listed by the last listing, not watched (no TARGET there) */
	NSCALLS_PIDLESS,	/* listed by the last listing, no process of it found */
};

struct nscalls_ask {
	/* What is known of namespace ino; for NSCALLS_IDLE, *since: the capture_epoch() from which
	 * the inode number was its own */
	enum nscalls_known (*known)(void *ctx, uint64_t ino, uint64_t *since);
	/* Emit a loss of namespace ino (0: of none) */
	void (*loss)(void *ctx, uint64_t ino);
	void *ctx;
};

struct nscalls {
	struct capture_nscalls *v;	/* by namespace, the calls not accounted for yet */
	size_t n;
	bool missed;			/* the capture may have missed calls */
	unsigned long long losses;	/* capture_losses(), as last looked at */
	bool started;			/* the first listing is done: a namespace found now is new */
};

/* The first listing is done: what cap (NULL: none) noted until now is the state at the start. */
void nscalls_start(struct nscalls *c, struct capture *cap);
/* After a drain of cap: take what it noted; the calls of a namespace watched are its records'. */
void nscalls_take(struct nscalls *c, struct capture *cap, const struct nscalls_ask *q);
/* Whether calls wait in a namespace neither watched nor listed: a listing will tell where. */
bool nscalls_due(const struct nscalls *c, const struct nscalls_ask *q);
/*
 * The source of namespace ino is open (its mark placed, its table read): whether a change in it
 * may have been missed before (a loss follows its ns_new).
 */
bool nscalls_opened(struct nscalls *c, struct capture *cap, uint64_t ino,
    const struct nscalls_ask *q);
/*
 * A whole listing is done: a loss for each namespace not watched in which calls read by the
 * capture's drain before (capture_epoch()) or an earlier one were made; a loss of no namespace if
 * calls may have been missed.
 */
void nscalls_settle(struct nscalls *c, uint64_t before, const struct nscalls_ask *q);
/* Release what c holds. */
void nscalls_free(struct nscalls *c);

#endif
