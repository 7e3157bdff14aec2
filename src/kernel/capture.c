/*
 * The process capture's user half: loads capture.bpf.c (a skeleton), reads its ring buffer, and
 * keeps the identities of the processes whose mount calls may still have fanotify records to come.
 *
 * A mount call is kept from its entry until it has ended and the fanotify queue has been read
 * empty after that: every record it caused was queued before it ended, so it has been read. A
 * record is named from the call behind it (capjoin.c), with the uid and name the process had at
 * that call. A process is its tgid and its start time (a pid reused is another start): where its
 * calls were made tells -N all the namespace of a mount gone unread. Whatever the capture may have
 * missed (a full ring, a full table, a record not yet written) makes it name nobody rather than
 * someone else.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "capattach.h"
#include "capflip.h"
#include "capjoin.h"
#include "capture.skel.h"
#include "capture.h"
#include "capture_rec.h"
#include "capture_ring.h"
#include "xalloc.h"

#define IDS_MAX		4096		/* identities kept at once: more than half the ring holds */
#define CALLS_MAX	4096		/* mount calls kept at once, as many */
#define FLIPS_MAX	256		/* flip calls kept at once */
#define NSFLIPS_MAX	1024		/* namespaces whose flip calls are counted (CAPTURE_NS_FLIPS) */
#define NSCALLS_MAX	256		/* namespaces whose tree calls are noted between two takes */

struct capture_id {
	uint32_t tgid;
	uint64_t start;
	unsigned open;			/* calls entered and not yet ended */
	uint64_t end_epoch;		/* the drain that saw the last of them end */
	uint64_t ns;			/* the mount namespace of its latest call */
	/* The drain that saw its latest call in another namespace end; 0: none; UINT64_MAX: one
	 * may be under way */
	uint64_t other_end;
};

struct capture {
	struct capture_bpf *skel;
	struct capattach att;		/* how it is attached */
	struct capture_ring ring;
	uint64_t epoch;			/* drains so far */
	uint64_t read_epoch;		/* the last fanotify read began after this drain */
	uint64_t settled_epoch;		/* the last read that found the queue empty, as read_epoch */
	bool stalled;			/* the last drain stopped at a record being written */
	bool unsure;			/* the table forgot a process: until unsure_epoch is read */
	uint64_t unsure_epoch;
	bool blind;			/* the table forgot a live process: name nobody */
	struct capture_id ids[IDS_MAX];
	size_t nids;
	/* The mount calls that may be behind records not read yet, oldest first */
	struct capjoin_call *calls;
	size_t ncalls;
	/* watchq's own mount namespace and root, as its own call showed them; 0: not known */
	struct capflip_self self;
	uint64_t drops;			/* the kernel's count of records it had no room for */
	bool flips_lost;		/* a flip call may be missing: until none is kept */
	unsigned long long losses;	/* times some call may have been missed */
	unsigned long long settled_losses;	/* as of the last capture_settle() */
	unsigned what;			/* enum capture_what */
	/* Calls seen to succeed: those that made a mount namespace, those that entered one */
	unsigned long long ns_made, ns_entered;
	struct capture_call flips[FLIPS_MAX];
	size_t nflips;
	/* CAPTURE_NS_FLIPS: flip calls ended, by the caller's namespace; remounts of a superblock;
	 * what the table held each time it was full and started again, and one more (it counts
	 * for every namespace) */
	struct capture_nsflips {
		uint64_t ns;
		unsigned long long n;
		unsigned long long props;	/* of those, the ones that may change propagation */
	} nsflips[NSFLIPS_MAX];
	size_t nnsflips;
	unsigned long long sb_flips, nsflips_resets;
	unsigned long long nsflips_begun;	/* flip calls begun */
	/* CAPTURE_NS_FLIPS: where calls that may attach, detach or move a mount began, since the
	 * last capture_ns_calls_clear(); nscalls_lost: a namespace had no room */
	struct capture_nscalls nscalls[NSCALLS_MAX];
	size_t nnscalls;
	bool nscalls_lost;
};

const char *
capture_attach_name(const struct capture *c)
{
	return capattach_name(c->att.kind);
}

const char *
capture_fentry_why(const struct capture *c)
{
	return c->att.fentry_why[0] ? c->att.fentry_why : NULL;
}

