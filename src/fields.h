#ifndef WATCHQ_FIELDS_H
#define WATCHQ_FIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event.h"

/* The kinds of value a field holds; FIELD_NULL: unknown. */
enum field_kind {
	FIELD_NULL,
	FIELD_STR,
	FIELD_INT,
	FIELD_UINT,
	FIELD_BOOL,
	FIELD_UINTS,	/* a list of numbers: v.list */
};

/* One named field of an event, as JSON and the journal both carry it. */
struct field {
	const char *name;	/* lower case, as in JSON: "mount_id" */
	enum field_kind kind;
	union {
		const char *s;	/* exact bytes, NUL-terminated */
		long long i;
		unsigned long long u;
		bool b;
		struct {
			const uint64_t *v;
			size_t n;
		} list;
	} v;
};

/* Call fn(ctx, f) for each field of ev, in the order JSON prints them, starting with time, source and event. */
void fields_walk(const struct event *ev, void (*fn)(void *ctx, const struct field *f), void *ctx);

#endif
