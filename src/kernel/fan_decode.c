/* fanotify records are untrusted input: every length is checked before use. */
#include <errno.h>
#include <string.h>
#include <sys/fanotify.h>

#include "compat.h"
#include "fan_decode.h"

/* Copy the first size bytes of the info record of len bytes at p into dst; false if shorter. */
static bool
fan_copy_info(void *dst, size_t size, const unsigned char *p, size_t len)
{
	if (len < size)
		return false;
	memcpy(dst, p, size);
	return true;
}

/* The info record at p, of hdr->len bytes, into r; -1 if it is too short for its type. */
static int
fan_decode_info(const unsigned char *p, const struct fanotify_event_info_header *hdr,
    struct fan_rec *r)
{
	struct kapi_fan_info_mnt mi;
	struct fanotify_event_info_pidfd pi;
	struct fanotify_event_info_fid fi;
	struct fanotify_event_info_error ei;

	switch (hdr->info_type) {
	case FAN_EVENT_INFO_TYPE_MNT:
		if (!fan_copy_info(&mi, sizeof(mi), p, hdr->len))
			return -1;
		r->mnt_id = mi.mnt_id;
		r->has_id = true;
		break;
	case FAN_EVENT_INFO_TYPE_PIDFD:
		if (!fan_copy_info(&pi, sizeof(pi), p, hdr->len))
			return -1;
		r->pidfd = pi.pidfd;
		break;
	case FAN_EVENT_INFO_TYPE_FID:
		/* Header and fsid; the file handle after them is not used. */
		if (!fan_copy_info(&fi, sizeof(fi), p, hdr->len))
			return -1;
		memcpy(r->fsid, &fi.fsid, sizeof(r->fsid));
		r->has_fsid = true;
		break;
	case FAN_EVENT_INFO_TYPE_ERROR:
		if (!fan_copy_info(&ei, sizeof(ei), p, hdr->len))
			return -1;
		r->error = ei.error;
		r->error_count = ei.error_count;
		r->has_error = true;
		break;
	}
	return 0;
}

/* The event at p, whose metadata md is checked to lie in the buffer, into r; -1 if malformed. */
static int
fan_decode_event(const unsigned char *p, const struct fanotify_event_metadata *md,
    struct fan_rec *r)
{
	struct fanotify_event_info_header hdr;
	size_t off;

	memset(r, 0, sizeof(*r));
	r->mask = md->mask;
	r->pid = md->pid;
	r->pidfd = FAN_NOPIDFD;
	for (off = md->metadata_len; off < md->event_len; off += hdr.len) {
		if (md->event_len - off < sizeof(hdr))
			return -1;
		memcpy(&hdr, p + off, sizeof(hdr));
		if (hdr.len < sizeof(hdr) || hdr.len > md->event_len - off)
			return -1;
		if (fan_decode_info(p + off, &hdr, r) < 0)
			return -1;
	}
	return 0;
}

int
fan_decode(const void *buf, size_t len, fan_rec_fn *fn, void *ctx)
{
	const unsigned char *p = buf;
	struct fanotify_event_metadata md;
	struct fan_rec r;

	while (len > 0) {
		if (len < sizeof(md))
			goto bad;
		memcpy(&md, p, sizeof(md));
		if (md.vers != FANOTIFY_METADATA_VERSION || md.metadata_len < sizeof(md) ||
		    md.event_len < md.metadata_len || md.event_len > len)
			goto bad;
		if (fan_decode_event(p, &md, &r) < 0)
			goto bad;
		fn(ctx, &r);
		p += md.event_len;
		len -= md.event_len;
	}
	return 0;
bad:
	errno = EPROTO;
	return -1;
}