/* Whether we hold what loading BPF takes (CAP_SYS_ADMIN, or CAP_BPF with CAP_PERFMON): a user
 * without it is not told at each run that the capture could not load. */
bool
capture_privileged(void)
{
	unsigned long long eff = 0;
	char line[256];
	FILE *f = fopen("/proc/self/status", "re");

	if (f == NULL)
		return false;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &eff) == 1)
			break;
	fclose(f);
	return (eff >> 21 & 1) || ((eff >> 39 & 1) && (eff >> 38 & 1));
}

struct capture *
capture_open(unsigned what, char *why, size_t size)
{
	struct capture *c = xcalloc(1, sizeof(*c));
	struct stat pidns;

	c->ring.fd = -1;
	c->what = what;
	c->calls = xcalloc(CALLS_MAX, sizeof(*c->calls));
	if (access("/sys/kernel/btf/vmlinux", R_OK) < 0) {
		snprintf(why, size, "the kernel has no BTF (/sys/kernel/btf/vmlinux): %s",
		    strerror(errno));
		goto fail;
	}
	if (stat("/proc/self/ns/pid", &pidns) < 0) {
		snprintf(why, size, "/proc/self/ns/pid: %s", strerror(errno));
		goto fail;
	}
	if ((c->skel = capattach_load(c->what, &pidns, &c->att, why, size)) == NULL)
		goto fail;
	if (capture_ring_map(&c->ring, bpf_map__fd(c->skel->maps.ring),
	    bpf_map__max_entries(c->skel->maps.ring)) < 0) {
		snprintf(why, size, "mapping the ring buffer: %s", strerror(errno));
		goto fail;
	}
	/* A call that fails at once (ENOENT) shows the capture our own namespace and root. */
	(void)syscall(SYS_umount2, "", 0);
	capture_drain(c);
	return c;
fail:
	capture_close(c);
	return NULL;
}

void
capture_close(struct capture *c)
{
	if (c == NULL)
		return;
	capture_ring_unmap(&c->ring);
	capture_bpf__destroy(c->skel);
	free(c->calls);
	free(c);
}

int
capture_fd(const struct capture *c)
{
	return c->ring.fd;
}

/* The live identity of process (tgid, start); NULL if none. */
static struct capture_id *
id_find(struct capture *c, uint32_t tgid, uint64_t start)
{
	size_t i;

	for (i = 0; i < c->nids; i++)
		if (c->ids[i].tgid == tgid && c->ids[i].start == start)
			return &c->ids[i];
	return NULL;
}

/* Room for one more identity: when the table is full, the oldest whose calls have all ended is
 * forgotten, and no name is given until the queue has been read after that (its records may not
 * all have been read yet). With none ended, names are given no more. */
static struct capture_id *
id_add(struct capture *c)
{
	size_t i, old = IDS_MAX;

	if (c->nids < IDS_MAX)
		return &c->ids[c->nids++];
	for (i = 0; i < c->nids; i++)
		if (c->ids[i].open == 0 && (old == IDS_MAX || c->ids[i].end_epoch <
		    c->ids[old].end_epoch))
			old = i;
	if (old == IDS_MAX) {
		c->blind = true;
		return NULL;
	}
	c->unsure = true;
	c->unsure_epoch = c->epoch;
	return &c->ids[old];
}

static void
flip_enter(struct capture *c, const struct capture_enter *e)
{
	struct capture_call *f;
	size_t i;

	/* A thread makes one call at a time: one of its calls still open lost its exit. */
	for (i = 0; i < c->nflips; i++)
		if (c->flips[i].gtid == e->h.gtid && !c->flips[i].done) {
			c->flips[i].done = true;
			c->flips[i].end_epoch = c->epoch;
		}
	if (c->nflips == FLIPS_MAX) {
		c->flips_lost = true;
		c->losses++;
		return;
	}
	f = &c->flips[c->nflips];
	memset(f, 0, sizeof(*f));
	if (!capflip_decode(e, &c->self, f))
		return;
	f->mnt_ns = e->mnt_ns;
	c->nsflips_begun++;
	f->gtid = e->h.gtid;
	f->tgid = (int32_t)e->h.tgid;
	f->uid = e->uid;
	memcpy(f->comm, e->comm, sizeof(f->comm));
	f->comm[sizeof(f->comm) - 1] = '\0';
	c->nflips++;
}

