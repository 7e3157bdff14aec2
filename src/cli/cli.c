#include <argp.h>
#include <ctype.h>
#include <err.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "buf.h"
#include "cli.h"
#include "cli_check.h"
#include "cli_help.h"
#include "cli_options.h"
#include "cli_ns.h"
#include "cli_watch.h"
#include "escape.h"
#include "exit.h"
#include "filter.h"
#include "findmnt.h"
#include "habits.h"
#include "number.h"
#include "output_format.h"
#include "path.h"
#include "source.h"
#include "srcmatch.h"
#include "suggest.h"
#include "version.h"
#include "wait.h"
#include "xalloc.h"

#ifndef WATCHQ_VERSION
#define WATCHQ_VERSION "0.0"
#endif

const char *argp_program_version = "watchq " WATCHQ_VERSION;
const char *argp_program_bug_address = NULL;

/* After \v, cli_help_post() puts the sources and their events (from the tables) first. */
static const char doc[] =
    "Watch kernel notifications: mount topology, superblock health, keys."
    "\v"
    "Exit status: 0 condition met, --count reached, list written whole or clean end; 1 runtime "
    "error, or a list mounts DIR with nothing to list; 2 --timeout expired; 3 a watched object "
    "went away; 64 usage error; 69 backend or source unavailable in this kernel; 128+N a wait "
    "ended by signal N (SIGPIPE: its reader went away).";

static const char args_doc[] =
    "SOURCE [TARGET...] [SOURCE [TARGET...]]...\n"
    "wait CONDITION... [SOURCE [TARGET...]]\n"
    "list SOURCE [TARGET...] [SOURCE [TARGET...]]...";

/* Say that the long option word opt names no option, with the nearest ones, and exit 64. */
static void __attribute__((noreturn))
cli_unknown_long(const char *opt)
{
	const struct argp_option *o;
	struct suggest s;
	struct buf b = { 0 };
	char name[256];		/* on the stack: nothing is left allocated at exit (make asan) */
	const struct habit *h;

	snprintf(name, sizeof(name), "%.*s", (int)strcspn(opt + 2, "="), opt + 2);
	if ((h = habits_long(name, strlen(name))) != NULL)
		errx(EXIT_USAGE, "--%s is %s: %s", escape_arg(name), h->is, h->text);
	suggest_init(&s, name);
	for (o = cli_options; o->name || o->doc; o++)
		if (o->name && !(o->flags & OPTION_HIDDEN))
			suggest_offer(&s, o->name);
	suggest_text(&s, &b, "--");
	errx(EXIT_USAGE, "unknown option '%s'%s", escape_arg(opt),
	    b.len > 0 ? b.data : " (see watchq --help)");
}

/* list -n, as findmnt -n (no headings) is typed: say what -n is here, and exit 64. */
static void __attribute__((noreturn))
cli_list_count(void)
{
	errx(EXIT_USAGE, "-n is --count here, which list does not take; findmnt's -n (no headings) "
	    "is what list does anyway");
}

/* Say on one line what is wrong with the command-line word opt, and exit 64. */
static void __attribute__((noreturn))
cli_bad_option(const char *opt)
{
	const struct argp_option *o = NULL;
	const struct habit *h;
	const char *p;
	size_t n;

	if (strncmp(opt, "--", 2) == 0) {
		n = strcspn(opt + 2, "=");
		o = cli_options_long(opt + 2, n);
		if (o && o->arg && opt[2 + n] != '=')
			errx(EXIT_USAGE, "option '--%s' needs %s", o->name, o->arg);
		if (o && !o->arg && opt[2 + n] == '=')
			errx(EXIT_USAGE, "option '--%s' takes no argument", o->name);
		cli_unknown_long(opt);
	}
	for (p = opt + 1; *p && (o = cli_options_short((unsigned char)*p)) != NULL && !o->arg; p++)
		;
	if (*p && o == NULL && (h = habits_short((unsigned char)*p)) != NULL)
		errx(EXIT_USAGE, "-%c is %s: %s", *p, h->is, h->text);
	if (*p && o == NULL)
		errx(EXIT_USAGE, "unknown option '-%s' (see watchq --help)",
		    escape_arg((char[]){ *p, '\0' }));
	if (*p && p[1] == '\0' && *p == 'n' && (cli_help_scope & APPLY_RUNS) == APPLY_LIST)
		cli_list_count();
	if (*p && p[1] == '\0')
		errx(EXIT_USAGE, "option '-%c' needs %s", *p, o->arg);
	errx(EXIT_USAGE, "unknown option '%s' (see watchq --help)", escape_arg(opt));
}

