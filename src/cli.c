#include <argp.h>
#include <ctype.h>
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "buf.h"
#include "cli.h"
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

enum {
	OPT_FORMAT = 0x100,
	OPT_TIMEFMT,
	OPT_INITIAL,
	OPT_FSTYPE,
	OPT_BACKEND,
	OPT_INTERVAL,
	OPT_QUEUE_SIZE,
	OPT_NO_BPF,
	OPT_KEYRING,
	OPT_RECURSIVE,
	OPT_SPACE_BELOW,
	OPT_USAGE,
	OPT_JOURNAL,
	OPT_TARGET,
	OPT_PATH_RE,	/* --include; + 1: --includei; + 2: --exclude; + 3: --excludei */
	OPT_COND = OPT_PATH_RE + 4,	/* the wait conditions: OPT_COND + enum cond_kind */
	OPT__END = OPT_COND + COND__N,
};

/* After \v, cli_help_post() puts the sources and their events (from the tables) first. */
static const char doc[] =
    "Watch kernel notifications: mount topology, superblock health, keys."
    "\v"
    "Exit status: 0 condition met, --count reached, list written whole or clean end; 1 runtime "
    "error, or a list mounts DIR with nothing to list; 2 --timeout expired; 3 a watched object went away; 64 usage "
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
	{ "target", OPT_TARGET, NULL, 0,
	    "list mounts: the mount that holds each DIR, as findmnt -T", 1 },
	{ NULL, 0, NULL, 0, "Ending:", 2 },
	{ "timeout", 't', "SECONDS", 0,
	    "Exit 2 when SECONDS (fractions allowed) have passed since start", 2 },
	{ "count", 'n', "N", 0, "Exit 0 after N events", 2 },
	{ NULL, 0, NULL, 0, "Filters:", 3 },
	{ "fstype", OPT_FSTYPE, "LIST", 0, "Only these filesystem types (noLIST: all but)", 3 },
	{ "source", 'S', "DEV", 0,
	    "Only mounts of this device or source "
	    "(LABEL=, UUID=, PARTUUID=, PARTLABEL=, MAJ:MIN too)", 3 },
	{ "options", 'O', "LIST", 0,
	    "Only mounts with all these options, as findmnt -O (noX: without X)", 3 },
	{ "include", OPT_PATH_RE, "REGEX", 0,
	    "Only events whose path (or old path) matches this extended regex (repeatable)", 3 },
	{ "includei", OPT_PATH_RE + 1, "REGEX", 0, "As --include, ignoring case", 3 },
	{ "exclude", OPT_PATH_RE + 2, "REGEX", 0,
	    "No events whose path matches this extended regex (repeatable; wins over --include)",
	    3 },
	{ "excludei", OPT_PATH_RE + 3, "REGEX", 0, "As --exclude, ignoring case", 3 },
	{ "ns", 'N', "PID|NSFILE|all", 0,
	    "mounts: watch this mount namespace instead of ours (repeatable); all: every one, "
	    "as they appear", 3 },
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
	{ "mounted", OPT_COND + COND_MOUNTED, "SPEC", 0,
	    "Until SPEC (as --source takes it) is mounted at or below the mounts DIRs "
	    "(default /); print that mount", 5 },
	{ "unmounted", OPT_COND + COND_UNMOUNTED, "SPEC", 0,
	    "Until no mount of SPEC is left at or below the mounts DIRs", 5 },
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

/*
 * What an option applies to: the runs it goes with, and, for an option of some sources only, their
 * types' bits. watchq SOURCE --help, wait --help and list --help show what applies there, and an
 * option given where it does not apply is a usage error: one table says both.
 */
