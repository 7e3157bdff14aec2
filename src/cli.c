#include <argp.h>
#include <ctype.h>
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "cli.h"
#include "cli_ns.h"
#include "cli_watch.h"
#include "escape.h"
#include "exit.h"
#include "number.h"
#include "output_format.h"
#include "path.h"
#include "source.h"
#include "srcmatch.h"
#include "wait.h"
#include "xalloc.h"

#ifndef WATCHQ_VERSION
#define WATCHQ_VERSION "0.0"
#endif

const char *argp_program_version = "watchq " WATCHQ_VERSION;
const char *argp_program_bug_address = NULL;

enum {
	OPT_FORMAT = 0x100,
	OPT_TIMEFMT,
	OPT_INITIAL,
	OPT_FSTYPE,
	OPT_SOURCE,
	OPT_BACKEND,
	OPT_INTERVAL,
	OPT_QUEUE_SIZE,
	OPT_NO_BPF,
	OPT_KEYRING,
	OPT_RECURSIVE,
	OPT_SPACE_BELOW,
	OPT_USAGE,
	OPT_JOURNAL,
	OPT_COND,	/* the wait conditions: OPT_COND + enum cond_kind */
};

/* After \v, cli_help_filter() puts the sentence on sources (from event_sources) first. */
static const char doc[] =
    "Watch kernel notifications: mount topology, superblock health, keys."
    "\v"
    "several sources may follow one another. Events of mounts: mount "
    "(new_mount), unmount (umount), move, move_from (moved_from), move_to "
    "(moved_to), readonly, setattr, remount (readonly and setattr), transient. "
    "Of keys: instantiated, updated, linked, unlinked, cleared, revoked, "
    "invalidated, setattr. Of sb: error, readonly, edquot, lowspace. --initial "
    "adds present to each. loss and removal are always delivered. Names ignore case.\n\n"
    "Exit status: 0 condition met, --count reached, list written whole or clean end; 1 runtime "
    "error; 2 --timeout expired; 3 a watched object went away; 64 usage "
    "error; 69 backend or source unavailable in this kernel; 128+N a wait "
    "ended by signal N (SIGPIPE: its reader went away).";

static const char args_doc[] =
    "SOURCE [TARGET...] [SOURCE [TARGET...]]...\n"
    "wait CONDITION... [SOURCE [TARGET...]]\n"
    "list SOURCE [TARGET...] [SOURCE [TARGET...]]...";

