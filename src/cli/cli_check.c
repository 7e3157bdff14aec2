#include <err.h>
#include <stdlib.h>
#include <string.h>

#include "cli_check.h"
#include "cli_options.h"
#include "cli_watch.h"
#include "escape.h"
#include "exit.h"
#include "filter.h"
#include "output_format.h"
#include "path.h"
#include "source.h"
#include "srcmatch.h"
#include "wait.h"

/* A state wait's SOURCE: mounts DIR..., where --mounted and --unmounted look. */
static void
cli_check_scope(const struct config *cfg, char **args, size_t nargs)
{
	const struct event_source *k;
	size_t i;

	if (!wait_by_source(cfg))
		errx(EXIT_USAGE,
		    "state conditions take no SOURCE: '%s' (mounts DIR... is where --mounted and "
		    "--unmounted look)",
		    escape_arg(args[0]));
	for (i = 0; i < nargs; i++)
		if ((k = source_find(args[i])) != NULL && k->type != EV_MOUNT)
			errx(EXIT_USAGE,
			    "--mounted and --unmounted look in mounts DIR...: %s does not apply",
			    k->word);
}

/*
 * A state wait ends at its conditions, and prints nothing but the mount --mounted found: output
 * options apply only to that, and counting to nothing.
 */
static void
cli_check_wait_output(const struct config *cfg, const struct cli_state *cs)
{
	if (cfg->mode != MODE_WAIT_STATE)
		return;
	if (!wait_prints(cfg) &&
	    (cfg->count > 0 || cfg->format_kind != OUT_TEXT || cfg->timestamps || cfg->null ||
		cfg->output_path || cs->journal))
		errx(EXIT_USAGE,
		    "state conditions print nothing and end when they hold: -n, --json, --format, "
		    "--keyctl, --journal, -T, -0 and -o do not apply (wait -e EVENT prints what it "
		    "waited for, --mounted the mount it found)");
	if (cfg->count > 0)
		errx(EXIT_USAGE,
		    "state conditions end when they hold: -n does not apply");
}

void
cli_check_wait(struct config *cfg, const struct cli_state *cs, bool wait, char **args)
{
	if (!wait && cfg->nconds > 0)
		errx(EXIT_USAGE, "%s is a wait condition: use watchq wait %s",
		    wait_kinds[cfg->conds[0].kind].option, wait_kinds[cfg->conds[0].kind].option);
	if (!wait && cs->keyring)
		errx(EXIT_USAGE, "--keyring goes with wait --key or --no-key");
	if (wait) {
		cfg->mode = cfg->nconds > 0 ? MODE_WAIT_STATE : MODE_WAIT_EVENT;
		if (cfg->initial)
			errx(EXIT_USAGE, "wait and --initial cannot be combined");
		if (cs->monitor)
			errx(EXIT_USAGE, "wait ends at its condition: -m/--monitor does not apply");
		if (cs->ninclude > 0 && cfg->mode == MODE_WAIT_STATE)
			errx(EXIT_USAGE, "wait -e cannot be combined with state conditions (%s)",
			    wait_options());
		if (cs->ninclude == 0 && cfg->mode == MODE_WAIT_EVENT)
			errx(EXIT_USAGE, "wait needs a condition: %s or -e EVENT", wait_options());
		if (cfg->mode == MODE_WAIT_STATE && cs->nargs > 0)
			cli_check_scope(cfg, args, cs->nargs);
		cli_check_wait_output(cfg, cs);
		if (cs->ninclude > 0 && cs->nargs == 0)
			errx(EXIT_USAGE,
			    "wait -e needs a SOURCE, e.g. watchq wait -e unmount mounts /mnt");
		if (cfg->mode == MODE_WAIT_EVENT && cfg->count == 0)
			cfg->count = 1;
		cli_watch_conditions(cfg, cs->keyring);
	}
}

void
cli_check_list(struct config *cfg, const struct cli_state *cs)
{
	if (cfg->has_timeout || cfg->count > 0 || cs->monitor || cs->ninclude > 0 ||
	    cs->nexclude > 0 || cfg->has_space)
		errx(EXIT_USAGE,
		    "list prints the present state whole and exits: -t, -n, -m, -e, -E and "
		    "--space-below do not apply");
	if (cs->nargs == 0)
		errx(EXIT_USAGE, "list needs a SOURCE, e.g. watchq list mounts /");
	cfg->mode = MODE_LIST;
	cfg->initial = true;
}