enum {
	APPLY_MOUNTS = 1u << EV_MOUNT,
	APPLY_KEYS = 1u << EV_KEY,
	APPLY_SB = 1u << EV_SB,
	APPLY_SOURCES = APPLY_MOUNTS | APPLY_KEYS | APPLY_SB,
	APPLY_MONITOR = 1u << EV__NTYPES,
	APPLY_STATE = APPLY_MONITOR << 1,	/* wait with state conditions */
	APPLY_EVENT = APPLY_MONITOR << 2,	/* wait -e EVENT SOURCE */
	APPLY_LIST = APPLY_MONITOR << 3,
	APPLY_WAIT = APPLY_STATE | APPLY_EVENT,
	APPLY_RUNS = APPLY_MONITOR | APPLY_WAIT | APPLY_LIST,
};

/*
 * Beside options, one row each (the wait conditions are the state wait's by their key range,
 * --backend the sources' with a choice of backends): an option with no row applies nowhere, and
 * tests/cli.bats finds it missing from every scoped --help.
 */
static const struct option_scope {
	int key;
	unsigned applies;
} option_scopes[] = {
	{ 'e', APPLY_MONITOR | APPLY_EVENT },
	{ 'E', APPLY_MONITOR | APPLY_EVENT },
	{ 'j', APPLY_RUNS },
	{ OPT_FORMAT, APPLY_RUNS },
	{ OPT_TIMEFMT, APPLY_RUNS },
	{ 'T', APPLY_RUNS },
	{ 'o', APPLY_RUNS },
	{ OPT_JOURNAL, APPLY_RUNS },
	{ 'q', APPLY_RUNS },
	{ '0', APPLY_RUNS },
	{ 'm', APPLY_MONITOR },
	{ OPT_INITIAL, APPLY_MONITOR },
	{ OPT_TARGET, APPLY_MOUNTS | APPLY_LIST },
	{ 't', APPLY_MONITOR | APPLY_WAIT },
	{ 'n', APPLY_MONITOR | APPLY_EVENT },
	{ OPT_FSTYPE, APPLY_MOUNTS | APPLY_MONITOR | APPLY_EVENT | APPLY_LIST },
	{ 'S', APPLY_MOUNTS | APPLY_MONITOR | APPLY_EVENT | APPLY_LIST },
	{ 'O', APPLY_MOUNTS | APPLY_MONITOR | APPLY_EVENT | APPLY_LIST },
	{ OPT_PATH_RE, APPLY_MOUNTS | APPLY_SB | APPLY_MONITOR | APPLY_EVENT | APPLY_LIST },
	{ OPT_PATH_RE + 1, APPLY_MOUNTS | APPLY_SB | APPLY_MONITOR | APPLY_EVENT | APPLY_LIST },
	{ OPT_PATH_RE + 2, APPLY_MOUNTS | APPLY_SB | APPLY_MONITOR | APPLY_EVENT | APPLY_LIST },
	{ OPT_PATH_RE + 3, APPLY_MOUNTS | APPLY_SB | APPLY_MONITOR | APPLY_EVENT | APPLY_LIST },
	{ 'N', APPLY_MOUNTS | APPLY_RUNS },
	/* --key and --no-key look in the --keyring itself. */
	{ OPT_RECURSIVE, APPLY_KEYS | APPLY_MONITOR | APPLY_EVENT | APPLY_LIST },
	{ OPT_SPACE_BELOW, APPLY_SB | APPLY_MONITOR | APPLY_EVENT },
	/* The key poll, sb lowspace, and sb readonly without error events (--readonly too). */
	{ OPT_INTERVAL, APPLY_KEYS | APPLY_SB | APPLY_MONITOR | APPLY_WAIT },
	/* A loss in a state wait is re-read and changes no answer. */
	{ OPT_QUEUE_SIZE, APPLY_KEYS | APPLY_MONITOR | APPLY_EVENT },
	/* The capture names who made a change: state waits and list print no change. */
	{ OPT_NO_BPF, APPLY_MOUNTS | APPLY_MONITOR | APPLY_EVENT },
	{ OPT_KEYRING, APPLY_STATE },
	{ 'h', APPLY_RUNS },
	{ OPT_USAGE, APPLY_RUNS },
	{ 'V', APPLY_RUNS },
	{ 0, 0 },
};

