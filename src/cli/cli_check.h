#ifndef WATCHQ_CLI_CHECK_H
#define WATCHQ_CLI_CHECK_H

#include <stdbool.h>

#include "cli_options.h"
#include "config.h"

/*
 * The checks of a parsed command line beyond each option's own: each says what is wrong on one
 * line and exits 64. In the order cli_parse() calls them.
 */

/* Set the run mode from "wait" and the conditions, and say what does not go with it. */
void cli_check_wait(struct config *cfg, const struct cli_state *cs, bool wait, char **args);
/*
 * list prints the present state whole and exits: what waits, counts changes or chooses among them
 * does not apply.
 */
void cli_check_list(struct config *cfg, const struct cli_state *cs);
/* Options that go together only in some ways (-N, -T, --timefmt). */
void cli_check_applies(const struct config *cfg);
/* --keyctl goes with key changes alone: keyctl watch has no line for the rest. */
void cli_check_keyctl(const struct config *cfg);
/*
 * A forced backend must serve every source watched that has a choice of backends, and serve some
 * source.
 */
void cli_check_backend(const struct config *cfg);
/* --source as findmnt -S takes it; a tag no device has yet is said once, as it may come later. */
void cli_check_source(struct config *cfg);
/* Events asked for that cannot come, or cannot end a wait, are a mistake, said as one. */
void cli_check_events(const struct config *cfg, const struct cli_state *cs);
/*
 * Once the command line is known good, what is taken but may not mean what it looks like (an -O
 * item findmnt reads otherwise, inotifywait's --format '%w%f'): said once on stderr, not under -q.
 */
void cli_check_notes(const struct config *cfg);

#endif
