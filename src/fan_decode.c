/* fanotify records are untrusted input: every length is checked before use. */
#include <errno.h>
#include <string.h>
#include <sys/fanotify.h>

#include "compat.h"
#include "fan_decode.h"

int
fan_decode(const void *buf, size_t len, fan_rec_fn *fn, void *ctx)
{
	const unsigned char *p = buf;
	struct fanotify_event_metadata md;
	struct fanotify_event_info_header hdr;
	struct fan_rec r;
	size_t off;

	while (len > 0) {
		if (len < sizeof(md))
			goto bad;
		memcpy(&md, p, sizeof(md));
		if (md.vers != FANOTIFY_METADATA_VERSION || md.metadata_len < sizeof(md) ||
		    md.event_len < md.metadata_len || md.event_len > len)
			goto bad;
		memset(&r, 0, sizeof(r));
		r.mask = md.mask;
		r.pid = md.pid;
		r.pidfd = FAN_NOPIDFD;
		for (off = md.metadata_len; off < md.event_len; off += hdr.len) {
			if (md.event_len - off < sizeof(hdr))
				goto bad;
			memcpy(&hdr, p + off, sizeof(hdr));
			if (hdr.len < sizeof(hdr) || hdr.len > md.event_len - off)
				goto bad;
			if (hdr.info_type == FAN_EVENT_INFO_TYPE_MNT) {
				struct kapi_fan_info_mnt mi;

				if (hdr.len < sizeof(mi))
					goto bad;
				memcpy(&mi, p + off, sizeof(mi));
				r.mnt_id = mi.mnt_id;
				r.has_id = true;
			} else if (hdr.info_type == FAN_EVENT_INFO_TYPE_PIDFD) {
				struct fanotify_event_info_pidfd pi;

				if (hdr.len < sizeof(pi))
					goto bad;
				memcpy(&pi, p + off, sizeof(pi));
				r.pidfd = pi.pidfd;
			} else if (hdr.info_type == FAN_EVENT_INFO_TYPE_FID) {
				struct fanotify_event_info_fid fi;

				/* Header and fsid; the file handle after them is not used. */
				if (hdr.len < sizeof(fi))
					goto bad;
				memcpy(&fi, p + off, sizeof(fi));
				memcpy(r.fsid, &fi.fsid, sizeof(r.fsid));
				r.has_fsid = true;
			} else if (hdr.info_type == FAN_EVENT_INFO_TYPE_ERROR) {
				struct fanotify_event_info_error ei;

				if (hdr.len < sizeof(ei))
					goto bad;
				memcpy(&ei, p + off, sizeof(ei));
				r.error = ei.error;
				r.error_count = ei.error_count;
				r.has_error = true;
			}
		}
		fn(ctx, &r);
		p += md.event_len;
		len -= md.event_len;
	}
	return 0;
bad:
	errno = EPROTO;
	return -1;
}
