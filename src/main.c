#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <systemd/sd-daemon.h>

#include "buf.h"
#include "cli.h"
#include "debug.h"
#include "cli_watch.h"
#include "compat.h"
#include "escape.h"
#include "exit.h"
#include "filter.h"
#include "ioloop.h"
#include "loop.h"
#include "nsall.h"
#include "output.h"
#include "output_journal.h"
#include "removal.h"
#include "source.h"
#include "sourceset.h"
#include "stop.h"
#include "wait.h"
#include "xalloc.h"

/* The state of one run: what the sink does with each event, and how the run ends. */
struct run {
	struct sink sink;	/* first member, so that a struct sink * is the struct run * */
	const struct config *cfg;
	struct output out;
	/* Those in use, in the order of event_sources: mounts once per -N namespace */
	struct source src[EV__NTYPES + MNTNS_MAX];
	/* -N: the namespaces, which their sources follow and change */
	struct mntns ns[MNTNS_MAX];
	size_t nsrc;
	struct nsall all;	/* -N all: its namespaces and their mounts sources */
	/* Every source polled: those of src, and -N all's, which it adds and removes */
	struct sourceset set;
	unsigned long set_gen;	/* set->gen as the watches were last followed for removal */
	bool watching;		/* the loop runs */
	struct removal gone;	/* wakes when a watched path may have gone */
	long long emitted;
	bool listed[WATCHQ_MAX_WATCHES];	/* list: by tag, a present record was written */
	int status;		/* exit code once decided, -1 while running */
	bool silent;		/* state waits and -qq print no events */
};

/*
 * Whether the run prints ev: a state wait only what met a condition that prints it (present
 * records); an event wait not the ns_new and ns_gone records of -N all, which say nothing of its
 * answer (a script takes the line it prints for that answer).
 */
static bool
run_prints(const struct run *r, const struct event *ev)
{
	if (r->silent)
		return false;
	if (r->cfg->mode == MODE_WAIT_STATE)
		return event_is_present(ev);
	return r->cfg->mode != MODE_WAIT_EVENT || ev->type != EV_META ||
	    (ev->subtype != META_NS_NEW && ev->subtype != META_NS_GONE);
}

static void
run_emit(struct sink *sink, struct event *ev)
{
	struct run *r = (struct run *)sink;

	if (r->status >= 0 || !filter_match(&r->cfg->filter, ev) ||
	    !filter_paths_match(&r->cfg->paths, ev))
		return;
	clock_gettime(CLOCK_REALTIME, &ev->time);
	if (run_prints(r, ev)) {
		int w = output_event(&r->out, ev);

		if (w < 0) {
			if (r->cfg->format_kind == OUT_JOURNAL)
				warn("journald (%s)", output_journal_socket);
			else
				warn("write%s%s", r->cfg->output_path ? " " : "",
				    r->cfg->output_path ? escape_arg(r->cfg->output_path) : "");
			r->status = EXIT_ERROR;
			return;
		}
		if (w > 0) {
			/* The reader went away, or the run ended while waiting for it */
			r->status = w;
			return;
		}
	}
	if (event_is_present(ev) && ev->tag >= 0 && ev->tag < WATCHQ_MAX_WATCHES)
		r->listed[ev->tag] = true;
	/*
	 * A state wait's own watches only wake it: their events count towards nothing; nor
	 * does the state at the start.
	 */
	if (event_is_summary(ev) || event_is_present(ev) || r->cfg->mode == MODE_WAIT_STATE)
		return;
	if (r->cfg->count > 0 && ++r->emitted >= r->cfg->count)
		r->status = EXIT_OK;
}

/*
 * The conditions hold: print what met those that print it, whole, and exit 0; or, where a tag
 * probed again no longer matches, go on waiting.
 */
static int
run_met(struct run *r)
{
	bool shown;

	output_whole(&r->out, true);
	shown = wait_show(r->cfg, r->src, r->nsrc);
	output_whole(&r->out, false);
	if (r->status >= 0)
		return r->status;
	return shown ? EXIT_OK : -1;
}

/*
 * Follow the paths of every live watch (those a wait condition added too) for
 * their removal, then ask their sources to look: a path gone before the
 * re-arm is found by the look, one gone after it wakes the loop again.
 */
