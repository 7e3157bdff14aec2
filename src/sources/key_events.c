#include "key_events.h"
#include "keydesc.h"
#include "source.h"

void
key_events_emit(struct sink *sink, const struct watch *w, unsigned subtype, int32_t key_id,
    int32_t aux, const struct keyname *known, struct keynames *names)
{
	const struct keyname *was;
	struct event ev;
	struct keydesc d;
	bool link = subtype == KEY_LINKED || subtype == KEY_UNLINKED;

	source_event_init(&ev, EV_KEY, subtype, w);
	ev.u.key.key = link ? aux : key_id;
	ev.u.key.keyring = link || subtype == KEY_CLEARED ? key_id : 0;
	ev.u.key.aux = aux;
	if (keydesc_get(&d, ev.u.key.key) == 0) {
		ev.u.key.type = d.type;
		ev.u.key.description = d.description;
		if (names && subtype == KEY_LINKED)
			keynames_put(names, ev.u.key.key, d.type, d.description);
	} else if (known && known->type && known->serial == ev.u.key.key) {
		ev.u.key.type = known->type;
		ev.u.key.description = known->description;
	} else if (names && (was = keynames_get(names, ev.u.key.key)) != NULL) {
		/* An unlinked key that went with its last link: named as its linked event was. */
		ev.u.key.type = was->type;
		ev.u.key.description = was->description;
	}
	sink->emit(sink, &ev);
	keydesc_free(&d);
	if (names && subtype == KEY_UNLINKED)
		keynames_drop(names, ev.u.key.key);
}
