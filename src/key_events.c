#include <errno.h>
#include <fcntl.h>
#include <keyutils.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "key_events.h"
#include "util.h"

char *
key_read_proc(void)
{
	struct buf b = { 0 };
	char chunk[8192];
	ssize_t n;
	int fd = open("/proc/keys", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	buf_adds(&b, "");
	while ((n = read(fd, chunk, sizeof(chunk))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			close(fd);
			buf_free(&b);
			return NULL;
		}
		buf_add(&b, chunk, (size_t)n);
	}
	close(fd);
	return b.data;
}

static int
cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return x < y ? -1 : x > y;
}

/* Find the line of serial in /proc/keys and parse it. */
static bool
parse_proc_line(struct key_snap *s, const char *text)
{
	char want[16], line[4096], type[64], *desc, *sep;
	const char *p = text;
	int usage, off;

	snprintf(want, sizeof(want), "%08x ", (unsigned)s->serial);
	while (*p) {
		size_t n = strcspn(p, "\n");

		if (n >= sizeof(want) - 1 && strncmp(p, want, strlen(want)) == 0) {
			snprintf(line, sizeof(line), "%.*s", (int)n, p);
			if (sscanf(line, "%*x %7s %d %15s %x %ld %ld %63s %n", s->flags, &usage,
			    s->timeout, &s->perm, &s->uid, &s->gid, type, &off) < 7)
				return false;
			desc = line + off;
			sep = strstr(desc, ": ");
			while (sep && strstr(sep + 2, ": "))
				sep = strstr(sep + 2, ": ");
			s->summary = xstrdup(sep ? sep + 2 : "");
			if (sep)
				*sep = '\0';
			s->type = xstrdup(type);
			s->description = xstrdup(desc);
			s->keyring = strcmp(type, "keyring") == 0;
			return true;
		}
		p += n + (p[n] == '\n');
	}
	return false;
}

void
keysnap_take(struct key_snap *s, int32_t serial, const char *proc_keys)
{
	void *data = NULL;
	long n;

	memset(s, 0, sizeof(*s));
	s->serial = serial;
	s->exists = parse_proc_line(s, proc_keys);
	if (!s->exists || !s->keyring)
		return;
	if ((n = keyctl_read_alloc(serial, &data)) < 0)
		return;
	s->nlinks = (size_t)n / sizeof(int32_t);
	s->links = data;
	qsort(s->links, s->nlinks, sizeof(int32_t), cmp_i32);
}

void
keysnap_free(struct key_snap *s)
{
	free(s->summary);
	free(s->type);
	free(s->description);
	free(s->links);
	s->summary = s->type = s->description = NULL;
	s->links = NULL;
}

static bool
flag_set(const struct key_snap *s, char f)
{
	return strchr(s->flags, f) != NULL;
}

void
keysnap_diff(const struct key_snap *old, const struct key_snap *new, const struct watch *w,
    struct sink *sink)
{
	size_t i = 0, j = 0;

	bool revoked = !flag_set(old, 'R') && flag_set(new, 'R');

	if (flag_set(old, 'U') && !flag_set(new, 'U'))
		key_events_emit(sink, w, KEY_INSTANTIATED, new->serial, flag_set(new, 'N') ? -ENOKEY : 0, new);
	while (i < old->nlinks || j < new->nlinks) {
		if (j == new->nlinks || (i < old->nlinks && old->links[i] < new->links[j]))
			key_events_emit(sink, w, KEY_UNLINKED, new->serial, old->links[i++], NULL);
		else if (i == old->nlinks || new->links[j] < old->links[i])
			key_events_emit(sink, w, KEY_LINKED, new->serial, new->links[j++], NULL);
		else
			i++, j++;
	}
	/* Revocation also empties the summary and expires the key: one event, as the kernel sends. */
	if (revoked) {
		key_events_emit(sink, w, KEY_REVOKED, new->serial, 0, new);
		return;
	}
	if (!new->keyring && old->summary && new->summary && strcmp(old->summary, new->summary) != 0)
		key_events_emit(sink, w, KEY_UPDATED, new->serial, 0, new);
	if (old->perm != new->perm || old->uid != new->uid || old->gid != new->gid ||
	    strcmp(old->timeout, new->timeout) != 0)
		key_events_emit(sink, w, KEY_SETATTR, new->serial, 0, new);
	if (!flag_set(old, 'i') && flag_set(new, 'i'))
		key_events_emit(sink, w, KEY_INVALIDATED, new->serial, 0, new);
}

void
keysnap_apply(struct key_snap *s, unsigned subtype, int32_t aux)
{
	size_t i;

	if (!s->exists || !s->keyring)
		return;
	for (i = 0; i < s->nlinks && s->links[i] < aux; i++)
		;
	switch (subtype) {
	case KEY_LINKED:
		if (i < s->nlinks && s->links[i] == aux)
			return;
		s->links = xreallocarray(s->links, s->nlinks + 1, sizeof(*s->links));
		memmove(s->links + i + 1, s->links + i, (s->nlinks - i) * sizeof(*s->links));
		s->links[i] = aux;
		s->nlinks++;
		break;
	case KEY_UNLINKED:
		if (i == s->nlinks || s->links[i] != aux)
			return;
		memmove(s->links + i, s->links + i + 1, (s->nlinks - i - 1) * sizeof(*s->links));
		s->nlinks--;
		break;
	case KEY_CLEARED:
		s->nlinks = 0;
		break;
	}
}

void
key_events_emit(struct sink *sink, const struct watch *w, unsigned subtype, int32_t key_id, int32_t aux,
    const struct key_snap *known)
{
	struct event ev;
	char *desc = NULL, *fields[5] = { 0 }, *p;
	bool link = subtype == KEY_LINKED || subtype == KEY_UNLINKED;
	int i;

	memset(&ev, 0, sizeof(ev));
	ev.type = EV_KEY;
	ev.subtype = subtype;
	ev.tag = w->tag;
	ev.watch = w->target;
	ev.watch_source = "keys";
	ev.u.key.key = link ? aux : key_id;
	ev.u.key.keyring = link || subtype == KEY_CLEARED ? key_id : 0;
	ev.u.key.aux = aux;
	/* "type;uid;gid;perm;description": the description may hold ';' itself. */
	if (keyctl_describe_alloc(ev.u.key.key, &desc) >= 0) {
		for (i = 0, p = desc; i < 4 && p; i++) {
			fields[i] = p;
			if ((p = strchr(p, ';')) != NULL)
				*p++ = '\0';
		}
		fields[4] = p;
		ev.u.key.type = fields[0];
		ev.u.key.description = fields[4];
	} else if (known && known->type && known->serial == ev.u.key.key) {
		ev.u.key.type = known->type;
		ev.u.key.description = known->description;
	}
	sink->emit(sink, &ev);
	free(desc);
}

