/*
 * -N all's ledger of calls made in namespaces before they were watched (nscalls.c): which become a
 * loss of their namespace, of none, or nothing, as a table.
 */
#include <stdlib.h>

#include "nscalls.h"
#include "unit.h"

/* What the fake -N all knows: namespace 1 watched, 2 idle since epoch 5, 3 pidless, 4 unknown. */
static enum nscalls_known
known(void *ctx, uint64_t ino, uint64_t *since)
{
	switch (ino) {
	case 1:
		return NSCALLS_WATCHED;
	case 2:
		*since = 5;
		return NSCALLS_IDLE;
	case 3:
		return NSCALLS_PIDLESS;
	default:
		return NSCALLS_UNKNOWN;
	}
}

static uint64_t losses[16];
static size_t nlosses;

static void
loss(void *ctx, uint64_t ino)
{
	if (nlosses < 16)
		losses[nlosses++] = ino;
}

static const struct nscalls_ask ask = { known, loss, NULL };

/* A ledger holding one entry: namespace ns, its calls first read at epoch first. */
static struct nscalls
one(uint64_t ns, uint64_t first, bool missed)
{
	struct nscalls c = { 0 };

	c.v = calloc(1, sizeof(*c.v));
	c.v[0] = (struct capture_nscalls){ ns, first, first };
	c.n = 1;
	c.missed = missed;
	return c;
}

int
main(void)
{
	static const struct {
		const char *what;
		uint64_t ns, first, before;
		bool missed;
		size_t want;		/* losses */
		uint64_t of;		/* the first one's namespace */
		size_t left;		/* entries kept */
	} settle[] = {
		{ "a namespace gone before a listing found it: its loss", 4, 3, 9, false, 1, 4, 0 },
		{ "a pidless one: its loss", 3, 3, 9, false, 1, 3, 0 },
		{ "idle, the call read before it held the number: a loss", 2, 5, 9, false, 1, 2, 0 },
		{ "idle, the call read after: its own, no loss", 2, 6, 9, false, 0, 0, 0 },
		{ "watched: its records tell", 1, 3, 9, false, 0, 0, 0 },
		{ "read after the listing began: kept for the next", 4, 10, 9, false, 0, 0, 1 },
		{ "calls missed: a loss of no namespace", 1, 3, 9, true, 1, 0, 0 },
		{ "gone and missed: both", 4, 3, 9, true, 2, 4, 0 },
	};
	struct nscalls c;
	size_t i;

	for (i = 0; i < sizeof(settle) / sizeof(settle[0]); i++) {
		c = one(settle[i].ns, settle[i].first, settle[i].missed);
		nlosses = 0;
		nscalls_settle(&c, settle[i].before, &ask);
		CHECK(nlosses == settle[i].want && (nlosses == 0 || losses[0] == settle[i].of) &&
		    c.n == settle[i].left && !c.missed, "%s: %zu losses, %zu left", settle[i].what,
		    nlosses, c.n);
		nscalls_free(&c);
	}

	/* Due: calls wait in a namespace no listing placed, or some may have been missed. */
	c = one(4, 1, false);
	CHECK(nscalls_due(&c, &ask), "unknown: due");
	nscalls_free(&c);
	c = one(1, 1, false);
	CHECK(nscalls_due(&c, &ask), "watched now, not placed by the listing: due");
	nscalls_free(&c);
	c = one(2, 1, false);
	CHECK(!nscalls_due(&c, &ask), "idle: placed");
	nscalls_free(&c);
	c = one(3, 1, false);
	CHECK(!nscalls_due(&c, &ask), "pidless: placed");
	nscalls_free(&c);
	c = (struct nscalls){ .missed = true };
	CHECK(nscalls_due(&c, &ask), "missed: due");

	/* Without the capture, a namespace found after the first listing may have missed changes. */
	c = (struct nscalls){ 0 };
	CHECK(!nscalls_opened(&c, NULL, 7, &ask), "before the first listing: its state at the start");
	nscalls_start(&c, NULL);
	CHECK(nscalls_opened(&c, NULL, 7, &ask), "after it: a loss follows its ns_new");
	nscalls_free(&c);
	return unit_done("test_nscalls");
}
