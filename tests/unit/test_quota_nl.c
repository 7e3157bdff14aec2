/* The quota netlink decoder: a warning as fs/quota/netlink.c builds it, and malformed messages. */
#include <errno.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/quota.h>

#include "quota_nl.h"
#include "unit.h"

struct got {
	int n;
	struct quota_warning w[4];
};

static void
collect(void *p, const struct quota_warning *w)
{
	struct got *g = p;

	if (g->n < 4)
		g->w[g->n] = *w;
	g->n++;
}

static size_t
put_attr(unsigned char *b, size_t off, unsigned type, const void *v, size_t len)
{
	struct nlattr a = { (uint16_t)(NLA_HDRLEN + len), (uint16_t)type };

	memcpy(b + off, &a, sizeof(a));
	memcpy(b + off + NLA_HDRLEN, v, len);
	return off + NLA_ALIGN(NLA_HDRLEN + len);
}

/* One QUOTA_NL_C_WARNING message; returns its length. */
static size_t
warning(unsigned char *b, uint32_t code)
{
	struct nlmsghdr nh = { 0, GENL_ID_VFS_DQUOT, 0, 0, 0 };
	struct genlmsghdr gh = { QUOTA_NL_C_WARNING, 1, 0 };
	uint32_t qtype = 0, major = 7, minor = 3;
	uint64_t id = 65534, caused = 1000;
	size_t off = NLMSG_HDRLEN;

	memset(b, 0, 256);
	memcpy(b + off, &gh, sizeof(gh));
	off += NLMSG_ALIGN(sizeof(gh));
	off = put_attr(b, off, QUOTA_NL_A_QTYPE, &qtype, 4);
	off = put_attr(b, off, QUOTA_NL_A_EXCESS_ID, &id, 8);
	off = put_attr(b, off, QUOTA_NL_A_WARNING, &code, 4);
	off = put_attr(b, off, QUOTA_NL_A_DEV_MAJOR, &major, 4);
	off = put_attr(b, off, QUOTA_NL_A_DEV_MINOR, &minor, 4);
	off = put_attr(b, off, QUOTA_NL_A_CAUSED_ID, &caused, 8);
	nh.nlmsg_len = (uint32_t)off;
	memcpy(b, &nh, sizeof(nh));
	return off;
}

static int
decode(const void *buf, size_t len, struct got *g)
{
	memset(g, 0, sizeof(*g));
	return quota_nl_decode(buf, len, collect, g);
}

/* Offset of attribute number i (0: QTYPE) in a message of warning(). */
static size_t
attr_at(int i)
{
	static const size_t sizes[] = { 4, 8, 4, 4, 4, 8 };
	size_t off = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(struct genlmsghdr));
	int k;

	for (k = 0; k < i; k++)
		off += NLA_ALIGN(NLA_HDRLEN + sizes[k]);
	return off;
}

