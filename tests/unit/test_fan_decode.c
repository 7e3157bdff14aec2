/* The fanotify record decoder: good records, overflow, and every kind of bad length. */
#include <errno.h>
#include <sys/fanotify.h>

#include "compat.h"
#include "fan_decode.h"
#include "fanrec.h"
#include "unit.h"

struct got {
	int n;
	struct fan_rec r[8];
};

static void
collect(void *p, const struct fan_rec *r)
{
	struct got *g = p;

	if (g->n < 8)
		g->r[g->n] = *r;
	g->n++;
}

#define rec fanrec
#define mk fanrec_mk

static int
decode(const void *buf, size_t len, struct got *g)
{
	memset(g, 0, sizeof(*g));
	return fan_decode(buf, len, collect, g);
}

/* FAN_FS_ERROR as ext4 on 6.18 sends it: metadata, FID (sb-wide: empty handle), ERROR; 56 bytes. */
static void
error_records(struct got *g)
{
	unsigned char buf[64];
	struct fanotify_event_metadata md = { .event_len = 56, .vers = FANOTIFY_METADATA_VERSION,
	    .metadata_len = 24, .mask = FAN_FS_ERROR, .fd = FAN_NOFD };
	struct fanotify_event_info_header fid = { FAN_EVENT_INFO_TYPE_FID, 0, 20 };
	struct fanotify_event_info_error err = { { FAN_EVENT_INFO_TYPE_ERROR, 0, 12 }, 117, 3 };
	int32_t fsid[2] = { 0x1234, -5 };
	uint32_t handle[2] = { 0, 0xff };

	memset(buf, 0, sizeof(buf));
	memcpy(buf, &md, 24);
	memcpy(buf + 24, &fid, 4);
	memcpy(buf + 28, fsid, 8);
	memcpy(buf + 36, handle, 8);
	memcpy(buf + 44, &err, 12);
	CHECK(decode(buf, 56, g) == 0 && g->n == 1, "error record");
	CHECK(g->r[0].mask == FAN_FS_ERROR && g->r[0].has_fsid && g->r[0].fsid[0] == 0x1234 &&
	    g->r[0].fsid[1] == -5, "fsid");
	CHECK(g->r[0].has_error && g->r[0].error == 117 && g->r[0].error_count == 3, "error and count");
	err.hdr.len = 8;
	memcpy(buf + 44, &err, 12);
	CHECK(decode(buf, 56, g) == -1 && errno == EPROTO, "error info shorter than its fields");
	err.hdr.len = 12;
	memcpy(buf + 44, &err, 12);
	fid.len = 8;
	memcpy(buf + 24, &fid, 4);
	CHECK(decode(buf, 56, g) == -1, "fid info shorter than its fsid");
	/* No FID info at all: decoded, but with no fsid the sb source counts it as lost. */
	md.event_len = 36;
	memcpy(buf, &md, 24);
	memcpy(buf + 24, &err, 12);
	CHECK(decode(buf, 36, g) == 0 && g->n == 1 && !g->r[0].has_fsid && g->r[0].has_error, "error without fid");
}

/* With FAN_REPORT_PIDFD, as 6.18 sends it: metadata, pidfd, mount; 48 bytes. */
static void
pidfd_records(struct got *g)
{
	struct {
		struct fanotify_event_metadata md;
		struct fanotify_event_info_pidfd pi;
		struct kapi_fan_info_mnt mi;
	} r;
	struct rec plain = mk(FAN_MNT_DETACH, 9);

	CHECK(sizeof(r) == 48, "pidfd record is %zu bytes", sizeof(r));
	memset(&r, 0, sizeof(r));
	r.md = mk(FAN_MNT_ATTACH, 5).md;
	r.md.event_len = sizeof(r);
	r.md.pid = 4242;
	r.pi.hdr.info_type = FAN_EVENT_INFO_TYPE_PIDFD;
	r.pi.hdr.len = sizeof(r.pi);
	r.pi.pidfd = 17;
	r.mi = mk(FAN_MNT_ATTACH, 5).mi;
	CHECK(decode(&r, sizeof(r), g) == 0 && g->n == 1, "pidfd record");
	CHECK(g->r[0].pid == 4242 && g->r[0].pidfd == 17 && g->r[0].has_id && g->r[0].mnt_id == 5, "pid, pidfd and id");
	r.pi.pidfd = FAN_NOPIDFD;
	CHECK(decode(&r, sizeof(r), g) == 0 && g->r[0].pidfd == FAN_NOPIDFD, "process gone");
	r.pi.pidfd = FAN_EPIDFD;
	CHECK(decode(&r, sizeof(r), g) == 0 && g->r[0].pidfd == FAN_EPIDFD, "no pidfd to be had");
	r.pi.hdr.len = 4;
	CHECK(decode(&r, sizeof(r), g) == -1 && errno == EPROTO, "pidfd info shorter than its fd");
	/* Without the info: no pidfd, never fd 0. */
	CHECK(decode(&plain, sizeof(plain), g) == 0 && g->r[0].pidfd < 0 && g->r[0].pid == 0, "no pidfd info");
}

