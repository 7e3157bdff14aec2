#include <argp.h>
#include <ctype.h>
#include <err.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "parse.h"
#include "keyspec.h"
#include "output.h"
#include "path.h"
#include "source.h"
#include "util.h"

#ifndef WATCHQ_VERSION
#define WATCHQ_VERSION "0.0"
#endif

const char *argp_program_version = "watchq " WATCHQ_VERSION;
const char *argp_program_bug_address = NULL;
error_t argp_err_exit_status = EXIT_USAGE;

enum {
	OPT_FORMAT = 0x100,
	OPT_TIMEFMT,
	OPT_INITIAL,
	OPT_FSTYPE,
	OPT_SOURCE,
	OPT_BACKEND,
	OPT_INTERVAL,
	OPT_QUEUE_SIZE,
	OPT_MOUNT,
	OPT_UNMOUNT,
	OPT_READONLY,
	OPT_WRITABLE,
	OPT_KEY,
	OPT_KEYRING,
	OPT_NO_KEY,
	OPT_RECURSIVE,
	OPT_SPACE_BELOW,
	OPT_USAGE,
};

static const char doc[] =
    "Watch kernel notifications: mount topology, superblock health, keys."
    "\v"
    "SOURCE is mounts [DIR...] (default /), keys [KEY...] or sb PATH...; "
    "several sources may follow one another. Events of mounts: mount "
    "(new_mount), unmount, move, move_from, move_to, readonly, setattr; "
    "--initial adds present. Of keys: instantiated, updated, linked, unlinked, "
    "cleared, revoked, invalidated, setattr. Of sb: error, readonly, edquot, "
    "lowspace. loss and removal are always delivered.\n\n"
    "Exit status: 0 condition met, --count reached or clean end; 1 runtime "
    "error; 2 --timeout expired; 3 a watched object went away; 64 usage "
    "error; 69 backend or source unavailable in this kernel; 128+N a wait "
    "ended by signal N (SIGPIPE: its reader went away).";

static const char args_doc[] =
    "SOURCE [TARGET...] [SOURCE [TARGET...]]...\n"
    "wait CONDITION... [SOURCE [TARGET...]]";

static const struct argp_option options[] = {
	{ NULL, 0, NULL, 0, "Events and output:", 1 },
	{ "event", 'e', "LIST", 0, "Report only these events (comma list, repeatable)", 1 },
	{ "exclude-event", 'E', "LIST", 0, "Do not report these events", 1 },
	{ "json", 'j', NULL, 0, "Print one JSON object per line", 1 },
	{ "format", OPT_FORMAT, "FMT", 0, "Print events with %-escapes (see watchq(1))", 1 },
	{ "timefmt", OPT_TIMEFMT, "FMT", 0, "strftime(3) format for %T and -T", 1 },
	{ "timestamps", 'T', NULL, 0, "Prefix each text line with the time", 1 },
	{ "output", 'o', "FILE", 0, "Append events to FILE instead of stdout", 1 },
	{ "quiet", 'q', NULL, 0, "Print no informational lines on stderr", 1 },
	{ "initial", OPT_INITIAL, NULL, 0, "First report the current state as present records", 1 },
	{ NULL, 0, NULL, 0, "Ending:", 2 },
	{ "timeout", 't', "SECONDS", 0, "Exit 2 when SECONDS (fractions allowed) have passed since start", 2 },
	{ "count", 'n', "N", 0, "Exit 0 after N events", 2 },
	{ NULL, 0, NULL, 0, "Filters:", 3 },
	{ "fstype", OPT_FSTYPE, "LIST", 0, "Only these filesystem types (noLIST: all but)", 3 },
	{ "source", OPT_SOURCE, "DEV", 0, "Only mounts of this device or source", 3 },
	{ "recursive", OPT_RECURSIVE, NULL, 0, "keys: also watch keyrings linked below watched ones", 3 },
	{ "space-below", OPT_SPACE_BELOW, "PERCENT%|SIZE", 0, "sb: report lowspace when less is available (polled every --interval)", 3 },
	{ NULL, 0, NULL, 0, "Backends:", 4 },
	{ "backend", OPT_BACKEND, "NAME", 0, "auto, fanotify, mountinfo, watch-queue or poll", 4 },
	{ "interval", OPT_INTERVAL, "SECONDS", 0, "Period of polled backends (default 1)", 4 },
	{ "queue-size", OPT_QUEUE_SIZE, "N", 0, "Kernel notification queue size, 1-512 (default 256)", 4 },
	{ NULL, 0, NULL, 0, "Conditions for wait:", 5 },
	{ "mount", OPT_MOUNT, "PATH", 0, "Until PATH is a mount point", 5 },
	{ "unmount", OPT_UNMOUNT, "PATH", 0, "Until PATH is not a mount point", 5 },
	{ "readonly", OPT_READONLY, "PATH", 0, "Until the mount holding PATH is read-only", 5 },
	{ "writable", OPT_WRITABLE, "PATH", 0, "Until the mount holding PATH is writable", 5 },
	{ "key", OPT_KEY, "TYPE:DESC", 0, "Until such a key is linked in the keyring", 5 },
	{ "keyring", OPT_KEYRING, "KEY", 0, "The keyring of --key and --no-key (default @s)", 5 },
	{ "no-key", OPT_NO_KEY, "TYPE:DESC", 0, "Until no such key is linked in the keyring", 5 },
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
};

