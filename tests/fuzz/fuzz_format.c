/* libFuzzer harness: --format strings and every output format, on events with hostile strings. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "output_format.h"
#include "output_json.h"
#include "output_keyctl.h"
#include "output_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Exactly one newline, at the end: one event is one line. */
static void
one_line(const struct buf *b)
{
	if (b->len == 0 || b->data[b->len - 1] != '\n' || memchr(b->data, '\n', b->len - 1))
		abort();
}

/* No raw C1 control (UTF-8 c2 80 to c2 9f): escaped strings cannot drive a terminal. */
static void
no_c1(const struct buf *b)
{
	size_t i;

	for (i = 0; i + 1 < b->len; i++)
		if ((unsigned char)b->data[i] == 0xc2 && (unsigned char)b->data[i + 1] >= 0x80 &&
		    (unsigned char)b->data[i + 1] <= 0x9f)
			abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct config cfg;
	struct event ev;
	struct buf b = { 0 };
	const uint8_t *cut = memchr(data, 0, size);
	size_t flen = cut ? (size_t)(cut - data) : size;
	char *fmt = malloc(flen + 1), *str = malloc(size - flen + 1);
	struct mounttab_entry at;
	unsigned t;

	memcpy(fmt, data, flen);
	fmt[flen] = '\0';
	memcpy(str, data + flen, size - flen);
	str[size - flen] = '\0';
	if (cut)
		memmove(str, str + 1, size - flen);	/* skip the NUL between the two parts */
	memset(&cfg, 0, sizeof(cfg));
	/* Sometimes the format is also the --timefmt: any length, any conversion. */
	cfg.timefmt = size % 5 ? "%H:%M:%S" : fmt;
	cfg.timestamps = size & 1;
	cfg.nns = size % 4 == 0;	/* -N: text lines end with ns= and the cgroup */
	for (t = 0; t < EV__NTYPES; t++) {
		memset(&ev, 0, sizeof(ev));
		ev.type = (enum ev_type)t;
		ev.subtype = size % 9;	/* present too, for keys */
		ev.info = size % 3;
		ev.watch = str;
		ev.watch_source = str;
		ev.mnt_ns = size % 2 ? 4026531840ULL : 0;
		ev.cgroup = size % 3 ? str : NULL;	/* a cgroup's name is anyone's */
		at = (struct mounttab_entry){ .target = str, .fstype = str, .source = str,
		    .options = str, .readonly = size % 2 };
		ev.u.mount.at = &at;
		ev.u.mount.old_path = size % 2 ? str : NULL;
		ev.u.mount.by.pid = (int32_t)size;
		ev.u.mount.by.has_uid = size % 2;
		ev.u.mount.by.comm = size % 4 ? str : NULL;	/* a process names itself */
		if (t == EV_KEY) {
			memset(&ev.u.key, 0, sizeof(ev.u.key));
			ev.u.key.type = str;
			ev.u.key.description = str;
			ev.u.key.has_attr = size % 2;
			ev.u.key.perm = (uint32_t)size * 2654435761u;
			ev.u.key.uid = (long)size - 3;
			ev.u.key.gid = (long)size - 1;
		} else if (t == EV_SB) {
			memset(&ev.u.sb, 0, sizeof(ev.u.sb));
			ev.u.sb.path = str;
			ev.u.sb.fstype = str;
			ev.u.sb.device = size % 2 ? str : NULL;
			ev.u.sb.error = (int)size - 64;
			ev.u.sb.warning = size % 3 ? "block_soft" : NULL;	/* names are watchq's own */
		} else if (t == EV_META) {
			memset(&ev.u.meta, 0, sizeof(ev.u.meta));
			ev.u.meta.lost = (long long)size - 2;
			ev.u.meta.what = "watched directory is gone";	/* phrases are watchq's own */
			ev.u.meta.backend = "fanotify";
		}
		if (output_format_check(fmt) == 0) {
			output_format(&b, fmt, cfg.timefmt, &ev, OUTPUT_END_NEWLINE);
			/* A newline the user wrote in the format is theirs, and so is one from
			 * strftime's %n when the format is also the --timefmt, or from a raw %#X
			 * the user asked for; escaped expansions add none. */
			if (strchr(fmt, '\n') == NULL && cfg.timefmt != fmt && !strstr(fmt, "%#"))
				one_line(&b);
			buf_reset(&b);
		}
		output_text(&b, &ev, &cfg, OUTPUT_END_NEWLINE);
		if (cfg.timefmt != fmt) {
			one_line(&b);
			no_c1(&b);
		}
		buf_reset(&b);
		output_json(&b, &ev, OUTPUT_END_NEWLINE);
		one_line(&b);
		no_c1(&b);
		buf_reset(&b);
		output_keyctl(&b, &ev, OUTPUT_END_NEWLINE);
		if (b.len > 0)
			one_line(&b);
		buf_reset(&b);
	}
	buf_free(&b);
	free(fmt);
	free(str);
	return 0;
}
