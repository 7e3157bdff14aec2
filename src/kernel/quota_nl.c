/*
 * Quota warnings: the VFS_DQUOT generic netlink family multicasts one message
 * per limit crossing (fs/quota/netlink.c). Only the initial network namespace
 * has the family. Messages are untrusted input: every length is checked.
 */
#include <errno.h>
#include <stdbool.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/quota.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "quota_nl.h"

#define NLA_ALIGNED(len)	(((len) + NLA_ALIGNTO - 1) & ~(size_t)(NLA_ALIGNTO - 1))

typedef void attr_fn(void *ctx, unsigned type, const unsigned char *data, size_t len);

/* Walk the attributes of p[0..len); -1 on a malformed one. */
static int
quota_nl_each_attr(const unsigned char *p, size_t len, attr_fn *fn, void *ctx)
{
	struct nlattr a;
	size_t step;

	while (len >= sizeof(a)) {
		memcpy(&a, p, sizeof(a));
		if (a.nla_len < sizeof(a) || a.nla_len > len)
			return -1;
		fn(ctx, a.nla_type & NLA_TYPE_MASK, p + sizeof(a), a.nla_len - sizeof(a));
		step = NLA_ALIGNED(a.nla_len);
		if (step >= len)
			break;
		p += step;
		len -= step;
	}
	return 0;
}

struct warn_attrs {
	struct quota_warning w;
	unsigned seen;
	bool bad;		/* an attribute shorter than its value */
};

/* The value of a u32 or u64 attribute; one too short for it makes the message bad. */
static uint64_t
quota_nl_attr_uint(struct warn_attrs *wa, const unsigned char *data, size_t len, size_t size)
{
	uint32_t v32;
	uint64_t v64;

	if (len < size) {
		wa->bad = true;
		return 0;
	}
	if (size == sizeof(v64)) {
		memcpy(&v64, data, sizeof(v64));
		return v64;
	}
	memcpy(&v32, data, sizeof(v32));
	return v32;
}

static void
quota_nl_warning_attr(void *ctx, unsigned type, const unsigned char *data, size_t len)
{
	struct warn_attrs *wa = ctx;

	switch (type) {
	case QUOTA_NL_A_QTYPE:
		wa->w.qtype = (uint32_t)quota_nl_attr_uint(wa, data, len, 4);
		break;
	case QUOTA_NL_A_EXCESS_ID:
		wa->w.id = quota_nl_attr_uint(wa, data, len, 8);
		break;
	case QUOTA_NL_A_WARNING:
		wa->w.warning = (uint32_t)quota_nl_attr_uint(wa, data, len, 4);
		break;
	case QUOTA_NL_A_DEV_MAJOR:
		wa->w.major = (uint32_t)quota_nl_attr_uint(wa, data, len, 4);
		break;
	case QUOTA_NL_A_DEV_MINOR:
		wa->w.minor = (uint32_t)quota_nl_attr_uint(wa, data, len, 4);
		break;
	case QUOTA_NL_A_CAUSED_ID:
		wa->w.caused_id = quota_nl_attr_uint(wa, data, len, 8);
		break;
	default:
		return;
	}
	wa->seen |= 1u << type;
}

/* fs/quota/netlink.c sends every attribute; a warning without its code or device names nothing. */
#define QUOTA_NL_NEEDED	\
	(1u << QUOTA_NL_A_WARNING | 1u << QUOTA_NL_A_DEV_MAJOR | 1u << QUOTA_NL_A_DEV_MINOR)

int
quota_nl_decode(const void *buf, size_t len, quota_warning_fn *fn, void *ctx)
{
	const unsigned char *p = buf;
	struct nlmsghdr nh;
	struct genlmsghdr gh;
	struct warn_attrs wa;
	size_t step, hl = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(gh));

	while (len >= sizeof(nh)) {
		memcpy(&nh, p, sizeof(nh));
		if (nh.nlmsg_len < sizeof(nh) || nh.nlmsg_len > len)
			goto bad;
		if (nh.nlmsg_type == GENL_ID_VFS_DQUOT) {
			if (nh.nlmsg_len < hl)
				goto bad;
			memcpy(&gh, p + NLMSG_HDRLEN, sizeof(gh));
			memset(&wa, 0, sizeof(wa));
			if (gh.cmd == QUOTA_NL_C_WARNING) {
				if (quota_nl_each_attr(p + hl, nh.nlmsg_len - hl,
				    quota_nl_warning_attr, &wa) < 0 || wa.bad ||
				    (wa.seen & QUOTA_NL_NEEDED) != QUOTA_NL_NEEDED)
					goto bad;
				fn(ctx, &wa.w);
			}
		}
		step = NLMSG_ALIGN(nh.nlmsg_len);
		if (step >= len)
			break;
		p += step;
		len -= step;
	}
	return 0;
bad:
	errno = EPROTO;
	return -1;
}

/* The family's "events" multicast group id, from a CTRL_CMD_NEWFAMILY reply. */
struct family {
	uint32_t group;
	bool found;
};

/* One group: CTRL_ATTR_MCAST_GRP_ID and _NAME, in either order. */
struct group {
	uint32_t id;
	bool have_id, named;
};

