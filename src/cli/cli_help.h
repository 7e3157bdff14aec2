#ifndef WATCHQ_CLI_HELP_H
#define WATCHQ_CLI_HELP_H

#include <argp.h>

/*
 * What --help shows: the options of a run (APPLY_MONITOR, _WAIT or _LIST) and of the sources named
 * on the line, if any; 0 for every option. Set before options are parsed.
 */
extern unsigned cli_help_scope;

/*
 * What the words that are no options ask help for: the run of the first (a source's word is a
 * monitor's) and the sources named (APPLY_* bits), or 0 for everything.
 */
unsigned cli_help_scope_of(const char *first, unsigned named);
/* argp's help filter: the text that the tables of sources and backends give. */
char *cli_help_filter(int key, const char *text, void *input);
/*
 * -e help: every event name -e accepts, one line each with a source it comes with ("mounts
 * unmount", "keys loss"), each name once a source; exit 0. The completions offer these.
 */
void cli_help_event_names(void) __attribute__((noreturn));
/* Print --help (key 'h') or --usage for root, scoped to cli_help_scope, and exit 0. */
void cli_help_print(const struct argp *root, int key) __attribute__((noreturn));

#endif
