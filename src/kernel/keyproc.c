/*
 * /proc/keys prints one line per key, "SERIAL FLAGS USAGE TIMEOUT PERM UID
 * GID TYPE DESCRIPTION: SUMMARY", with the description raw: a description
 * holding a newline can fake a whole line for any serial. So nothing here is
 * believed unless KEYCTL_DESCRIBE already said it, and a line is used only
 * when it is the one line starting with the serial asked about: a forged line
 * for that serial makes two, and then nothing is used.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "keyproc.h"

char *
keyproc_read(void)
{
	struct buf b = { 0 };
	char chunk[8192];
	ssize_t n;
	int fd = open("/proc/keys", O_RDONLY | O_CLOEXEC);

	buf_adds(&b, "");
	if (fd < 0)
		return b.data;
	while ((n = read(fd, chunk, sizeof(chunk))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			buf_reset(&b);
			break;
		}
		buf_add(&b, chunk, (size_t)n);
	}
	close(fd);
	return b.data;
}

/* The one line of proc that starts with want, or NULL if none or several do. */
static const char *
keyproc_only_line(const char *proc, const char *want)
{
	const char *p = proc, *found = NULL;
	size_t wl = strlen(want);

	for (;;) {
		if (strncmp(p, want, wl) == 0) {
			if (found)
				return NULL;
			found = p;
		}
		if ((p = strchr(p, '\n')) == NULL)
			return found;
		p++;
	}
}

int
keyproc_find(const char *proc, int32_t serial, const struct keydesc *d, struct keyproc_line *out)
{
	char want[16], head[256], type[16], timeout[16];
	const char *line, *eol, *desc, *after;
	long uid, gid;
	unsigned perm;
	int usage, off = -1;
	size_t dl = strlen(d->description);

	snprintf(want, sizeof(want), "%08x ", (unsigned)serial);
	if ((line = keyproc_only_line(proc, want)) == NULL)
		return -1;
	eol = strchrnul(line, '\n');
	snprintf(head, sizeof(head), "%.*s", (int)(eol - line), line);
	if (sscanf(head, "%*8x %7[-IRDQUNi] %d %15s %x %ld %ld %n", out->flags, &usage, timeout,
		&perm, &uid, &gid, &off) != 6 ||
	    off < 0 || strlen(out->flags) != 7)
		return -1;
	if (perm != d->perm || uid != d->uid || gid != d->gid)
		return -1;
	/* The type is printed as "%-9.9s ", then the type's own description of the key. */
	snprintf(type, sizeof(type), "%-9.9s ", d->type);
	if ((size_t)(eol - line) < (size_t)off + strlen(type) ||
	    strncmp(line + off, type, strlen(type)) != 0)
		return -1;
	desc = line + off + strlen(type);
	if (strncmp(desc, d->description, dl) != 0)
		return -1;
	after = desc + dl;
	if (strncmp(after, ": ", 2) == 0)
		after += 2;
	else if (*after != '\n' && *after != '\0')
		return -1;
	out->summary = after;
	out->summary_len = strcspn(after, "\n");
	return 0;
}
