#ifndef WATCHQ_FILTER_H
#define WATCHQ_FILTER_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event.h"
#include "evset.h"

/*
 * The kernel's watch_queue filter semantics: a record passes if some entry
 * has its type, its subtype bit set, and (info & info_mask) == info_value.
 * filter_compile() turns an evset into the fewest such entries.
 */
#define FILTER_MAX_ENTRIES	(EV__NTYPES * (EVSET_MAX_VARIANTS + 1))

struct filter_entry {
	unsigned type;
	uint32_t subtypes;
	unsigned info_mask, info_value;
};

struct filter {
	struct filter_entry e[FILTER_MAX_ENTRIES];
	unsigned n;
};

/* Compile the set into filter entries. */
void filter_compile(struct filter *f, const struct evset *s);
/* Whether the record passes the filter. */
bool filter_match(const struct filter *f, const struct event *ev);

/* --include and --exclude: POSIX extended regexes on the paths of records, as inotifywait's. */
struct filter_re {
	regex_t re;
	bool exclude;
};

struct filter_paths {
	struct filter_re *v;
	size_t n, nincludes;
};

/* Add a regex (case-blind with icase); -1 with regerror(3)'s text in err if it is bad. */
int filter_paths_add(struct filter_paths *p, const char *re, bool icase, bool exclude, char *err,
    size_t errsize);
/* Whether ev passes: it has no path, or its path or old path matches an include and no exclude. */
bool filter_paths_match(const struct filter_paths *p, const struct event *ev);
/* Free the regexes. */
void filter_paths_free(struct filter_paths *p);

/*
 * Whether findmnt -O's LIST is usable: 0; -1 empty, -2 an item "no" alone, -3 an unclosed quote,
 * -4 what libmount cannot read.
 */
int filter_options_check(const char *list);
/* The option noX (nosuid) LIST names where findmnt reads it as "no option X", or NULL. */
const char *filter_options_trap(const char *list);
/* Whether a mount's options match LIST as findmnt -O matches them (libmount's own rule). */
bool filter_options_match(const char *list, const char *options);

#endif