static void
flip_exit(struct capture *c, const struct capture_exit *x)
{
	size_t i;

	for (i = 0; i < c->nflips; i++) {
		if (c->flips[i].gtid == x->h.gtid && !c->flips[i].done) {
			c->flips[i].done = true;
			c->flips[i].ok = x->ret == 0;
			c->flips[i].end_epoch = c->epoch;
			return;
		}
	}
}

size_t
capture_nflips(const struct capture *c)
{
	return c->nflips;
}

const struct capture_call *
capture_flip(const struct capture *c, size_t i)
{
	return &c->flips[i];
}

void
capture_take(struct capture *c, size_t i)
{
	memmove(&c->flips[i], &c->flips[i + 1], (c->nflips - i - 1) * sizeof(c->flips[0]));
	if (--c->nflips == 0)
		c->flips_lost = false;
}

void
capture_take_ended(struct capture *c)
{
	size_t i;

	for (i = 0; i < c->nflips;)
		if (c->flips[i].done && (c->flips[i].end_epoch <= c->read_epoch || c->flips[i].named))
			capture_take(c, i);
		else
			i++;
}

const struct capture_call *
capture_flip_named(struct capture *c, const struct capture_call *f)
{
	c->flips[f - c->flips].named = true;
	return f;
}

bool
capture_flips_lost(const struct capture *c)
{
	return c->flips_lost;
}

unsigned long long
capture_losses(const struct capture *c)
{
	return c->losses;
}

unsigned long long
capture_ns_made(const struct capture *c)
{
	return c->ns_made;
}

unsigned long long
capture_ns_entered(const struct capture *c)
{
	return c->ns_entered;
}

/* CAPTURE_NS_FLIPS: count each flip call that ended, and forget it. */
static void
nsflips_count(struct capture *c)
{
	const struct capture_call *f;
	size_t i = 0, k;

	while (i < c->nflips) {
		f = &c->flips[i];
		if (!f->done) {
			i++;
			continue;
		}
		if (f->sb) {
			c->sb_flips++;
		} else {
			for (k = 0; k < c->nnsflips && c->nsflips[k].ns != f->mnt_ns; k++)
				;
			if (k == NSFLIPS_MAX) {
				/* Every namespace's count still grows: by more than it loses. */
				for (k = 0; k < c->nnsflips; k++)
					c->nsflips_resets += c->nsflips[k].n;
				c->nsflips_resets++;
				c->nnsflips = k = 0;
			}
			if (k == c->nnsflips)
				c->nsflips[c->nnsflips++] = (struct capture_nsflips){ f->mnt_ns, 0, 0 };
			c->nsflips[k].n++;
			c->nsflips[k].props += f->props;
		}
		capture_take(c, i);
	}
}

/* CAPTURE_NS_FLIPS: what counts for every namespace (capture_ns_flips()). */
static unsigned long long
nsflips_everywhere(const struct capture *c)
{
	return c->losses + c->sb_flips + c->nsflips_resets;
}

unsigned long long
capture_ns_flips(const struct capture *c, uint64_t ns, bool *open)
{
	unsigned long long n = nsflips_everywhere(c);
	size_t i;

	*open = false;
	for (i = 0; i < c->nflips; i++)
		*open |= c->flips[i].mnt_ns == ns || c->flips[i].sb;
	for (i = 0; i < c->nnsflips; i++)
		if (c->nsflips[i].ns == ns)
			n += c->nsflips[i].n;
	return n;
}

unsigned long long
capture_ns_props(const struct capture *c, uint64_t ns, bool *open)
{
	unsigned long long n = c->losses + c->nsflips_resets;
	size_t i;

	*open = false;
	for (i = 0; i < c->nflips; i++)
		*open |= c->flips[i].mnt_ns == ns && c->flips[i].props;
	for (i = 0; i < c->nnsflips; i++)
		if (c->nsflips[i].ns == ns)
			n += c->nsflips[i].props;
	return n;
}

