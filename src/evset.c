#include <string.h>
#include <strings.h>

#include "evset.h"

/* Subtypes whose records split by info bits into several user-visible events. */
static const struct evset_variant variants[] = {
	{ EV_MOUNT, MOUNT_MOVE, EV_INFO_MOVE_MASK, 3,
	  { 0, EV_INFO_MOVE_FROM, EV_INFO_MOVE_TO } },
};

const struct evset_variant *
evset_variant(unsigned type, unsigned subtype)
{
	size_t i;

	for (i = 0; i < sizeof(variants) / sizeof(variants[0]); i++)
		if (variants[i].type == type && variants[i].subtype == subtype)
			return &variants[i];
	return NULL;
}

unsigned
evset_nvariants(unsigned type, unsigned subtype)
{
	const struct evset_variant *v = evset_variant(type, subtype);

	return v ? v->nvalues : 1;
}

void
evset_add_type(struct evset *s, enum ev_type type)
{
	const struct event_name *n;
	unsigned v;

	for (n = event_names; n->name; n++)
		if (n->type == type)
			for (v = 0; v < evset_nvariants(n->type, n->subtype); v++)
				s->leaf[type][v] |= 1u << n->subtype;
}

bool
evset_has_type(const struct evset *s, enum ev_type type)
{
	unsigned sub, v;

	for (sub = 0; sub < 32; sub++)
		for (v = 0; v < evset_nvariants(type, sub); v++)
			if (s->leaf[type][v] & (1u << sub))
				return true;
	return false;
}

bool
evset_has_event(const struct evset *s, enum ev_type type, unsigned subtype)
{
	unsigned v;

	for (v = 0; v < evset_nvariants(type, subtype); v++)
		if (s->leaf[type][v] & (1u << subtype))
			return true;
	return false;
}

int
evset_apply_name(struct evset *s, const char *name, unsigned typemask, bool remove)
{
	const struct event_name *n;
	const struct evset_variant *var;
	unsigned v;
	int known = 0, applied = 0;

	for (n = event_names; n->name; n++) {
		if (strcasecmp(n->name, name) != 0)
			continue;
		known = 1;
		if (!(typemask & (1u << n->type)))
			continue;
		applied++;
		var = evset_variant(n->type, n->subtype);
		for (v = 0; v < (var ? var->nvalues : 1); v++) {
			if (var && (var->values[v] & n->info_mask) != n->info_value)
				continue;
			if (remove)
				s->leaf[n->type][v] &= ~(1u << n->subtype);
			else
				s->leaf[n->type][v] |= 1u << n->subtype;
		}
	}
	return known ? applied : -1;
}
