#ifndef WATCHQ_EVSET_H
#define WATCHQ_EVSET_H

#include <stdbool.h>
#include <stdint.h>

#include "event.h"

#define EVSET_MAX_VARIANTS	3

/*
 * A set of event "leaves" chosen by name: for each type, a subtype bit per
 * variant of the record's info bits (a move: plain, from, to).
 */
struct evset {
	uint32_t leaf[EV__NTYPES][EVSET_MAX_VARIANTS];
};

/* How the records of a subtype split by info bits into user-visible events (event_names' rows). */
struct evset_variant {
	unsigned mask;
	unsigned nvalues;
	unsigned values[EVSET_MAX_VARIANTS];	/* values[0] is 0: the plain event */
};

/* Add every event of type to the set. */
void evset_add_type(struct evset *s, enum ev_type type);
/*
 * Add (or with remove, take out) what name (in any case) selects among the types in typemask;
 * returns how many types the name applied to, -1 if the name is unknown.
 */
int evset_apply_name(struct evset *s, const char *name, unsigned typemask, bool remove);
/* Whether the set holds any event of type. */
bool evset_has_type(const struct evset *s, enum ev_type type);
/* Whether the set holds some variant of this event. */
bool evset_has_event(const struct evset *s, enum ev_type type, unsigned subtype);
/* Fill var with the variants of (type, subtype); false if its records do not split. */
bool evset_variant(unsigned type, unsigned subtype, struct evset_variant *var);
/* How many variants (type, subtype) has: 1 if its records do not split. */
unsigned evset_nvariants(unsigned type, unsigned subtype);

#endif
