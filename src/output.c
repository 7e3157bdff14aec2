#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loop.h"
#include "output.h"
#include "output_format.h"
#include "output_json.h"
#include "output_text.h"

int
output_open(struct output *o, const struct config *cfg, int sigfd)
{
	struct stat stb;

	memset(o, 0, sizeof(*o));
	o->cfg = cfg;
	o->sigfd = sigfd;
	o->fd = STDOUT_FILENO;
	if (cfg->output) {
		o->fd = open(cfg->output, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
		if (o->fd < 0)
			return -1;
		o->own_fd = true;
	}
	if (fstat(o->fd, &stb) == 0)
		o->may_block = S_ISFIFO(stb.st_mode) || S_ISCHR(stb.st_mode) || S_ISSOCK(stb.st_mode);
	return 0;
}

/*
 * A reader that stops reading must not make watchq deaf to SIGTERM (blocked
 * for the signalfd): before each chunk of at most PIPE_BUF bytes, which a pipe
 * with room takes whole, wait for room or a signal in the loop module.
 */
static int
write_all(struct output *o, const char *p, size_t n)
{
	ssize_t w;
	size_t chunk;
	int r;

	while (n > 0) {
		chunk = n;
		if (o->may_block) {
			if ((r = loop_wait_output(o->fd, o->sigfd)) != 0)
				return r;
			if (chunk > PIPE_BUF)
				chunk = PIPE_BUF;
		}
		w = write(o->fd, p, chunk);
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
	if (o->cfg->null && o->line.len > 0)	/* -0: every writer ends its record with one newline */
		o->line.data[o->line.len - 1] = '\0';
	switch (write_all(o, o->line.data, o->line.len)) {
	case 0:
		return 0;
	case 1:
		return 1;
	default:
		return errno == EPIPE ? 1 : -1;
	}
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