void
cli_check_applies(const struct config *cfg)
{
	if (cfg->ns_all && (cfg->mode == MODE_WAIT_STATE || cfg->mode == MODE_LIST))
		errx(EXIT_USAGE,
		    "-N all follows namespaces as they appear: it goes with a monitor and wait -e");
	if (cfg->ns_all && !(cfg->sources & (1u << EV_MOUNT)))
		errx(EXIT_USAGE, "-N applies to mounts (and to wait's mount conditions)");
	if (cfg->ns_all && (cfg->sources & (1u << EV_SB)))
		errx(EXIT_USAGE,
		    "-N applies to mounts, not to sb: sb paths are looked up in our own mount "
		    "namespace");
	if (cfg->nns > 0 && !(cfg->sources & (1u << EV_MOUNT)))
		errx(EXIT_USAGE, "-N applies to mounts (and to wait's mount conditions)");
	if (cfg->nns > 0 && (cfg->sources & (1u << EV_SB)))
		errx(EXIT_USAGE,
		    "-N applies to mounts, not to sb: sb paths are looked up in our own mount "
		    "namespace");
	if (cfg->timestamps && cfg->format_kind == OUT_KEYCTL)
		errx(EXIT_USAGE, "-T applies to text output: keyctl watch's lines (--keyctl) have "
		    "no time");
	if (cfg->timestamps && cfg->format_kind != OUT_TEXT)
		errx(EXIT_USAGE,
		    "-T applies to text output: use %%T in --format; JSON has a time field");
	if (cfg->timefmt && !cfg->timestamps &&
	    !(cfg->format_kind == OUT_FORMAT && output_format_uses(cfg->format, 'T')))
		errx(EXIT_USAGE, "--timefmt applies to -T and to %%T in --format");
}

void
cli_check_keyctl(const struct config *cfg)
{
	if (cfg->format_kind != OUT_KEYCTL)
		return;
	if (cfg->sources & ~(1u << EV_KEY))
		errx(EXIT_USAGE, "--keyctl prints keyctl watch's lines, which have no words for "
		    "mounts or sb: watch keys alone");
	if (cfg->initial)
		errx(EXIT_USAGE, "--keyctl: keyctl watch has no line for a key's present state "
		    "(--initial); watchq list keys prints it");
}

void
cli_check_backend(const struct config *cfg)
{
	const struct event_source *k, *first = NULL;
	bool served = false;

	if (cfg->backend == NULL)
		return;
	for (k = event_sources; k->type != EV_META; k++) {
		if (!(cfg->sources & (1u << k->type)))
			continue;
		if (first == NULL)
			first = k;
		if (source_backend_serves(cfg->backend, k->type)) {
			served = true;
			continue;
		}
		if (strcmp(cli_options_backends(k), "auto") != 0)
			errx(EXIT_USAGE, "--backend=%s does not serve %s (%s)", cfg->backend->name,
			    k->word, cli_options_backends(k));
	}
	if (!served && first)
		errx(EXIT_USAGE, "--backend=%s does not serve %s (it has one backend)",
		    cfg->backend->name, first->word);
}

void
cli_check_source(struct config *cfg)
{
	char *dev;
	dev_t devno;

	switch (srcmatch_kind(cfg->source_dev, &devno)) {
	case -1:
		errx(EXIT_USAGE, "--source: '%s' needs a value after the '='",
		    escape_arg(cfg->source_dev));
	case SRCMATCH_TAG:
		if ((dev = srcmatch_resolve(cfg->source_dev)) == NULL && !cfg->quiet)
			warnx("--source %s: no such device now; "
			    "its mounts are reported once it appears",
			    escape_arg(cfg->source_dev));
		free(dev);
		break;
	case SRCMATCH_SOURCE:
		cfg->source_real = path_canon(cfg->source_dev);
		break;
	}
}

void
cli_check_events(const struct config *cfg, const struct cli_state *cs)
{
	/* A transient record says what could not be seen; it is never a change that ends a wait. */
	if (cfg->mode == MODE_WAIT_EVENT &&
	    evset_has_event(&cfg->events, EV_MOUNT, MOUNT_TRANSIENT))
		errx(EXIT_USAGE,
		    "wait -e transient: transient mounts came and went unseen "
		    "and never end a wait");
	if (cfg->mode == MODE_WAIT_EVENT && !evset_has_type(&cfg->events, EV_MOUNT) &&
	    !evset_has_type(&cfg->events, EV_KEY) && !evset_has_type(&cfg->events, EV_SB))
		errx(EXIT_USAGE,
		    "wait -e: loss and removal never end a wait with 0; "
		    "name an event of the source");
	if (cs->ninclude > 0 && evset_has_event(&cfg->events, EV_SB, SB_LOWSPACE) &&
	    !cfg->has_space)
		errx(EXIT_USAGE, "lowspace needs --space-below=PERCENT%%|SIZE");
}

void
cli_check_notes(const struct config *cfg)
{
	const char *trap;

	if (cfg->quiet)
		return;
	if (cfg->optlist && (trap = filter_options_trap(cfg->optlist)) != NULL)
		warnx("--options %s: as findmnt -O, keeps mounts with no option '%s' "
		    "(mountinfo writes %s, not %s); +%s keeps mounts with %s",
		    trap, trap + 2, trap, trap + 2, trap, trap);
	if (cfg->format_kind == OUT_FORMAT && output_format_inotify_path(cfg->format))
		warnx("--format: %%w%%f is inotifywait's path of a file; here %%w is the watch as "
		    "given and %%f the filesystem type, the path is %%p");
}
