#ifndef WATCHQ_QUOTA_NL_H
#define WATCHQ_QUOTA_NL_H

#include <stddef.h>
#include <stdint.h>

/* One quota warning of the VFS_DQUOT generic netlink family, checked and decoded. */
struct quota_warning {
	uint32_t qtype;		/* USRQUOTA 0, GRPQUOTA 1, PRJQUOTA 2 */
	uint64_t id;		/* whose quota (initial user namespace) */
	uint64_t caused_id;	/* the uid that wrote */
	uint32_t warning;	/* QUOTA_NL_* */
	uint32_t major, minor;	/* the filesystem's device */
};

typedef void quota_warning_fn(void *ctx, const struct quota_warning *w);

/* Open a netlink socket joined to the quota warnings group; -1 with errno set (ENOENT when this
 * network namespace has no VFS_DQUOT family). */
int quota_nl_open(void);
/* Decode each warning of a recv(2) buffer and call fn for it, skipping other messages; -1 with
 * errno EPROTO at the first malformed one (a bad length, a short value, no code or device). */
int quota_nl_decode(const void *buf, size_t len, quota_warning_fn *fn, void *ctx);
/* "user", "group", "project" or "unknown". */
const char *quota_nl_type_name(uint32_t qtype);
/* Short name of a warning ("block_soft"), or NULL for an unknown code. */
const char *quota_nl_warning_name(uint32_t warning);

#endif
