/* libFuzzer harness: -e/-E event lists into filters, and records through them. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "filter.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct evset set;
	struct filter f;
	struct event ev;
	char *s, *tok, *save = NULL, *added[64];
	unsigned mask, i, k, nadded = 0;

	if (size < 2)
		return 0;
	mask = data[0] & ((1u << EV__NTYPES) - 1);
	s = malloc(size);
	memcpy(s, data + 1, size - 1);
	s[size - 1] = '\0';
	memset(&set, 0, sizeof(set));
	for (tok = strtok_r(s, ",", &save), i = 0; tok; tok = strtok_r(NULL, ",", &save), i++) {
		if (evset_apply_name(&set, tok, mask, false) > 0 && nadded < 64)
			added[nadded++] = tok;
	}
	filter_compile(&f, &set);
	if (f.n > FILTER_MAX_ENTRIES)
		abort();
	for (i = 0; i < size; i++) {
		memset(&ev, 0, sizeof(ev));
		ev.type = (enum ev_type)(data[i] % EV__NTYPES);
		ev.subtype = data[i] >> 3;
		ev.info = data[i] & 3;
		(void)filter_match(&f, &ev);
	}
	/* Every record a name that was added selects passes the compiled filter. */
	for (i = 0; event_names[i].name; i++) {
		if (!(mask & (1u << event_names[i].type)))
			continue;
		for (k = 0; k < nadded && strcmp(added[k], event_names[i].name) != 0; k++)
			;
		if (k == nadded)
			continue;
		memset(&ev, 0, sizeof(ev));
		ev.type = event_names[i].type;
		ev.subtype = event_names[i].subtype;
		ev.info = event_names[i].info_value;
		if (!filter_match(&f, &ev))
			abort();
	}
	free(s);
	return 0;
}
