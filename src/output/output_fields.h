#ifndef WATCHQ_OUTPUT_FIELDS_H
#define WATCHQ_OUTPUT_FIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event.h"

/* The kinds of value a field holds; OUTPUT_FIELD_NULL: unknown. */
enum output_field_kind {
	OUTPUT_FIELD_NULL,
	OUTPUT_FIELD_STR,
	OUTPUT_FIELD_INT,
	OUTPUT_FIELD_UINT,
	OUTPUT_FIELD_BOOL,
	OUTPUT_FIELD_UINTS,	/* a list of numbers: v.list */
};

/* One named field of an event, as JSON and the journal both carry it. */
struct output_field {
	const char *name;	/* lower case, as in JSON: "mount_id" */
	enum output_field_kind kind;
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

/* Call fn(ctx, f) for each field of ev, in the order JSON prints them: time, source, event,
 * then the rest. */
void output_fields_walk(const struct event *ev, void (*fn)(void *ctx, const struct output_field *f),
    void *ctx);

#endif