static const struct argp_option options[] = {
	{ NULL, 0, NULL, 0, "Events and output:", 1 },
	{ "event", 'e', "LIST", 0, "Report only these events (comma list, repeatable)", 1 },
	{ "exclude-event", 'E', "LIST", 0, "Do not report these events", 1 },
	{ "json", 'j', NULL, 0, "Print one JSON object per line", 1 },
	{ "format", OPT_FORMAT, "FMT", 0, "Print events with %-escapes (see watchq(1))", 1 },
	{ "timefmt", OPT_TIMEFMT, "FMT", 0, "strftime(3) format for %T and -T", 1 },
	{ "timestamps", 'T', NULL, 0, "Prefix each text line with the time", 1 },
	{ "output", 'o', "FILE", 0, "Append events to FILE instead of stdout", 1 },
	{ "journal", OPT_JOURNAL, NULL, 0,
	    "Send each event to the systemd journal, one entry with WATCHQ_* fields", 1 },
	{ "quiet", 'q', NULL, 0, "Nothing on stderr but errors; twice (-qq): no events either", 1 },
	{ "null", '0', NULL, 0, "End each record with a NUL byte instead of a newline", 1 },
	{ "monitor", 'm', NULL, 0, "Keep reporting events (the default; inotifywait's -m)", 1 },
	{ "initial", OPT_INITIAL, NULL, 0, "First report the current state as present records", 1 },
	{ NULL, 0, NULL, 0, "Ending:", 2 },
	{ "timeout", 't', "SECONDS", 0,
	    "Exit 2 when SECONDS (fractions allowed) have passed since start", 2 },
	{ "count", 'n', "N", 0, "Exit 0 after N events", 2 },
	{ NULL, 0, NULL, 0, "Filters:", 3 },
	{ "fstype", OPT_FSTYPE, "LIST", 0, "Only these filesystem types (noLIST: all but)", 3 },
	{ "source", OPT_SOURCE, "DEV", 0,
	    "Only mounts of this device or source "
	    "(LABEL=, UUID=, PARTUUID=, PARTLABEL=, MAJ:MIN too)", 3 },
	{ "ns", 'N', "PID|NSFILE", 0,
	    "mounts: watch this mount namespace instead of ours (repeatable)", 3 },
	{ "recursive", OPT_RECURSIVE, NULL, 0,
	    "keys: also watch keyrings linked below watched ones", 3 },
	{ "space-below", OPT_SPACE_BELOW, "PERCENT%|SIZE", 0,
	    "sb: report lowspace when less is available (polled every --interval)", 3 },
	{ NULL, 0, NULL, 0, "Backends:", 4 },
	{ "backend", OPT_BACKEND, "NAME", 0, "", 4 },	/* the names: cli_help_filter() */
	{ "interval", OPT_INTERVAL, "SECONDS", 0, "Period of polled backends (default 1)", 4 },
	{ "queue-size", OPT_QUEUE_SIZE, "N", 0,
	    "Kernel notification queue size, 1-512 (default 256)", 4 },
	{ "no-bpf", OPT_NO_BPF, NULL, 0,
	    "mounts: do not load the BPF capture that names the process behind each change", 4 },
	{ NULL, 0, NULL, 0, "Conditions for wait:", 5 },
	{ "mount", OPT_COND + COND_MOUNT, "PATH", 0, "Until PATH is a mount point", 5 },
	{ "unmount", OPT_COND + COND_UNMOUNT, "PATH", 0, "Until PATH is not a mount point", 5 },
	{ "readonly", OPT_COND + COND_READONLY, "PATH", 0,
	    "Until the mount holding PATH is read-only", 5 },
	{ "writable", OPT_COND + COND_WRITABLE, "PATH", 0,
	    "Until the mount holding PATH is writable", 5 },
	{ "key", OPT_COND + COND_KEY, "TYPE:DESC", 0,
	    "Until such a key is linked in the keyring", 5 },
	{ "keyring", OPT_KEYRING, "KEY", 0, "The keyring of --key and --no-key (default @s)", 5 },
	{ "no-key", OPT_COND + COND_NO_KEY, "TYPE:DESC", 0,
	    "Until no such key is linked in the keyring", 5 },
	{ NULL, 0, NULL, 0, "Help:", -1 },
	{ "help", 'h', NULL, 0, "Give this help list", -1 },
	{ "usage", OPT_USAGE, NULL, 0, "Give a short usage message", -1 },
	{ "version", 'V', NULL, 0, "Print program version", -1 },
	{ NULL, 0, NULL, 0, NULL, 0 },
};

struct cli_state {
	struct config *cfg;
	char **args;
	size_t nargs;
	const char *include[64], *exclude[64];
	size_t ninclude, nexclude;
	bool any_include;
	const char *keyring;
	bool journal;
	unsigned quiet;		/* how many -q */
	bool monitor;		/* -m given */
	/* -N as given, with room for one more so that too many is said once they are resolved */
	char *ns_args[MNTNS_MAX + 1];
	size_t nns;
};

/* "auto, fanotify, ..." (with a source kind: its backends only), from the table. */
static const char *
cli_backend_names(const struct event_source *k)
{
	static char names[256];
	const struct backend *be;
	size_t n;

	n = (size_t)snprintf(names, sizeof(names), "auto");
	for (be = source_backends; be->name; be++)
		if (be->choosable && (k == NULL || be->type == k->type) && n < sizeof(names))
			n += (size_t)snprintf(names + n, sizeof(names) - n, ", %s", be->name);
	return names;
}

/*
 * The option whose long name is name (n bytes) or starts with it; NULL with *ambiguous set if
 * several do.
 */
static const struct argp_option *
cli_find_long(const char *name, size_t n, bool *ambiguous)
{
	const struct argp_option *o, *found = NULL;

	*ambiguous = false;
	for (o = options; o->name || o->doc; o++) {
		if (o->name == NULL || strncmp(o->name, name, n) != 0)
			continue;
		if (o->name[n] == '\0')
			return o;
		*ambiguous = found != NULL;
		found = o;
	}
	return *ambiguous ? NULL : found;
}

