#include <errno.h>
#include <keyutils.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "keydesc.h"

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
