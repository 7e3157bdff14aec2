#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "cli.h"
#include "compat.h"
#include "escape.h"
#include "filter.h"
#include "loop.h"
#include "output.h"
#include "source.h"
#include "wait.h"

/* The state of one run: what the sink does with each event, and how the run ends. */
struct run {
	struct sink sink;	/* first: the sink is the run */
	const struct config *cfg;
	struct output out;
	struct source src[EV__NTYPES];	/* those in use, in the order of source_kinds */
	size_t nsrc;
	long long emitted;
	int status;		/* exit code once decided, -1 while running */
	bool silent;		/* state waits print no events */
};

static void
run_emit(struct sink *sink, struct event *ev)
{
	struct run *r = (struct run *)sink;

	if (r->status >= 0 || !filter_match(&r->cfg->filter, ev))
		return;
	clock_gettime(CLOCK_REALTIME, &ev->time);
	if (!r->silent) {
		switch (output_event(&r->out, ev)) {
		case 1:
			r->status = EXIT_OK;
			return;
		case -1:
			warn("write%s%s", r->cfg->output ? " " : "", r->cfg->output ? escape_arg(r->cfg->output) : "");
			r->status = EXIT_ERROR;
			return;
		}
	}
	if (ev->type == EV_META)
		return;
	if (r->cfg->count > 0 && ++r->emitted >= r->cfg->count)
		r->status = EXIT_OK;
}

static int
run_after(void *p)
{
	struct run *r = p;
	const struct config *cfg = r->cfg;
	size_t i, live = 0, watched = 0;

	if (r->status >= 0)
		return r->status;
	if (cfg->nconds > 0) {
		switch (wait_check(cfg, r->src, r->nsrc)) {
		case WAIT_MET:
			return EXIT_OK;
		case WAIT_GONE:
			return EXIT_REMOVED;
		case WAIT_PENDING:
			break;
		}
	}
	for (i = 0; i < r->nsrc; i++)
		live += source_live(&r->src[i]);
	for (i = 0; i < cfg->nwatches; i++)
		watched += !cfg->watches[i].internal;
	if (watched > 0 && live == 0)
		return EXIT_REMOVED;
	return -1;
}

/* The readiness line: every watch, by source, with the backend that serves it. */
static void
announce(const struct config *cfg, const struct run *r)
{
	struct buf b = { 0 };
	size_t i, k;

	if (cfg->no_readiness)
		return;
	if (cfg->nconds > 0) {
		buf_adds(&b, "waiting for");
		for (i = 0; i < cfg->nconds; i++) {
			buf_addf(&b, " %s ", cli_cond_option(cfg->conds[i].kind));
			escape_text(&b, cfg->conds[i].arg);
		}
		buf_addf(&b, " (backend %s)", source_backend_name(&r->src[0]));
	} else {
		buf_adds(&b, "watching");
		for (k = 0; k < r->nsrc; k++) {
			const struct source *s = &r->src[k];

			buf_addf(&b, "%s %s", k ? "," : "", source_word(s->be->type));
			for (i = 0; i < s->nwatches; i++) {
				if (s->watches[i].w->internal)
					continue;
				buf_addc(&b, ' ');
				escape_text(&b, s->watches[i].w->target);
			}
			buf_addf(&b, " (backend %s)", source_backend_name(s));
		}
	}
	warnx("%s", b.data);
	buf_free(&b);
}

/* Open the source of each kind of watch; exits with the right status on failure. */
static void
open_sources(struct run *r)
{
	const struct config *cfg = r->cfg;
	const struct source_kind *k;

	/* Mounts and filesystems are all found through /proc/self/mountinfo. */
	if ((cfg->sources & (1u << EV_MOUNT | 1u << EV_SB)) && access(PATH_MOUNTINFO, R_OK) < 0)
		err(EXIT_ERROR, "%s (is /proc mounted?)", PATH_MOUNTINFO);
	for (k = source_kinds; k->word; k++)
		if (cfg->sources & (1u << k->type))
			source_open(&r->src[r->nsrc++], k->type, cfg, &r->sink);
}

/*
 * A closed standard fd would be reused by the next open(2), and messages or
 * events would land in a kernel fd or the output file: give each /dev/null.
 * Events need a real stdout, though.
 */
static bool
std_fds(void)
{
	bool out_ok = fcntl(STDOUT_FILENO, F_GETFD) >= 0;
	int fd;

	for (fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) < 0 && open("/dev/null", O_RDWR) != fd)
			exit(EXIT_ERROR);
	return out_ok;
}

int
main(int argc, char **argv)
{
	struct config cfg;
	struct run run = { .sink = { run_emit }, .status = -1 };
	struct loop loop = { .out_fd = -1 };
	struct stat stb;
	size_t i;
	int code;

	bool out_ok = std_fds();

	cli_parse(&cfg, argc, argv);
	if (!out_ok && cfg.output == NULL && !(cfg.nconds > 0))
		errx(EXIT_ERROR, "standard output is closed (use -o FILE)");
	run.cfg = &cfg;
	run.silent = cfg.nconds > 0;
	if ((loop.sigfd = loop_signals()) < 0)
		err(EXIT_ERROR, "signalfd");
	if ((loop.has_deadline = cfg.has_timeout))
		loop.deadline = loop_deadline(cfg.timeout);
	if (output_open(&run.out, &cfg, loop.sigfd) < 0)
		err(EXIT_ERROR, "%s", escape_arg(cfg.output));
	if (fstat(run.out.fd, &stb) == 0 && S_ISFIFO(stb.st_mode))
		loop.out_fd = run.out.fd;
	open_sources(&run);
	announce(&cfg, &run);
	for (i = 0; i < run.nsrc; i++) {
		if (cfg.initial && run.src[i].be->ops->present)
			run.src[i].be->ops->present(&run.src[i]);
		loop.src[loop.nsrc++] = &run.src[i];
	}
	loop.after = run_after;
	loop.ctx = &run;
	code = run_after(&run);
	if (code < 0)
		code = loop_run(&loop);
	for (i = 0; i < run.nsrc; i++)
		source_close(&run.src[i]);
	if (output_close(&run.out) < 0 && code == EXIT_OK) {
		warn("%s", escape_arg(cfg.output));
		code = EXIT_ERROR;
	}
	cli_free(&cfg);
	close(loop.sigfd);
	return code;
}