unsigned long long
capture_ns_flips_all(const struct capture *c)
{
	/* Each flip call counts once as it begins and once as it ends (in a namespace or not). */
	unsigned long long n = nsflips_everywhere(c) + c->nsflips_begun;
	size_t i;

	for (i = 0; i < c->nnsflips; i++)
		n += c->nsflips[i].n;
	return n;
}

/* watchq's own call at start (capture_open()): its namespace and root. */
static bool
self_enter(struct capture *c, const struct capture_enter *e)
{
	if (c->self.ns || e->h.tgid != (unsigned)getpid() || e->h.nr != CAPTURE_NR_UMOUNT2)
		return false;
	c->self.ns = e->mnt_ns;
	c->self.root_mnt = e->root_mnt;
	c->self.root_dentry = e->root_dentry;
	return true;
}

/* Keep a mount call that may cause records. When the table is full, the oldest that has ended is
 * forgotten, and no name is given until the queue has been read after that, as for identities. */
static void
call_enter(struct capture *c, const struct capture_enter *e)
{
	struct capjoin_call call;
	size_t i;

	(void)capjoin_decode(e, &call);
	if (c->ncalls == CALLS_MAX) {
		for (i = 0; i < c->ncalls && c->calls[i].open; i++)
			;
		if (i == c->ncalls) {
			c->blind = true;
			return;
		}
		memmove(&c->calls[i], &c->calls[i + 1], (c->ncalls - i - 1) * sizeof(call));
		c->ncalls--;
		c->unsure = true;
		c->unsure_epoch = c->epoch;
	}
	c->calls[c->ncalls++] = call;
}

/* A thread makes one call at a time: its exit ends the call of that thread still open. */
static void
call_exit(struct capture *c, const struct capture_exit *x)
{
	size_t i;

	for (i = c->ncalls; i-- > 0;) {
		if (c->calls[i].gtid == x->h.gtid && c->calls[i].open) {
			c->calls[i].open = false;
			c->calls[i].ok = x->ret == 0;
			c->calls[i].end_epoch = c->epoch;
			return;
		}
	}
}

static void
id_enter(struct capture *c, const struct capture_enter *e)
{
	struct capture_id *id;

	if (self_enter(c, e))
		return;
	flip_enter(c, e);
	if ((c->what & CAPTURE_NS_FLIPS) && !(c->what & CAPTURE_NS_PROCS))
		return;
	/*
	 * Not in our pid namespace or below: fanotify gives no pid either, but a change read from
	 * the table may be its call's, which keeps any other from being named for it.
	 */
	call_enter(c, e);
	if (e->h.tgid == 0)
		return;
	if ((id = id_find(c, e->h.tgid, e->start)) == NULL) {
		if ((id = id_add(c)) == NULL)
			return;
		memset(id, 0, sizeof(*id));
		id->tgid = e->h.tgid;
		id->start = e->start;
		id->ns = e->mnt_ns;
	}
	/* A call elsewhere, or before it one that made or entered a namespace (kept so). */
	if (id->ns != e->mnt_ns && id->other_end != UINT64_MAX) {
		id->other_end = id->open > 0 ? UINT64_MAX : id->end_epoch;
		id->ns = e->mnt_ns;
	}
	id->open++;
}

/*
 * An exit record has no start time: it ends a call of the process with its tgid that has one open.
 * Only one process has a tgid at a time, so at most one has a call open, but for one whose exit
 * was lost (the kernel's dropped map names it): the newest is the one alive.
 */
static void
id_exit(struct capture *c, const struct capture_exit *x)
{
	struct capture_id *id = NULL;
	size_t i;

	for (i = 0; i < c->nids; i++)
		if (c->ids[i].tgid == x->h.tgid && c->ids[i].open > 0 &&
		    (id == NULL || c->ids[i].start > id->start))
			id = &c->ids[i];
	if (id) {
		id->open--;
		id->end_epoch = c->epoch;
	}
	call_exit(c, x);
	flip_exit(c, x);
}

/*
 * A call that made or entered a mount namespace: counted. Its process's calls are no proof of
 * where its next mount lands any more (capture_ns_of()) until it is forgotten (capture_settle());
 * after clone(2), which made one for a child and left the caller's, that is only caution.
 */
