#include <ctype.h>
#include <err.h>
#include <stdio.h>
#include <string.h>

#include "cli_options.h"
#include "exit.h"
#include "source.h"
#include "wait.h"

const struct argp_option cli_options[] = {
	{ NULL, 0, NULL, 0, "Events and output:", 1 },
	{ "event", 'e', "LIST", 0,
	    "Report only these events (comma list, repeatable; help: list them)", 1 },
	{ "exclude-event", 'E', "LIST", 0, "Do not report these events", 1 },
	{ "json", 'j', NULL, 0, "Print one JSON object per line", 1 },
	{ "format", OPT_FORMAT, "FMT", 0, "Print events with %-escapes (see watchq(1))", 1 },
	{ "timefmt", OPT_TIMEFMT, "FMT", 0, "strftime(3) format for %T and -T", 1 },
	{ "timestamps", 'T', NULL, 0, "Prefix each text line with the time", 1 },
	{ "output", 'o', "FILE", 0, "Append events to FILE instead of stdout", 1 },
	{ "keyctl", OPT_KEYCTL, NULL, 0,
	    "keys: print each event as keyctl watch does (ID upd, ID link KEY, -- LOSS --)", 1 },
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
	{ "follow", OPT_FOLLOW, NULL, 0,
	    "keys: also watch the keys linked in watched keyrings, then and later, for their own "
	    "changes", 3 },
	{ "space-below", OPT_SPACE_BELOW, "PERCENT%|SIZE", 0,
	    "sb: report lowspace when less is available (polled every --interval)", 3 },
	{ NULL, 0, NULL, 0, "Backends:", 4 },
	{ "backend", OPT_BACKEND, "NAME", 0, "", 4 },	/* the names: cli_help_filter() */
	{ "interval", OPT_INTERVAL, "SECONDS", 0, "Period of polled backends (default 1)", 4 },
	{ "queue-size", OPT_QUEUE_SIZE, "N", 0,
	    "Kernel notification queue size, 1-512 (default 256)", 4 },
	{ "no-bpf", OPT_NO_BPF, NULL, 0,
	    "mounts, sb: do not load the BPF capture that names the process behind each change",
	    4 },
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
 * Beside options, one row each (the wait conditions are the state wait's by their key range,
 * --backend the sources' with a choice of backends): an option with no row applies nowhere, and
 * tests/cli.bats finds it missing from every scoped --help.
 */
#define FILTERS	"--fstype, --source, --options, --include and --exclude filter events; " \
	"state conditions do not use them"
#define PATHS	"--include and --exclude apply to mounts and sb (a key has no path)"

static const struct option_scope {
	int key;
	unsigned applies;
	const char *not_run;	/* said where the run is not one of applies; NULL: the words */
	const char *not_source;	/* said where none of its sources is watched; NULL: the words */
} option_scopes[] = {
	{ .key = 'e', .applies = APPLY_MONITOR | APPLY_EVENT },
	{ .key = 'E', .applies = APPLY_MONITOR | APPLY_EVENT },
	{ .key = 'j', .applies = APPLY_RUNS },
	{ .key = OPT_FORMAT, .applies = APPLY_RUNS },
	{ .key = OPT_TIMEFMT, .applies = APPLY_RUNS },
	{ .key = 'T', .applies = APPLY_RUNS },
	{ .key = 'o', .applies = APPLY_RUNS },
	{ .key = OPT_JOURNAL, .applies = APPLY_RUNS },
	/* keyctl watch has no words for present records, mounts or sb: cli_check_keyctl(). */
	{ .key = OPT_KEYCTL, .applies = APPLY_KEYS | APPLY_MONITOR | APPLY_EVENT,
	    .not_run = "--keyctl prints changes as keyctl watch does: list and state conditions "
	    "print none (list --json has each key's perm, uid and gid)" },
	{ .key = 'q', .applies = APPLY_RUNS },
	{ .key = '0', .applies = APPLY_RUNS },
	{ .key = 'm', .applies = APPLY_MONITOR },
	{ .key = OPT_INITIAL, .applies = APPLY_MONITOR },
	/* -T is --timestamps here: findmnt's -T is this long option alone. */
	{ .key = OPT_TARGET, .applies = APPLY_MOUNTS | APPLY_LIST,
	    .not_run = "--target goes with list: watchq list --target mounts DIR prints the mount that "
	    "holds DIR, as findmnt -T",
	    .not_source = "--target applies to mounts (sb PATH names the filesystem that holds "
	    "PATH already)" },
	{ .key = 't', .applies = APPLY_MONITOR | APPLY_WAIT },
	{ .key = 'n', .applies = APPLY_MONITOR | APPLY_EVENT },
	{ .key = OPT_FSTYPE, .applies = APPLY_MOUNTS | APPLY_MONITOR | APPLY_EVENT | APPLY_LIST,
	    .not_run = FILTERS },
	{ .key = 'S', .applies = APPLY_MOUNTS | APPLY_MONITOR | APPLY_EVENT | APPLY_LIST,
	    .not_run = FILTERS },
	{ .key = 'O', .applies = APPLY_MOUNTS | APPLY_MONITOR | APPLY_EVENT | APPLY_LIST,
	    .not_run = FILTERS },
	{ .key = OPT_PATH_RE,
	    .applies = APPLY_MOUNTS | APPLY_SB | APPLY_MONITOR | APPLY_EVENT | APPLY_LIST,
	    .not_run = FILTERS, .not_source = PATHS },
	{ .key = OPT_PATH_RE + 1,
	    .applies = APPLY_MOUNTS | APPLY_SB | APPLY_MONITOR | APPLY_EVENT | APPLY_LIST,
	    .not_run = FILTERS, .not_source = PATHS },
	{ .key = OPT_PATH_RE + 2,
	    .applies = APPLY_MOUNTS | APPLY_SB | APPLY_MONITOR | APPLY_EVENT | APPLY_LIST,
	    .not_run = FILTERS, .not_source = PATHS },
	{ .key = OPT_PATH_RE + 3,
	    .applies = APPLY_MOUNTS | APPLY_SB | APPLY_MONITOR | APPLY_EVENT | APPLY_LIST,
	    .not_run = FILTERS, .not_source = PATHS },
	{ .key = 'N', .applies = APPLY_MOUNTS | APPLY_RUNS },
	/* --key and --no-key look in the --keyring itself. */
	{ .key = OPT_RECURSIVE, .applies = APPLY_KEYS | APPLY_MONITOR | APPLY_EVENT | APPLY_LIST },
	/* A listing shows the keys linked in a keyring already: there is no change to follow. */
	{ .key = OPT_FOLLOW, .applies = APPLY_KEYS | APPLY_MONITOR | APPLY_EVENT,
	    .not_run = "--follow reports the changes of keys linked in a watched keyring: list "
	    "prints those keys already, and --key and --no-key look in the --keyring itself" },
	{ .key = OPT_SPACE_BELOW, .applies = APPLY_SB | APPLY_MONITOR | APPLY_EVENT },
	/* The key poll, sb lowspace, and sb readonly without error events (--readonly too). */
	{ .key = OPT_INTERVAL, .applies = APPLY_KEYS | APPLY_SB | APPLY_MONITOR | APPLY_WAIT },
	/* A loss in a state wait is re-read and changes no answer. */
	{ .key = OPT_QUEUE_SIZE, .applies = APPLY_KEYS | APPLY_MONITOR | APPLY_EVENT },
	/* The capture names who made a change: state waits and list print no change. */
	{ .key = OPT_NO_BPF, .applies = APPLY_MOUNTS | APPLY_SB | APPLY_MONITOR | APPLY_EVENT },
	{ .key = OPT_KEYRING, .applies = APPLY_STATE },
	{ .key = 'h', .applies = APPLY_RUNS },
	{ .key = OPT_USAGE, .applies = APPLY_RUNS },
	{ .key = 'V', .applies = APPLY_RUNS },
	{ .key = 0 },
};

/* The row of key in option_scopes, or NULL. */
static const struct option_scope *
cli_options_scope(int key)
{
	const struct option_scope *sc;

	for (sc = option_scopes; sc->key; sc++)
		if (sc->key == key)
			return sc;
	return NULL;
}

unsigned
cli_options_applies(const struct argp_option *o)
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
	return (sc = cli_options_scope(o->key)) != NULL ? sc->applies : 0;
}

const struct argp_option *
cli_options_long(const char *name, size_t n)
{
	const struct argp_option *o;

	for (o = cli_options; o->name || o->doc; o++)
		if (o->name && strncmp(o->name, name, n) == 0 && o->name[n] == '\0')
			return o;
	return NULL;
}

const struct argp_option *
cli_options_short(int c)
{
	const struct argp_option *o;

	for (o = cli_options; o->name || o->doc; o++)
		if (o->key == c && isascii(c) && isalnum(c))
			return o;
	return NULL;
}

const char *
cli_options_backends(const struct event_source *k)
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

/* (--backend, --keyring and the wait conditions have checks of their own, in cli_check.c.) */
void
cli_options_check(const struct config *cfg, const struct cli_state *cs)
{
	static const char *const runs[] = { "a monitor", "state conditions", "wait -e", "list" };
	const struct argp_option *o;
	const struct option_scope *sc;
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
	for (o = cli_options; o->name || o->doc; o++) {
		if (o->name == NULL || (o->flags & OPTION_ALIAS) || o->key <= 0 ||
		    o->key >= OPT__END || !cs->given[o->key] || o->key == OPT_BACKEND ||
		    o->key == OPT_KEYRING || o->key >= OPT_COND)
			continue;
		a = cli_options_applies(o);
		sc = cli_options_scope(o->key);
		if (!(a & run) && sc && sc->not_run)
			errx(EXIT_USAGE, "%s", sc->not_run);
		if (!(a & run))
			errx(EXIT_USAGE, "--%s does not apply to %s", o->name, runs[r]);
		if ((a & APPLY_SOURCES) && !(a & watched) && sc && sc->not_source)
			errx(EXIT_USAGE, "%s", sc->not_source);
		if ((a & APPLY_SOURCES) && !(a & watched))
			errx(EXIT_USAGE, "--%s applies to %s", o->name,
			    cli_source_words(a & APPLY_SOURCES));
	}
}
