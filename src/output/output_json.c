#include <string.h>

#include "escape.h"
#include "output_fields.h"
#include "output_json.h"

/* One field. A string whose bytes had to be replaced is followed by NAME_b64, its exact bytes. */
static void
json_field(void *ctx, const struct output_field *f)
{
	struct buf *b = ctx;
	size_t i;

	/* No comma before the first field, which comes right after the opening brace. */
	if (b->data[b->len - 1] != '{')
		buf_addc(b, ',');
	buf_addf(b, "\"%s\":", f->name);
	switch (f->kind) {
	case OUTPUT_FIELD_NULL:
		buf_adds(b, "null");
		break;
	case OUTPUT_FIELD_STR:
		if (escape_json(b, f->v.s)) {
			buf_addf(b, ",\"%s_b64\":\"", f->name);
			escape_base64(b, f->v.s, strlen(f->v.s));
			buf_addc(b, '"');
		}
		break;
	case OUTPUT_FIELD_INT:
		buf_addf(b, "%lld", f->v.i);
		break;
	case OUTPUT_FIELD_UINT:
		buf_addf(b, "%llu", f->v.u);
		break;
	case OUTPUT_FIELD_BOOL:
		buf_adds(b, f->v.b ? "true" : "false");
		break;
	case OUTPUT_FIELD_UINTS:
		buf_addc(b, '[');
		for (i = 0; i < f->v.list.n; i++)
			buf_addf(b, "%s%llu", i ? "," : "", (unsigned long long)f->v.list.v[i]);
		buf_addc(b, ']');
		break;
	}
}

void
output_json(struct buf *b, const struct event *ev, enum output_end end)
{
	buf_addc(b, '{');
	output_fields_walk(ev, json_field, b);
	buf_addc(b, '}');
	output_end(b, end);
}