static void
quota_nl_group_attr(void *ctx, unsigned type, const unsigned char *data, size_t len)
{
	struct group *g = ctx;

	if (type == CTRL_ATTR_MCAST_GRP_ID && len >= sizeof(g->id)) {
		memcpy(&g->id, data, sizeof(g->id));
		g->have_id = true;
	} else if (type == CTRL_ATTR_MCAST_GRP_NAME) {
		g->named = len >= sizeof("events") && memcmp(data, "events", sizeof("events")) == 0;
	}
}

static void
quota_nl_groups_attr(void *ctx, unsigned type, const unsigned char *data, size_t len)
{
	struct family *f = ctx;
	struct group g = { 0, false, false };

	if (quota_nl_each_attr(data, len, quota_nl_group_attr, &g) == 0 && g.have_id && g.named &&
	    !f->found) {
		f->group = g.id;
		f->found = true;
	}
}

static void
quota_nl_family_attr(void *ctx, unsigned type, const unsigned char *data, size_t len)
{
	if (type == CTRL_ATTR_MCAST_GROUPS)
		(void)quota_nl_each_attr(data, len, quota_nl_groups_attr, ctx);
}

/* Ask the generic netlink controller about the VFS_DQUOT family. */
static int
quota_nl_ask_family(int fd)
{
	struct {
		struct nlmsghdr nh;
		struct genlmsghdr gh;
		unsigned char attrs[64];
	} req;
	struct nlattr *a = (struct nlattr *)req.attrs;
	static const char name[] = "VFS_DQUOT";
	size_t hl = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(struct genlmsghdr));

	memset(&req, 0, sizeof(req));
	a->nla_type = CTRL_ATTR_FAMILY_NAME;
	a->nla_len = (uint16_t)(NLA_HDRLEN + sizeof(name));
	memcpy(req.attrs + NLA_HDRLEN, name, sizeof(name));
	req.nh.nlmsg_len = (uint32_t)(hl + NLA_ALIGNED(a->nla_len));
	req.nh.nlmsg_type = GENL_ID_CTRL;
	req.nh.nlmsg_flags = NLM_F_REQUEST;
	req.nh.nlmsg_seq = 1;
	req.gh.cmd = CTRL_CMD_GETFAMILY;
	req.gh.version = 1;
	return send(fd, &req, req.nh.nlmsg_len, 0) < 0 ? -1 : 0;
}

/* Read the controller's answer into *group: the family's "events" group; ENOENT: no such family. */
static int
quota_nl_read_group(int fd, uint32_t *group)
{
	union {
		struct nlmsghdr nh;
		unsigned char b[8192];
	} resp;
	struct family f = { 0, false };
	struct nlmsgerr e;
	ssize_t n;
	size_t hl = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(struct genlmsghdr));

	while ((n = recv(fd, &resp, sizeof(resp), 0)) < 0 && errno == EINTR)
		;
	if (n < 0)
		return -1;
	if ((size_t)n < sizeof(resp.nh) || resp.nh.nlmsg_len > (size_t)n)
		goto bad;
	if (resp.nh.nlmsg_type == NLMSG_ERROR) {
		if (resp.nh.nlmsg_len < NLMSG_HDRLEN + sizeof(e))
			goto bad;
		memcpy(&e, resp.b + NLMSG_HDRLEN, sizeof(e));
		errno = e.error < 0 ? -e.error : EPROTO;
		return -1;
	}
	if (resp.nh.nlmsg_len < hl ||
	    quota_nl_each_attr(resp.b + hl, resp.nh.nlmsg_len - hl, quota_nl_family_attr, &f) < 0)
		goto bad;
	if (!f.found) {
		errno = ENOENT;
		return -1;
	}
	*group = f.group;
	return 0;
bad:
	errno = EPROTO;
	return -1;
}

int
quota_nl_open(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	uint32_t group;
	int fd, saved;

	if ((fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_GENERIC)) < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		goto fail;
	/* The kernel answers within send(), so the reply is queued before recv(). */
	if (quota_nl_ask_family(fd) < 0 || quota_nl_read_group(fd, &group) < 0)
		goto fail;
	if (setsockopt(fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &group, sizeof(group)) < 0)
		goto fail;
	return fd;
fail:
	saved = errno;
	close(fd);
	errno = saved;
	return -1;
}

const char *
quota_nl_type_name(uint32_t qtype)
{
	static const char *const names[] = { "user", "group", "project" };

	return qtype < 3 ? names[qtype] : "unknown";
}

const char *
quota_nl_warning_name(uint32_t warning)
{
	static const char *const names[] = {
		[QUOTA_NL_IHARDWARN] = "inode_hard",
		[QUOTA_NL_ISOFTLONGWARN] = "inode_grace_expired",
		[QUOTA_NL_ISOFTWARN] = "inode_soft",
		[QUOTA_NL_BHARDWARN] = "block_hard",
		[QUOTA_NL_BSOFTLONGWARN] = "block_grace_expired",
		[QUOTA_NL_BSOFTWARN] = "block_soft",
		[QUOTA_NL_IHARDBELOW] = "inode_hard_below",
		[QUOTA_NL_ISOFTBELOW] = "inode_soft_below",
		[QUOTA_NL_BHARDBELOW] = "block_hard_below",
		[QUOTA_NL_BSOFTBELOW] = "block_soft_below",
	};

	return warning < sizeof(names) / sizeof(names[0]) ? names[warning] : NULL;
}
