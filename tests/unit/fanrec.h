/* A fanotify mount record as the kernel queues it (metadata and the mount's info), for tests. */
#ifndef WATCHQ_TEST_FANREC_H
#define WATCHQ_TEST_FANREC_H

#include <string.h>
#include <sys/fanotify.h>

#include "compat.h"

struct fanrec {
	struct fanotify_event_metadata md;
	struct kapi_fan_info_mnt mi;
};

/* A record of mask for mount id, from no process (pid 0). */
static inline struct fanrec
fanrec_mk(uint64_t mask, uint64_t id)
{
	struct fanrec r;

	memset(&r, 0, sizeof(r));
	r.md.event_len = sizeof(r);
	r.md.vers = FANOTIFY_METADATA_VERSION;
	r.md.metadata_len = sizeof(r.md);
	r.md.mask = mask;
	r.md.fd = FAN_NOFD;
	r.mi.hdr.info_type = FAN_EVENT_INFO_TYPE_MNT;
	r.mi.hdr.len = sizeof(r.mi);
	r.mi.mnt_id = id;
	return r;
}

#endif
