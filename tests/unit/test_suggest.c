/* "Did you mean": which names are near a word, and in which order. */
#include <stdlib.h>

#include "suggest.h"
#include "unit.h"

static const char *const names[] = {
	"initial", "interval", "json", "timeout", "timefmt", "timestamps", "umount", "unmount",
	"exclude-event", "move_to", "move", NULL,
};

static const struct {
	const char *word;
	const char *want;	/* the text after the word; "" for none */
} cases[] = {
	{ "init", "; did you mean initial?" },			/* a prefix */
	{ "INIT", "; did you mean initial?" },			/* case ignored */
	{ "intial", "; did you mean initial?" },		/* one left out */
	{ "jsno", "; did you mean json?" },			/* two swapped: one typo */
	{ "tim", "; did you mean timeout, timefmt, timestamps?" },	/* shorter, then in order */
	{ "umnt", "; did you mean umount?" },
	{ "moveto", "; did you mean move_to, move?" },
	{ "frobnicate", "" },
	{ "x", "" },
	{ "", "" },
};

int
main(void)
{
	const char *const *n;
	struct suggest s;
	struct buf b = { 0 };
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		suggest_init(&s, cases[i].word);
		for (n = names; *n; n++)
			suggest_offer(&s, *n);
		buf_reset(&b);
		suggest_text(&s, &b, "");
		CHECK_STR(b.data ? b.data : "", cases[i].want);
	}
	/* An alias kept brings the name it stands for, as near. */
	suggest_init(&s, "umnt");
	for (n = names; *n; n++)
		suggest_offer(&s, *n);
	suggest_beside(&s, "umount", "unmount");
	buf_reset(&b);
	suggest_text(&s, &b, "--");
	CHECK_STR(b.data, "; did you mean --umount, --unmount?");
	buf_free(&b);
	return unit_done("test_suggest");
}
