#ifndef WATCHQ_KEYDESC_H
#define WATCHQ_KEYDESC_H

#include <stddef.h>
#include <stdint.h>

/* What KEYCTL_DESCRIBE says of a key: "type;uid;gid;perm;description". */
struct keydesc {
	char *buf;		/* the text the fields point into (keydesc_get: owned) */
	const char *type, *description;
	long uid, gid;
	unsigned perm;
};

/* Who asks: the effective ids and groups keyctl show weighs a key's permissions for. */
struct keydesc_creds {
	long uid, gid;
	const long *groups;
	size_t ngroups;
};

/* Describe key serial; 0, or -1 with errno set (EKEYREVOKED, EKEYEXPIRED, ENOKEY: gone or
 * invalidated; EACCES: not viewable). */
int keydesc_get(struct keydesc *d, int32_t serial);
/* Split KEYCTL_DESCRIBE's text s in place into d (d->buf stays NULL); -1 if s is not such text. */
int keydesc_parse(struct keydesc *d, char *s);
/* Release what keydesc_get allocated. */
void keydesc_free(struct keydesc *d);
/* Our own effective ids and groups, read once. */
const struct keydesc_creds *keydesc_creds(void);
/*
 * keyctl show's permission column for a key of mask perm owned by uid and gid, for me: "--" and
 * the six letters alswrv or '-', the possessor's rights with those of the first of user, group
 * and other that is me (NUL-ended, 9 bytes).
 */
void keydesc_show_perm(char out[9], unsigned perm, long uid, long gid,
    const struct keydesc_creds *me);

#endif
