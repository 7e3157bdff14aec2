#ifndef WATCHQ_KEYPROC_H
#define WATCHQ_KEYPROC_H

#include <stddef.h>
#include <stdint.h>

#include "keydesc.h"

/* What a key's own /proc/keys line adds to KEYCTL_DESCRIBE. */
struct keyproc_line {
	char flags[8];		/* I R D Q U N i, '-' when clear */
	const char *summary;	/* the summary after the description, in the text; not NUL-ended */
	size_t summary_len;
};

/* Read /proc/keys whole (NUL-terminated; caller frees); empty text, where no key's line is found,
 * if it cannot be read. */
char *keyproc_read(void);
/* Find the line of key serial, described as d, in the text of /proc/keys: 0 only if exactly one
 * line starts with its serial and that line agrees with d; else -1. */
int keyproc_find(const char *proc, int32_t serial, const struct keydesc *d,
    struct keyproc_line *out);

#endif
