#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "cli.h"
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
	struct source mounts;
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
			warn("write%s%s", r->cfg->output ? " " : "", r->cfg->output ? r->cfg->output : "");
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

	if (r->status >= 0)
		return r->status;
	if (cfg->nconds > 0) {
		switch (wait_check(cfg, r->mounts.table)) {
		case WAIT_MET:
			return EXIT_OK;
		case WAIT_GONE:
			return EXIT_REMOVED;
		case WAIT_PENDING:
			break;
		}
	}
	if (cfg->nwatches > 0 && r->mounts.nwatches == 0)
		return EXIT_REMOVED;
	return -1;
}

static void
announce(const struct config *cfg, const struct source *src)
{
	static const char *const cond_opt[] = {
		[COND_MOUNT] = "--mount", [COND_UNMOUNT] = "--unmount",
		[COND_READONLY] = "--readonly", [COND_WRITABLE] = "--writable",
	};
	struct buf b = { 0 };
	size_t i;

	if (cfg->quiet)
		return;
	if (cfg->nconds > 0) {
		buf_adds(&b, "waiting for");
		for (i = 0; i < cfg->nconds; i++) {
			buf_addf(&b, " %s ", cond_opt[cfg->conds[i].kind]);
			escape_text(&b, cfg->conds[i].arg);
		}
	} else {
		buf_adds(&b, "watching mounts");
		for (i = 0; i < cfg->nwatches; i++) {
			buf_addc(&b, ' ');
			escape_text(&b, cfg->watches[i].target);
		}
	}
	fprintf(stderr, "watchq: %s (backend %s)\n", b.data, src->ops->name);
	buf_free(&b);
}

int
main(int argc, char **argv)
{
	struct config cfg;
	struct run run = { .sink = { run_emit }, .status = -1 };
	struct loop loop = { .out_fd = -1 };
	struct stat stb;
	const char *why = NULL;
	int code;

	cli_parse(&cfg, argc, argv);
	run.cfg = &cfg;
	run.silent = cfg.nconds > 0;
	if ((loop.sigfd = loop_signals()) < 0)
		err(EXIT_ERROR, "signalfd");
	if ((loop.has_deadline = cfg.has_timeout))
		loop.deadline = loop_deadline(cfg.timeout);
	if (output_open(&run.out, &cfg, loop.sigfd) < 0)
		err(EXIT_ERROR, "%s", cfg.output);
	if (fstat(run.out.fd, &stb) == 0 && S_ISFIFO(stb.st_mode))
		loop.out_fd = run.out.fd;
	if (source_open_mounts(&run.mounts, &cfg, &run.sink, &why) < 0) {
		if (errno == ENOSYS)
			errx(EXIT_UNAVAILABLE, "%s", why);
		err(EXIT_ERROR, "%s", why);
	}
	announce(&cfg, &run.mounts);
	if (cfg.initial)
		run.mounts.ops->present(&run.mounts);
	loop.src[loop.nsrc++] = &run.mounts;
	loop.after = run_after;
	loop.ctx = &run;
	code = run_after(&run);
	if (code < 0)
		code = loop_run(&loop);
	run.mounts.ops->close(&run.mounts);
	if (output_close(&run.out) < 0 && code == EXIT_OK) {
		warn("%s", cfg.output);
		code = EXIT_ERROR;
	}
	cli_free(&cfg);
	close(loop.sigfd);
	return code;
}