static void
id_ns_call(struct capture *c, const struct capture_head *h)
{
	size_t i;

	if (h->nr == CAPTURE_NR_SETNS)
		c->ns_entered++;
	else
		c->ns_made++;
	for (i = 0; i < c->nids; i++)
		if (c->ids[i].tgid == h->tgid)
			c->ids[i].other_end = UINT64_MAX;
}

/* CAPTURE_NS_FLIPS: a call that may attach, detach or move a mount (capjoin_decode(): mount(2) but
 * a remount or a propagation change, umount2(2), move_mount(2), pivot_root(2)), noted at its entry
 * by the caller's namespace: the entry is written before the call changes anything, so a change
 * made before a namespace was watched has its entry read by the first drain after that. Failed
 * calls count too. */
static void
nscalls_note(struct capture *c, const struct capture_enter *e)
{
	struct capture_nscalls *n;
	struct capjoin_call k;
	size_t i;

	if (!(c->what & CAPTURE_NS_FLIPS) || !capjoin_decode(e, &k))
		return;
	for (i = 0; i < c->nnscalls && c->nscalls[i].ns != e->mnt_ns; i++)
		;
	if (i == NSCALLS_MAX) {
		c->nscalls_lost = true;
		return;
	}
	n = &c->nscalls[i];
	if (i == c->nnscalls) {
		*n = (struct capture_nscalls){ e->mnt_ns, c->epoch, c->epoch };
		c->nnscalls++;
	}
	n->last = c->epoch;
}

/* A process began with pid tgid: the kept calls of another with that pid are no longer its own. */
static void
call_birth(struct capture *c, uint32_t tgid)
{
	size_t i;

	for (i = 0; i < c->ncalls; i++)
		if (c->calls[i].tgid == tgid)
			c->calls[i].reused = true;
}

static void
on_record(void *ctx, const void *p, size_t n)
{
	struct capture *c = ctx;
	const struct capture_head *h = p;

	if (n < sizeof(*h))
		return;
	if (h->kind == CAPTURE_ENTER && n >= sizeof(struct capture_enter)) {
		nscalls_note(c, p);
		id_enter(c, p);
	} else if (h->kind == CAPTURE_EXIT && n >= sizeof(struct capture_exit)) {
		id_exit(c, p);
	} else if (h->kind == CAPTURE_NS) {
		id_ns_call(c, p);
	} else if (h->kind == CAPTURE_BIRTH) {
		call_birth(c, h->tgid);
	}
}

void
capture_drain(struct capture *c)
{
	uint64_t drops = __atomic_load_n(&c->skel->bss->drops, __ATOMIC_ACQUIRE);

	c->epoch++;
	/* A record lost may have been a flip call's. */
	if (drops != c->drops) {
		c->drops = drops;
		c->flips_lost = true;
		c->losses++;
	}
	c->stalled = !capture_ring_read(&c->ring, on_record, c);
	if (c->what & CAPTURE_NS_FLIPS)
		nsflips_count(c);
}

void
capture_reading(struct capture *c)
{
	c->read_epoch = c->epoch;
}

void
capture_begin_read(struct capture *c)
{
	capture_drain(c);
	capture_reading(c);
}

void
capture_settle(struct capture *c)
{
	size_t i = 0, k;

	c->settled_epoch = c->read_epoch;
	c->settled_losses = c->losses;
	while (i < c->nids) {
		if (c->ids[i].open == 0 && c->ids[i].end_epoch <= c->read_epoch)
			c->ids[i] = c->ids[--c->nids];
		else
			i++;
	}
	for (i = k = 0; i < c->ncalls; i++)
		if (c->calls[i].open || c->calls[i].end_epoch > c->read_epoch)
			c->calls[k++] = c->calls[i];
	c->ncalls = k;
	if (c->unsure && c->unsure_epoch <= c->read_epoch)
		c->unsure = false;
}

/* Whether the kernel had no room for a record of tgid's (its calls may be missing). */
static bool
dropped(const struct capture *c, uint32_t tgid)
{
	uint8_t v;

	if (__atomic_load_n(&c->skel->bss->drops, __ATOMIC_ACQUIRE) == 0)
		return false;
	return c->skel->bss->blind ||
	    bpf_map_lookup_elem(bpf_map__fd(c->skel->maps.dropped), &tgid, &v) == 0;
}

