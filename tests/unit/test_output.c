/* Formatters: text columns, JSON fields, --format escapes. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "output_format.h"
#include "output_json.h"
#include "output_text.h"
#include "unit.h"

/* The mount of mount_ev()'s records, as it sets it each time. */
static struct mounttab_entry mount_at;

static struct event
mount_ev(unsigned subtype)
{
	struct event ev = {
		.type = EV_MOUNT, .subtype = subtype, .tag = 3, .watch = "/srv",
		.watch_source = "mounts", .time = { 1700000000, 123456789 }, .mnt_ns = 4026531840ULL,
		.u.mount = { .at = &mount_at },
	};

	mount_at = (struct mounttab_entry){ .mount_id = 42, .parent_mount_id = 7,
		.target = (char *)"/srv/b", .fstype = (char *)"tmpfs", .source = (char *)"none",
		.root = (char *)"/", .options = (char *)"rw,relatime",
		.propagation = (char *)"shared:1" };
	return ev;
}

static const uint64_t transient_ids[] = { 2147483650ULL, 2147483651ULL };
/* A transient record in text, JSON and --format. */
static const char *const transient_lines[] = {
	"mount transient - - - count=2\n",
	"{\"time\":\"1970-01-01T00:00:00.000000Z\",\"time_us\":0,\"source\":\"mount\",\"event\":\"transient\","
	    "\"watch\":\"/w\",\"tag\":1,\"mnt_ns\":4026532841,\"cgroup\":null,\"mount_id\":null,\"unique_id\":null,\"parent_id\":null,\"path\":null,"
	    "\"fstype\":null,\"device\":null,\"root\":null,\"options\":null,\"propagation\":null,\"readonly\":null,\"pid\":null,\"comm\":null,"
	    "\"uid\":null,\"count\":2,"
	    "\"unique_ids\":[2147483650,2147483651]}\n",
	"transient [-] [-] [-] [-] [-] [-]\n",
};