static void
run_look_for_removals(struct run *r)
{
	const char **paths;
	size_t i, n = 0;

	for (i = 0; i < r->set.n; i++)
		n += r->set.v[i]->nwatches;
	paths = xcalloc(n + 1, sizeof(*paths));
	for (i = n = 0; i < r->set.n; i++)
		n += source_removal_paths(r->set.v[i], paths + n);
	removal_arm(&r->gone, paths, n);
	free(paths);
	for (i = 0; i < r->set.n; i++)
		source_look_again(r->set.v[i]);
}

static void
run_on_removal(void *p)
{
	struct run *r = p;

	if (removal_drain(&r->gone))
		run_look_for_removals(r);
}

/* Where sources came or went (-N all's), every live watch is followed for removal again. */
static void
run_take_sources(struct run *r)
{
	if (!r->watching || r->set_gen == r->set.gen)
		return;
	r->set_gen = r->set.gen;
	run_look_for_removals(r);
}

static int
run_after(void *p)
{
	struct run *r = p;
	const struct config *cfg = r->cfg;
	size_t i, live = 0, watched = 0;

	if (r->status >= 0)
		return r->status;
	if (cfg->mode == MODE_WAIT_STATE) {
		switch (wait_check(cfg, r->src, r->nsrc)) {
		case WAIT_MET:
			return run_met(r);
		case WAIT_GONE:
			return EXIT_REMOVED;
		case WAIT_PENDING:
			break;
		}
	}
	if (cfg->ns_all) {
		if (nsall_after(&r->all) < 0) {
			warn("fanotify");
			return EXIT_ERROR;
		}
		run_take_sources(r);
		return -1;
	}
	for (i = 0; i < r->nsrc; i++)
		live += source_live(&r->src[i]);
	for (i = 0; i < cfg->nwatches; i++)
		watched += !cfg->watches[i].internal;
	if (watched > 0 && live == 0)
		return EXIT_REMOVED;
	return -1;
}

/* " in mnt:[4026532841] of pid 1234": a -N namespace on the readiness line, after sep. */
static void
run_name_ns(struct buf *b, const struct mntns *ns, const char *sep)
{
	buf_addf(b, "%s mnt:[%llu] of pid %d", sep, (unsigned long long)ns->ino, (int)ns->pid);
}

/* "mounts /data in every mount namespace (3 now) (backend fanotify)": -N all's part; the capture
 * of the namespace calls, where loaded, is named there. */
static void
run_name_all(struct buf *b, const struct config *cfg, const struct nsall *a, bool after)
{
	const char *be = nsall_backend_name(a);
	size_t i;

	buf_addf(b, "%s %s", after ? "," : "", source_word(EV_MOUNT));
	for (i = 0; i < cfg->nwatches; i++) {
		if (cfg->watches[i].type != EV_MOUNT)
			continue;
		buf_addc(b, ' ');
		escape_text(b, cfg->watches[i].target);
	}
	buf_addf(b, " in every mount namespace (%zu now%s) (backend %s)", a->n,
	    a->cap ? ", new ones seen at their calls" : "", be ? be : "-");
}

/*
 * One message to the service manager, where NOTIFY_SOCKET names one (sd_notify(3)); a failure is
 * said, not fatal.
 */
static void
run_notify(const char *state)
{
	int r = sd_notify(0, state);

	if (r < 0)
		warnx("NOTIFY_SOCKET %s: %s", escape_arg(getenv("NOTIFY_SOCKET")), strerror(-r));
}

/*
 * " at or below /media /mnt": the mounts TARGETs a state wait looks in, each once (-N copies
 * share its tag); none for the default, /.
 */
static void
run_name_scope(struct buf *b, const struct config *cfg)
{
	const struct watch *w;
	size_t i, k = 0;

	for (i = 0; i < cfg->nwatches; i++) {
		w = &cfg->watches[i];
		if (w->type != EV_MOUNT || w->internal || (i > 0 && w->tag == w[-1].tag))
			continue;
		buf_adds(b, k++ ? " " : " at or below ");
		escape_text(b, w->target);
	}
}

/*
 * The readiness line: every watch, by source, with the backend that serves it (and the namespace of
 * each -N). A monitor also tells the service manager that it is ready, the line as its status.
 */
