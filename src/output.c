#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "output.h"

int
output_open(struct output *o, const struct config *cfg)
{
	memset(o, 0, sizeof(*o));
	o->cfg = cfg;
	o->fd = STDOUT_FILENO;
	if (cfg->output) {
		o->fd = open(cfg->output, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
		if (o->fd < 0)
			return -1;
		o->own_fd = true;
	}
	return 0;
}

void
output_time(struct buf *b, const struct timespec *ts, const char *fmt)
{
	struct tm tm;
	char s[256];
	time_t t = ts->tv_sec;
	size_t n;

	if (localtime_r(&t, &tm) == NULL)
		return;
	/* The user's --timefmt is the format, by design. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	n = strftime(s, sizeof(s), fmt, &tm);
#pragma GCC diagnostic pop
	buf_add(b, s, n);
}

static int
write_all(int fd, const char *p, size_t n)
{
	ssize_t w;

	while (n > 0) {
		w = write(fd, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int
output_event(struct output *o, const struct event *ev)
{
	buf_reset(&o->line);
	switch (o->cfg->out) {
	case OUT_JSON:
		output_json(&o->line, ev);
		break;
	case OUT_FORMAT:
		output_format(&o->line, o->cfg->format, o->cfg->timefmt, ev);
		break;
	case OUT_TEXT:
		output_text(&o->line, ev, o->cfg);
		break;
	}
	if (write_all(o->fd, o->line.data, o->line.len) < 0)
		return errno == EPIPE ? 1 : -1;
	return 0;
}

int
output_close(struct output *o)
{
	int r = 0;

	buf_free(&o->line);
	if (o->own_fd)
		r = close(o->fd);
	o->fd = -1;
	return r;
}
