#include <string.h>

#include "filter.h"

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
	struct evset_variant var;

	memset(f, 0, sizeof(*f));
	for (type = 0; type < EV__NTYPES; type++) {
		whole = 0;
		partial = 0;
		for (sub = 0; sub < 32; sub++) {
			unsigned have = 0, n = evset_nvariants(type, sub);

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
			evset_variant(type, sub, &var);
			for (v = 0; v < var.nvalues; v++)
				if (s->leaf[type][v] & (1u << sub))
					filter_add(f, type, 1u << sub, var.mask, var.values[v]);
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
