/* The notification-queue record decoder: key records, loss, removal, bad lengths. */
#include <errno.h>

#include "compat.h"
#include "unit.h"
#include "wq_decode.h"

struct got {
	int n;
	int stop_after;		/* 0: take every record */
	struct wq_rec r[8];
};

static bool
collect(void *p, const struct wq_rec *r)
{
	struct got *g = p;

	if (g->n < 8)
		g->r[g->n] = *r;
	g->n++;
	return g->n != g->stop_after;
}

static int
decode(const void *buf, size_t len, struct got *g)
{
	memset(g, 0, sizeof(*g));
	return wq_decode(buf, len, collect, g);
}

static struct kapi_key_notification
key(unsigned subtype, unsigned tag, uint32_t id, uint32_t aux)
{
	struct kapi_key_notification k;

	memset(&k, 0, sizeof(k));
	k.watch.type = KAPI_WATCH_TYPE_KEY_NOTIFY;
	k.watch.subtype = subtype;
	k.watch.info = sizeof(k) | tag << KAPI_WATCH_INFO_ID__SHIFT;
	k.key_id = id;
	k.aux = aux;
	return k;
}

int
main(void)
{
	struct kapi_key_notification two[2], k;
	struct kapi_watch_notification loss;
	struct { struct kapi_watch_notification w; uint64_t id; } removal;
	struct got g;

	CHECK(sizeof(struct kapi_watch_notification) == 8 && sizeof(k) == 16, "record sizes");
	two[0] = key(2, 7, 100, 200);
	two[1] = key(5, 255, 101, 0);
	CHECK(decode(two, sizeof(two), &g) == 0 && g.n == 2, "two records");
	CHECK(g.r[0].type == KAPI_WATCH_TYPE_KEY_NOTIFY && g.r[0].subtype == 2 && g.r[0].tag == 7 &&
	    g.r[0].key_id == 100 && g.r[0].aux == 200, "linked");
	CHECK(g.r[1].subtype == 5 && g.r[1].tag == 255 && g.r[1].len == 16, "revoked, tag 255");

	memset(&loss, 0, sizeof(loss));
	loss.type = KAPI_WATCH_TYPE_META;
	loss.subtype = KAPI_WATCH_META_LOSS;
	loss.info = 8;
	CHECK(decode(&loss, sizeof(loss), &g) == 0 && g.n == 1 && g.r[0].subtype == KAPI_WATCH_META_LOSS, "loss");

	memset(&removal, 0, sizeof(removal));
	removal.w.type = KAPI_WATCH_TYPE_META;
	removal.w.subtype = KAPI_WATCH_META_REMOVAL;
	removal.w.info = 16 | 3 << KAPI_WATCH_INFO_ID__SHIFT;
	removal.id = 4242;
	CHECK(decode(&removal, sizeof(removal), &g) == 0 && g.n == 1 && g.r[0].has_removed_id &&
	    g.r[0].removed_id == 4242 && g.r[0].tag == 3, "removal with id");
	removal.w.info = 8 | 3 << KAPI_WATCH_INFO_ID__SHIFT;
	CHECK(decode(&removal, 8, &g) == 0 && g.n == 1 && !g.r[0].has_removed_id, "removal without id");

	k = key(1, 0, 1, 0);
	k.watch.info = 0;
	CHECK(decode(&k, sizeof(k), &g) == -1 && errno == EPROTO && g.n == 0, "length 0 (would loop)");
	k.watch.info = 8;
	CHECK(decode(&k, sizeof(k), &g) == -1, "key record shorter than a key record");
	k.watch.info = 100;
	CHECK(decode(&k, sizeof(k), &g) == -1, "length past the buffer");
	CHECK(decode(&k, 4, &g) == -1, "shorter than a header");
	k = key(1, 0, 1, 0);
	k.watch.type = 9;
	CHECK(decode(&k, sizeof(k), &g) == 0 && g.n == 1 && g.r[0].type == 9 && g.r[0].len == 16,
	    "unknown type delivered with its length (its bytes count)");
	two[0] = key(2, 7, 100, 200);
	two[1] = key(5, 255, 101, 0);
	memset(&g, 0, sizeof(g));
	g.stop_after = 1;
	CHECK(wq_decode(two, sizeof(two), collect, &g) == 0 && g.n == 1, "the callback drops the rest of the buffer");
	two[1].watch.info = 0;
	CHECK(decode(two, sizeof(two), &g) == -1 && g.n == 1, "good record delivered before a bad one");
	return unit_done("test_wq_decode");
}
