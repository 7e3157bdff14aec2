#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output.h"
#include "output_format.h"
#include "output_json.h"
#include "output_keyctl.h"
#include "output_text.h"
#include "output_journal.h"

#define READER_RETRY_MS	10	/* how often a FIFO without a reader is tried again */

/*
 * open(2) of a FIFO blocks until a reader opens it, and the blocked signals cannot interrupt
 * it. So open it non-blocking, which fails with ENXIO while there is no reader, and try again
 * until a reader comes or the run ends. Nothing tells a process that has not opened the FIFO
 * that a reader came, hence the retries.
 */
static int
output_open_file(struct output *o, const char *path)
{
	int r;

	for (;;) {
		o->fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NONBLOCK, 0666);
		if (o->fd >= 0 || errno != ENXIO)
			return o->fd < 0 ? -1 : 0;
		if ((r = stop_wait(o->stop, -1, 0, READER_RETRY_MS)) != 0)
			return r;
	}
}

/* fd's pipe opened again, for writing, non-blocking, through /proc; -1 if that fails. */
static int
output_reopen_nonblock(int fd)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	return open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
}

int
output_open(struct output *o, const struct config *cfg, const struct stop *stop)
{
	struct stat stb;
	int r, fd;

	memset(o, 0, sizeof(*o));
	o->cfg = cfg;
	o->stop = stop;
	o->untimed = *stop;
	o->untimed.has_deadline = false;
	o->fd = cfg->format_kind == OUT_JOURNAL ? -1 : STDOUT_FILENO;
	if (cfg->output_path) {
		if ((r = output_open_file(o, cfg->output_path)) != 0)
			return r;
		o->own_fd = true;
	}
	if (fstat(o->fd, &stb) < 0)
		return 0;
	o->may_block = S_ISFIFO(stb.st_mode) || S_ISCHR(stb.st_mode) || S_ISSOCK(stb.st_mode);
	o->is_sock = S_ISSOCK(stb.st_mode);
	o->is_reg = S_ISREG(stb.st_mode) && o->own_fd;
	/*
	 * A pipe or FIFO we were given is opened again through /proc, for an open file of our
	 * own that does not block: a write is then tried first, with no poll before each
	 * record. O_NONBLOCK on the file we were given would change it for every process that
	 * shares it. A socket gets MSG_DONTWAIT on each send instead.
	 */
	if (S_ISFIFO(stb.st_mode) && !o->own_fd && (fd = output_reopen_nonblock(o->fd)) >= 0) {
		o->fd = fd;
		o->own_fd = true;
	}
	o->try_first = o->is_sock || (S_ISFIFO(stb.st_mode) && o->own_fd);
	return 0;
}

void
output_whole(struct output *o, bool whole)
{
	o->whole = whole;
}

/*
 * A reader that stops reading must not keep the run going past a signal (blocked, and read
 * from a signalfd) or, but for a listing written whole, past the deadline. So write in chunks
 * of at most PIPE_BUF bytes, which a pipe with room takes whole, and wait for room or for the
 * end of the run: before each chunk on a file that can block, or after EAGAIN on one that does
 * not.
 */
static int
output_write_all(struct output *o, const char *p, size_t n)
{
	const struct stop *stop = o->whole ? &o->untimed : o->stop;
	ssize_t w;
	size_t chunk;
	int r;

	while (n > 0) {
		chunk = n;
		if (o->may_block) {
			if (!o->try_first && (r = stop_wait(stop, o->fd, POLLOUT, -1)) != 0)
				return r;
			if (chunk > PIPE_BUF)
				chunk = PIPE_BUF;
		}
		w = o->is_sock ? send(o->fd, p, chunk, MSG_DONTWAIT) : write(o->fd, p, chunk);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN && o->may_block) {
				if (o->try_first &&
				    (r = stop_wait(stop, o->fd, POLLOUT, -1)) != 0)
					return r;
				continue;
			}
			if (errno == EPIPE)
				return EXIT_SIGNAL + SIGPIPE;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/*
 * A regular file opened by -o gets each record whole or not at all: a write that fails part way
 * (a full filesystem) is cut back to where the record began, so that every line in it is whole.
 */
static int
output_write_record(struct output *o)
{
	off_t start = o->is_reg ? lseek(o->fd, 0, SEEK_END) : -1;
	int r, e;

	if ((r = output_write_all(o, o->line.data, o->line.len)) < 0 && start >= 0) {
		e = errno;
		if (ftruncate(o->fd, start) == 0)
			errno = e;
	}
	return r;
}

int
output_event(struct output *o, const struct event *ev)
{
	enum output_end end = o->cfg->null ? OUTPUT_END_NUL : OUTPUT_END_NEWLINE;

	buf_reset(&o->line);
	switch (o->cfg->format_kind) {
	case OUT_JSON:
		output_json(&o->line, ev, end);
		break;
	case OUT_FORMAT:
		output_format(&o->line, o->cfg->format, o->cfg->timefmt, ev, end);
		break;
	case OUT_TEXT:
		output_text(&o->line, ev, o->cfg, end);
		break;
	case OUT_KEYCTL:
		output_keyctl(&o->line, ev, end);
		if (o->line.len == 0)
			return 0;
		break;
	case OUT_JOURNAL:
		buf_adds(&o->line, "MESSAGE=");
		output_text(&o->line, ev, o->cfg, OUTPUT_END_NONE);
		return output_journal_send(&o->line, ev);
	}
	return output_write_record(o);
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
