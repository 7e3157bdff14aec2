/*
 * The run's own rules (src/main.c), with main renamed: which records a run prints, when --count
 * ends it, what the readiness line names as a state wait's scope, and how an end by a signal
 * becomes an exit status.
 */
#define main watchq_main
int watchq_main(int argc, char **argv);
#include "../../src/main.c"
#undef main

#include "unit.h"

/* A run of mode, which passes every event, writing nothing (the sink's rules alone). */
static void
run_of(struct run *r, struct config *cfg, enum run_mode mode, long long count)
{
	struct evset all = { 0 };
	enum ev_type t;

	memset(cfg, 0, sizeof(*cfg));
	cfg->mode = mode;
	cfg->count = count;
	for (t = 0; t < EV__NTYPES; t++)
		evset_add_type(&all, t);
	filter_compile(&cfg->filter, &all);
	memset(r, 0, sizeof(*r));
	r->sink.emit = run_emit;
	r->cfg = cfg;
	r->status = -1;
	r->silent = true;
}

static struct event
ev_of(enum ev_type type, unsigned subtype)
{
	struct event ev = { .type = type, .subtype = subtype, .tag = 0 };

	return ev;
}

int
main(void)
{
	static const struct {
		const char *what;
		enum run_mode mode;
		enum ev_type type;
		unsigned subtype;
		bool prints;
	} prints[] = {
		{ "a monitor prints a mount", MODE_MONITOR, EV_MOUNT, MOUNT_MOUNT, true },
		{ "a monitor prints ns_new", MODE_MONITOR, EV_META, META_NS_NEW, true },
		{ "an event wait prints its answer", MODE_WAIT_EVENT, EV_MOUNT, MOUNT_MOUNT, true },
		{ "an event wait prints a loss", MODE_WAIT_EVENT, EV_META, META_LOSS, true },
		{ "an event wait prints a removal", MODE_WAIT_EVENT, EV_META, META_REMOVAL, true },
		{ "an event wait does not print ns_new", MODE_WAIT_EVENT, EV_META, META_NS_NEW,
		  false },
		{ "nor ns_gone", MODE_WAIT_EVENT, EV_META, META_NS_GONE, false },
		{ "a state wait prints what met it", MODE_WAIT_STATE, EV_MOUNT, MOUNT_PRESENT, true },
		{ "a state wait prints no change", MODE_WAIT_STATE, EV_MOUNT, MOUNT_MOUNT, false },
		{ "nor a loss", MODE_WAIT_STATE, EV_META, META_LOSS, false },
	};
	struct config cfg;
	struct run r;
	struct event ev;
	struct buf b = { 0 };
	size_t i;

	for (i = 0; i < sizeof(prints) / sizeof(prints[0]); i++) {
		run_of(&r, &cfg, prints[i].mode, 0);
		r.silent = false;
		ev = ev_of(prints[i].type, prints[i].subtype);
		CHECK(run_prints(&r, &ev) == prints[i].prints, "%s", prints[i].what);
		r.silent = true;
		CHECK(!run_prints(&r, &ev), "%s, silent: nothing", prints[i].what);
	}

	/* -n 2: the second event ends the run; present records and losses count for nothing. */
	run_of(&r, &cfg, MODE_MONITOR, 2);
	ev = ev_of(EV_MOUNT, MOUNT_PRESENT);
	r.sink.emit(&r.sink, &ev);
	ev = ev_of(EV_META, META_LOSS);
	r.sink.emit(&r.sink, &ev);
	ev = ev_of(EV_MOUNT, MOUNT_MOUNT);
	r.sink.emit(&r.sink, &ev);
	CHECK(r.status == -1 && r.emitted == 1, "one counted event: status %d", r.status);
	CHECK(r.listed[0], "a present record marks its tag listed");
	r.sink.emit(&r.sink, &ev);
	CHECK(r.status == EXIT_OK, "the second ends the run: status %d", r.status);
	r.sink.emit(&r.sink, &ev);
	CHECK(r.emitted == 2, "nothing counted once the run ended: %lld", r.emitted);
	/* A state wait's events only wake it. */
	run_of(&r, &cfg, MODE_WAIT_STATE, 1);
	ev = ev_of(EV_MOUNT, MOUNT_MOUNT);
	r.sink.emit(&r.sink, &ev);
	CHECK(r.status == -1, "a state wait counts no event");
	/* What -E left out does not count. */
	run_of(&r, &cfg, MODE_MONITOR, 1);
	memset(&cfg.filter, 0, sizeof(cfg.filter));
	r.sink.emit(&r.sink, &ev);
	CHECK(r.status == -1 && r.emitted == 0, "a filtered event counts for nothing");

	/* The scope of a state wait: each TARGET once (-N copies share a tag), none internal. */
	memset(&cfg, 0, sizeof(cfg));
	cfg.watches[0] = (struct watch){ .type = EV_MOUNT, .target = "/media", .tag = 0 };
	cfg.watches[1] = (struct watch){ .type = EV_MOUNT, .target = "/media", .tag = 0 };
	cfg.watches[2] = (struct watch){ .type = EV_MOUNT, .target = "/x", .tag = 1,
	    .internal = true };
	cfg.watches[3] = (struct watch){ .type = EV_SB, .target = "/srv", .tag = 2 };
	cfg.watches[4] = (struct watch){ .type = EV_MOUNT, .target = "/mnt dir", .tag = 3 };
	cfg.nwatches = 5;
	run_name_scope(&b, &cfg);
	CHECK_STR(b.data, " at or below /media /mnt\\x20dir");
	buf_free(&b);
	cfg.nwatches = 0;
	run_name_scope(&b, &cfg);
	CHECK(b.data == NULL || b.data[0] == '\0', "no TARGET: nothing (the default, /)");
	buf_free(&b);

	/* Codes below a signal's are the run's own; a monitor ended by a signal ended well. */
	CHECK(run_end_code(EXIT_TIMEOUT, true) == EXIT_TIMEOUT, "a timeout stays 2");
	CHECK(run_end_code(EXIT_REMOVED, false) == EXIT_REMOVED, "a removal stays 3");
	CHECK(run_end_code(EXIT_SIGNAL + SIGTERM, false) == EXIT_OK, "a monitor's SIGTERM: 0");
	CHECK(run_end_code(EXIT_SIGNAL + SIGPIPE, false) == EXIT_OK, "a monitor's reader gone: 0");
	return unit_done("test_main");
}