int
main(void)
{
	struct rec two[2], r;
	struct fanotify_event_metadata ov;
	struct got g;
	unsigned char buf[256];

	CHECK(sizeof(struct rec) == 40, "event is %zu bytes", sizeof(struct rec));

	two[0] = mk(FAN_MNT_ATTACH, 0x80000001ULL);
	two[1] = mk(FAN_MNT_ATTACH | FAN_MNT_DETACH, 0x80000002ULL);
	CHECK(decode(two, sizeof(two), &g) == 0 && g.n == 2, "two records: %d", g.n);
	CHECK(g.r[0].has_id && g.r[0].mnt_id == 0x80000001ULL && g.r[0].mask == FAN_MNT_ATTACH, "first");
	CHECK(g.r[1].mnt_id == 0x80000002ULL && g.r[1].mask == (FAN_MNT_ATTACH | FAN_MNT_DETACH), "move");

	memset(&ov, 0, sizeof(ov));
	ov.event_len = ov.metadata_len = sizeof(ov);
	ov.vers = FANOTIFY_METADATA_VERSION;
	ov.mask = FAN_Q_OVERFLOW;
	CHECK(decode(&ov, sizeof(ov), &g) == 0 && g.n == 1 && !g.r[0].has_id &&
	    (g.r[0].mask & FAN_Q_OVERFLOW), "overflow");

	CHECK(decode(two, 0, &g) == 0 && g.n == 0, "empty");

	/* Truncated: the good record before is delivered, then EPROTO. */
	memcpy(buf, two, sizeof(two));
	CHECK(decode(buf, sizeof(two) - 1, &g) == -1 && errno == EPROTO && g.n == 1, "truncated");
	CHECK(decode(buf, 10, &g) == -1 && g.n == 0, "shorter than metadata");

	r = mk(FAN_MNT_DETACH, 7);
	r.md.vers = 2;
	CHECK(decode(&r, sizeof(r), &g) == -1 && g.n == 0, "wrong version");
	r = mk(FAN_MNT_DETACH, 7);
	r.md.event_len = 1000;
	CHECK(decode(&r, sizeof(r), &g) == -1, "event_len past the buffer");
	r = mk(FAN_MNT_DETACH, 7);
	r.md.metadata_len = 8;
	CHECK(decode(&r, sizeof(r), &g) == -1, "metadata_len too small");
	r = mk(FAN_MNT_DETACH, 7);
	r.md.metadata_len = 48;
	CHECK(decode(&r, sizeof(r), &g) == -1, "metadata_len past event_len");
	r = mk(FAN_MNT_DETACH, 7);
	r.mi.hdr.len = 0;
	CHECK(decode(&r, sizeof(r), &g) == -1, "info len 0 (would loop)");
	r = mk(FAN_MNT_DETACH, 7);
	r.mi.hdr.len = 8;
	CHECK(decode(&r, sizeof(r), &g) == -1, "mnt info shorter than its id");
	r = mk(FAN_MNT_DETACH, 7);
	r.mi.hdr.len = 17;
	CHECK(decode(&r, sizeof(r), &g) == -1, "info past the event");
	r = mk(FAN_MNT_DETACH, 7);
	r.mi.hdr.info_type = 99;
	CHECK(decode(&r, sizeof(r), &g) == 0 && g.n == 1 && !g.r[0].has_id, "unknown info type skipped");
	pidfd_records(&g);
	error_records(&g);
	return unit_done("test_fan_decode");
}