int
main(void)
{
	struct config cfg = { .timefmt = "%Y" };
	struct buf b = { 0 };
	struct event ev;
	char line[128];
	int i;

	setenv("TZ", "UTC", 1);

	ev = mount_ev(MOUNT_UNMOUNT);
	output_text(&b, &ev, &cfg, OUTPUT_END_NEWLINE);
	CHECK_STR(b.data, "mount unmount /srv/b tmpfs none pid=- uid=- comm=-\n");

	buf_reset(&b);
	ev = mount_ev(MOUNT_MOVE);
	ev.u.mount.old_path = "/srv/a";
	output_text(&b, &ev, &cfg, OUTPUT_END_NEWLINE);
	CHECK_STR(b.data, "mount move /srv/a -> /srv/b pid=- uid=- comm=-\n");

	buf_reset(&b);
	ev.info = EV_INFO_MOVE_TO;
	output_text(&b, &ev, &cfg, OUTPUT_END_NEWLINE);
	CHECK_STR(b.data, "mount move_to /srv/a -> /srv/b pid=- uid=- comm=-\n");

	buf_reset(&b);
	ev = mount_ev(MOUNT_READONLY);
	mount_at.readonly = true;
	output_text(&b, &ev, &cfg, OUTPUT_END_NEWLINE);
	CHECK_STR(b.data, "mount readonly /srv/b ro (was rw) pid=- uid=- comm=-\n");

	/* A flip names its process as a mount does: last on the line, and in %P %u %c. */
	buf_reset(&b);
	ev.u.mount.by = (struct ev_who){ .pid = 812, .uid = 0, .has_uid = true, .comm = "mount" };
	output_text(&b, &ev, &cfg, OUTPUT_END_NEWLINE);
	CHECK_STR(b.data, "mount readonly /srv/b ro (was rw) pid=812 uid=0 comm=mount\n");
	buf_reset(&b);
	output_format(&b, "%e %P %u %c", "%Y", &ev, OUTPUT_END_NEWLINE);
	CHECK_STR(b.data, "readonly 812 0 mount\n");

	buf_reset(&b);
	ev = mount_ev(MOUNT_SETATTR);
	ev.u.mount.old_options = "rw";
	output_text(&b, &ev, &cfg, OUTPUT_END_NEWLINE);
	CHECK_STR(b.data, "mount setattr /srv/b rw,relatime (was rw) pid=- uid=- comm=-\n");

	buf_reset(&b);
	ev = mount_ev(MOUNT_MOUNT);
	mount_at.source = (char *)"";
	mount_at.target = (char *)"/a b\n";
	cfg.timestamps = true;
	output_text(&b, &ev, &cfg, OUTPUT_END_NEWLINE);
	CHECK_STR(b.data, "2023 mount mount /a\\x20b\\x0a tmpfs - pid=- uid=- comm=-\n");
	cfg.timestamps = false;

	/* A bind of a part of a filesystem: SOURCE[ROOT] as findmnt shows it, %F the root. */
	buf_reset(&b);
	ev = mount_ev(MOUNT_PRESENT);
	mount_at.root = (char *)"/sub dir";
	output_text(&b, &ev, &cfg, OUTPUT_END_NEWLINE);
	CHECK_STR(b.data, "mount present /srv/b tmpfs none[/sub\\x20dir]\n");
	buf_reset(&b);
	output_format(&b, "%F|%d", "%Y", &ev, OUTPUT_END_NEWLINE);
	CHECK_STR(b.data, "/sub\\x20dir|none\n");

	/* A change of propagation: the new state, then the one before, %g the state. */
	buf_reset(&b);
	ev = mount_ev(MOUNT_PROPAGATION);
	ev.u.mount.old_propagation = "private";
	output_text(&b, &ev, &cfg, OUTPUT_END_NEWLINE);
	CHECK_STR(b.data, "mount propagation /srv/b shared:1 (was private) pid=- uid=- comm=-\n");
	buf_reset(&b);
	output_format(&b, "%e %g", "%Y", &ev, OUTPUT_END_NEWLINE);
	CHECK_STR(b.data, "propagation shared:1\n");

	/* With -N, a line ends with the namespace of its watch. */
	buf_reset(&b);
	ev = mount_ev(MOUNT_UNMOUNT);
	cfg.nns = 1;
	output_text(&b, &ev, &cfg, OUTPUT_END_NEWLINE);
	CHECK_STR(b.data, "mount unmount /srv/b tmpfs none pid=- uid=- comm=- ns=4026531840 cgroup=-\n");
	/* ... and its cgroup, escaped as other fields are. */
	buf_reset(&b);
	ev.cgroup = "/system.slice/a b.scope";
	output_text(&b, &ev, &cfg, OUTPUT_END_NEWLINE);
	CHECK_STR(b.data,
	    "mount unmount /srv/b tmpfs none pid=- uid=- comm=- ns=4026531840 cgroup=/system.slice/a\\x20b.scope\n");
	buf_reset(&b);
	output_format(&b, "%N %G", "%Y", &ev, OUTPUT_END_NEWLINE);
	CHECK_STR(b.data, "4026531840 /system.slice/a\\x20b.scope\n");
	buf_reset(&b);
	output_json(&b, &ev, OUTPUT_END_NEWLINE);
	CHECK(strstr(b.data, "\"mnt_ns\":4026531840,\"cgroup\":\"/system.slice/a b.scope\",") != NULL,
	    "no cgroup in %s", b.data);

	buf_reset(&b);
	ev = (struct event){ .type = EV_META, .subtype = META_LOSS, .watch = "/",
		.watch_source = "mounts", .mnt_ns = 4026532841ULL, .u.meta = { .lost = 12, .backend = "fanotify" } };
	output_text(&b, &ev, &cfg, OUTPUT_END_NEWLINE);
	CHECK_STR(b.data, "meta loss mounts / 12 events lost, resynchronised ns=4026532841 cgroup=-\n");
	cfg.nns = 0;
	buf_reset(&b);
	output_text(&b, &ev, &cfg, OUTPUT_END_NEWLINE);
	CHECK_STR(b.data, "meta loss mounts / 12 events lost, resynchronised\n");

	buf_reset(&b);
	output_json(&b, &ev, OUTPUT_END_NEWLINE);
	CHECK_STR(b.data, "{\"time\":\"1970-01-01T00:00:00.000000Z\",\"time_us\":0,\"source\":\"meta\",\"event\":\"loss\","
	    "\"watch\":\"/\",\"tag\":0,\"mnt_ns\":4026532841,\"cgroup\":null,\"watch_source\":\"mounts\",\"lost\":12,\"backend\":\"fanotify\"}\n");

	/* --format: every field a meta record lacks prints -, so that no line is blank or
	 * half-empty; raw too, a - there meaning the same. */
	buf_reset(&b);
	output_format(&b, "%s %e %E %w %p %f %d %O %i %N %k %y %r %l", "%Y", &ev, OUTPUT_END_NEWLINE);
	CHECK_STR(b.data, "meta loss mounts / - - - - - 4026532841 - - - -\n");
	buf_reset(&b);
	output_format(&b, "%#p|%#c", "%Y", &ev, OUTPUT_END_NUL);
	CHECK(b.len == 4 && memcmp(b.data, "-|-\0", 4) == 0, "raw: -|-");

	/* A meta record of another source's watch: no namespace. */
	buf_reset(&b);
	ev.watch_source = "keys";
	ev.mnt_ns = 0;
	output_json(&b, &ev, OUTPUT_END_NEWLINE);
	CHECK_STR(b.data, "{\"time\":\"1970-01-01T00:00:00.000000Z\",\"time_us\":0,\"source\":\"meta\",\"event\":\"loss\","
	    "\"watch\":\"/\",\"tag\":0,\"mnt_ns\":null,\"cgroup\":null,\"watch_source\":\"keys\",\"lost\":12,\"backend\":\"fanotify\"}\n");

	buf_reset(&b);
	ev = mount_ev(MOUNT_MOVE);
	ev.u.mount.old_path = "/srv/\xff";
	output_json(&b, &ev, OUTPUT_END_NEWLINE);
	CHECK_STR(b.data, "{\"time\":\"2023-11-14T22:13:20.123456Z\",\"time_us\":1700000000123456,\"source\":\"mount\",\"event\":\"move\","
	    "\"watch\":\"/srv\",\"tag\":3,\"mnt_ns\":4026531840,\"cgroup\":null,\"mount_id\":42,\"unique_id\":null,\"parent_id\":7,\"path\":\"/srv/b\","
	    "\"old_path\":\"/srv/\\ufffd\",\"old_path_b64\":\"L3Nydi//\",\"fstype\":\"tmpfs\","
	    "\"device\":\"none\",\"root\":\"/\",\"options\":\"rw,relatime\",\"propagation\":\"shared:1\",\"readonly\":false,\"pid\":null,\"comm\":null,\"uid\":null}\n");

	/* Transient mounts: a count and ids, every other field unknown. */
	ev = (struct event){ .type = EV_MOUNT, .subtype = MOUNT_TRANSIENT, .watch = "/w", .tag = 1,
		.watch_source = "mounts", .mnt_ns = 4026532841ULL, .u.mount = { .ids = transient_ids, .count = 2 } };
	for (i = 0; i < 3; i++) {
		buf_reset(&b);
		if (i == 0)
			output_text(&b, &ev, &cfg, OUTPUT_END_NEWLINE);
		else if (i == 1)
			output_json(&b, &ev, OUTPUT_END_NEWLINE);
		else
			output_format(&b, "%e [%p] [%i] [%r] [%P] [%u] [%c]", "%Y", &ev, OUTPUT_END_NEWLINE);
		CHECK_STR(b.data, transient_lines[i]);
	}

	buf_reset(&b);
	ev = mount_ev(MOUNT_MOUNT);
	output_format(&b, "%s %e %E %w %t %p [%o] %f %d %O %r %i %I %N %T %%", "%Y", &ev,
	    OUTPUT_END_NEWLINE);
	CHECK_STR(b.data, "mount mount mounts /srv 3 /srv/b [-] tmpfs none rw,relatime rw 42 7 4026531840 2023 %\n");

	/* A record ends as the caller says: NUL for -0, nothing for the journal's MESSAGE= item. */
	buf_reset(&b);
	output_format(&b, "%e", "%Y", &ev, OUTPUT_END_NUL);
	CHECK(b.len == 6 && memcmp(b.data, "mount\0", 6) == 0, "format record ends with NUL");
	buf_reset(&b);
	output_json(&b, &ev, OUTPUT_END_NUL);
	CHECK(b.len > 2 && memcmp(b.data + b.len - 2, "}\0", 2) == 0, "JSON record ends with NUL");
	buf_reset(&b);
	output_text(&b, &ev, &cfg, OUTPUT_END_NONE);
	CHECK_STR(b.data, "mount mount /srv/b tmpfs none pid=- uid=- comm=-");

	/* Who made the change: last in text, each part - where unknown; the name escaped, so that
	 * - alone only means unknown. */
	{
		static const struct {
			struct ev_who by;
			const char *text, *json, *format;
		} by[] = {
			{ { 1234, true, 0, "mount" }, " pid=1234 uid=0 comm=mount\n",
			    "\"pid\":1234,\"comm\":\"mount\",\"uid\":0}\n", "1234 0 mount\n" },
			{ { 77, false, 0, NULL }, " pid=77 uid=- comm=-\n", "\"pid\":77,\"comm\":null,\"uid\":null}\n",
			    "77 - -\n" },
			{ { 0, false, 0, NULL }, " pid=- uid=- comm=-\n", "\"pid\":null,\"comm\":null,\"uid\":null}\n",
			    "- - -\n" },
			{ { 9, true, 4294967294U, "-" }, " pid=9 uid=4294967294 comm=\\x2d\n",
			    "\"pid\":9,\"comm\":\"-\",\"uid\":4294967294}\n", "9 4294967294 \\x2d\n" },
			{ { 9, true, 1000, "" }, " pid=9 uid=1000 comm=\n", "\"pid\":9,\"comm\":\"\",\"uid\":1000}\n",
			    "9 1000 \n" },
			{ { 9, true, 0, "a b\nuid=0\\" }, " pid=9 uid=0 comm=a\\x20b\\x0auid=0\\\\\n",
			    "\"pid\":9,\"comm\":\"a b\\nuid=0\\\\\",\"uid\":0}\n", "9 0 a\\x20b\\x0auid=0\\\\\n" },
			{ { 9, true, 0, "\xff-" }, " pid=9 uid=0 comm=\\xff-\n",
			    "\"pid\":9,\"comm\":\"\\ufffd-\",\"comm_b64\":\"/y0=\",\"uid\":0}\n", "9 0 \\xff-\n" },
		};
		static const unsigned marked[] = { MOUNT_MOUNT, MOUNT_UNMOUNT, MOUNT_MOVE };
		size_t k, j;
		const char *tail;

		for (k = 0; k < sizeof(by) / sizeof(by[0]); k++) {
			for (j = 0; j < sizeof(marked) / sizeof(marked[0]); j++) {
				ev = mount_ev(marked[j]);
				ev.u.mount.old_path = marked[j] == MOUNT_MOVE ? "/srv/a" : NULL;
				ev.u.mount.by = by[k].by;
				buf_reset(&b);
				output_text(&b, &ev, &cfg, OUTPUT_END_NEWLINE);
				CHECK(b.len >= strlen(by[k].text) && strcmp(b.data + b.len - strlen(by[k].text), by[k].text) == 0,
				    "%zu: %s", k, b.data);
			}
			buf_reset(&b);
			output_json(&b, &ev, OUTPUT_END_NEWLINE);
			tail = strstr(b.data, "\"pid\":");
			CHECK(tail && strcmp(tail, by[k].json) == 0, "%zu: %s", k, b.data);
			buf_reset(&b);
			output_format(&b, "%P %u %c", "%Y", &ev, OUTPUT_END_NEWLINE);
			CHECK_STR(b.data, by[k].format);
		}
		/* A flip nobody is named for: each part -. A present mount: no mark in text, null in JSON. */
		ev = mount_ev(MOUNT_WRITABLE);
		buf_reset(&b);
		output_text(&b, &ev, &cfg, OUTPUT_END_NEWLINE);
		CHECK_STR(b.data, "mount writable /srv/b rw (was ro) pid=- uid=- comm=-\n");
		ev = mount_ev(MOUNT_PRESENT);
		buf_reset(&b);
		output_text(&b, &ev, &cfg, OUTPUT_END_NEWLINE);
		CHECK_STR(b.data, "mount present /srv/b tmpfs none\n");
		buf_reset(&b);
		output_json(&b, &ev, OUTPUT_END_NEWLINE);
		CHECK(strstr(b.data, "\"readonly\":false,\"pid\":null,\"comm\":null,\"uid\":null}") != NULL, "%s", b.data);
		buf_reset(&b);
		output_format(&b, "%P %u %c", "%Y", &ev, OUTPUT_END_NEWLINE);
		CHECK_STR(b.data, "- - -\n");
		/* Not a mount record: -, as for the other mount escapes. */
		ev = (struct event){ .type = EV_KEY, .subtype = KEY_REVOKED, .watch = "42", .u.key = { .key = 42 } };
		buf_reset(&b);
		output_format(&b, "[%P] [%u] [%c]", "%Y", &ev, OUTPUT_END_NEWLINE);
		CHECK_STR(b.data, "[-] [-] [-]\n");
	}

	buf_reset(&b);
	ev = (struct event){ .type = EV_KEY, .subtype = KEY_LINKED, .watch = "@s", .tag = 1,
		.u.key = { .key = 1035096409, .keyring = 0x2ffc2e5d, .aux = 1035096409,
			.type = "user", .description = "to ken" } };
	output_text(&b, &ev, &cfg, OUTPUT_END_NEWLINE);
	/* One base, keyctl's: the key beside its description, the keyring labelled. */
	CHECK_STR(b.data, "key linked @s 1035096409 user:to\\x20ken keyring=805056093\n");
	buf_reset(&b);
	output_json(&b, &ev, OUTPUT_END_NEWLINE);
	CHECK_STR(b.data, "{\"time\":\"1970-01-01T00:00:00.000000Z\",\"time_us\":0,\"source\":\"key\",\"event\":\"linked\","
	    "\"watch\":\"@s\",\"tag\":1,\"keyring\":805056093,\"key\":1035096409,\"type\":\"user\","
	    "\"description\":\"to ken\",\"aux\":1035096409,\"perm\":null,\"uid\":null,\"gid\":null}\n");
	buf_reset(&b);
	output_format(&b, "%k %K %y", "%Y", &ev, OUTPUT_END_NEWLINE);
	CHECK_STR(b.data, "1035096409 805056093 user:to\\x20ken\n");
	buf_reset(&b);
	ev = (struct event){ .type = EV_KEY, .subtype = KEY_REVOKED, .watch = "42", .u.key = { .key = 42 } };
	output_text(&b, &ev, &cfg, OUTPUT_END_NEWLINE);
	CHECK_STR(b.data, "key revoked 42 42 -\n");
	buf_reset(&b);
	output_json(&b, &ev, OUTPUT_END_NEWLINE);
	CHECK_STR(b.data, "{\"time\":\"1970-01-01T00:00:00.000000Z\",\"time_us\":0,\"source\":\"key\",\"event\":\"revoked\","
	    "\"watch\":\"42\",\"tag\":0,\"keyring\":null,\"key\":42,\"type\":null,\"description\":null,\"aux\":0,"
	    "\"perm\":null,\"uid\":null,\"gid\":null}\n");
	/* The watch as the user gave it, 0x and all; the serials decimal. */
	buf_reset(&b);
	ev = (struct event){ .type = EV_KEY, .subtype = KEY_UNLINKED, .watch = "0x2ffc2e5d",
		.u.key = { .key = 1035096409, .keyring = 805056093, .aux = 1035096409 } };
	output_text(&b, &ev, &cfg, OUTPUT_END_NEWLINE);
	CHECK_STR(b.data, "key unlinked 0x2ffc2e5d 1035096409 - keyring=805056093\n");
	buf_reset(&b);
	ev = (struct event){ .type = EV_KEY, .subtype = KEY_CLEARED, .watch = "@s",
		.u.key = { .key = 805056093, .keyring = 805056093, .type = "keyring", .description = "_ses" } };
	output_text(&b, &ev, &cfg, OUTPUT_END_NEWLINE);
	CHECK_STR(b.data, "key cleared @s 805056093\n");
	buf_reset(&b);
	output_format(&b, "%k %K", "%Y", &ev, OUTPUT_END_NEWLINE);
	CHECK_STR(b.data, "805056093 805056093\n");
	buf_reset(&b);
	ev = (struct event){ .type = EV_KEY, .subtype = KEY_INSTANTIATED, .watch = "@s",
		.u.key = { .key = 2147483647, .aux = -126, .type = "user", .description = "x" } };
	output_text(&b, &ev, &cfg, OUTPUT_END_NEWLINE);
	CHECK_STR(b.data, "key instantiated @s 2147483647 user:x (error -126)\n");

	/* A present key: keyctl show's columns in text, the whole mask in JSON. */
	buf_reset(&b);
	ev = (struct event){ .type = EV_KEY, .subtype = KEY_PRESENT, .watch = "@s",
		.u.key = { .key = 7, .keyring = 5, .type = "user", .description = "x",
		    .has_attr = true, .perm = 0x3f010000, .uid = (long)geteuid(),
		    .gid = (long)getegid() } };
	output_text(&b, &ev, &cfg, OUTPUT_END_NEWLINE);
	snprintf(line, sizeof(line), "key present @s 7 user:x keyring=5 perm=--alswrv uid=%ld gid=%ld\n",
	    (long)geteuid(), (long)getegid());
	CHECK_STR(b.data, line);
	buf_reset(&b);
	ev.u.key.uid = ev.u.key.gid = -1;
	output_json(&b, &ev, OUTPUT_END_NEWLINE);
	CHECK(strstr(b.data, "\"perm\":1057030144,\"uid\":-1,\"gid\":-1}") != NULL, "%s", b.data);
	buf_reset(&b);
	ev.u.key.has_attr = false;
	output_text(&b, &ev, &cfg, OUTPUT_END_NEWLINE);
	CHECK_STR(b.data, "key present @s 7 user:x keyring=5 perm=- uid=- gid=-\n");

	/* sb lowspace: which way it crossed, and its bytes; present: the space where known. */
	buf_reset(&b);
	ev = (struct event){ .type = EV_SB, .subtype = SB_LOWSPACE, .watch = "/d",
		.u.sb = { .path = "/d", .low = true, .avail = 5, .size = 100, .threshold = 10 } };
	output_format(&b, "%e %l %a %z %b", "%Y", &ev, OUTPUT_END_NEWLINE);
	CHECK_STR(b.data, "lowspace low 5 100 10\n");
	buf_reset(&b);
	ev.u.sb.low = false;
	ev.u.sb.avail = 20;
	output_format(&b, "%l %a", "%Y", &ev, OUTPUT_END_NEWLINE);
	CHECK_STR(b.data, "ok 20\n");
	buf_reset(&b);
	ev.subtype = SB_PRESENT;
	ev.u.sb.has_space = true;
	output_format(&b, "%e %a %z", "%Y", &ev, OUTPUT_END_NEWLINE);
	CHECK_STR(b.data, "present 20 100\n");

	CHECK(output_format_inotify_path("%w%f") && output_format_inotify_path("%e %#w%#f") &&
	    output_format_inotify_path("%w%#f"), "%%w%%f: inotifywait's path");
	CHECK(!output_format_inotify_path("%w %f") && !output_format_inotify_path("%w%%f") &&
	    !output_format_inotify_path("%%w%f") && !output_format_inotify_path("%f%w"),
	    "%%w %%f and the like are not");
	CHECK(output_format_check("%e %w") == 0, "good format");
	CHECK(output_format_check("%q") == -1, "unknown escape");
	CHECK(output_format_check("%") == -1, "trailing percent");
	CHECK(output_format_check("100%%") == 0, "percent escape");
	CHECK(output_format_uses("%e %T", 'T') && !output_format_uses("%e %%T", 'T'), "%%T used, %%%%T not");
	CHECK(output_format_needs_who("%e %u") && output_format_needs_who("%c") && output_format_needs_who("%P") &&
	    !output_format_needs_who("%e %%P %p %T"), "%%P, %%u, %%c need who; %%%%P does not");

	/* A time format of any length; an empty expansion stays empty. */
	{
		char fmt[600];
		struct buf want = { 0 };

		memset(fmt, 'x', 500);
		strcpy(fmt + 500, "%Y");
		buf_reset(&b);
		ev = mount_ev(MOUNT_MOUNT);
		buf_addtime(&b, &ev.time, fmt);
		buf_add(&want, fmt, 500);
		buf_adds(&want, "2023");
		CHECK_STR(b.data, want.data);
		buf_free(&want);
		buf_reset(&b);
		buf_adds(&b, "[");
		buf_addtime(&b, &ev.time, "");
		buf_adds(&b, "]");
		CHECK_STR(b.data, "[]");
	}

	/* Text escapes terminal controls in every string; JSON keeps the code point. */
	buf_reset(&b);
	ev = mount_ev(MOUNT_MOUNT);
	mount_at.target = (char *)"/srv/\xc2\x9b" "31m";
	output_text(&b, &ev, &cfg, OUTPUT_END_NEWLINE);
	CHECK(strstr(b.data, "/srv/\\xc2\\x9b31m ") != NULL, "%s", b.data);
	buf_reset(&b);
	output_format(&b, "%p", "%Y", &ev, OUTPUT_END_NEWLINE);
	CHECK_STR(b.data, "/srv/\\xc2\\x9b31m\n");
	buf_reset(&b);
	output_json(&b, &ev, OUTPUT_END_NEWLINE);
	CHECK(strstr(b.data, "\"path\":\"/srv/\\u009b31m\"") != NULL && strstr(b.data, "_b64") == NULL, "%s", b.data);
	buf_free(&b);
	return unit_done("test_output");
}