/* Messages that cannot be trusted: each an EPROTO (a loss for the source), never a warning. */
static void
malformed(unsigned char *b)
{
	struct got g;
	uint16_t type = QUOTA_NL_A_PAD;
	uint16_t len = NLA_HDRLEN + 2;
	size_t n, m;

	n = warning(b, QUOTA_NL_BHARDWARN);
	memcpy(b + attr_at(3) + 2, &type, 2);	/* DEV_MAJOR renamed: no device */
	CHECK(decode(b, n, &g) == -1 && errno == EPROTO && g.n == 0, "warning without its device");
	n = warning(b, QUOTA_NL_BHARDWARN);
	memcpy(b + attr_at(2) + 2, &type, 2);	/* no WARNING code */
	CHECK(decode(b, n, &g) == -1 && g.n == 0, "warning without its code");
	n = warning(b, QUOTA_NL_BHARDWARN);
	memcpy(b + attr_at(4), &len, 2);	/* DEV_MINOR of 2 bytes */
	CHECK(decode(b, n, &g) == -1 && g.n == 0, "u32 attribute of 2 bytes");
	n = warning(b, QUOTA_NL_BHARDWARN);
	len = NLA_HDRLEN + 4;
	memcpy(b + attr_at(1), &len, 2);	/* EXCESS_ID of 4 bytes */
	CHECK(decode(b, n, &g) == -1 && g.n == 0, "u64 attribute of 4 bytes");
	n = warning(b, QUOTA_NL_BHARDWARN);
	m = warning(b + 256, QUOTA_NL_BSOFTWARN);
	memmove(b + n, b + 256, m);
	memcpy(b + n + attr_at(3) + 2, &type, 2);
	CHECK(decode(b, n + m, &g) == -1 && g.n == 1 && g.w[0].warning == QUOTA_NL_BHARDWARN,
	    "a good warning, then a bad one: the first delivered, then EPROTO");
	n = warning(b, QUOTA_NL_BHARDWARN);
	n = NLMSG_HDRLEN + 2;
	memcpy(b, &(uint32_t){ (uint32_t)n }, 4);
	CHECK(decode(b, n, &g) == -1 && g.n == 0, "VFS_DQUOT message shorter than its genetlink header");
}

int
main(void)
{
	unsigned char b[512];
	struct got g;
	size_t n, m;
	uint32_t bad = 0xffff;

	n = warning(b, QUOTA_NL_BSOFTWARN);
	CHECK(decode(b, n, &g) == 0 && g.n == 1, "one warning");
	CHECK(g.w[0].warning == QUOTA_NL_BSOFTWARN && g.w[0].id == 65534 && g.w[0].caused_id == 1000 &&
	    g.w[0].major == 7 && g.w[0].minor == 3 && g.w[0].qtype == 0, "fields");
	CHECK_STR(quota_nl_warning_name(g.w[0].warning), "block_soft");
	CHECK_STR(quota_nl_type_name(g.w[0].qtype), "user");
	CHECK(quota_nl_warning_name(0) == NULL && quota_nl_warning_name(11) == NULL, "unknown codes have no name");
	CHECK_STR(quota_nl_type_name(9), "unknown");
	m = warning(b + 256, QUOTA_NL_BHARDBELOW);
	memmove(b + n, b + 256, m);
	CHECK(decode(b, n + m, &g) == 0 && g.n == 2 && g.w[1].warning == QUOTA_NL_BHARDBELOW, "two in one buffer");
	n = warning(b, QUOTA_NL_IHARDWARN);
	CHECK(decode(b, n - 1, &g) == -1 && errno == EPROTO && g.n == 0, "truncated message");
	b[NLMSG_HDRLEN + 4] = 2;	/* first attribute's nla_len below its header */
	b[NLMSG_HDRLEN + 5] = 0;
	CHECK(decode(b, n, &g) == -1 && g.n == 0, "attribute shorter than its header");
	n = warning(b, QUOTA_NL_IHARDWARN);
	memcpy(b + NLMSG_HDRLEN + 4, &bad, 2);	/* nla_len past the message */
	CHECK(decode(b, n, &g) == -1, "attribute past the message");
	n = warning(b, QUOTA_NL_IHARDWARN);
	b[4] = GENL_ID_CTRL;	/* another family: skipped */
	CHECK(decode(b, n, &g) == 0 && g.n == 0, "other families skipped");
	n = warning(b, QUOTA_NL_IHARDWARN);
	b[NLMSG_HDRLEN] = QUOTA_NL_C_UNSPEC;
	CHECK(decode(b, n, &g) == 0 && g.n == 0, "other commands skipped");
	CHECK(decode(b, 3, &g) == 0 && g.n == 0, "a tail shorter than a header is ignored");
	memset(b, 0, 16);
	b[0] = 4;
	CHECK(decode(b, 16, &g) == -1, "nlmsg_len below its header");
	malformed(b);
	return unit_done("test_quota_nl");
}