static void
run_announce(const struct config *cfg, const struct run *r)
{
	static const char ready[] = "READY=1\nSTATUS=";
	struct buf b = { 0 };
	size_t i, k;

	buf_adds(&b, ready);
	if (cfg->mode == MODE_WAIT_STATE) {
		buf_adds(&b, "waiting for");
		for (i = 0; i < cfg->nconds; i++) {
			buf_addf(&b, " %s ", wait_kinds[cfg->conds[i].kind].option);
			escape_text(&b, cfg->conds[i].arg);
		}
		run_name_scope(&b, cfg);
		for (i = 0, k = 0; i < r->nsrc; i++)
			if (r->src[i].ns)
				run_name_ns(&b, r->src[i].ns, k++ == 0 ? " in" : ",");
		buf_addf(&b, " (backend %s)", source_backend_name(&r->src[0]));
	} else {
		buf_adds(&b, "watching");
		for (k = 0; k < r->nsrc; k++) {
			const struct source *s = &r->src[k];

			buf_addf(&b, "%s %s", k ? "," : "", source_word(s->backend->type));
			for (i = 0; i < s->nwatches; i++) {
				if (s->watches[i].w->internal)
					continue;
				buf_addc(&b, ' ');
				escape_text(&b, s->watches[i].w->target);
			}
			if (s->ns)
				run_name_ns(&b, s->ns, " in");
			buf_addf(&b, " (backend %s)", source_backend_name(s));
		}
		if (cfg->ns_all)
			run_name_all(&b, cfg, &r->all, r->nsrc > 0);
	}
	if (!cfg->quiet)
		warnx("%s", b.data + sizeof(ready) - 1);
	if (cfg->mode == MODE_MONITOR)
		run_notify(b.data);
	buf_free(&b);
}

