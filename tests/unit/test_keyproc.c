/* Reading a key's facts from /proc/keys and KEYCTL_DESCRIBE: descriptions holding newlines and ';'
 * forge nothing. */
#include <stdlib.h>

#include "keydesc.h"
#include "keyproc.h"
#include "unit.h"

/* d from KEYCTL_DESCRIBE's text (kept in buf, which must outlive d). */
static struct keydesc
desc(char *buf, const char *text)
{
	struct keydesc d;

	strcpy(buf, text);
	if (keydesc_parse(&d, buf) < 0)
		memset(&d, 0, sizeof(d));
	return d;
}

static int
find(const char *proc, int32_t serial, const struct keydesc *d, struct keyproc_line *l)
{
	memset(l, 0, sizeof(*l));
	return keyproc_find(proc, serial, d, l);
}

/* keyctl show's permission column: the possessor's rights, then the first class that is me. */
static void
show_perm(void)
{
	static const long groups[] = { 10, 20 };
	static const struct keydesc_creds me = { 1000, 100, groups, 2 };
	static const struct {
		unsigned perm;
		long uid, gid;
		const char *want;
	} cases[] = {
		{ 0x3f010000, 1000, 100, "--alswrv" },
		{ 0x01020000, 1000, 100, "------rv" },	/* possessor v, owner r */
		{ 0x00000300, 1, 100, "------rv" },	/* our group */
		{ 0x00002000, 1, 20, "--a-----" },	/* a supplementary group */
		{ 0x00002004, 1, 30, "-----w--" },	/* neither: other */
		{ 0x00003f00, 1, -1, "--------" },	/* gid -1 is no group */
		{ 0x0b000004, 1000, 1, "----s-rv" },	/* the owner's none, other not weighed */
	};
	char out[9];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		keydesc_show_perm(out, cases[i].perm, cases[i].uid, cases[i].gid, &me);
		CHECK_STR(out, cases[i].want);
	}
}

int
main(void)
{
	char b1[256], b2[256], b3[256];
	struct keydesc d;
	struct keyproc_line l;
	const char *proc;

	d = desc(b1, "user;0;0;3f010000;tok");
	CHECK_STR(d.type, "user");
	CHECK(d.uid == 0 && d.gid == 0 && d.perm == 0x3f010000, "numbers");
	CHECK_STR(d.description, "tok");
	d = desc(b1, "user;1000;100;3f010000;a;b;c\nd");
	CHECK(d.uid == 1000 && d.gid == 100, "uid and gid");
	CHECK_STR(d.description, "a;b;c\nd");
	CHECK(keydesc_parse(&d, strcpy(b1, "user;0;0")) < 0, "too few fields");
	CHECK(keydesc_parse(&d, strcpy(b1, ";0;0;3f010000;x")) < 0, "no type");
	CHECK(keydesc_parse(&d, strcpy(b1, "user;x;0;3f010000;x")) < 0, "uid not a number");

	proc = "0b5ec1a5 I--Q---     1 perm 3f010000     0     0 user      tok: 5\n"
	    "1c0ffee0 I--Q---     2 perm 3f030000     0     0 keyring   _ses: 1\n";
	d = desc(b1, "user;0;0;3f010000;tok");
	CHECK(find(proc, 0x0b5ec1a5, &d, &l) == 0 && strcmp(l.flags, "I--Q---") == 0 &&
	    l.summary_len == 1 && l.summary[0] == '5', "a plain line");
	d = desc(b2, "keyring;0;0;3f030000;_ses");
	CHECK(find(proc, 0x1c0ffee0, &d, &l) == 0 && strncmp(l.summary, "1\n", 2) == 0, "a keyring, last line");
	CHECK(find(proc, 0x12345678, &d, &l) < 0, "absent");
	d = desc(b1, "user;0;0;3f3f0000;tok");
	CHECK(find(proc, 0x0b5ec1a5, &d, &l) < 0, "perm disagrees with KEYCTL_DESCRIBE");
	d = desc(b1, "user;0;0;3f010000;to");
	CHECK(find(proc, 0x0b5ec1a5, &d, &l) < 0, "description disagrees");
	d = desc(b1, "logon;0;0;3f010000;tok");
	CHECK(find(proc, 0x0b5ec1a5, &d, &l) < 0, "type disagrees");

	/* Another key's description holds a newline, then a forged line: 0b5ec1a5 is revoked. */
	proc = "0a000001 I--Q---     1 perm 3f010000     0     0 user      x\n"
	    "0b5ec1a5 IR-Q---     1 perm 3f010000     0     0 user      tok: 5\n"
	    "0b5ec1a5 I--Q---     1 perm 3f010000     0     0 user      tok: 5\n";
	d = desc(b1, "user;0;0;3f010000;tok");
	CHECK(find(proc, 0x0b5ec1a5, &d, &l) < 0, "a forged line before the real one: neither is believed");
	proc = "0b5ec1a5 I--Q---     1 perm 3f010000     0     0 user      tok: 5\n"
	    "0c000001 I--Q---     1 perm 3f010000     0     0 user      x\n"
	    "0b5ec1a5 IR-Q---     1 perm 3f010000     0     0 user      tok: 5\n";
	CHECK(find(proc, 0x0b5ec1a5, &d, &l) < 0, "a forged line after the real one: neither is believed");
	CHECK(find(proc, 0x0c000001, &(struct keydesc){ .type = "user", .description = "x\n0b5ec1a5" }, &l) < 0,
	    "the forger's own line does not pass for one with another description");

	/* The key's own description holds newlines: its line goes on past them. */
	proc = "0b5ec1a5 I--Q---     1 perm 3f010000     0     0 user      two\nlines: 9\n"
	    "0d000001 I--Q---     1 perm 3f010000     0     0 user      y: 1\n";
	d = desc(b1, "user;0;0;3f010000;two\nlines");
	CHECK(find(proc, 0x0b5ec1a5, &d, &l) == 0 && l.summary_len == 1 && l.summary[0] == '9',
	    "a description with a newline, summary after it");
	proc = "0b5ec1a5 I--Q---     1 perm 3f010000     0     0 user      a\n0b5ec1a5 b: 9\n";
	d = desc(b1, "user;0;0;3f010000;a\n0b5ec1a5 b");
	CHECK(find(proc, 0x0b5ec1a5, &d, &l) < 0, "a description that repeats its own serial after a newline");

	/* Long types are cut to 9 columns; under construction, negative; no summary. */
	proc = "0e000001 -----U-     1 perm 3f010000     0     0 asymmetri k: X509\n"
	    "0e000002 I----N-     1 perm 3f010000     0     0 user      neg\n";
	d = desc(b1, "asymmetric;0;0;3f010000;k");
	CHECK(find(proc, 0x0e000001, &d, &l) == 0 && strcmp(l.flags, "-----U-") == 0, "a long type, cut");
	d = desc(b3, "user;0;0;3f010000;neg");
	CHECK(find(proc, 0x0e000002, &d, &l) == 0 && l.summary_len == 0 && strcmp(l.flags, "I----N-") == 0,
	    "no summary");
	proc = "0e000002 I--Z---     1 perm 3f010000     0     0 user      neg\n";
	CHECK(find(proc, 0x0e000002, &d, &l) < 0, "a flag the kernel never prints");
	CHECK(find("", 0x0e000002, &d, &l) < 0 && find("0e000002", 0x0e000002, &d, &l) < 0, "empty, cut short");
	show_perm();
	return unit_done("test_keyproc");
}
