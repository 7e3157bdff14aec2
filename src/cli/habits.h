#ifndef WATCHQ_HABITS_H
#define WATCHQ_HABITS_H

#include <stddef.h>

/*
 * What users of findmnt(8) and inotifywait(1) type out of habit, and the watchq way to each, for
 * a usage error of one line: "-J is findmnt's --json: here -j, --json".
 */
struct habit {
	int c;			/* the letter, or 0 */
	const char *name;	/* the long name, or NULL */
	const char *is;		/* whose it is: "findmnt's --json" */
	const char *text;	/* the watchq way */
};

/* The habit of the short option c that watchq does not have, or NULL. */
const struct habit *habits_short(int c);
/* The habit of the n bytes at name (a long option without its --), or NULL. */
const struct habit *habits_long(const char *name, size_t n);
/* The clause for an inotifywait event name that no watchq event is, or NULL. */
const char *habits_event(const char *name);

#endif
