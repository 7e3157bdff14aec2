#include <string.h>
#include <strings.h>

#include "evset.h"

/* Whether value is already one of var's values. */
static bool
evset_has_value(const struct evset_variant *var, unsigned value)
{
	unsigned v;

	for (v = 0; v < var->nvalues; v++)
		if (var->values[v] == value)
			return true;
	return false;
}

bool
evset_variant(unsigned type, unsigned subtype, struct evset_variant *var)
{
	const struct event_name *n;

	*var = (struct evset_variant){ .nvalues = 1 };
	for (n = event_names; n->name; n++) {
		if (n->type != type || n->subtype != subtype || n->info_mask == 0)
			continue;
		var->mask |= n->info_mask;
		if (!evset_has_value(var, n->info_value) && var->nvalues < EVSET_MAX_VARIANTS)
			var->values[var->nvalues++] = n->info_value;
	}
	return var->nvalues > 1;
}

unsigned
evset_nvariants(unsigned type, unsigned subtype)
{
	struct evset_variant var;

	evset_variant(type, subtype, &var);
	return var.nvalues;
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
	struct evset_variant var;
	unsigned v;
	int known = 0, applied = 0;

	for (n = event_names; n->name; n++) {
		if (strcasecmp(n->name, name) != 0)
			continue;
		known = 1;
		if (!(typemask & (1u << n->type)))
			continue;
		applied++;
		evset_variant(n->type, n->subtype, &var);
		for (v = 0; v < var.nvalues; v++) {
			if ((var.values[v] & n->info_mask) != n->info_value)
				continue;
			if (remove)
				s->leaf[n->type][v] &= ~(1u << n->subtype);
			else
				s->leaf[n->type][v] |= 1u << n->subtype;
		}
	}
	return known ? applied : -1;
}
