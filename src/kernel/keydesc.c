#include <errno.h>
#include <keyutils.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "keydesc.h"
#include "xalloc.h"

/* The number at *p up to the next ';', moved past it; false if there is none. */
static bool
keydesc_field(char **p, int base, long long *v)
{
	char *end;

	errno = 0;
	*v = strtoll(*p, &end, base);
	if (errno || end == *p || *end != ';')
		return false;
	*p = end + 1;
	return true;
}

int
keydesc_parse(struct keydesc *d, char *s)
{
	long long uid, gid, perm;
	char *p = strchr(s, ';');

	memset(d, 0, sizeof(*d));
	if (p == NULL || p == s)
		return -1;
	*p++ = '\0';
	/* The description is the last field: all after the fourth ';', with ';' and newlines. */
	if (!keydesc_field(&p, 10, &uid) || !keydesc_field(&p, 10, &gid) ||
	    !keydesc_field(&p, 16, &perm))
		return -1;
	d->type = s;
	d->uid = (long)uid;
	d->gid = (long)gid;
	d->perm = (unsigned)perm;
	d->description = p;
	return 0;
}

int
keydesc_get(struct keydesc *d, int32_t serial)
{
	char *text;

	memset(d, 0, sizeof(*d));
	if (keyctl_describe_alloc(serial, &text) < 0)
		return -1;
	if (keydesc_parse(d, text) < 0) {
		free(text);
		errno = EPROTO;
		return -1;
	}
	d->buf = text;
	return 0;
}

void
keydesc_free(struct keydesc *d)
{
	free(d->buf);
	memset(d, 0, sizeof(*d));
}

const struct keydesc_creds *
keydesc_creds(void)
{
	static struct keydesc_creds me;
	static bool read;
	gid_t *g;
	long *v;
	int n, i;

	if (read)
		return &me;
	read = true;
	me.uid = (long)geteuid();
	me.gid = (long)getegid();
	if ((n = getgroups(0, NULL)) <= 0)
		return &me;
	g = xcalloc((size_t)n, sizeof(*g));
	v = xcalloc((size_t)n, sizeof(*v));
	n = getgroups(n, g);
	for (i = 0; i < n; i++)
		v[i] = (long)g[i];
	free(g);
	me.groups = v;
	me.ngroups = n > 0 ? (size_t)n : 0;
	return &me;
}

/* Which of user, group and other is me for a key of uid and gid: the shift of its rights. */
static int
keydesc_class(long uid, long gid, const struct keydesc_creds *me)
{
	size_t i;

	if (uid == me->uid)
		return 16;
	/* keyctl: a gid of -1 is no group. */
	if (gid != -1 && gid == me->gid)
		return 8;
	for (i = 0; gid != -1 && i < me->ngroups; i++)
		if (gid == me->groups[i])
			return 8;
	return 0;
}

void
keydesc_show_perm(char out[9], unsigned perm, long uid, long gid,
    const struct keydesc_creds *me)
{
	static const char letters[] = "alswrv";
	unsigned p = (perm >> 24 | perm >> keydesc_class(uid, gid, me)) & 0x3f;
	int i;

	out[0] = out[1] = '-';
	for (i = 0; i < 6; i++)
		out[2 + i] = p & (0x20u >> i) ? letters[i] : '-';
	out[8] = '\0';
}