/* The one process numbered tgid the capture knows, with every call it made since it was noted;
 * NULL if there is none, or more than one, or its calls may be missing. */
static const struct capture_id *
id_one(const struct capture *c, int32_t tgid)
{
	const struct capture_id *one = NULL;
	size_t i;

	if (tgid <= 0 || c->stalled || c->unsure || c->blind || dropped(c, (uint32_t)tgid))
		return NULL;
	for (i = 0; i < c->nids; i++) {
		if (c->ids[i].tgid != (uint32_t)tgid)
			continue;
		if (one && one->start != c->ids[i].start)
			return NULL;
		one = &c->ids[i];
	}
	return one;
}

/* A call that ended before the last read that found the queue empty began had its records read
 * there: only those of its calls since may be behind a record read now. */
uint64_t
capture_ns_of(const struct capture *c, int32_t tgid)
{
	const struct capture_id *one = id_one(c, tgid);

	return one && one->other_end <= c->settled_epoch ? one->ns : 0;
}

const struct capjoin_call *
capture_call_behind(const struct capture *c, const struct capjoin_change *ch)
{
	const struct capjoin_call *call;

	if (ch->tgid == 0 || c->stalled || c->unsure || c->blind)
		return NULL;
	/* A change with no pid: a call lost since the last read, of any process, may be behind
	 * it. */
	if (ch->tgid == CAPJOIN_ANY_PID && c->losses != c->settled_losses)
		return NULL;
	if ((call = capjoin_name(c->calls, c->ncalls, ch)) == NULL || dropped(c, call->tgid))
		return NULL;
	return call;
}

const struct capjoin_call *
capture_calls(const struct capture *c, size_t *n)
{
	*n = c->ncalls;
	return c->stalled || c->unsure || c->blind ? NULL : c->calls;
}

void
capture_await(struct capture *c, bool (*under_way)(void *ctx), void *ctx)
{
	const struct timespec step = { 0, CAPTURE_AWAIT_STEP_NS };
	struct timespec now;
	long long until = 0, t;

	capture_drain(c);
	while (under_way(ctx)) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		t = (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
		if (until == 0)
			until = t + CAPTURE_AWAIT_NS;
		else if (t >= until)
			return;
		nanosleep(&step, NULL);
		capture_drain(c);
	}
}

bool
capture_open_behind(const struct capture *c, const struct capjoin_change *ch)
{
	size_t i;

	for (i = 0; i < c->ncalls; i++)
		if (c->calls[i].open && (capjoin_may_be(&c->calls[i], ch) ||
		    (ch->tgid == CAPJOIN_ANY_PID && capjoin_unplaced(&c->calls[i], ch))))
			return true;
	return false;
}

void
capture_used(struct capture *c, const struct capjoin_call *call)
{
	size_t i = (size_t)(call - c->calls);

	if (i < c->ncalls && !call->below)
		c->calls[i].used = true;
}

/* The cgroup of call's process at its calls, if every kept call of it agrees; else 0. */
static uint64_t
call_cgroup(const struct capture *c, const struct capjoin_call *call)
{
	size_t i;

	for (i = 0; i < c->ncalls; i++)
		if (c->calls[i].tgid == call->tgid && c->calls[i].start == call->start &&
		    c->calls[i].cgroup_id != call->cgroup_id)
			return 0;
	return call->cgroup_id;
}

bool
capture_name(const struct capture *c, const struct capjoin_change *ch, struct capture_named *by)
{
	const struct capjoin_call *call = capture_call_behind(c, ch);

	if (call == NULL)
		return false;
	by->uid = call->uid;
	memcpy(by->comm, call->comm, sizeof(by->comm));
	by->cgroup_id = call_cgroup(c, call);
	return true;
}

uint64_t
capture_epoch(const struct capture *c)
{
	return c->epoch;
}

bool
capture_stalled(const struct capture *c)
{
	return c->stalled;
}

const struct capture_nscalls *
capture_ns_calls(const struct capture *c, size_t *n, bool *lost)
{
	*n = c->nnscalls;
	*lost = c->nscalls_lost;
	return c->nscalls;
}

void
capture_ns_calls_clear(struct capture *c)
{
	c->nnscalls = 0;
	c->nscalls_lost = false;
}