/* The option whose short name is c, or NULL. */
static const struct argp_option *
cli_find_short(int c)
{
	const struct argp_option *o;

	for (o = options; o->name || o->doc; o++)
		if (o->key == c && isascii(c) && isalnum(c))
			return o;
	return NULL;
}

/* Say on one line what is wrong with the command-line word opt, and exit 64. */
static void __attribute__((noreturn))
cli_bad_option(const char *opt)
{
	const struct argp_option *o = NULL;
	const char *p;
	size_t n;
	bool ambiguous;

	if (strncmp(opt, "--", 2) == 0) {
		n = strcspn(opt + 2, "=");
		o = cli_find_long(opt + 2, n, &ambiguous);
		if (ambiguous)
			errx(EXIT_USAGE, "ambiguous option '%s' (see watchq --help)",
			    escape_arg(opt));
		if (o && o->arg && opt[2 + n] != '=')
			errx(EXIT_USAGE, "option '--%s' needs %s", o->name, o->arg);
		if (o && !o->arg && opt[2 + n] == '=')
			errx(EXIT_USAGE, "option '--%s' takes no argument", o->name);
	} else {
		for (p = opt + 1; *p && (o = cli_find_short((unsigned char)*p)) != NULL && !o->arg;
		     p++)
			;
		if (*p && o == NULL)
			errx(EXIT_USAGE, "unknown option '-%s' (see watchq --help)",
			    escape_arg((char[]){ *p, '\0' }));
		if (*p && p[1] == '\0')
			errx(EXIT_USAGE, "option '-%c' needs %s", *p, o->arg);
	}
	errx(EXIT_USAGE, "unknown option '%s' (see watchq --help)", escape_arg(opt));
}

/* --help's text that the tables of sources and backends give, rather than a copy of them. */
static char *
cli_help_filter(int key, const char *text, void *input)
{
	const struct event_source *k;
	struct buf b = { 0 };
	const char *sep;

	if (key == OPT_BACKEND) {
		buf_adds(&b, cli_backend_names(NULL));
		return b.data;
	}
	if (key != ARGP_KEY_HELP_POST_DOC || text == NULL)
		return (char *)text;
	buf_adds(&b, "SOURCE is ");
	for (k = event_sources; k->type != EV_META; k++) {
		sep = k == event_sources ? "" : k[1].type != EV_META ? ", " : " or ";
		buf_addf(&b, "%s%s", sep, k->word);
		if (k->default_target)
			buf_addf(&b, " [TARGET...] (default %s)", k->default_target);
		else
			buf_adds(&b, " TARGET...");
	}
	buf_addf(&b, "; %s", text);
	return b.data;
}

static void
cli_add_list(const char **list, size_t *n, const char *arg)
{
	if (*n >= 64)
		errx(EXIT_USAGE, "too many -e/-E options");
	list[(*n)++] = arg;
}

static void
cli_add_cond(struct config *cfg, enum cond_kind kind, const char *arg)
{
	if (cfg->nconds >= WATCHQ_MAX_WATCHES)
		errx(EXIT_USAGE, "too many wait conditions");
	cfg->conds[cfg->nconds].kind = kind;
	cfg->conds[cfg->nconds].arg = arg;
	cfg->nconds++;
}

/* --fstype LIST: the types, and whether a "no" prefix negates them all. */
static void
cli_set_fstypes(struct config *cfg, const char *arg)
{
	char *list, *tok, *save = NULL;
	size_t cnt = 0;

	cfg->fstypes_negated = strncmp(arg, "no", 2) == 0;
	free(cfg->fstype_list);
	free(cfg->fstypes);
	list = cfg->fstype_list = xstrdup(arg + (cfg->fstypes_negated ? 2 : 0));
	cfg->fstypes = xcalloc(strlen(list) + 2, sizeof(char *));
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		cfg->fstypes[cnt++] = tok;
	if (cnt == 0)
		errx(EXIT_USAGE, "--fstype: empty list");
}

