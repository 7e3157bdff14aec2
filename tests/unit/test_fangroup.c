/*
 * -N all's one group (fangroup.c) with records written into a pipe: each record routed to the
 * member whose namespace holds the mount, an attach to the one that can read it, a mount no one
 * can read to the one namespace or, among several, to nobody (unplaced), an overflow everywhere;
 * pump wakes each member something was routed to, once.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/fanotify.h>
#include <unistd.h>

#include "compat.h"
#include "fangroup.h"
#include "fanrec.h"
#include "unit.h"

#define MAXIDS	8

struct fake {
	uint64_t holds[MAXIDS], reads[MAXIDS];	/* its cache's mounts; those statmount finds */
	size_t nholds, nreads;
	int took, overflows, transients, wakes;
	uint64_t took_id;
};

static bool
has(const uint64_t *v, size_t n, uint64_t id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] == id)
			return true;
	return false;
}

static bool
fake_holds(void *ctx, uint64_t id)
{
	struct fake *f = ctx;

	return has(f->holds, f->nholds, id);
}

static bool
fake_take(void *ctx, const struct fan_rec *r)
{
	struct fake *f = ctx;

	if (r->mask & FAN_Q_OVERFLOW) {
		f->overflows++;
		return true;
	}
	/* An attach of a mount it does not hold: only if statmount(2) finds it in its namespace. */
	if ((r->mask & FAN_MNT_ATTACH) && !has(f->holds, f->nholds, r->mnt_id) &&
	    !has(f->reads, f->nreads, r->mnt_id))
		return false;
	f->took++;
	f->took_id = r->mnt_id;
	return true;
}

static void
fake_transient(void *ctx, uint64_t id)
{
	((struct fake *)ctx)->transients++;
}

static bool
fake_spreads(void *ctx)
{
	return true;
}

static int
fake_wake(void *ctx)
{
	((struct fake *)ctx)->wakes++;
	return 0;
}

static const struct fangroup_ops fake_ops = { fake_holds, fake_take, fake_transient, fake_spreads,
	fake_wake };

static uint64_t unplaced[MAXIDS];
static size_t nunplaced;

static void
on_unplaced(void *ctx, const uint64_t *ids, size_t n)
{
	size_t i;

	for (i = 0; i < n && nunplaced < MAXIDS; i++)
		unplaced[nunplaced++] = ids[i];
}

/* Queue a record of mask for mount id (no process: pid 0) into fd. */
static void
put(int fd, uint64_t mask, uint64_t id)
{
	struct fanrec r = fanrec_mk(mask, id);

	if (write(fd, &r, sizeof(r)) != (ssize_t)sizeof(r))
		exit(2);
}

static struct fangroup g;
static struct fake fa, fb;
static struct fangroup_member ma, mb;
static int p[2];

/* A group of the members given (1 or 2) reading the pipe. */
static void
start(size_t n)
{
	g.fd = -1;	/* the pipe stays open */
	fangroup_free(&g);
	memset(&g, 0, sizeof(g));
	g.fd = p[0];
	g.read_size = sizeof(g.buf);
	g.unplaced = on_unplaced;
	g.m = calloc(2, sizeof(*g.m));
	ma = (struct fangroup_member){ &fake_ops, &fa, 11, NULL, -1, false, false };
	mb = (struct fangroup_member){ &fake_ops, &fb, 22, NULL, -1, false, false };
	g.m[0] = &ma;
	g.m[1] = &mb;
	g.n = n;
	memset(&fa, 0, sizeof(fa));
	memset(&fb, 0, sizeof(fb));
	nunplaced = 0;
}

int
main(void)
{
	if (pipe2(p, O_NONBLOCK | O_CLOEXEC) < 0)
		return 2;
	g.fd = -1;

	/* A detach goes to the member that holds the mount; pump wakes it alone, once. */
	start(2);
	fb.holds[fb.nholds++] = 7;
	put(p[1], FAN_MNT_DETACH, 7);
	CHECK(fangroup_read(&g) == 0, "read");
	CHECK(fb.took == 1 && fb.took_id == 7 && fa.took == 0, "detach: a %d, b %d", fa.took,
	    fb.took);
	CHECK(fangroup_pump(&g) == 0 && fb.wakes == 1 && fa.wakes == 0, "pump: a %d, b %d",
	    fa.wakes, fb.wakes);
	CHECK(fangroup_pump(&g) == 0 && fb.wakes == 1, "pumped once");

	/* An attach goes to the member whose namespace statmount(2) finds it in. */
	start(2);
	fb.reads[fb.nreads++] = 8;
	put(p[1], FAN_MNT_ATTACH, 8);
	fangroup_read(&g);
	CHECK(fb.took == 1 && fb.took_id == 8 && fa.took == 0, "attach: a %d, b %d", fa.took,
	    fb.took);

	/* A move (both bits) of a mount a member holds goes to it, as a detach would. */
	start(2);
	fa.holds[fa.nholds++] = 9;
	put(p[1], FAN_MNT_ATTACH | FAN_MNT_DETACH, 9);
	fangroup_read(&g);
	CHECK(fa.took == 1 && fb.took == 0, "move: a %d, b %d", fa.took, fb.took);

	/*
	 * A mount attached and detached in one read that no namespace could read: among two
	 * namespaces it cannot be placed (either may have made it, or propagation a copy): handed
	 * to unplaced once, not to a member.
	 */
	start(2);
	put(p[1], FAN_MNT_ATTACH, 10);
	put(p[1], FAN_MNT_DETACH, 10);
	fangroup_read(&g);
	CHECK(nunplaced == 1 && unplaced[0] == 10, "unplaced: %zu", nunplaced);
	CHECK(fa.transients == 0 && fb.transients == 0 && fa.took == 0 && fb.took == 0,
	    "no member took it");

	/* With one namespace only (none ever left), it is that one's: a transient there. */
	start(1);
	put(p[1], FAN_MNT_ATTACH, 12);
	put(p[1], FAN_MNT_DETACH, 12);
	fangroup_read(&g);
	CHECK(fa.transients == 1 && nunplaced == 0, "one namespace: transients %d, unplaced %zu",
	    fa.transients, nunplaced);
	/* Once a member has left, a record may have been on its way from its namespace. */
	start(1);
	g.left = true;
	put(p[1], FAN_MNT_ATTACH, 13);
	put(p[1], FAN_MNT_DETACH, 13);
	fangroup_read(&g);
	CHECK(fa.transients == 0 && nunplaced == 1, "one left: transients %d, unplaced %zu",
	    fa.transients, nunplaced);

	/* An overflow: every member loses what the queue held. */
	start(2);
	put(p[1], FAN_Q_OVERFLOW, 0);
	fangroup_read(&g);
	CHECK(fa.overflows == 1 && fb.overflows == 1, "overflow: a %d, b %d", fa.overflows,
	    fb.overflows);

	/* A record that cannot be decoded is a loss everywhere too. */
	start(2);
	if (write(p[1], "\x10\0\0\0\x03\0\x18\0", 8) != 8)
		return 2;
	fangroup_read(&g);
	CHECK(fa.overflows == 1 && fb.overflows == 1, "garbage: a %d, b %d", fa.overflows,
	    fb.overflows);

	g.fd = -1;
	fangroup_free(&g);
	return unit_done("test_fangroup");
}