/*
 * What --help shows: the options of a run (APPLY_MONITOR, _WAIT or _LIST) and of the sources named
 * on the line, if any; 0 for every option.
 */
static unsigned cli_help_scope;

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
	bool ns_all;		/* -N all */
	bool given[OPT__END];	/* by key: the options on the command line */
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

/* The option whose long name is the n bytes at name, whole: never a prefix of it. */
static const struct argp_option *
cli_find_long(const char *name, size_t n)
{
	const struct argp_option *o;

	for (o = options; o->name || o->doc; o++)
		if (o->name && strncmp(o->name, name, n) == 0 && o->name[n] == '\0')
			return o;
	return NULL;
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

/* Say that the long option word opt names no option, with the nearest ones, and exit 64. */
static void __attribute__((noreturn))
cli_unknown_long(const char *opt)
{
	const struct argp_option *o;
	struct suggest s;
	struct buf b = { 0 };
	char *name = xstrdup(opt + 2);
	const struct habit *h;

	name[strcspn(name, "=")] = '\0';
	if ((h = habits_long(name, strlen(name))) != NULL)
		errx(EXIT_USAGE, "--%s is %s: %s", escape_arg(name), h->is, h->text);
	suggest_init(&s, name);
	for (o = options; o->name || o->doc; o++)
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
		o = cli_find_long(opt + 2, n);
		if (o && o->arg && opt[2 + n] != '=')
			errx(EXIT_USAGE, "option '--%s' needs %s", o->name, o->arg);
		if (o && !o->arg && opt[2 + n] == '=')
			errx(EXIT_USAGE, "option '--%s' takes no argument", o->name);
		cli_unknown_long(opt);
	}
	for (p = opt + 1; *p && (o = cli_find_short((unsigned char)*p)) != NULL && !o->arg; p++)
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
			o = cli_find_long(w + 2, n);
			/* Its argument is the next word. */
			if (o && o->arg && w[2 + n] == '\0' && ++i >= argc)
				o = NULL;
		} else {
			for (k = 1; w[k] && (o = cli_find_short((unsigned char)w[k])) != NULL &&
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

/*
 * What the words that are no options ask help for: the run of the first (a source's word is a
 * monitor's) and the sources named, or 0 for everything.
 */
static unsigned
cli_scope_of(const char *first, unsigned named)
{
	if (first == NULL)
		return 0;
	if (strcmp(first, "wait") == 0)
		return APPLY_WAIT | named;
	if (strcmp(first, "list") == 0)
		return APPLY_LIST | named;
	return source_find(first) != NULL ? APPLY_MONITOR | named : 0;
}

/* What option o applies to (APPLY_*). */
static unsigned
cli_applies(const struct argp_option *o)
{
	const struct option_scope *sc;
	const struct backend *be;
	unsigned applies = APPLY_RUNS;

	if (o->key >= OPT_COND && o->key < OPT_COND + COND__N)
		return APPLY_STATE;
	/* --backend: the sources with a choice of backends. */
	if (o->key == OPT_BACKEND) {
		for (be = source_backends; be->name; be++)
			applies |= be->choosable ? 1u << be->type : 0;
		return applies;
	}
	for (sc = option_scopes; sc->key; sc++)
		if (sc->key == o->key)
			return sc->applies;
	return 0;
}

/*
 * Whether --help in scope shows o: it goes with that run and, if it is of some sources only, with a
 * source named; with none named, with a source that list or a monitor may watch, or that a wait's
 * conditions open (wait -e's SOURCE, not named yet, could be any).
 */
static bool
cli_help_shows(const struct argp_option *o, unsigned scope)
{
	unsigned a = cli_applies(o), named = scope & APPLY_SOURCES;

	if (!(a & scope & APPLY_RUNS))
		return false;
	if (!(a & APPLY_SOURCES))
		return true;
	if (named)
		return a & named;
	return a & scope & (APPLY_RUNS & ~APPLY_EVENT);
}

/* The options that apply to scope, each group's header with them, ended as options is. */
static const struct argp_option *
cli_scoped_options(unsigned scope)
{
	static struct argp_option out[sizeof(options) / sizeof(options[0])];
	const struct argp_option *o, *p;
	size_t n = 0;
	bool keep = false;

	for (o = options; o->name || o->doc; o++) {
		if (o->name == NULL && o->key == 0) {
			for (keep = false, p = options; p->name || p->doc; p++)
				keep |= p->name && p->group == o->group && cli_help_shows(p, scope);
		} else if (!(o->flags & OPTION_ALIAS)) {
			keep = cli_help_shows(o, scope);
		}
		if (keep)
			out[n++] = *o;
	}
	return out;
}

/* The events of source k, each name with its aliases beside it, and the aliases of several. */
static void
cli_help_events(struct buf *b, const struct event_source *k)
{
	const struct event_name *n, *a;
	const char *sep = "";

	for (n = event_names; n->name; n++) {
		if (n->type != k->type || event_is_present(&(struct event){ .type = n->type,
		    .subtype = n->subtype }) || event_alias_of(n) != NULL)
			continue;
		if (event_name_first(n) == n) {
			buf_addf(b, "%s%s", sep, n->name);
			sep = " (";
			for (a = n + 1; a->name; a++)
				if (a->type == n->type && event_name_first(a) == n &&
				    event_alias_of(a) != NULL) {
					buf_addf(b, "%s%s", sep, a->name);
					sep = ", ";
				}
			buf_adds(b, sep[0] == ',' ? ")" : "");
		} else if (strcmp(n->name, n[-1].name) != 0) {
			buf_addf(b, "%s%s", sep, n->name);
			sep = " (";
			for (a = n; a->name; a++)
				if (a->type == n->type && strcmp(a->name, n->name) == 0) {
					buf_addf(b, "%s%s", sep, event_name_first(a)->name);
					sep = ", ";
				}
			buf_adds(b, ")");
		}
		sep = ", ";
	}
}

/* --help's text after the options: what SOURCE is and the events of the sources in scope. */
static char *
cli_help_post(const char *text)
{
	const struct event_source *k;
	struct buf b = { 0 };
	unsigned scope = cli_help_scope & APPLY_SOURCES ? cli_help_scope : APPLY_SOURCES;

	for (k = event_sources; k->type != EV_META; k++) {
		if (!(scope & (1u << k->type)))
			continue;
		buf_adds(&b, b.len == 0 ? "SOURCE is " : k[1].type != EV_META ? ", " : " or ");
		buf_adds(&b, k->word);
		if (k->default_target)
			buf_addf(&b, " [TARGET...] (default %s)", k->default_target);
		else
			buf_adds(&b, " TARGET...");
	}
	buf_adds(&b, "; several sources may follow one another.");
	if ((cli_help_scope & APPLY_WAIT) && !(cli_help_scope & APPLY_SOURCES))
		buf_adds(&b, " wait -e EVENT SOURCE also takes that source's own options: "
		    "watchq wait SOURCE --help lists them.");
	for (k = event_sources; k->name && !(cli_help_scope & APPLY_LIST); k++) {
		if (k->type == EV_META || scope & (1u << k->type)) {
			buf_addf(&b, k->type == EV_META ? " Always delivered: " : " Events of %s: ",
			    k->word);
			cli_help_events(&b, k);
			buf_addc(&b, '.');
		}
	}
	if (!(cli_help_scope & (APPLY_WAIT | APPLY_LIST)))
		buf_adds(&b, " --initial adds present to each.");
	if (!(cli_help_scope & APPLY_LIST))
		buf_adds(&b, " Names ignore case.");
	buf_addf(&b, "\n\n%s", text);
	return b.data;
}

/* --help's text that the tables of sources and backends give, rather than a copy of them. */
static char *
cli_help_filter(int key, const char *text, void *input)
{
	const struct event_source *k = NULL;
	struct buf b = { 0 };
	const char *line;

	if (key == OPT_BACKEND) {
		for (k = event_sources;
		     k->type != EV_META && (cli_help_scope & APPLY_SOURCES) != 1u << k->type; k++)
			;
		buf_adds(&b, cli_backend_names(k->type != EV_META ? k : NULL));
		return b.data;
	}
	/* The usage line of the verb asked about: "wait ..." or "list ...", else the first. */
	if (key == ARGP_KEY_HELP_ARGS_DOC && (cli_help_scope & (APPLY_WAIT | APPLY_LIST))) {
		line = strstr(text, cli_help_scope & APPLY_WAIT ? "\nwait " : "\nlist ");
		if (line == NULL)
			return (char *)text;
		buf_add(&b, line + 1, strcspn(line + 1, "\n"));
		return b.data;
	}
	if (key == ARGP_KEY_HELP_ARGS_DOC && cli_help_scope != 0) {
		buf_add(&b, text, strcspn(text, "\n"));
		return b.data;
	}
	if (key != ARGP_KEY_HELP_POST_DOC || text == NULL)
		return (char *)text;
	return cli_help_post(text);
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
	case '0':
		cfg->null = true;
		break;
	case 'm':
		cs->monitor = true;
		break;
	case OPT_INITIAL:
		cfg->initial = true;
		break;
	case OPT_TARGET:
		cfg->list_target = true;
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
	struct argp help;

	if (key > 0 && key < OPT__END)
		cs->given[key] = true;
	switch (key) {
	case 'h':
	case OPT_USAGE:
		/* argp_state_help() prints nothing under ARGP_NO_ERRS. */
		help = *st->root_argp;
		if (cli_help_scope != 0)
			help.options = cli_scoped_options(cli_help_scope);
		argp_help(&help, stdout, key == 'h' ? ARGP_HELP_STD_HELP : ARGP_HELP_USAGE,
		    program_invocation_short_name);
		exit(EXIT_OK);
	case 'V':
		version_print(stdout);
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
	if ((cfg->fstypes || cfg->source_dev || cfg->optlist || cfg->paths.n > 0) &&
	    cfg->mode == MODE_WAIT_STATE)
		errx(EXIT_USAGE,
		    "--fstype, --source, --options, --include and --exclude filter events; "
		    "state conditions do not use them");
	if (cfg->has_space && !(cfg->sources & (1u << EV_SB)))
		errx(EXIT_USAGE, "--space-below applies to sb");
	if (cfg->fstypes && !cli_watches_type(cfg, EV_MOUNT))
		errx(EXIT_USAGE, "--fstype applies to mounts");
	if (cfg->source_dev && !cli_watches_type(cfg, EV_MOUNT))
		errx(EXIT_USAGE, "--source applies to mounts");
	if (cfg->optlist && !cli_watches_type(cfg, EV_MOUNT))
		errx(EXIT_USAGE, "--options applies to mounts");
	if (cfg->paths.n > 0 && !cli_watches_type(cfg, EV_MOUNT) && !cli_watches_type(cfg, EV_SB))
		errx(EXIT_USAGE,
		    "--include and --exclude apply to mounts and sb (a key has no path)");
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
	/* -T is --timestamps here: findmnt's -T is this long option alone. */
	if (cfg->list_target && cfg->mode != MODE_LIST)
		errx(EXIT_USAGE, "--target goes with list: watchq list --target mounts DIR prints "
		    "the mount that holds DIR, as findmnt -T");
	if (cfg->list_target && !cli_watches_type(cfg, EV_MOUNT))
		errx(EXIT_USAGE, "--target applies to mounts (sb PATH names the filesystem that "
		    "holds PATH already)");
	if (cfg->recursive && !cli_watches_type(cfg, EV_KEY))
		errx(EXIT_USAGE, "--recursive applies to keys");
	if (cfg->timestamps && cfg->format_kind != OUT_TEXT)
		errx(EXIT_USAGE,
		    "-T applies to text output: use %%T in --format; JSON has a time field");
	if (cfg->timefmt && !cfg->timestamps &&
	    !(cfg->format_kind == OUT_FORMAT && output_format_uses(cfg->format, 'T')))
		errx(EXIT_USAGE, "--timefmt applies to -T and to %%T in --format");
}

/* "mounts", "keys and sb": the sources of the APPLY_* bits in applies. */
static const char *
cli_source_words(unsigned applies)
{
	static char words[64];
	const struct event_source *k;
	size_t n = 0, all = 0, i = 0;

	for (k = event_sources; k->type != EV_META; k++)
		all += (applies >> k->type) & 1;
	for (k = event_sources; k->type != EV_META; k++) {
		if (!((applies >> k->type) & 1) || n >= sizeof(words))
			continue;
		i++;
		n += (size_t)snprintf(words + n, sizeof(words) - n, "%s%s",
		    i == 1 ? "" : i == all ? " and " : ", ", k->word);
	}
	return words;
}

/*
 * After the checks that say more: an option given where option_scopes says it does not apply, as
 * --help leaves it out there, is a usage error. (--backend, --keyring and the wait conditions have
 * checks of their own.)
 */
static void
cli_check_scopes(const struct config *cfg, const struct cli_state *cs)
{
	static const char *const runs[] = { "a monitor", "state conditions", "wait -e", "list" };
	const struct argp_option *o;
	unsigned run, watched = 0, a;
	size_t i, r;

	r = cfg->mode == MODE_WAIT_STATE ? 1 : cfg->mode == MODE_WAIT_EVENT ? 2 :
	    cfg->mode == MODE_LIST ? 3 : 0;
	run = APPLY_MONITOR << r;
	for (i = 0; i < cfg->nwatches; i++)
		watched |= cfg->watches[i].internal ? 0 : 1u << cfg->watches[i].type;
	/* A state wait's conditions open the sources they need. */
	if (cfg->mode == MODE_WAIT_STATE)
		watched |= cfg->sources;
	for (o = options; o->name || o->doc; o++) {
		if (o->name == NULL || (o->flags & OPTION_ALIAS) || o->key <= 0 ||
		    o->key >= OPT__END || !cs->given[o->key] || o->key == OPT_BACKEND ||
		    o->key == OPT_KEYRING || o->key >= OPT_COND)
			continue;
		a = cli_applies(o);
		if (!(a & run))
			errx(EXIT_USAGE, "--%s does not apply to %s", o->name, runs[r]);
		if ((a & APPLY_SOURCES) && !(a & watched))
			errx(EXIT_USAGE, "--%s applies to %s", o->name,
			    cli_source_words(a & APPLY_SOURCES));
	}
}

/*
 * Once the command line is known good, what is taken but may not mean what it looks like: an -O
 * item findmnt reads otherwise, inotifywait's --format '%w%f'.
 */
static void
cli_note_options(const struct config *cfg)
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
		    "--journal, -T, -0 and -o do not apply (wait -e EVENT prints what it waited "
		    "for, --mounted the mount it found)");
	if (cfg->count > 0)
		errx(EXIT_USAGE,
		    "state conditions end when they hold: -n does not apply");
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
	cli_help_scope = cli_scope_of(first, named);
	if (bad)
		cli_bad_option(bad);
	argp_parse(&argp, argc, argv, ARGP_NO_HELP | ARGP_NO_ERRS, NULL, &cs);
	if (cs.journal && (cfg->format_kind != OUT_TEXT || cfg->output_path))
		errx(EXIT_USAGE, "--journal cannot be combined with --json, --format or --output");
	if (cs.journal)
		cfg->format_kind = OUT_JOURNAL;

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
	for (i = 0; i < cfg->nconds; i++)
		cfg->sources |= wait_kinds[cfg->conds[i].kind].sources;
	for (i = 0; i < cfg->nwatches; i++)
		cfg->sources |= 1u << cfg->watches[i].type;
	cli_check_applies(cfg);
	cli_check_scopes(cfg, &cs);
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
	cli_note_options(cfg);
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
