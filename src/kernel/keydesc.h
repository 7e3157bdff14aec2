#ifndef WATCHQ_KEYDESC_H
#define WATCHQ_KEYDESC_H

#include <stdint.h>

/* What KEYCTL_DESCRIBE says of a key: "type;uid;gid;perm;description". */
struct keydesc {
	char *buf;		/* the text the fields point into (keydesc_get: owned) */
	const char *type, *description;
	long uid, gid;
	unsigned perm;
};

/* Describe key serial; 0, or -1 with errno set (EKEYREVOKED, EKEYEXPIRED, ENOKEY: gone or
 * invalidated; EACCES: not viewable). */
int keydesc_get(struct keydesc *d, int32_t serial);
/* Split KEYCTL_DESCRIBE's text s in place into d (d->buf stays NULL); -1 if s is not such text. */
int keydesc_parse(struct keydesc *d, char *s);
/* Release what keydesc_get allocated. */
void keydesc_free(struct keydesc *d);

#endif