/* "auto, fanotify, ..." (with a source kind: its backends only), from the table. */
static const char *
backend_names(const struct source_kind *k)
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

/* "mounts, keys, sb", from the table. */
static const char *
source_words(void)
{
	static char words[128];
	const struct source_kind *k;
	size_t n = 0;

	for (k = source_kinds; k->word; k++)
		if (n < sizeof(words))
			n += (size_t)snprintf(words + n, sizeof(words) - n, "%s%s", n ? ", " : "", k->word);
	return words;
}

static void
add_list(struct argp_state *st, const char **list, size_t *n, const char *arg)
{
	if (*n >= 64)
		argp_failure(st, EXIT_USAGE, 0, "too many -e/-E options");
	list[(*n)++] = arg;
}

static void
add_cond(struct argp_state *st, struct config *cfg, enum cond_kind kind, const char *arg)
{
	if (cfg->nconds >= WATCHQ_MAX_WATCHES)
		argp_failure(st, EXIT_USAGE, 0, "too many wait conditions");
	cfg->conds[cfg->nconds].kind = kind;
	cfg->conds[cfg->nconds].arg = arg;
	cfg->nconds++;
}

static error_t
parse_opt(int key, char *arg, struct argp_state *st)
{
	struct cli_state *cs = st->input;
	struct config *cfg = cs->cfg;
	long long n;

	switch (key) {
	case 'h':
		argp_state_help(st, stdout, ARGP_HELP_STD_HELP);
		break;
	case OPT_USAGE:
		argp_state_help(st, stdout, ARGP_HELP_USAGE | ARGP_HELP_EXIT_OK);
		break;
	case 'V':
		printf("%s\n", argp_program_version);
		exit(EXIT_OK);
	case 'e':
		add_list(st, cs->include, &cs->ninclude, arg);
		break;
	case 'E':
		add_list(st, cs->exclude, &cs->nexclude, arg);
		break;
	case 'j':
		if (cfg->out == OUT_FORMAT)
			argp_failure(st, EXIT_USAGE, 0, "--json and --format cannot be combined");
		cfg->out = OUT_JSON;
		break;
	case OPT_FORMAT:
		if (cfg->out == OUT_JSON)
			argp_failure(st, EXIT_USAGE, 0, "--json and --format cannot be combined");
		if (output_format_check(arg) < 0)
			argp_failure(st, EXIT_USAGE, 0, "--format: unknown escape in '%s' (see watchq(1))", arg);
		cfg->out = OUT_FORMAT;
		cfg->format = arg;
		break;
	case OPT_TIMEFMT:
		if (*arg == '\0')
			argp_failure(st, EXIT_USAGE, 0, "--timefmt: empty format");
		cfg->timefmt = arg;
		break;
	case 'T':
		cfg->timestamps = true;
		break;
	case 'o':
		cfg->output = arg;
		break;
	case 'q':
		cfg->quiet = true;
		break;
	case OPT_INITIAL:
		cfg->initial = true;
		break;
	case 't':
		if (parse_seconds(arg, &cfg->timeout) < 0)
			argp_failure(st, EXIT_USAGE, 0, "--timeout: '%s' is not a number of seconds", arg);
		cfg->has_timeout = true;
		break;
	case 'n':
		if (parse_count(arg, 1, 1000000000000LL, &n) < 0)
			argp_failure(st, EXIT_USAGE, 0, "--count: '%s' is not a positive whole number", arg);
		cfg->count = n;
		break;
	case OPT_FSTYPE: {
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
			argp_failure(st, EXIT_USAGE, 0, "--fstype: empty list");
		break;
	}
	case OPT_SOURCE:
		if (*arg == '\0')
			argp_failure(st, EXIT_USAGE, 0, "--source: empty device");
		cfg->source_dev = arg;
		break;
	case OPT_BACKEND:
		cfg->backend = NULL;
		if (strcmp(arg, "auto") != 0 && (cfg->backend = source_backend_find(arg)) == NULL)
			argp_failure(st, EXIT_USAGE, 0, "--backend: unknown backend '%s' (%s)", arg,
			    backend_names(NULL));
		break;
	case OPT_INTERVAL:
		if (parse_seconds(arg, &cfg->interval) < 0 || cfg->interval < 0.001)
			argp_failure(st, EXIT_USAGE, 0, "--interval: '%s' is not a number of seconds of at least 0.001", arg);
		break;
	case OPT_QUEUE_SIZE:
		if (parse_count(arg, 1, 512, &n) < 0)
			argp_failure(st, EXIT_USAGE, 0, "--queue-size: '%s' is not a whole number from 1 to 512", arg);
		cfg->queue_size = (unsigned)n;
		break;
	case OPT_MOUNT:
		add_cond(st, cfg, COND_MOUNT, arg);
		break;
	case OPT_UNMOUNT:
		add_cond(st, cfg, COND_UNMOUNT, arg);
		break;
	case OPT_READONLY:
		add_cond(st, cfg, COND_READONLY, arg);
		break;
	case OPT_WRITABLE:
		add_cond(st, cfg, COND_WRITABLE, arg);
		break;
	case OPT_KEY:
		add_cond(st, cfg, COND_KEY, arg);
		break;
	case OPT_NO_KEY:
		add_cond(st, cfg, COND_NO_KEY, arg);
		break;
	case OPT_KEYRING:
		cs->keyring = arg;
		break;
	case OPT_RECURSIVE:
		cfg->recursive = true;
		break;
	case OPT_SPACE_BELOW:
		if (parse_space(arg, &cfg->space_pct, &cfg->space_bytes) < 0)
			argp_failure(st, EXIT_USAGE, 0, "--space-below: '%s' is not a PERCENT%% below 100 or a SIZE (512M, 2G)", arg);
		cfg->has_space = true;
		break;
	case ARGP_KEY_ARG:
		cs->args[cs->nargs++] = arg;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static void
add_watch(struct config *cfg, enum ev_type type, const char *target)
{
	struct watch *w;
	struct stat stb;

	if (cfg->nwatches >= WATCHQ_MAX_WATCHES)
		errx(EXIT_USAGE, "too many watches: at most %d targets", WATCHQ_MAX_WATCHES);
	w = &cfg->watches[cfg->nwatches];
	w->type = type;
	w->target = target;
	w->tag = (int)cfg->nwatches;
	if (type == EV_KEY && keyspec_resolve(target, &w->key) < 0) {
		if (errno == EINVAL)
			errx(EXIT_USAGE, "%s: not a key (@s @u @us @p @t @g @a, a serial or %%TYPE:DESC)", target);
		err(EXIT_USAGE, "%s", target);
	}
	if (type == EV_MOUNT || type == EV_SB) {
		if ((w->path = path_canon(target)) == NULL)
			err(EXIT_USAGE, "%s", target);
		if (type == EV_MOUNT && (stat(w->path, &stb) < 0 || !S_ISDIR(stb.st_mode)))
			errx(EXIT_USAGE, "%s: not a directory", target);
	}
	cfg->nwatches++;
}

/* A source word with no target after it: its default target, or an error. */
static void
end_source(struct config *cfg, const struct source_kind *k, bool had_target)
{
	if (k == NULL || had_target)
		return;
	if (k->default_target == NULL)
		errx(EXIT_USAGE, "%s needs at least one PATH", k->word);
	add_watch(cfg, k->type, k->default_target);
}

/* Turn the positional words after "wait" (if any) into watches. */
static void
parse_sources(struct config *cfg, char **args, size_t nargs)
{
	const struct source_kind *k = NULL, *next;
	bool had_target = true;
	size_t i;

	for (i = 0; i < nargs; i++) {
		if ((next = source_kind_find(args[i])) != NULL) {
			end_source(cfg, k, had_target);
			k = next;
			had_target = false;
			continue;
		}
		if (k == NULL)
			errx(EXIT_USAGE, "unknown source '%s' (%s)", args[i], source_words());
		add_watch(cfg, k->type, args[i]);
		had_target = true;
	}
	end_source(cfg, k, had_target);
}

static void
apply_events(struct config *cfg, struct cli_state *cs)
{
	unsigned typemask = 0;
	size_t i, k;
	bool remove, meta_asked = false;

	for (i = 0; i < cfg->nwatches; i++)
		typemask |= 1u << cfg->watches[i].type;
	if (cs->ninclude == 0) {
		for (i = 0; i < EV__NTYPES; i++)
			if (typemask & (1u << i))
				evset_add_type(&cfg->events, (enum ev_type)i);
		/* present records are asked for with --initial, not by default. */
		evset_apply_name(&cfg->events, "present", typemask, true);
	}
	for (k = 0; k < 2; k++) {
		const char **list = k ? cs->exclude : cs->include;
		size_t nlist = k ? cs->nexclude : cs->ninclude;

		remove = k == 1;
		for (i = 0; i < nlist; i++) {
			char *copy = xstrdup(list[i]), *tok, *save = NULL;

			if (*copy == '\0')
				errx(EXIT_USAGE, "%s: empty event list", remove ? "-E" : "-e");
			for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
				int r = evset_apply_name(&cfg->events, tok, typemask | 1u << EV_META, remove);

				if (r < 0)
					errx(EXIT_USAGE, "unknown event '%s' (see watchq(1), EVENTS)", tok);
				if (r == 0)
					errx(EXIT_USAGE, "event '%s' does not apply to the sources watched", tok);
				if (strcmp(tok, "loss") == 0 || strcmp(tok, "removal") == 0) {
					if (remove)
						errx(EXIT_USAGE, "event '%s' is always delivered and cannot be excluded", tok);
					meta_asked = true;
				}
			}
			free(copy);
		}
	}
	if (cfg->initial)
		evset_apply_name(&cfg->events, "present", typemask, false);
	evset_add_type(&cfg->events, EV_META);
	for (i = 0; i < EV__NTYPES; i++)
		if (i != EV_META && (typemask & (1u << i)) && evset_has_type(&cfg->events, (enum ev_type)i))
			break;
	/* -e loss alone asks for losses only; -E leaving nothing is a mistake. */
	if (i == EV__NTYPES && cfg->nwatches > 0 && !meta_asked)
		errx(EXIT_USAGE, "-E excludes every event of the sources watched");
	filter_compile(&cfg->filter, &cfg->events);
}

const char *
cli_cond_option(enum cond_kind kind)
{
	static const char *const names[] = {
		[COND_MOUNT] = "--mount", [COND_UNMOUNT] = "--unmount", [COND_READONLY] = "--readonly",
		[COND_WRITABLE] = "--writable", [COND_KEY] = "--key", [COND_NO_KEY] = "--no-key",
	};

	return names[kind];
}

/* Key conditions look in one keyring, which is then watched like a keys TARGET. */
static void
check_key_condition(struct config *cfg, struct cond *c, const char *keyring, bool *watched)
{
	char *colon;

	c->type = xstrdup(c->arg);
	if ((colon = strchr(c->type, ':')) == NULL || colon == c->type)
		errx(EXIT_USAGE, "%s %s: not TYPE:DESC", cli_cond_option(c->kind), c->arg);
	*colon = '\0';
	c->desc = colon + 1;
	if (!*watched) {
		add_watch(cfg, EV_KEY, keyring);
		*watched = true;
	}
	c->keyring = cfg->watches[cfg->nwatches - 1].key;
}

static void
check_conditions(struct config *cfg, const char *keyring)
{
	bool watched = false;
	size_t i;
	struct cond *c;

	for (i = 0; i < cfg->nconds; i++) {
		c = &cfg->conds[i];
		if (c->kind == COND_KEY || c->kind == COND_NO_KEY) {
			check_key_condition(cfg, c, keyring ? keyring : "@s", &watched);
			continue;
		}
		if (c->kind == COND_MOUNT || c->kind == COND_UNMOUNT)
			c->path = path_canon_lenient(c->arg);
		else
			c->path = path_canon(c->arg);
		if (c->path == NULL)
			err(EXIT_USAGE, "%s", c->arg);
		/* ext4's emergency read-only state changes no mount: its wake-up comes from the sb source. */
		if (c->kind == COND_READONLY || c->kind == COND_WRITABLE) {
			add_watch(cfg, EV_SB, c->arg);
			cfg->watches[cfg->nwatches - 1].internal = true;
		}
	}
	if (keyring && !watched)
		errx(EXIT_USAGE, "--keyring goes with --key or --no-key");
}

/* A forced backend must serve every source watched that has a choice of backends, and serve some source. */
static void
check_backend(const struct config *cfg)
{
	const struct source_kind *k, *first = NULL;
	bool served = false;

	if (cfg->backend == NULL)
		return;
	for (k = source_kinds; k->word; k++) {
		if (!(cfg->sources & (1u << k->type)))
			continue;
		if (first == NULL)
			first = k;
		if (source_backend_serves(cfg->backend, k->type)) {
			served = true;
			continue;
		}
		if (strcmp(backend_names(k), "auto") != 0)
			errx(EXIT_USAGE, "--backend=%s does not serve %s (%s)", cfg->backend->name, k->word,
			    backend_names(k));
	}
	if (!served && first)
		errx(EXIT_USAGE, "--backend=%s does not serve %s (it has one backend)", cfg->backend->name,
		    first->word);
}

void
cli_parse(struct config *cfg, int argc, char **argv)
{
	static const struct argp argp = { options, parse_opt, args_doc, doc, NULL, NULL, NULL };
	struct cli_state cs = { 0 };
	size_t i;
	char **args;

	/* Messages name the program, not the path it was started by. */
	program_invocation_name = program_invocation_short_name;
	if (argc > 0)
		argv[0] = program_invocation_short_name;
	memset(cfg, 0, sizeof(*cfg));
	cfg->out = OUT_TEXT;
	cfg->timefmt = "%Y-%m-%dT%H:%M:%S%z";
	cfg->backend = NULL;
	cfg->interval = 1.0;
	cfg->queue_size = 256;
	cs.cfg = cfg;
	cs.args = xcalloc((size_t)argc + 1, sizeof(char *));
	argp_parse(&argp, argc, argv, ARGP_NO_HELP, NULL, &cs);

	args = cs.args;
	if (cs.nargs > 0 && strcmp(args[0], "wait") == 0) {
		cfg->wait = true;
		args++;
		cs.nargs--;
	}
	if (!cfg->wait && cfg->nconds > 0)
		errx(EXIT_USAGE, "%s is a wait condition: use watchq wait %s",
		    cli_cond_option(cfg->conds[0].kind), cli_cond_option(cfg->conds[0].kind));
	if (!cfg->wait && cs.keyring)
		errx(EXIT_USAGE, "--keyring goes with wait --key or --no-key");
	if (cfg->wait) {
		if (cfg->initial)
			errx(EXIT_USAGE, "wait and --initial cannot be combined");
		if (cs.ninclude > 0 && cfg->nconds > 0)
			errx(EXIT_USAGE, "wait -e cannot be combined with state conditions (--mount, --unmount, --readonly, --writable, --key, --no-key)");
		if (cs.ninclude == 0 && cfg->nconds == 0)
			errx(EXIT_USAGE, "wait needs a condition: --mount, --unmount, --readonly, --writable, --key, --no-key or -e EVENT");
		if (cfg->nconds > 0 && cs.nargs > 0)
			errx(EXIT_USAGE, "state conditions take no SOURCE: '%s'", args[0]);
		if (cs.ninclude > 0 && cs.nargs == 0)
			errx(EXIT_USAGE, "wait -e needs a SOURCE, e.g. watchq wait -e unmount mounts /mnt");
		cfg->wait_event = cs.ninclude > 0;
		if (cfg->wait_event && cfg->count == 0)
			cfg->count = 1;
		check_conditions(cfg, cs.keyring);
	} else if (cs.nargs == 0) {
		errx(EXIT_USAGE, "no SOURCE given (%s); try watchq mounts /", source_words());
	}
	parse_sources(cfg, args, cs.nargs);
	for (i = 0; i < cfg->nconds; i++)
		if (cfg->conds[i].kind != COND_KEY && cfg->conds[i].kind != COND_NO_KEY)
			cfg->sources |= 1u << EV_MOUNT;
	for (i = 0; i < cfg->nwatches; i++)
		cfg->sources |= 1u << cfg->watches[i].type;
	if (cfg->has_space && !(cfg->sources & (1u << EV_SB)))
		errx(EXIT_USAGE, "--space-below applies to sb");
	if ((cfg->fstypes || cfg->source_dev) && cfg->nconds > 0)
		errx(EXIT_USAGE, "--fstype and --source filter mount events; state conditions do not use them");
	check_backend(cfg);
	for (i = 0; i < cfg->nwatches && cfg->watches[i].type != EV_KEY; i++)
		;
	if (cfg->recursive && i == cfg->nwatches)
		errx(EXIT_USAGE, "--recursive applies to keys");
	if (cfg->source_dev)
		cfg->source_real = path_canon(cfg->source_dev);
	apply_events(cfg, &cs);
	if (cs.ninclude > 0 && evset_has_event(&cfg->events, EV_SB, SB_LOWSPACE) && !cfg->has_space)
		errx(EXIT_USAGE, "lowspace needs --space-below=PERCENT%%|SIZE");
	free(cs.args);
}

void
cli_free(struct config *cfg)
{
	size_t i;

	for (i = 0; i < cfg->nwatches; i++)
		free(cfg->watches[i].path);
	for (i = 0; i < cfg->nconds; i++) {
		free(cfg->conds[i].path);
		free(cfg->conds[i].type);
	}
	free(cfg->fstypes);
	free(cfg->fstype_list);
	free(cfg->source_real);
}
