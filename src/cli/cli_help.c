#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "cli_help.h"
#include "cli_options.h"
#include "exit.h"
#include "source.h"

unsigned cli_help_scope;

unsigned
cli_help_scope_of(const char *first, unsigned named)
{
	if (first == NULL)
		return 0;
	if (strcmp(first, "wait") == 0)
		return APPLY_WAIT | named;
	if (strcmp(first, "list") == 0)
		return APPLY_LIST | named;
	return source_find(first) != NULL ? APPLY_MONITOR | named : 0;
}

/*
 * Whether --help in scope shows o: it goes with that run and, if it is of some sources only, with a
 * source named; with none named, with a source that list or a monitor may watch, or that a wait's
 * conditions open (wait -e's SOURCE, not named yet, could be any).
 */
static bool
cli_help_shows(const struct argp_option *o, unsigned scope)
{
	unsigned a = cli_options_applies(o), named = scope & APPLY_SOURCES;

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
cli_help_scoped(unsigned scope)
{
	static struct argp_option out[OPT__END];
	const struct argp_option *o, *p;
	size_t n = 0;
	bool keep = false;

	for (o = cli_options; o->name || o->doc; o++) {
		if (o->name == NULL && o->key == 0) {
			for (keep = false, p = cli_options; p->name || p->doc; p++)
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

char *
cli_help_filter(int key, const char *text, void *input)
{
	const struct event_source *k = NULL;
	struct buf b = { 0 };
	const char *line;

	if (key == OPT_BACKEND) {
		for (k = event_sources;
		     k->type != EV_META && (cli_help_scope & APPLY_SOURCES) != 1u << k->type; k++)
			;
		buf_adds(&b, cli_options_backends(k->type != EV_META ? k : NULL));
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

void
cli_help_print(const struct argp *root, int key)
{
	struct argp help = *root;

	if (cli_help_scope != 0)
		help.options = cli_help_scoped(cli_help_scope);
	argp_help(&help, stdout, key == 'h' ? ARGP_HELP_STD_HELP : ARGP_HELP_USAGE,
	    program_invocation_short_name);
	exit(EXIT_OK);
}

/* Whether the event name n comes with the source of type t. */
static bool
cli_help_event_with(const struct event_name *n, enum ev_type t)
{
	if (n->type == EV_META)
		return n->with == 0 || (n->with & 1u << t);
	return n->type == t;
}

void
cli_help_event_names(void)
{
	const struct event_source *k;
	const struct event_name *n, *m;

	for (k = event_sources; k->type != EV_META; k++)
		for (n = event_names; n->name; n++) {
			if (!cli_help_event_with(n, k->type))
				continue;
			/* Once: remount names three rows. */
			for (m = event_names; m != n; m++)
				if (cli_help_event_with(m, k->type) &&
				    strcmp(m->name, n->name) == 0)
					break;
			if (m == n)
				printf("%s %s\n", k->word, n->name);
		}
	exit(fflush(stdout) == 0 && !ferror(stdout) ? EXIT_OK : EXIT_ERROR);
}
