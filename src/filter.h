#ifndef WATCHQ_FILTER_H
#define WATCHQ_FILTER_H

#include <stdbool.h>
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

#endif
