#include <errno.h>
#include <keyutils.h>
#include <stdlib.h>
#include <string.h>

#include "key_events.h"
#include "keydesc.h"
#include "keyproc.h"
#include "keysnap.h"
#include "xalloc.h"

int
keysnap_serial_cmp(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return x < y ? -1 : x > y;
}

bool
keysnap_exists(const struct keysnap *s)
{
	return s->err == 0 || s->err == EKEYREVOKED || s->err == EKEYEXPIRED;
}

static bool
keysnap_has_flag(const struct keysnap *s, char f)
{
	return s->has_proc_line && strchr(s->flags, f) != NULL;
}

void
keysnap_take(struct keysnap *s, int32_t serial, const char *proc)
{
	struct keydesc d;
	struct keyproc_line line;
	void *data = NULL;
	long n;

	memset(s, 0, sizeof(*s));
	s->serial = serial;
	if (keydesc_get(&d, serial) < 0) {
		s->err = errno;
		return;
	}
	s->type = xstrdup(d.type);
	s->description = xstrdup(d.description);
	s->uid = d.uid;
	s->gid = d.gid;
	s->perm = d.perm;
	s->keyring = strcmp(d.type, "keyring") == 0;
	if (keyproc_find(proc, serial, &d, &line) == 0) {
		s->has_proc_line = true;
		memcpy(s->flags, line.flags, sizeof(s->flags));
		s->summary = xmalloc(line.summary_len + 1);
		memcpy(s->summary, line.summary, line.summary_len);
		s->summary[line.summary_len] = '\0';
	}
	keydesc_free(&d);
	/* KEYCTL_READ waits for a key under construction to be finished. */
	if (!s->keyring || keysnap_has_flag(s, 'U'))
		return;
	if ((n = keyctl_read_alloc(serial, &data)) < 0)
		return;
	s->has_links = true;
	s->nlinks = (size_t)n / sizeof(int32_t);
	s->links = data;
	qsort(s->links, s->nlinks, sizeof(int32_t), keysnap_serial_cmp);
}

void
keysnap_free(struct keysnap *s)
{
	free(s->summary);
	free(s->type);
	free(s->description);
	free(s->links);
	s->summary = s->type = s->description = NULL;
	s->links = NULL;
	s->nlinks = 0;
	s->has_links = false;
}

void
keysnap_carry(struct keysnap *new, struct keysnap *old)
{
	if (new->type || !old->type || new->serial != old->serial)
		return;
	new->type = old->type;
	new->description = old->description;
	new->keyring = old->keyring;
	old->type = old->description = NULL;
}

void
keysnap_diff(const struct keysnap *old, const struct keysnap *new, const struct watch *w,
    struct sink *sink, struct keynames *names)
{
	const struct keysnap *who = new->type ? new : old;
	struct keyname kn;
	bool instantiated = keysnap_has_flag(old, 'U') && new->has_proc_line &&
	    !keysnap_has_flag(new, 'U');
	size_t i = 0, j = 0;

	if (instantiated)
		key_events_emit(sink, w, KEY_INSTANTIATED, new->serial,
		    keysnap_has_flag(new, 'N') ? -ENOKEY : 0, keysnap_name(who, &kn), names);
	while (old->has_links && new->has_links && (i < old->nlinks || j < new->nlinks)) {
		if (j == new->nlinks || (i < old->nlinks && old->links[i] < new->links[j]))
			key_events_emit(sink, w, KEY_UNLINKED, new->serial, old->links[i++], NULL,
			    names);
		else if (i == old->nlinks || new->links[j] < old->links[i])
			key_events_emit(sink, w, KEY_LINKED, new->serial, new->links[j++], NULL,
			    names);
		else
			i++, j++;
	}
	/* Revocation also empties the summary and expires the key: the kernel sends one event. */
	if (old->err != EKEYREVOKED && new->err == EKEYREVOKED) {
		key_events_emit(sink, w, KEY_REVOKED, new->serial, 0, keysnap_name(who, &kn),
		    names);
		return;
	}
	/* Of a key that cannot be described, nothing more is known. */
	if (old->err != 0 || new->err != 0)
		return;
	/* Instantiation gives the key its first payload: one event, as the kernel sends. */
	if (!instantiated && !new->keyring && old->has_proc_line && new->has_proc_line &&
	    strcmp(old->summary, new->summary) != 0)
		key_events_emit(sink, w, KEY_UPDATED, new->serial, 0, keysnap_name(new, &kn),
		    names);
	if (old->perm != new->perm || old->uid != new->uid || old->gid != new->gid)
		key_events_emit(sink, w, KEY_SETATTR, new->serial, 0, keysnap_name(new, &kn),
		    names);
}

bool
keysnap_apply(struct keysnap *s, unsigned subtype, int32_t aux)
{
	size_t i;

	switch (subtype) {
	case KEY_REVOKED:
		if (s->err == EKEYREVOKED)
			return false;
		s->err = EKEYREVOKED;
		return true;
	case KEY_LINKED:
	case KEY_UNLINKED:
	case KEY_CLEARED:
		break;
	default:
		return true;
	}
	if (!s->has_links)
		return true;
	for (i = 0; i < s->nlinks && s->links[i] < aux; i++)
		;
	switch (subtype) {
	case KEY_LINKED:
		if (i < s->nlinks && s->links[i] == aux)
			return false;
		s->links = xreallocarray(s->links, s->nlinks + 1, sizeof(*s->links));
		memmove(s->links + i + 1, s->links + i, (s->nlinks - i) * sizeof(*s->links));
		s->links[i] = aux;
		s->nlinks++;
		return true;
	case KEY_UNLINKED:
		if (i == s->nlinks || s->links[i] != aux)
			return false;
		memmove(s->links + i, s->links + i + 1, (s->nlinks - i - 1) * sizeof(*s->links));
		s->nlinks--;
		return true;
	default:
		if (s->nlinks == 0)
			return false;
		s->nlinks = 0;
		return true;
	}
}

const struct keyname *
keysnap_name(const struct keysnap *s, struct keyname *buf)
{
	if (s == NULL)
		return NULL;
	*buf = (struct keyname){ s->serial, s->type, s->description };
	return buf;
}
