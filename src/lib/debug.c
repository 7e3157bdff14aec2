#include <err.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buf.h"
#include "debug.h"
#include "escape.h"
#include "exit.h"

const struct debug_name debug_areas[] = {
	{ "fanotify", DEBUG_FANOTIFY, "records read and resyncs" },
	{ "rescan", DEBUG_RESCAN, "why a re-read of the watched mounts ran, was owed or held back" },
	{ "capture", DEBUG_CAPTURE, "what the process capture said of a record or a flip call" },
	{ "group", DEBUG_GROUP, "where -N all's one fanotify group routed a record" },
	{ "mountinfo", DEBUG_MOUNTINFO, "the mountinfo backend's re-reads" },
	{ "ns", DEBUG_NS, "-N all: mount namespaces found and gone" },
	{ "keys", DEBUG_KEYS, "keys followed below watched ones (--recursive, --follow), dropped" },
	{ NULL, 0, NULL },
};

unsigned debug_mask;

/* The bit of the area named by the n bytes at word; 0 if none. */
static unsigned
debug_find(const char *word, size_t n)
{
	const struct debug_name *d;

	if (n == 3 && strncmp(word, "all", 3) == 0)
		return ~0u;
	for (d = debug_areas; d->name; d++)
		if (strlen(d->name) == n && strncmp(d->name, word, n) == 0)
			return d->area;
	return 0;
}

void
debug_init(void)
{
	const char *env = getenv("WATCHQ_DEBUG"), *p;
	const struct debug_name *d;
	struct buf names = { 0 };
	char word[64];
	unsigned bit;
	size_t n;

	if (env == NULL || *env == '\0')
		return;
	if (strcmp(env, "help") == 0) {
		for (d = debug_areas; d->name; d++)
			printf("%-10s %s\n", d->name, d->what);
		printf("%-10s %s\n", "all", "every area");
		exit(EXIT_OK);
	}
	for (p = env; *p; p += n + (p[n] == ',')) {
		n = strcspn(p, ",");
		if ((bit = debug_find(p, n)) == 0) {
			for (d = debug_areas; d->name; d++)
				buf_addf(&names, "%s, ", d->name);
			snprintf(word, n + 1 < sizeof(word) ? n + 1 : sizeof(word), "%s", p);
			errx(EXIT_USAGE, "WATCHQ_DEBUG: unknown area '%s' (%sall)", escape_arg(word),
			    names.data);
		}
		debug_mask |= bit;
	}
}

void
debug_print(unsigned area, const char *fmt, ...)
{
	const struct debug_name *d;
	struct timespec t;
	va_list ap;

	for (d = debug_areas; d->name && d->area != area; d++)
		;
	clock_gettime(CLOCK_MONOTONIC, &t);
	fprintf(stderr, "watchq: debug: %lld.%06ld %s: ", (long long)t.tv_sec, t.tv_nsec / 1000,
	    d->name ? d->name : "?");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
