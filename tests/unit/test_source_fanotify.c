/*
 * What the fanotify mount source opens, by the run (src/sources/source_fanotify.c, included):
 * the mountinfo signal only where an event it alone tells of is wanted, or a wait for a flip;
 * the capture only where the output names processes, or flips are wanted from more mounts than
 * a re-scan reads at once; never with --no-bpf, -N, list or a state wait; statx(2) alone for a
 * state wait on mount points.
 */
#include "../../src/sources/source_fanotify.c"

#include "unit.h"

/* cfg reports the events of the comma list names (mount ones). */
static void
events(struct config *cfg, const char *names)
{
	struct evset s = { 0 };
	char list[128], *w, *save;

	snprintf(list, sizeof(list), "%s", names);
	for (w = strtok_r(list, ",", &save); w; w = strtok_r(NULL, ",", &save))
		evset_apply_name(&s, w, 1u << EV_MOUNT, false);
	memset(&cfg->filter, 0, sizeof(cfg->filter));
	filter_compile(&cfg->filter, &s);
}

int
main(void)
{
	static const struct {
		const char *names;
		bool attrs;
	} signal_for[] = {
		{ "mount,unmount,move", false },
		{ "readonly", true },
		{ "writable", true },
		{ "setattr", true },
		{ "propagation", true },
		{ "mount,writable", true },
	};
	struct config cfg = { .mode = MODE_MONITOR };
	struct fan f = { 0 };
	struct mntns ns = { 0 };
	struct source src = { .cfg = &cfg, .priv = &f };
	size_t i;

	for (i = 0; i < sizeof(signal_for) / sizeof(signal_for[0]); i++) {
		events(&cfg, signal_for[i].names);
		CHECK(fan_wants_attrs(&cfg) == signal_for[i].attrs, "-e %s: the signal %s",
		    signal_for[i].names, signal_for[i].attrs ? "wanted" : "not wanted");
	}

	/* Conditions: a flip needs the signal; mount points alone need no table at all. */
	cfg.mode = MODE_WAIT_STATE;
	cfg.conds[0].kind = COND_MOUNT;
	cfg.conds[1].kind = COND_UNMOUNT;
	cfg.nconds = 2;
	CHECK(!waits_for_flip(&cfg) && fan_waits_for_paths(&src), "--mount and --unmount: statx");
	cfg.conds[2].kind = COND_READONLY;
	cfg.nconds = 3;
	CHECK(waits_for_flip(&cfg) && !fan_waits_for_paths(&src), "--readonly: the signal");
	cfg.nconds = 2;
	src.nwatches = 1;
	CHECK(!fan_waits_for_paths(&src), "a mounts watch beside them: the table");
	src.nwatches = 0;

	/* The capture: where the output names processes, in a monitor or an event wait. */
	events(&cfg, "mount");
	cfg.mode = MODE_MONITOR;
	cfg.show_who = true;
	CHECK(fan_wants_capture(&src), "a monitor that names processes");
	cfg.mode = MODE_WAIT_EVENT;
	CHECK(fan_wants_capture(&src), "wait -e that names processes");
	cfg.mode = MODE_WAIT_STATE;
	CHECK(!fan_wants_capture(&src), "not a state wait");
	cfg.mode = MODE_LIST;
	CHECK(!fan_wants_capture(&src), "not list");
	cfg.mode = MODE_MONITOR;
	cfg.no_bpf = true;
	CHECK(!fan_wants_capture(&src), "not with --no-bpf");
	cfg.no_bpf = false;
	src.ns = &ns;
	CHECK(!fan_wants_capture(&src), "not with -N: its pids and paths are ours");
	src.ns = NULL;
	/* Naming nobody: only for flips from more mounts than a re-scan reads at once. */
	cfg.show_who = false;
	f.want_attrs = true;
	f.rs.scan_cost = RESCAN_PROMPT_MAX;
	CHECK(!fan_wants_capture(&src), "flips of a small table: a re-scan reads them");
	f.rs.scan_cost = RESCAN_PROMPT_MAX + 1;
	CHECK(fan_wants_capture(&src), "flips of a large table: the capture reads the mount");
	f.want_attrs = false;
	CHECK(!fan_wants_capture(&src), "no flips, nobody named: no capture");

	/* Without the capture, never sure that the records tell every change. */
	CHECK(!fan_sure(&f), "no capture: not sure");
	return unit_done("test_source_fanotify");
}