/* Open the source of each kind of watch; exits with the right status on failure. */
static void
run_open_sources(struct run *r)
{
	const struct config *cfg = r->cfg;
	const struct event_source *k;
	size_t i;

	/* Mounts and filesystems are all found through /proc/self/mountinfo. */
	if ((cfg->sources & (1u << EV_MOUNT | 1u << EV_SB)) && access(PATH_MOUNTINFO, R_OK) < 0)
		err(EXIT_ERROR, "%s (is /proc mounted?)", PATH_MOUNTINFO);
	for (k = event_sources; k->type != EV_META; k++) {
		if (!(cfg->sources & (1u << k->type)))
			continue;
		if (k->type == EV_MOUNT && cfg->ns_all) {
			if (nsall_open(&r->all, cfg, &r->sink, &r->set) < 0)
				err(EXIT_ERROR, "-N all: timerfd");
			continue;
		}
		for (i = 0; i < (k->type == EV_MOUNT && cfg->nns > 0 ? cfg->nns : 1); i++) {
			source_open(&r->src[r->nsrc], k->type, k->type == EV_MOUNT && cfg->nns > 0 ?
			    &r->ns[i] : NULL, cfg, &r->sink);
			sourceset_add(&r->set, &r->src[r->nsrc++]);
		}
	}
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

static void
run_on_tick(void *p)
{
	struct run *r = p;

	nsall_tick(&r->all);
	run_take_sources(r);
}

/* Watch until the run ends; return its exit code. */
static int
run_watch(struct run *r, const struct stop *stop)
{
	const struct config *cfg = r->cfg;
	struct loop loop = { .stop = stop, .out_fd = -1, .removal_fd = -1, .tick_fd = -1 };
	struct stat stb;
	size_t i;
	int code;

	if (fstat(r->out.fd, &stb) == 0 && S_ISFIFO(stb.st_mode))
		loop.out_fd = r->out.fd;
	/* Before the sources: each adds its fds there as the set takes it. */
	if ((loop.io = r->set.loop = ioloop_new()) == NULL)
		err(EXIT_ERROR, "epoll");
	run_open_sources(r);
	if (removal_open(&r->gone) < 0 && !cfg->quiet)
		fprintf(stderr,
		    "watchq: inotify: %s; a watched path removed is noticed at the next mount "
		    "change\n",
		    strerror(errno));
	run_announce(cfg, r);
	/* The deadline governs the wait for changes: the present records go out whole. */
	output_whole(&r->out, true);
	for (i = 0; i < r->nsrc; i++)
		if (cfg->initial)
			source_present(&r->src[i]);
	if (cfg->ns_all)
		nsall_announce(&r->all);
	output_whole(&r->out, false);
	r->watching = true;
	r->set_gen = r->set.gen - 1;
	run_take_sources(r);
	loop.removal_fd = r->gone.fd;
	loop.on_removal = run_on_removal;
	loop.tick_fd = cfg->ns_all ? r->all.fd : -1;
	loop.on_tick = run_on_tick;
	loop.after = run_after;
	loop.ctx = r;
	code = run_after(r);
	if (code < 0)
		code = loop_run(&loop);
	if (cfg->mode == MODE_MONITOR)
		run_notify("STOPPING=1");
	removal_close(&r->gone);
	nsall_close(&r->all);
	for (i = 0; i < r->nsrc; i++)
		source_close(&r->src[i]);
	sourceset_free(&r->set);
	ioloop_free(loop.io);
	r->set.loop = NULL;
	r->watching = false;
	return code;
}

/*
 * As findmnt exits 1 when it finds nothing: EXIT_NOTHING where a mounts DIR had no record, else 0.
 * Unfiltered, nothing means no mount at or below DIR, which is said once (not with -q).
 */
static int
run_list_found(const struct run *r)
{
	const struct config *cfg = r->cfg;
	const struct watch *w;
	bool filtered = cfg->fstypes || cfg->source_dev || cfg->optlist || cfg->paths.n > 0;
	int code = EXIT_OK;
	size_t i;

	for (i = 0; i < cfg->nwatches; i++) {
		w = &cfg->watches[i];
		/* The copies of a DIR in each -N namespace share its tag: one answer. */
		if (w->type != EV_MOUNT || w->internal || r->listed[w->tag] ||
		    (i > 0 && w[-1].tag == w->tag))
			continue;
		if (!cfg->quiet && !filtered && !cfg->list_target)
			warnx("%s: no mount at or below it (list --target mounts %s: the mount "
			    "that holds it)", escape_arg(w->target), escape_arg(w->target));
		code = EXIT_NOTHING;
	}
	return code;
}

/*
 * Print the present records of every source, whole: 0 (EXIT_NOTHING where a mounts DIR had none),
 * or the code of what cut them.
 */
static int
run_list(struct run *r)
{
	size_t i;

	run_open_sources(r);
	output_whole(&r->out, true);
	for (i = 0; i < r->nsrc; i++)
		source_present(&r->src[i]);
	for (i = 0; i < r->nsrc; i++)
		source_close(&r->src[i]);
	sourceset_free(&r->set);
	return r->status >= 0 ? r->status : run_list_found(r);
}

/*
 * A run ended by a signal, or by its reader going away, is a clean end for a
 * monitor. A wait was not answered, a list not written whole: it ends as if
 * killed by that signal (the shell sees 128 + its number), so that
 * `watchq wait ... && next` stops.
 */
static int
run_end_code(int code, bool wait)
{
	sigset_t set;
	int sig = code - EXIT_SIGNAL;

	if (code <= EXIT_SIGNAL)
		return code;
	if (!wait)
		return EXIT_OK;
	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	return code;
}

int
main(int argc, char **argv)
{
	struct config cfg;
	struct run run = { .sink = { run_emit }, .status = -1, .all = { .timerfd = -1, .fd = -1 } };
	struct stop stop;
	bool wait;
	size_t i;
	int code;

	bool out_ok = std_fds();

	/* From here on, a signal is read where the run can end cleanly. */
	if (stop_open(&stop) < 0)
		err(EXIT_ERROR, "signalfd");
	cli_parse(&cfg, run.ns, argc, argv);
	debug_init();
	run.silent = cfg.no_events || (cfg.mode == MODE_WAIT_STATE && !wait_prints(&cfg));
	if (!out_ok && cfg.output_path == NULL && !run.silent && cfg.format_kind != OUT_JOURNAL)
		errx(EXIT_ERROR, "standard output is closed (use -o FILE)");
	run.cfg = &cfg;
	wait = cfg.mode != MODE_MONITOR;
	if (cfg.has_timeout)
		stop_set_timeout(&stop, cfg.timeout);
	if ((code = output_open(&run.out, &cfg, &stop)) < 0)
		err(EXIT_ERROR, "%s", escape_arg(cfg.output_path));
	if (cfg.format_kind == OUT_JOURNAL && output_journal_check() < 0)
		err(EXIT_UNAVAILABLE, "--journal: no journald listens on %s",
		    output_journal_socket);
	if (code == 0)
		code = cfg.mode == MODE_LIST ? run_list(&run) : run_watch(&run, &stop);
	if (output_close(&run.out) < 0 && code == EXIT_OK) {
		warn("%s", escape_arg(cfg.output_path));
		code = EXIT_ERROR;
	}
	for (i = 0; i < cfg.nns; i++)
		mntns_close(&run.ns[i]);
	cli_free(&cfg);
	stop_close(&stop);
	return run_end_code(code, wait);
}
