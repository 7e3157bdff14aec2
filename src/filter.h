#ifndef WATCHQ_FILTER_H
#define WATCHQ_FILTER_H

#include <stdbool.h>
#include <stdint.h>

#include "event.h"

/*
 * The kernel's watch_queue filter semantics: a record passes if some entry
 * has its type, its subtype bit set, and (info & info_mask) == info_value.
 * An evset is the set of event "leaves" chosen by names; filter_compile()
 * turns it into the fewest such entries.
 */
#define FILTER_MAX_VARIANTS	3
#define FILTER_MAX_ENTRIES	(EV__NTYPES * (FILTER_MAX_VARIANTS + 1))

struct evset {
	uint32_t leaf[EV__NTYPES][FILTER_MAX_VARIANTS];
};

struct filter_entry {
	unsigned type;
	uint32_t subtypes;
	unsigned info_mask, info_value;
};

struct filter {
	struct filter_entry e[FILTER_MAX_ENTRIES];
	unsigned n;
};

/* Add every event of type to the set. */
void evset_add_type(struct evset *s, enum ev_type type);
/* Add (or with remove, take out) what name selects among the types in typemask; returns how many types the name applied to, -1 if the name is unknown. */
int evset_apply_name(struct evset *s, const char *name, unsigned typemask, bool remove);
/* Whether the set holds any event of type. */
bool evset_has_type(const struct evset *s, enum ev_type type);
/* Whether the set holds some variant of this event. */
bool evset_has_event(const struct evset *s, enum ev_type type, unsigned subtype);
/* Compile the set into filter entries. */
void filter_compile(struct filter *f, const struct evset *s);
/* Whether the record passes the filter. */
bool filter_match(const struct filter *f, const struct event *ev);

#endif
