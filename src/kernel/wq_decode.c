/* Notification-queue records are untrusted input: each length is checked before use. */
#include <errno.h>
#include <string.h>

#include "compat.h"
#include "wq_decode.h"

int
wq_decode(const void *buf, size_t len, wq_rec_fn *fn, void *ctx)
{
	const unsigned char *p = buf;
	struct kapi_watch_notification n;
	struct wq_rec r;
	size_t reclen;

	while (len > 0) {
		if (len < sizeof(n))
			goto bad;
		memcpy(&n, p, sizeof(n));
		reclen = n.info & KAPI_WATCH_INFO_LENGTH;
		if (reclen < sizeof(n) || reclen > len)
			goto bad;
		memset(&r, 0, sizeof(r));
		r.type = n.type;
		r.subtype = n.subtype;
		r.tag = (n.info & KAPI_WATCH_INFO_ID) >> KAPI_WATCH_INFO_ID__SHIFT;
		r.len = reclen;
		if (n.type == KAPI_WATCH_TYPE_KEY_NOTIFY) {
			struct kapi_key_notification k;

			if (reclen < sizeof(k))
				goto bad;
			memcpy(&k, p, sizeof(k));
			r.key_id = (int32_t)k.key_id;
			r.aux = (int32_t)k.aux;
		} else if (n.type == KAPI_WATCH_TYPE_META) {
			if (n.subtype == KAPI_WATCH_META_REMOVAL && reclen >= 16) {
				memcpy(&r.removed_id, p + 8, sizeof(r.removed_id));
				r.has_removed_id = true;
			}
		}
		if (!fn(ctx, &r))
			return 0;
		p += reclen;
		len -= reclen;
	}
	return 0;
bad:
	errno = EPROTO;
	return -1;
}
