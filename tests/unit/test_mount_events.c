/* The decision logic of the mount sources: a table change becomes events per watch. */
#include <stdlib.h>

#include "mount_events.h"
#include "mounttab.h"
#include "unit.h"

struct log {
	struct sink sink;	/* first member, so that a struct sink * is the struct log * */
	char s[2048];
};

static void
log_event(struct sink *sink, struct event *ev)
{
	struct log *l = (struct log *)sink;
	size_t n = strlen(l->s);

	snprintf(l->s + n, sizeof(l->s) - n, "%d:%s:%s%s%s;", ev->tag, event_name(ev),
	    ev->u.mount.old_path ? ev->u.mount.old_path : "", ev->u.mount.old_path ? ">" : "",
	    ev->u.mount.at ? ev->u.mount.at->target : "-");
}

static void
record(void *p, const struct mounttab_change *ch)
{
	mount_events_change(p, ch);
}

static struct mounttab_entry *
entry(uint64_t id, uint64_t parent, const char *target, const char *src, const char *fstype)
{
	return mounttab_entry_new(id, parent, (dev_t)id, target, src, fstype, "/", "rw,relatime", "rw");
}

int
main(void)
{
	static struct config cfg;
	struct log log = { { log_event }, "" };
	struct source src = { 0 };
	struct source_watch sw[2];
	struct mounttab t = { 0 };
	struct mounttab_change ch;
	struct mounttab_entry *a, *b;
	char *fstypes[] = { "tmpfs", NULL };
	uint64_t ids[] = { 7, 9 };

	cfg.watches[0] = (struct watch){ .type = EV_MOUNT, .target = "/w", .path = "/w", .tag = 0 };
	cfg.watches[1] = (struct watch){ .type = EV_MOUNT, .target = "/", .path = "/", .tag = 1 };
	sw[0] = (struct source_watch){ &cfg.watches[0], true };
	sw[1] = (struct source_watch){ &cfg.watches[1], true };
	src.cfg = &cfg;
	src.sink = &log.sink;
	src.watches = sw;
	src.nwatches = 2;

	/* A move across a watch's edge is move_from or move_to for it, move for the wider one. */
	a = entry(5, 1, "/w/in", "s", "tmpfs");
	b = entry(5, 1, "/out", "s", "tmpfs");
	ch = (struct mounttab_change){ MOUNTTAB_MOVE, a, b };
	mount_events_change(&src, &ch);
	CHECK_STR(log.s, "0:move_from:/w/in>/out;1:move:/w/in>/out;");
	log.s[0] = '\0';
	ch = (struct mounttab_change){ MOUNTTAB_MOVE, b, a };
	mount_events_change(&src, &ch);
	CHECK_STR(log.s, "0:move_to:/out>/w/in;1:move:/out>/w/in;");

	/* --fstype and --source filter by what the mount is. */
	log.s[0] = '\0';
	cfg.fstypes = fstypes;
	mounttab_entry_free(b);
	b = entry(6, 1, "/w/p", "proc", "proc");
	ch = (struct mounttab_change){ MOUNTTAB_MOUNT, NULL, b };
	mount_events_change(&src, &ch);
	ch = (struct mounttab_change){ MOUNTTAB_MOUNT, NULL, a };
	mount_events_change(&src, &ch);
	CHECK_STR(log.s, "0:mount:/w/in;1:mount:/w/in;");
	log.s[0] = '\0';
	cfg.fstypes_negated = true;
	mount_events_change(&src, &ch);
	CHECK_STR(log.s, "");
	cfg.fstypes = NULL;
	cfg.fstypes_negated = false;
	cfg.source_dev = "other";
	mount_events_change(&src, &ch);
	CHECK_STR(log.s, "");
	cfg.source_dev = NULL;
	mounttab_entry_free(a);
	mounttab_entry_free(b);

	/* Transient mounts go to every live watch, whatever the filters: their place is unknown. */
	cfg.fstypes = fstypes;
	mount_events_transient(&src, ids, 2);
	CHECK_STR(log.s, "0:transient:-;1:transient:-;");
	cfg.fstypes = NULL;

	/*
	 * Stacked: L on /w/m, Y on /w/m/sub (on L), X over /w/m (on L). Moving
	 * /w/m moves X alone; Y stays, and so does L below it.
	 */
	log.s[0] = '\0';
	mounttab_insert(&t, entry(1, 1, "/", "root", "ext4"));
	mounttab_insert(&t, entry(10, 1, "/w/m", "L", "tmpfs"));
	mounttab_insert(&t, entry(11, 10, "/w/m/sub", "Y", "tmpfs"));
	mounttab_insert(&t, entry(12, 10, "/w/m", "X", "tmpfs"));
	mounttab_update(&t, entry(12, 1, "/w/n", "X", "tmpfs"), record, &src);
	CHECK_STR(log.s, "0:move:/w/m>/w/n;1:move:/w/m>/w/n;");
	CHECK_STR(mounttab_find(&t, 11)->target, "/w/m/sub");
	CHECK_STR(mounttab_find(&t, 10)->target, "/w/m");
	CHECK(mounttab_has_target(&t, "/w/m/sub") && !mounttab_has_target(&t, "/w/n/sub"), "stack stays");

	/* A move with submounts: they follow by parent id, deeper ones too. */
	log.s[0] = '\0';
	mounttab_insert(&t, entry(13, 11, "/w/m/sub/deep", "Z", "tmpfs"));
	mounttab_update(&t, entry(10, 1, "/w/o", "L", "tmpfs"), record, &src);
	CHECK_STR(log.s, "0:move:/w/m>/w/o;1:move:/w/m>/w/o;0:move:/w/m/sub>/w/o/sub;1:move:/w/m/sub>/w/o/sub;"
	    "0:move:/w/m/sub/deep>/w/o/sub/deep;1:move:/w/m/sub/deep>/w/o/sub/deep;");
	CHECK_STR(mounttab_find(&t, 13)->target, "/w/o/sub/deep");
	CHECK_STR(mounttab_find(&t, 12)->target, "/w/n");

	/* New options alone make a remount: readonly, then setattr against the last report. */
	log.s[0] = '\0';
	a = mounttab_entry_new(12, 1, 12, "/w/n", "X", "tmpfs", "/", "ro,nosuid,relatime", "rw");
	mounttab_update(&t, a, record, &src);
	CHECK_STR(log.s, "0:readonly:/w/n;0:setattr:/w/n;1:readonly:/w/n;1:setattr:/w/n;");

	/* A dead watch hears nothing; back to rw is writable. */
	log.s[0] = '\0';
	sw[1].alive = false;
	mounttab_update(&t, entry(12, 1, "/w/n", "X", "tmpfs"), record, &src);
	CHECK_STR(log.s, "0:writable:/w/n;0:setattr:/w/n;");

	/* A flip of ro alone is no setattr, wherever the ro token stands. */
	log.s[0] = '\0';
	a = mounttab_entry_new(12, 1, 12, "/w/n", "X", "tmpfs", "/", "relatime,ro", "rw");
	mounttab_update(&t, a, record, &src);
	CHECK_STR(log.s, "0:readonly:/w/n;");

	/* A change of propagation alone is its own event. */
	log.s[0] = '\0';
	a = mounttab_entry_new(12, 1, 12, "/w/n", "X", "tmpfs", "/", "relatime,ro", "rw");
	mounttab_entry_set_propagation(a, "shared:3");
	mounttab_update(&t, a, record, &src);
	CHECK_STR(log.s, "0:propagation:/w/n;");
	mounttab_clear(&t);
	return unit_done("test_mount_events");
}