/* Add to *named the bit of the source word w names, if any. */
static void
cli_scan_source(const char *w, unsigned *named)
{
	const struct event_source *k = source_find(w);

	*named |= k ? 1u << k->type : 0;
}

/*
 * Find the first word that is a bad option: one unknown, one that lacks its argument, or a long
 * option not spelled out whole, which getopt would take as any option it begins (one added later
 * would silently change what a script's abbreviation means). argp names the word it stopped at
 * only after the cluster it is in: "-lJ" would be the word before. Returns the first word that is
 * no option (the SOURCE or verb), or NULL; sets *bad to the bad word, or NULL; adds to *named the
 * bit of each source a word names. Options end at "--", as argp ends them.
 */
static const char *
cli_scan_words(int argc, char **argv, unsigned *named, const char **bad)
{
	const struct argp_option *o;
	const char *first = NULL, *w;
	bool in_order = getenv("POSIXLY_CORRECT") != NULL, args = false;
	size_t n, k;
	int i;

	for (i = 1; i < argc; i++) {
		w = argv[i];
		if (!args && strcmp(w, "--") == 0) {
			args = true;
			continue;
		}
		if (args || w[0] != '-' || w[1] == '\0') {
			if (first == NULL)
				first = w;
			cli_scan_source(w, named);
			args |= in_order;
			continue;
		}
		if (w[1] == '-') {
			n = strcspn(w + 2, "=");
			o = cli_options_long(w + 2, n);
			/* Its argument is the next word. */
			if (o && o->arg && w[2 + n] == '\0' && ++i >= argc)
				o = NULL;
		} else {
			/* w[1] is a letter: the loop sets o at least once (gcc -O1 cannot see it). */
			o = NULL;
			for (k = 1; w[k] && (o = cli_options_short((unsigned char)w[k])) != NULL &&
			     !o->arg; k++)
				;
			if (o && w[k] && w[k + 1] == '\0' && ++i >= argc)
				o = NULL;
		}
		if (o == NULL && *bad == NULL)
			*bad = w;
	}
	return first;
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

/* -O LIST, as findmnt -O takes it; each -O adds its items (all must match). */
static void
cli_add_options(struct config *cfg, const char *arg)
{
	struct buf b = { 0 };

	switch (filter_options_check(arg)) {
	case -1:
		errx(EXIT_USAGE, "--options: empty list");
	case -2:
		errx(EXIT_USAGE,
		    "--options: 'no' alone names no option (+no is an option named no)");
	case -3:
		errx(EXIT_USAGE, "--options: '%s' has a quote that is not closed", escape_arg(arg));
	case -4:
		errx(EXIT_USAGE, "--options: '%s' is not a comma-separated option list",
		    escape_arg(arg));
	}
	buf_addf(&b, "%s%s%s", cfg->optlist ? cfg->optlist : "", cfg->optlist ? "," : "", arg);
	free(cfg->optlist);
	cfg->optlist = b.data;
}

/* --include, --includei, --exclude, --excludei (how: key - OPT_PATH_RE). */
static void
cli_add_path_re(struct config *cfg, int how, const char *arg)
{
	char err[256];

	if (filter_paths_add(&cfg->paths, arg, how & 1, how & 2, err, sizeof(err)) < 0)
		errx(EXIT_USAGE, "--%s%s: '%s' is not an extended regular expression: %s",
		    how & 2 ? "exclude" : "include", how & 1 ? "i" : "", escape_arg(arg), err);
}

/* Say that arg is no --timeout; a word that starts no number is findmnt's -t type list. */
static void __attribute__((noreturn))
cli_bad_timeout(const char *arg)
{
	char *end;

	(void)strtod(arg, &end);
	if (isalpha((unsigned char)*arg) && end == arg)
		errx(EXIT_USAGE,
		    "--timeout: '%s' is not a number of seconds: -t is the timeout here; "
		    "--fstype=%s filters filesystem types", escape_arg(arg), escape_arg(arg));
	errx(EXIT_USAGE, "--timeout: '%s' is not a number of seconds", escape_arg(arg));
}

/* The options that only switch something of cfg on, and what. */
static const struct cli_flag {
	int key;
	size_t offset;		/* of its bool in struct config */
} cli_flags[] = {
	{ 'T', offsetof(struct config, timestamps) },
	{ '0', offsetof(struct config, null) },
	{ OPT_INITIAL, offsetof(struct config, initial) },
	{ OPT_TARGET, offsetof(struct config, list_target) },
	{ OPT_RECURSIVE, offsetof(struct config, recursive) },
	{ OPT_FOLLOW, offsetof(struct config, follow) },
	{ 0, 0 },
};

/* Switch on the flag of key in cfg: 0, or ARGP_ERR_UNKNOWN if key is no flag. */
static error_t
cli_opt_flag(int key, struct config *cfg)
{
	const struct cli_flag *f;

	for (f = cli_flags; f->key; f++)
		if (f->key == key) {
			*(bool *)((char *)cfg + f->offset) = true;
			return 0;
		}
	return ARGP_ERR_UNKNOWN;
}

/* Choose the record format kind, once: --json, --format and --keyctl exclude one another. */
static void
cli_set_output(struct config *cfg, enum out_format kind)
{
	static const char *const names[] = {
		[OUT_JSON] = "--json", [OUT_FORMAT] = "--format", [OUT_KEYCTL] = "--keyctl",
	};
	enum out_format was = cfg->format_kind;

	if (was != OUT_TEXT && was != kind)
		errx(EXIT_USAGE, "%s and %s cannot be combined", names[was < kind ? was : kind],
		    names[was < kind ? kind : was]);
	cfg->format_kind = kind;
}

/* The options of events and output; ARGP_ERR_UNKNOWN for any other key. */
static error_t
cli_opt_output(int key, char *arg, struct cli_state *cs)
{
	struct config *cfg = cs->cfg;

	switch (key) {
	case 'j':
		cli_set_output(cfg, OUT_JSON);
		break;
	case OPT_KEYCTL:
		cli_set_output(cfg, OUT_KEYCTL);
		break;
	case OPT_FORMAT:
		cli_set_output(cfg, OUT_FORMAT);
		if (output_format_check(arg) < 0)
			errx(EXIT_USAGE, "--format: unknown escape in '%s' (see watchq(1))",
			    escape_arg(arg));
		cfg->format = arg;
		break;
	case OPT_TIMEFMT:
		if (*arg == '\0')
			errx(EXIT_USAGE, "--timefmt: empty format");
		cfg->timefmt = arg;
		break;
	case 'o':
		if (*arg == '\0')
			errx(EXIT_USAGE, "--output: an empty FILE names nothing");
		/* findmnt's -o is its columns: a new file named for them is not what was meant. */
		if (findmnt_columns(arg) && access(arg, F_OK) < 0 && errno == ENOENT)
			errx(EXIT_USAGE, "-o %s: no such FILE, and it reads as findmnt's columns: "
			    "-o is the file events go to; --format or --json choose the fields "
			    "(-o ./%s makes the file)", escape_arg(arg), escape_arg(arg));
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
	case 'm':
		cs->monitor = true;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* -n N: --count, with findmnt's -n (no headings) said where it was meant. */
static void
cli_set_count(struct config *cfg, const char *arg)
{
	long long n;

	if ((cli_help_scope & APPLY_RUNS) == APPLY_LIST)
		cli_list_count();
	/* A SOURCE or a path after -n: findmnt's -n, no headings. */
	if (number_count(arg, 1, 1000000000000LL, &n) < 0 &&
	    (source_find(arg) || strchr(arg, '/')))
		errx(EXIT_USAGE, "--count: '%s' is not a positive whole number: -n is "
		    "--count=N here; watchq prints no headings to leave out, as findmnt -n "
		    "does", escape_arg(arg));
	if (number_count(arg, 1, 1000000000000LL, &n) < 0)
		errx(EXIT_USAGE, "--count: '%s' is not a positive whole number",
		    escape_arg(arg));
	cfg->count = n;
}

/* The options of ending and filters; ARGP_ERR_UNKNOWN for any other key. */
static error_t
cli_opt_filter(int key, char *arg, struct cli_state *cs)
{
	struct config *cfg = cs->cfg;
	int r;

	if (key >= OPT_PATH_RE && key < OPT_PATH_RE + 4) {
		cli_add_path_re(cfg, key - OPT_PATH_RE, arg);
		return 0;
	}
	switch (key) {
	case 't':
		if (number_seconds(arg, &cfg->timeout) < 0)
			cli_bad_timeout(arg);
		cfg->has_timeout = true;
		break;
	case 'n':
		cli_set_count(cfg, arg);
		break;
	case OPT_FSTYPE:
		cli_set_fstypes(cfg, arg);
		break;
	case 'N':
		if (strcmp(arg, "all") == 0)
			cs->ns_all = true;
		else if (cs->nns <= MNTNS_MAX)
			cs->ns_args[cs->nns++] = arg;
		break;
	case 'S':
		if (*arg == '\0')
			errx(EXIT_USAGE, "--source: empty device");
		cfg->source_dev = arg;
		break;
	case 'O':
		cli_add_options(cfg, arg);
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
			    cli_options_backends(NULL));
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

	if (key > 0 && key < OPT__END)
		cs->given[key] = true;
	switch (key) {
	case 'h':
	case OPT_USAGE:
		/* argp_state_help() prints nothing under ARGP_NO_ERRS. */
		cli_help_print(st->root_argp, key);
	case 'V':
		version_print(stdout);
		exit(EXIT_OK);
	case 'e':
	case 'E':
		/* As journalctl -o help: the names, for people and for the completions. */
		if (strcasecmp(arg, "help") == 0)
			cli_help_event_names();
		if (key == 'e')
			cli_add_list(cs->include, &cs->ninclude, arg);
		else
			cli_add_list(cs->exclude, &cs->nexclude, arg);
		return 0;
	case ARGP_KEY_ARG:
		cs->args[cs->nargs++] = arg;
		return 0;
	case ARGP_KEY_ERROR:
		/* With ARGP_NO_ERRS getopt says nothing: name the word argp stopped at. */
		cli_bad_option(st->next > 0 ? st->argv[st->next - 1] : "");
	}
	if (cli_opt_flag(key, cs->cfg) == 0 || cli_opt_output(key, arg, cs) == 0 ||
	    cli_opt_filter(key, arg, cs) == 0 ||
	    cli_opt_backend(key, arg, cs) == 0)
		return 0;
	return cli_opt_wait(key, arg, cs);
}

/* Say that name (given to opt) is no event, with the nearest names, and exit 64. */
static void __attribute__((noreturn))
cli_unknown_event(const char *opt, const char *name)
{
	const struct event_name *n;
	const char *alias_of, *habit;
	struct suggest s;
	struct buf b = { 0 };

	if ((habit = habits_event(name)) != NULL)
		errx(EXIT_USAGE, "%s %s: %s", opt, escape_arg(name), habit);
	suggest_init(&s, name);
	for (n = event_names; n->name; n++)
		suggest_offer(&s, n->name);
	/* An alias kept brings the name records print (umount: unmount). */
	for (n = event_names; n->name; n++)
		if ((alias_of = event_alias_of(n)) != NULL)
			suggest_beside(&s, n->name, alias_of);
	suggest_text(&s, &b, "");
	errx(EXIT_USAGE, "%s %s: unknown event%s", opt, escape_arg(name),
	    b.len > 0 ? b.data : " (see watchq(1), EVENTS)");
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
			cli_unknown_event(remove ? "-E" : "-e", tok);
		if (r == 0)
			errx(EXIT_USAGE, "event '%s' does not apply to the sources watched",
			    escape_arg(tok));
		if (!cfg->initial && strcasecmp(tok, "present") == 0)
			errx(EXIT_USAGE, "event 'present' comes only with --initial");
		if (evset_apply_name(&(struct evset){ 0 }, tok, 1u << EV_META, false) > 0) {
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
	/* A wait's condition that prints what met it prints it as a present record. */
	if (cfg->initial || (cfg->mode == MODE_WAIT_STATE && wait_prints(cfg)))
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

/* --journal sends records as journal entries: no other format, no -o. */
static void
cli_set_journal(struct config *cfg, const struct cli_state *cs)
{
	if (!cs->journal)
		return;
	if (cfg->format_kind != OUT_TEXT || cfg->output_path)
		errx(EXIT_USAGE,
		    "--journal cannot be combined with --json, --format, --keyctl or --output");
	cfg->format_kind = OUT_JOURNAL;
}

/* The sources to open: those watched, and those the wait conditions ask of. */
static void
cli_set_sources(struct config *cfg)
{
	size_t i;

	for (i = 0; i < cfg->nconds; i++)
		cfg->sources |= wait_kinds[cfg->conds[i].kind].sources;
	for (i = 0; i < cfg->nwatches; i++)
		cfg->sources |= 1u << cfg->watches[i].type;
}

void
cli_parse(struct config *cfg, struct mntns *ns, int argc, char **argv)
{
	static const struct argp argp = { cli_options, cli_parse_opt, args_doc, doc, NULL,
		cli_help_filter, NULL };
	static char name[] = "watchq";
	struct cli_state cs = { 0 };
	char **args;
	const char *first, *bad = NULL;
	unsigned named = 0;
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
	first = cli_scan_words(argc, argv, &named, &bad);
	cli_help_scope = cli_help_scope_of(first, named);
	if (bad)
		cli_bad_option(bad);
	argp_parse(&argp, argc, argv, ARGP_NO_HELP | ARGP_NO_ERRS, NULL, &cs);
	cli_set_journal(cfg, &cs);

	cfg->ns_all = cs.ns_all;
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
	cli_set_sources(cfg);
	cli_check_applies(cfg);
	cli_options_check(cfg, &cs);
	cli_check_keyctl(cfg);
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
	cli_check_notes(cfg);
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
	free(cfg->optlist);
	filter_paths_free(&cfg->paths);
}
