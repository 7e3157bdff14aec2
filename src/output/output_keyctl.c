/*
 * --keyctl: each record as keyutils' keyctl watch prints it (keyctl_watch.c), for scripts
 * written for it. A key record is "ID WORD", ID the key the kernel's record is about: for link
 * and unlk the keyring, then the key linked or unlinked ("ID link KEY"). A loss is "-- LOSS --";
 * a watched key's removal is its "ID gc". Every serial is unsigned decimal, as its %u prints it.
 * The command line lets only keys reach here, and no present records; any other record has no
 * line in keyctl watch's words, and prints nothing rather than half a line.
 */
#include <stdint.h>

#include "output_keyctl.h"

void
output_keyctl(struct buf *b, const struct event *ev, enum output_end end)
{
	const struct ev_key_fields *k = &ev->u.key;
	const char *word = event_keyctl_word(ev);

	if (ev->type == EV_META && ev->subtype == META_LOSS) {
		buf_adds(b, "-- LOSS --");
	} else if (word == NULL) {
		return;
	} else if (ev->type == EV_META) {
		buf_addf(b, "%u %s", (uint32_t)ev->u.meta.key, word);
	} else if (ev->subtype == KEY_LINKED || ev->subtype == KEY_UNLINKED) {
		buf_addf(b, "%u %s %u", (uint32_t)k->keyring, word, (uint32_t)k->key);
	} else {
		buf_addf(b, "%u %s", (uint32_t)k->key, word);
	}
	output_end(b, end);
}