/* The options of events and output; ARGP_ERR_UNKNOWN for any other key. */
static error_t
cli_opt_output(int key, char *arg, struct cli_state *cs)
{
	struct config *cfg = cs->cfg;

	switch (key) {
	case 'j':
		if (cfg->format_kind == OUT_FORMAT)
			errx(EXIT_USAGE, "--json and --format cannot be combined");
		cfg->format_kind = OUT_JSON;
		break;
	case OPT_FORMAT:
		if (cfg->format_kind == OUT_JSON)
			errx(EXIT_USAGE, "--json and --format cannot be combined");
		if (output_format_check(arg) < 0)
			errx(EXIT_USAGE, "--format: unknown escape in '%s' (see watchq(1))",
			    escape_arg(arg));
		cfg->format_kind = OUT_FORMAT;
		cfg->format = arg;
		break;
	case OPT_TIMEFMT:
		if (*arg == '\0')
			errx(EXIT_USAGE, "--timefmt: empty format");
		cfg->timefmt = arg;
		break;
	case 'T':
		cfg->timestamps = true;
		break;
	case 'o':
		if (*arg == '\0')
			errx(EXIT_USAGE, "--output: an empty FILE names nothing");
		cfg->output_path = arg;
		break;
	case OPT_JOURNAL:
		cs->journal = true;
		break;
	case 'q':
		/* As inotifywait: -q prints only errors on stderr, -qq not even the events. */
		cs->quiet++;
		cfg->quiet = true;
		cfg->no_events = cs->quiet > 1;
		break;
	case '0':
		cfg->null = true;
		break;
	case 'm':
		cs->monitor = true;
		break;
	case OPT_INITIAL:
		cfg->initial = true;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* The options of ending and filters; ARGP_ERR_UNKNOWN for any other key. */
static error_t
cli_opt_filter(int key, char *arg, struct cli_state *cs)
{
	struct config *cfg = cs->cfg;
	long long n;
	int r;

	switch (key) {
	case 't':
		if (number_seconds(arg, &cfg->timeout) < 0)
			errx(EXIT_USAGE, "--timeout: '%s' is not a number of seconds",
			    escape_arg(arg));
		cfg->has_timeout = true;
		break;
	case 'n':
		if (number_count(arg, 1, 1000000000000LL, &n) < 0)
			errx(EXIT_USAGE, "--count: '%s' is not a positive whole number",
			    escape_arg(arg));
		cfg->count = n;
		break;
	case OPT_FSTYPE:
		cli_set_fstypes(cfg, arg);
		break;
	case 'N':
		if (cs->nns <= MNTNS_MAX)
			cs->ns_args[cs->nns++] = arg;
		break;
	case OPT_SOURCE:
		if (*arg == '\0')
			errx(EXIT_USAGE, "--source: empty device");
		cfg->source_dev = arg;
		break;
	case OPT_RECURSIVE:
		cfg->recursive = true;
		break;
	case OPT_SPACE_BELOW:
		if ((r = number_space(arg, &cfg->space_pct, &cfg->space_bytes)) == -2)
			errx(EXIT_USAGE,
			    "--space-below: '%s' has no unit: PERCENT%% or SIZE (10%%, 10M, 10G)",
			    escape_arg(arg));
		if (r < 0)
			errx(EXIT_USAGE,
			    "--space-below: '%s' is not a PERCENT%% below 100 or a SIZE (512M, 2G)",
			    escape_arg(arg));
		cfg->has_space = true;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* The options of wait conditions; ARGP_ERR_UNKNOWN for any other key. */
static error_t
cli_opt_wait(int key, char *arg, struct cli_state *cs)
{
	if (key >= OPT_COND && key < OPT_COND + COND__N) {
		cli_add_cond(cs->cfg, (enum cond_kind)(key - OPT_COND), arg);
		return 0;
	}
	if (key == OPT_KEYRING) {
		cs->keyring = arg;
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

/* The options of backends; ARGP_ERR_UNKNOWN for any other key. */
static error_t
cli_opt_backend(int key, char *arg, struct cli_state *cs)
{
	struct config *cfg = cs->cfg;
	long long n;

	switch (key) {
	case OPT_BACKEND:
		cfg->backend = NULL;
		if (strcmp(arg, "auto") != 0 && (cfg->backend = source_backend_find(arg)) == NULL)
			errx(EXIT_USAGE, "--backend: unknown backend '%s' (%s)", escape_arg(arg),
			    cli_backend_names(NULL));
		break;
	case OPT_INTERVAL:
		if (number_seconds(arg, &cfg->interval) < 0 || cfg->interval < 0.001)
			errx(EXIT_USAGE,
			    "--interval: '%s' is not a number of seconds of at least 0.001",
			    escape_arg(arg));
		break;
	case OPT_QUEUE_SIZE:
		if (number_count(arg, 1, 512, &n) < 0)
			errx(EXIT_USAGE, "--queue-size: '%s' is not a whole number from 1 to 512",
			    escape_arg(arg));
		cfg->queue_size = (unsigned)n;
		break;
	case OPT_NO_BPF:
		cfg->no_bpf = true;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static error_t
cli_parse_opt(int key, char *arg, struct argp_state *st)
{
	struct cli_state *cs = st->input;

	switch (key) {
	case 'h':
	case OPT_USAGE:
		/* argp_state_help() prints nothing under ARGP_NO_ERRS. */
		argp_help(st->root_argp, stdout, key == 'h' ? ARGP_HELP_STD_HELP : ARGP_HELP_USAGE,
		    program_invocation_short_name);
		exit(EXIT_OK);
	case 'V':
		printf("%s\n", argp_program_version);
		exit(EXIT_OK);
	case 'e':
		cli_add_list(cs->include, &cs->ninclude, arg);
		return 0;
	case 'E':
		cli_add_list(cs->exclude, &cs->nexclude, arg);
		return 0;
	case ARGP_KEY_ARG:
		cs->args[cs->nargs++] = arg;
		return 0;
	case ARGP_KEY_ERROR:
		/* With ARGP_NO_ERRS getopt says nothing: name the word argp stopped at. */
		cli_bad_option(st->next > 0 ? st->argv[st->next - 1] : "");
	}
	if (cli_opt_output(key, arg, cs) == 0 || cli_opt_filter(key, arg, cs) == 0 ||
	    cli_opt_backend(key, arg, cs) == 0)
		return 0;
	return cli_opt_wait(key, arg, cs);
}

/* Apply the event names of one -e (or with remove, -E) LIST; true if it named loss or removal. */
static bool
cli_apply_list(struct config *cfg, const char *arg, unsigned typemask, bool remove)
{
	char *copy = xstrdup(arg), *tok, *save = NULL;
	bool meta_asked = false;
	int r;

	if (copy[strspn(copy, ",")] == '\0')
		errx(EXIT_USAGE, "%s: empty event list", remove ? "-E" : "-e");
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		r = evset_apply_name(&cfg->events, tok, typemask | 1u << EV_META, remove);
		if (r < 0)
			errx(EXIT_USAGE, "unknown event '%s' (see watchq(1), EVENTS)",
			    escape_arg(tok));
		if (r == 0)
			errx(EXIT_USAGE, "event '%s' does not apply to the sources watched",
			    escape_arg(tok));
		if (!cfg->initial && strcasecmp(tok, "present") == 0)
			errx(EXIT_USAGE, "event 'present' comes only with --initial");
		if (strcasecmp(tok, "loss") == 0 || strcasecmp(tok, "removal") == 0) {
			if (remove)
				errx(EXIT_USAGE,
				    "event '%s' is always delivered and cannot be excluded",
				    escape_arg(tok));
			meta_asked = true;
		}
	}
	free(copy);
	return meta_asked;
}

static void
cli_apply_events(struct config *cfg, struct cli_state *cs)
{
	unsigned typemask = 0;
	size_t i;
	bool meta_asked = false;

	for (i = 0; i < cfg->nwatches; i++)
		typemask |= 1u << cfg->watches[i].type;
	if (cs->ninclude == 0) {
		for (i = 0; i < EV__NTYPES; i++)
			if (typemask & (1u << i))
				evset_add_type(&cfg->events, (enum ev_type)i);
		/* present records are asked for with --initial, not by default. */
		evset_apply_name(&cfg->events, "present", typemask, true);
	}
	for (i = 0; i < cs->ninclude; i++)
		meta_asked |= cli_apply_list(cfg, cs->include[i], typemask, false);
	for (i = 0; i < cs->nexclude; i++)
		meta_asked |= cli_apply_list(cfg, cs->exclude[i], typemask, true);
	if (cfg->initial)
		evset_apply_name(&cfg->events, "present", typemask, false);
	evset_add_type(&cfg->events, EV_META);
	for (i = 0; i < EV__NTYPES; i++)
		if (i != EV_META && (typemask & (1u << i)) &&
		    evset_has_type(&cfg->events, (enum ev_type)i))
			break;
	/* -e loss alone asks for losses only; -E leaving nothing is a mistake. */
	if (i == EV__NTYPES && cfg->nwatches > 0 && !meta_asked)
		errx(EXIT_USAGE, "-E excludes every event of the sources watched");
	filter_compile(&cfg->filter, &cfg->events);
}

/* Whether a watch the user named is of type. */
static bool
cli_watches_type(const struct config *cfg, enum ev_type type)
{
	size_t i;

	for (i = 0; i < cfg->nwatches; i++)
		if (cfg->watches[i].type == type && !cfg->watches[i].internal)
			return true;
	return false;
}

/* An option that changes nothing for what is watched and printed is a mistake, said as one. */
static void
cli_check_applies(const struct config *cfg)
{
	if (cfg->has_space && !(cfg->sources & (1u << EV_SB)))
		errx(EXIT_USAGE, "--space-below applies to sb");
	if (cfg->fstypes && !cli_watches_type(cfg, EV_MOUNT))
		errx(EXIT_USAGE, "--fstype applies to mounts");
	if (cfg->source_dev && !cli_watches_type(cfg, EV_MOUNT))
		errx(EXIT_USAGE, "--source applies to mounts");
	if (cfg->nns > 0 && !(cfg->sources & (1u << EV_MOUNT)))
		errx(EXIT_USAGE, "-N applies to mounts (and to wait --mount and --unmount)");
	if (cfg->nns > 0 && (cfg->sources & (1u << EV_SB)))
		errx(EXIT_USAGE,
		    "-N applies to mounts, not to sb: sb paths are looked up in our own mount "
		    "namespace");
	if (cfg->recursive && !cli_watches_type(cfg, EV_KEY))
		errx(EXIT_USAGE, "--recursive applies to keys");
	if (cfg->timestamps && cfg->format_kind != OUT_TEXT)
		errx(EXIT_USAGE,
		    "-T applies to text output: use %%T in --format; JSON has a time field");
	if (cfg->timefmt && !cfg->timestamps &&
	    !(cfg->format_kind == OUT_FORMAT && output_format_uses(cfg->format, 'T')))
		errx(EXIT_USAGE, "--timefmt applies to -T and to %%T in --format");
}

/* --source as findmnt -S takes it; a tag no device has yet is said once, as it may come later. */
static void
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

/*
 * A forced backend must serve every source watched that has a choice of backends, and serve some
 * source.
 */
static void
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
		if (strcmp(cli_backend_names(k), "auto") != 0)
			errx(EXIT_USAGE, "--backend=%s does not serve %s (%s)", cfg->backend->name,
			    k->word, cli_backend_names(k));
	}
	if (!served && first)
		errx(EXIT_USAGE, "--backend=%s does not serve %s (it has one backend)",
		    cfg->backend->name, first->word);
}

/* Events asked for that cannot come, or cannot end a wait, are a mistake, said as one. */
static void
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

/* Set the run mode from "wait" and the conditions, and say what does not go with it. */
static void
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
			errx(EXIT_USAGE,
			    "wait -e cannot be combined with state conditions (--mount, --unmount, "
			    "--readonly, --writable, --key, --no-key)");
		if (cs->ninclude == 0 && cfg->mode == MODE_WAIT_EVENT)
			errx(EXIT_USAGE,
			    "wait needs a condition: --mount, --unmount, --readonly, --writable, "
			    "--key, --no-key or -e EVENT");
		if (cfg->mode == MODE_WAIT_STATE && cs->nargs > 0)
			errx(EXIT_USAGE, "state conditions take no SOURCE: '%s'",
			    escape_arg(args[0]));
		/*
		 * A state wait prints nothing and ends at its condition: output and counting do not
		 * apply.
		 */
		if (cfg->mode == MODE_WAIT_STATE &&
		    (cfg->count > 0 || cfg->format_kind != OUT_TEXT || cfg->timestamps ||
			cfg->null || cfg->output_path || cs->journal))
			errx(EXIT_USAGE,
			    "state conditions print nothing and end when they hold: -n, --json, "
			    "--format, "
			    "--journal, -T, -0 and -o do not apply (wait -e EVENT prints what it "
			    "waited for)");
		if (cs->ninclude > 0 && cs->nargs == 0)
			errx(EXIT_USAGE,
			    "wait -e needs a SOURCE, e.g. watchq wait -e unmount mounts /mnt");
		if (cfg->mode == MODE_WAIT_EVENT && cfg->count == 0)
			cfg->count = 1;
		cli_watch_conditions(cfg, cs->keyring);
	}
}

/*
 * list prints the present state whole and exits: what waits, counts changes or chooses among them
 * does not apply.
 */
static void
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
cli_parse(struct config *cfg, struct mntns *ns, int argc, char **argv)
{
	static const struct argp argp = { options, cli_parse_opt, args_doc, doc, NULL,
		cli_help_filter, NULL };
	static char name[] = "watchq";
	struct cli_state cs = { 0 };
	size_t i;
	char **args;
	bool wait = false, list = false;

	/* Every message starts "watchq: ", whatever path or link started it. */
	program_invocation_name = program_invocation_short_name = name;
	if (argc > 0)
		argv[0] = name;
	memset(cfg, 0, sizeof(*cfg));
	cfg->format_kind = OUT_TEXT;
	cfg->backend = NULL;
	cfg->interval = 1.0;
	cfg->queue_size = 256;
	cs.cfg = cfg;
	cs.args = xcalloc((size_t)argc + 1, sizeof(char *));
	argp_parse(&argp, argc, argv, ARGP_NO_HELP | ARGP_NO_ERRS, NULL, &cs);
	if (cs.journal && (cfg->format_kind != OUT_TEXT || cfg->output_path))
		errx(EXIT_USAGE, "--journal cannot be combined with --json, --format or --output");
	if (cs.journal)
		cfg->format_kind = OUT_JOURNAL;

	cli_ns_open(cfg, ns, cs.ns_args, cs.nns);
	args = cs.args;
	if (cs.nargs > 0 && (strcmp(args[0], "wait") == 0 || strcmp(args[0], "list") == 0)) {
		wait = args[0][0] == 'w';
		list = !wait;
		args++;
		cs.nargs--;
	}
	cli_check_wait(cfg, &cs, wait, args);
	if (list)
		cli_check_list(cfg, &cs);
	cli_watch_sources(cfg, args, cs.nargs);
	for (i = 0; i < cfg->nconds; i++)
		cfg->sources |= wait_kinds[cfg->conds[i].kind].sources;
	for (i = 0; i < cfg->nwatches; i++)
		cfg->sources |= 1u << cfg->watches[i].type;
	if ((cfg->fstypes || cfg->source_dev) && cfg->mode == MODE_WAIT_STATE)
		errx(EXIT_USAGE,
		    "--fstype and --source filter mount events; state conditions do not use them");
	cli_check_applies(cfg);
	cli_check_backend(cfg);
	if (cfg->source_dev)
		cli_check_source(cfg);
	cli_apply_events(cfg, &cs);
	if (cfg->timefmt == NULL)
		cfg->timefmt = "%Y-%m-%dT%H:%M:%S%z";
	cli_check_events(cfg, &cs);
	/* Who made a change is looked up only where a record that is printed shows it. */
	cfg->show_who = cfg->mode != MODE_WAIT_STATE && !cfg->no_events &&
	    (cfg->format_kind != OUT_FORMAT || output_format_needs_who(cfg->format));
	free(cs.args);
}

void
cli_free(struct config *cfg)
{
	size_t i;

	for (i = 0; i < cfg->nwatches; i++) {
		free(cfg->watches[i].path);
		free(cfg->watches[i].reach);
	}
	for (i = 0; i < cfg->nconds; i++) {
		free(cfg->conds[i].path);
		free(cfg->conds[i].type);
	}
	free(cfg->fstypes);
	free(cfg->fstype_list);
	free(cfg->source_real);
}
