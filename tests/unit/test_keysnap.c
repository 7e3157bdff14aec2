/* The key snapshot diff: what polling and a resync report, and how records keep a snapshot
 * current. */
#include <errno.h>
#include <stdlib.h>

#include "keysnap.h"
#include "unit.h"
#include "xalloc.h"

/* Serials no key has: KEYCTL_DESCRIBE fails, so events describe keys from the snapshots. */
#define R	0x7ffffff0
#define K	0x7ffffff1

struct got {
	struct sink sink;
	char text[1024];
};

static void
take(struct sink *sink, struct event *ev)
{
	struct got *g = (struct got *)sink;
	size_t n = strlen(g->text);

	snprintf(g->text + n, sizeof(g->text) - n, "%s%s %d %d %d %s", n ? ", " : "", event_name(ev),
	    (int)ev->u.key.key - 0x7ffff000, ev->u.key.keyring ? (int)ev->u.key.keyring - 0x7ffff000 : 0,
	    ev->u.key.aux > 0x7ffff000 ? ev->u.key.aux - 0x7ffff000 : ev->u.key.aux,
	    ev->u.key.description ? ev->u.key.description : "-");
}

static const struct watch w = { .type = EV_KEY, .target = "@s", .key = R, .tag = 0 };

/* A keyring snapshot holding the keys 0x7ffff000 + each of ids (ascending, ended by 0). */
static struct keysnap
ring(const int *ids)
{
	struct keysnap s;
	size_t n = 0;

	memset(&s, 0, sizeof(s));
	s.serial = R;
	s.type = (char *)"keyring";
	s.description = (char *)"ring";
	s.perm = 0x3f010000;
	s.keyring = s.has_proc_line = s.has_links = true;
	strcpy(s.flags, "I--Q---");
	s.summary = (char *)"";
	s.links = xcalloc(8, sizeof(*s.links));
	while (ids[n])
		s.links[n] = 0x7ffff000 + ids[n], n++;
	s.nlinks = n;
	return s;
}

static struct keysnap
key(const char *flags, const char *summary, int err)
{
	struct keysnap s;

	memset(&s, 0, sizeof(s));
	s.serial = K;
	s.err = err;
	if (err == 0) {
		s.type = (char *)"user";
		s.description = (char *)"tok";
	}
	s.perm = 0x3f010000;
	s.has_proc_line = flags != NULL;
	if (flags)
		strcpy(s.flags, flags);
	s.summary = (char *)summary;
	return s;
}

static const char *
diff(const struct keysnap *old, const struct keysnap *new)
{
	static struct got g;

	g.sink.emit = take;
	g.text[0] = '\0';
	keysnap_diff(old, new, &w, &g.sink, NULL);
	return g.text;
}

int
main(void)
{
	struct keysnap a, b, c;

	a = ring((int[]){ 1, 2, 3, 0 });
	b = ring((int[]){ 2, 3, 4, 0 });
	CHECK_STR(diff(&a, &b), "unlinked 1 4080 1 -, linked 4 4080 4 -");
	CHECK_STR(diff(&a, &a), "");
	b.has_links = false;
	CHECK_STR(diff(&a, &b), "");	/* contents unreadable now: nothing said of them */

	/* Records seen before a loss are applied; the resync then reports only what was missed. */
	CHECK(keysnap_apply(&a, KEY_LINKED, 0x7ffff000 + 4), "linked: news");
	CHECK(!keysnap_apply(&a, KEY_LINKED, 0x7ffff000 + 4), "linked again: no news");
	CHECK(keysnap_apply(&a, KEY_UNLINKED, 0x7ffff000 + 2), "unlinked: news");
	CHECK(!keysnap_apply(&a, KEY_UNLINKED, 0x7ffff000 + 9), "unlinked, never there: no news");
	c = ring((int[]){ 1, 3, 4, 5, 0 });
	CHECK_STR(diff(&a, &c), "linked 5 4080 5 -");
	CHECK(keysnap_apply(&c, KEY_UPDATED, 0), "an update is always news");
	CHECK(keysnap_apply(&c, KEY_CLEARED, 0) && c.nlinks == 0, "cleared: news, and empty");
	CHECK(!keysnap_apply(&c, KEY_CLEARED, 0), "cleared when empty: no news");
	free(b.links);
	b = ring((int[]){ 0 });
	b.has_links = false;
	CHECK(keysnap_apply(&b, KEY_LINKED, 7) && keysnap_apply(&b, KEY_UNLINKED, 7), "unknown contents: news");

	free(a.links);
	free(b.links);
	free(c.links);

	/* A key. */
	a = key("I--Q---", "3", 0);
	b = key("I--Q---", "5", 0);
	CHECK_STR(diff(&a, &b), "updated 4081 0 0 tok");
	b = key(NULL, NULL, 0);
	CHECK_STR(diff(&a, &b), "");	/* its line not believed: no update claimed */
	b = key("I--Q---", "3", 0);
	b.perm = 0x3f3f0000;
	CHECK_STR(diff(&a, &b), "setattr 4081 0 0 tok");
	b.perm = a.perm;
	b.uid = 1000;
	CHECK_STR(diff(&a, &b), "setattr 4081 0 0 tok");
	b = key(NULL, NULL, EKEYREVOKED);
	/* Described from the old snapshot. */
	CHECK_STR(diff(&a, &b), "revoked 4081 0 0 tok");
	CHECK_STR(diff(&b, &b), "");
	c = key(NULL, NULL, EKEYEXPIRED);
	CHECK_STR(diff(&a, &c), "");	/* the kernel posts nothing when a key expires */
	CHECK(keysnap_apply(&a, KEY_REVOKED, 0) && a.err == EKEYREVOKED, "revoked: news");
	CHECK(!keysnap_apply(&a, KEY_REVOKED, 0), "revoked twice: no news");
	CHECK_STR(diff(&a, &b), "");	/* a resync after the record: no second revocation */

	/* Under construction, then instantiated (negatively). */
	a = key("-----U-", "", 0);
	b = key("I------", "5", 0);
	CHECK_STR(diff(&a, &b), "instantiated 4081 0 0 tok");
	b = key("I----N-", "", 0);
	CHECK_STR(diff(&a, &b), "instantiated 4081 0 -126 tok");
	b = key(NULL, NULL, 0);
	CHECK_STR(diff(&a, &b), "");

	/* What a revoked key's new snapshot lacks comes from the old one. */
	a = key("I--Q---", "3", 0);
	a.type = xstrdup("user");
	a.description = xstrdup("tok");
	b = key(NULL, NULL, EKEYREVOKED);
	keysnap_carry(&b, &a);
	CHECK(b.type && strcmp(b.description, "tok") == 0 && a.type == NULL, "carried");
	free(b.type);
	free(b.description);
	return unit_done("test_keysnap");
}
