#ifndef WATCHQ_NSALL_H
#define WATCHQ_NSALL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "capture.h"
#include "config.h"
#include "event.h"
#include "fangroup.h"
#include "mntns.h"
#include "nscalls.h"
#include "source.h"
#include "sourceset.h"

#define NSALL_PERIOD_MS	500	/* how often the namespaces are listed again */
/* With the capture, while no namespace waits for a process: a safety net only */
#define NSALL_NET_MS	5000
#define NSALL_RELISTS	4	/* listings in a row while the capture brings new namespaces */

/* A mount namespace -N all watches: a process in it, the TARGETs found there and their source. */
struct nsall_ns {
	struct mntns ns;
	char arg[16];		/* the PID mntns_open() was given */
	struct watch *watches;	/* the mounts TARGETs that are directories there */
	size_t nwatches;
	struct source src;
	bool listed;		/* the last listing had it */
	bool announced;		/* its ns_new record is out */
	/* A change before it was watched may have been missed: a loss follows its ns_new */
	bool lost_before;
};

/* A namespace listed but not watched: we may not look into it, or no TARGET is a directory
 * there, or (pidless) no process of it was found, looked for again at each listing. */
struct nsall_idle {
	uint64_t ino, id;
	bool pidless;
	unsigned rounds;	/* pidless: listings it has been so */
	bool listed;
	/* The capture's calls in its namespace first read by a later drain are its own: it held the
	 * inode number then (nsall_calls.c) */
	uint64_t since;
};

/* -N all: every mount namespace, listed again every NSALL_PERIOD_MS. */
struct nsall {
	const struct config *cfg;
	struct sink *sink;
	struct nsall_ns **ns;	/* those watched */
	size_t n;
	struct nsall_idle *idle;
	size_t nidle;
	int timerfd;		/* time to list again */
	/* The process capture of the calls that make or enter a mount namespace, and of the flip
	 * calls of each (CAPTURE_NS_FLIPS); NULL: none */
	struct capture *cap;
	/* The capture's counts of calls that made or entered a namespace, as last looked at */
	unsigned long long ns_made, ns_entered;
	unsigned long long flips;	/* capture_ns_flips_all(), as the sources were last poked */
	unsigned long long losses;	/* capture_losses(), as last looked at */
	int period_ms;		/* the timer's period now */
	/* The one fanotify group of every namespace watched on fanotify; NULL: none here */
	struct fangroup *group;
	int fd;			/* polled by the loop: the timer, or an epoll of it, cap and group */
	bool by_proc;		/* no NS_MNT_GET_NEXT here: found in /proc/PID/ns/mnt */
	bool said_walk;		/* a listing cut short was said */
	struct sourceset *set;	/* the run's: each namespace's source is added there, and removed */
	bool on_mountinfo;	/* namespaces that cannot have a fanotify mark go to mountinfo */
	/* The calls the capture saw in namespaces not watched then, not yet accounted for, and how
	 * that ledger asks what is known of a namespace */
	struct nscalls calls;
	struct nscalls_ask ask;
};

/* Start: the timer, the capture where it loads, and every namespace there is now (each source
 * added to set), announced by nsall_announce(); -1 with errno set. */
int nsall_open(struct nsall *a, const struct config *cfg, struct sink *sink, struct sourceset *set);
/* Emit the ns_new record of each namespace not yet announced, then (--initial) its mounts. */
void nsall_announce(struct nsall *a);
/* The group has records, or the timer fired, or the capture saw a namespace made or entered, or
 * lost a call: route the records; list the namespaces again, open and announce the new ones. */
void nsall_tick(struct nsall *a);
/*
 * Once after each wake-up of the run, after its sources' drains: have each namespace whose records
 * were routed to it act on them, have each source look again where a flip call may have changed
 * its mounts, list the namespaces again where a call made or entered one, and emit ns_gone for
 * each namespace no process is left in (its source removed from the set); -1 with errno set when
 * the group cannot be read.
 */
int nsall_after(struct nsall *a);
/* The backend of the first namespace watched, NULL if none is. */
const char *nsall_backend_name(const struct nsall *a);
/* Release everything. */
void nsall_close(struct nsall *a);

#endif
