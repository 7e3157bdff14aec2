/* The journal's MESSAGE_IDs: one per event name watchq prints, each its own. */
#include <stdbool.h>
#include <string.h>

#include "output_journal.h"
#include "unit.h"

/* 32 lower-case hex digits, as systemd-id128 new prints an id and MESSAGE_ID holds it. */
static bool
is_id128(const char *s)
{
	return s && strlen(s) == 32 && strspn(s, "0123456789abcdef") == 32;
}

int
main(void)
{
	const char *ids[64];
	const struct event_name *n;
	size_t nids = 0, i;

	for (n = event_names; n->name; n++) {
		struct event ev = { .type = n->type, .subtype = n->subtype };
		const char *id;

		ev.info = n->info_value;
		/* An alias prints under another name: it is that name's kind. */
		if (strcmp(event_name(&ev), n->name) != 0)
			continue;
		id = output_journal_message_id(&ev);
		CHECK(is_id128(id), "%s %s: MESSAGE_ID %s", event_type_name(n->type), n->name,
		    id ? id : "(none)");
		for (i = 0; id && i < nids; i++)
			CHECK(strcmp(ids[i], id) != 0, "%s: MESSAGE_ID %s twice", n->name, id);
		if (id && nids < sizeof(ids) / sizeof(ids[0]))
			ids[nids++] = id;
	}
	CHECK(nids >= 27, "%zu kinds of event", nids);
	return unit_done("test_output_journal");
}
