#include <string.h>

#include "filter.h"

/* Subtypes whose records split by info bits into several user-visible events. */
static const struct variant {
	enum ev_type type;
	unsigned subtype;
	unsigned mask;
	unsigned nvalues;
	unsigned values[FILTER_MAX_VARIANTS];
} variants[] = {
	{ EV_MOUNT, MOUNT_MOVE, EV_INFO_MOVE_MASK, 3,
	  { 0, EV_INFO_MOVE_FROM, EV_INFO_MOVE_TO } },
};

static const struct variant *
variant_of(unsigned type, unsigned subtype)
{
	size_t i;

	for (i = 0; i < sizeof(variants) / sizeof(variants[0]); i++)
		if (variants[i].type == type && variants[i].subtype == subtype)
			return &variants[i];
	return NULL;
}

static unsigned
nvariants(unsigned type, unsigned subtype)
{
	const struct variant *v = variant_of(type, subtype);

	return v ? v->nvalues : 1;
}

void
evset_add_type(struct evset *s, enum ev_type type)
{
	const struct event_name *n;
	unsigned v;

	for (n = event_names; n->name; n++)
		if (n->type == type)
			for (v = 0; v < nvariants(n->type, n->subtype); v++)
				s->leaf[type][v] |= 1u << n->subtype;
}

bool
evset_has_type(const struct evset *s, enum ev_type type)
{
	unsigned sub, v;

	for (sub = 0; sub < 32; sub++)
		for (v = 0; v < nvariants(type, sub); v++)
			if (s->leaf[type][v] & (1u << sub))
				return true;
	return false;
}

bool
evset_has_event(const struct evset *s, enum ev_type type, unsigned subtype)
{
	unsigned v;

	for (v = 0; v < nvariants(type, subtype); v++)
		if (s->leaf[type][v] & (1u << subtype))
			return true;
	return false;
}

int
evset_apply_name(struct evset *s, const char *name, unsigned typemask, bool remove)
{
	const struct event_name *n;
	const struct variant *var;
	unsigned v;
	int known = 0, applied = 0;

	for (n = event_names; n->name; n++) {
		if (strcmp(n->name, name) != 0)
			continue;
		known = 1;
		if (!(typemask & (1u << n->type)))
			continue;
		applied++;
		var = variant_of(n->type, n->subtype);
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

static void
filter_add(struct filter *f, unsigned type, uint32_t subtypes, unsigned mask, unsigned value)
{
	if (subtypes == 0 || f->n >= FILTER_MAX_ENTRIES)
		return;
	f->e[f->n++] = (struct filter_entry){ type, subtypes, mask, value };
}

void
filter_compile(struct filter *f, const struct evset *s)
{
	unsigned type, sub, v;
	uint32_t whole, partial;
	const struct variant *var;

	memset(f, 0, sizeof(*f));
	for (type = 0; type < EV__NTYPES; type++) {
		whole = 0;
		partial = 0;
		for (sub = 0; sub < 32; sub++) {
			unsigned have = 0, n = nvariants(type, sub);

			for (v = 0; v < n; v++)
				if (s->leaf[type][v] & (1u << sub))
					have++;
			if (have == n)
				whole |= 1u << sub;
			else if (have)
				partial |= 1u << sub;
		}
		filter_add(f, type, whole, 0, 0);
		for (sub = 0; sub < 32; sub++) {
			if (!(partial & (1u << sub)))
				continue;
			var = variant_of(type, sub);
			for (v = 0; v < var->nvalues; v++)
				if (s->leaf[type][v] & (1u << sub))
					filter_add(f, type, 1u << sub, var->mask, var->values[v]);
		}
	}
}

bool
filter_match(const struct filter *f, const struct event *ev)
{
	unsigned i;

	for (i = 0; i < f->n; i++) {
		const struct filter_entry *e = &f->e[i];

		if (e->type == (unsigned)ev->type && ev->subtype < 32 &&
		    (e->subtypes & (1u << ev->subtype)) &&
		    (ev->info & e->info_mask) == e->info_value)
			return true;
	}
	return false;
}
