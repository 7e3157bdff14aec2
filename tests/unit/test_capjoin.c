/* The join of a fanotify record to the captured mount call behind it, as a table. */
#include "unit.h"
#include "capjoin.h"

#define ROOT		{ 1, 0, 33, 2 }
#define OTHER_ROOT	{ 9, 0, 33, 2 }
#define NS		4026531841ULL

/* An entry record of call nr by process tgid (pidfs inode ino), path and flags arguments. */
static struct capture_enter
enter(unsigned nr, unsigned tgid, unsigned long long ino, const char *path, unsigned long long a1,
    unsigned long long a3, const char *comm, unsigned uid)
{
	struct capture_enter e;

	memset(&e, 0, sizeof(e));
	e.h.kind = CAPTURE_ENTER;
	e.h.nr = nr;
	e.h.tid = e.h.tgid = tgid;
	e.h.gtid = tgid + 100000;
	e.pid_ino = ino;
	e.uid = uid;
	e.mnt_ns = NS;
	e.root_mnt_id = 1;
	e.root_dev = 33;
	e.root_ino = 2;
	e.args[1] = a1;
	e.args[3] = a3;
	snprintf(e.comm, sizeof(e.comm), "%s", comm);
	if (path) {
		snprintf(e.path, sizeof(e.path), "%s", path);
		e.path_len = (unsigned)strlen(path) + 1;
	}
	return e;
}

int
main(void)
{
	static const struct {
		const char *what;
		unsigned nr;
		const char *path;
		unsigned long long a1, a3;	/* umount2's flags; mount(2)'s flags */
		bool ok, open;			/* the call's outcome */
		struct capjoin_change ch;	/* the record (root, ns: of the call unless said) */
		bool root_other;
		bool behind;
	} t[] = {
		{ "a mount at its target", CAPTURE_NR_MOUNT, "/mnt/a", 0, 0, true, false,
		  { 7, 0, CAPJOIN_ATTACH, "/mnt/a", false, NS, ROOT }, false, true },
		{ "an open call: maybe", CAPTURE_NR_MOUNT, "/mnt/a", 0, 0, false, true,
		  { 7, 0, CAPJOIN_ATTACH, "/mnt/a", false, NS, ROOT }, false, true },
		{ "a failed call: no record", CAPTURE_NR_MOUNT, "/mnt/a", 0, 0, false, false,
		  { 7, 0, CAPJOIN_ATTACH, "/mnt/a", false, NS, ROOT }, false, false },
		{ "another pid", CAPTURE_NR_MOUNT, "/mnt/a", 0, 0, true, false,
		  { 8, 0, CAPJOIN_ATTACH, "/mnt/a", false, NS, ROOT }, false, false },
		{ "no pid", CAPTURE_NR_MOUNT, "/mnt/a", 0, 0, true, false,
		  { 0, 0, CAPJOIN_ATTACH, "/mnt/a", false, NS, ROOT }, false, false },
		{ "elsewhere: an automount of a pid reused", CAPTURE_NR_MOUNT, "/mnt/a", 0, 0, true, false,
		  { 7, 0, CAPJOIN_ATTACH, "/sys/kernel/debug/tracing", false, NS, ROOT }, false, false },
		{ "below a plain mount: no", CAPTURE_NR_MOUNT, "/mnt/a", 0, 0, true, false,
		  { 7, 0, CAPJOIN_ATTACH, "/mnt/a/b", false, NS, ROOT }, false, false },
		{ "below a recursive bind", CAPTURE_NR_MOUNT, "/mnt/a", 0, 4096 | 16384, true, false,
		  { 7, 0, CAPJOIN_ATTACH, "/mnt/a/b", false, NS, ROOT }, false, true },
		{ "a prefix is not below", CAPTURE_NR_MOUNT, "/mnt/a", 0, 4096 | 16384, true, false,
		  { 7, 0, CAPJOIN_ATTACH, "/mnt/ab", false, NS, ROOT }, false, false },
		{ "a mount makes no detach", CAPTURE_NR_MOUNT, "/mnt/a", 0, 0, true, false,
		  { 7, 0, CAPJOIN_DETACH, "/mnt/a", false, NS, ROOT }, false, false },
		{ "a remount makes no record", CAPTURE_NR_MOUNT, "/mnt/a", 0, 32, true, false,
		  { 7, 0, CAPJOIN_ATTACH, "/mnt/a", false, NS, ROOT }, false, false },
		{ "a propagation change makes no record", CAPTURE_NR_MOUNT, "/mnt/a", 0, 1 << 20, true,
		  false, { 7, 0, CAPJOIN_ATTACH, "/mnt/a", false, NS, ROOT }, false, false },
		{ "MS_MOVE: a move to its target", CAPTURE_NR_MOUNT, "/mnt/b", 0, 8192, true, false,
		  { 7, 0, CAPJOIN_MOVE, "/mnt/b", false, NS, ROOT }, false, true },
		{ "MS_MOVE makes no attach", CAPTURE_NR_MOUNT, "/mnt/b", 0, 8192, true, false,
		  { 7, 0, CAPJOIN_ATTACH, "/mnt/b", false, NS, ROOT }, false, false },
		{ "an unmount", CAPTURE_NR_UMOUNT2, "/mnt/a", 0, 0, true, false,
		  { 7, 0, CAPJOIN_DETACH, "/mnt/a", false, NS, ROOT }, false, true },
		{ "below a plain unmount: no", CAPTURE_NR_UMOUNT2, "/mnt/a", 0, 0, true, false,
		  { 7, 0, CAPJOIN_DETACH, "/mnt/a/b", false, NS, ROOT }, false, false },
		{ "below a lazy unmount", CAPTURE_NR_UMOUNT2, "/mnt/a", 2, 0, true, false,
		  { 7, 0, CAPJOIN_DETACH, "/mnt/a/b", false, NS, ROOT }, false, true },
		{ "move_mount(2): an attach below its target", CAPTURE_NR_MOVE_MOUNT, "/mnt/t", 0, 0,
		  true, false, { 7, 0, CAPJOIN_ATTACH, "/mnt/t/x", false, NS, ROOT }, false, true },
		{ "another root: no path join, no pidfd", CAPTURE_NR_MOUNT, "/mnt/a", 0, 0, true, false,
		  { 7, 0, CAPJOIN_ATTACH, "/mnt/a", false, NS, OTHER_ROOT }, false, false },
		{ "another namespace: no path join", CAPTURE_NR_MOUNT, "/mnt/a", 0, 0, true, false,
		  { 7, 0, CAPJOIN_ATTACH, "/mnt/a", false, NS + 1, ROOT }, false, false },
		{ "another root, the same process by its pidfd: no place in common", CAPTURE_NR_MOUNT,
		  "/mnt/a", 0, 0, true, false, { 7, 70, CAPJOIN_ATTACH, "/a", false, NS, OTHER_ROOT }, false,
		  false },
		{ "a relative path, a pidfd: no place in common", CAPTURE_NR_MOUNT, "mnt/a", 0, 0, true,
		  false, { 7, 70, CAPJOIN_ATTACH, "/mnt/a", false, NS, ROOT }, false, false },
		{ "a relative path, no pidfd", CAPTURE_NR_MOUNT, "mnt/a", 0, 0, true, false,
		  { 7, 0, CAPJOIN_ATTACH, "/mnt/a", false, NS, ROOT }, false, false },
		{ "the pid of another process (pidfd)", CAPTURE_NR_MOUNT, "/mnt/a", 0, 0, true, false,
		  { 7, 71, CAPJOIN_ATTACH, "/mnt/a", false, NS, ROOT }, false, false },
		{ "the same process at another place", CAPTURE_NR_MOUNT, "/mnt/a", 0, 0, true, false,
		  { 7, 70, CAPJOIN_ATTACH, "/mnt/z", false, NS, ROOT }, false, false },
		{ "pivot_root(2), a pidfd: no place in common", CAPTURE_NR_PIVOT_ROOT, "/new", 0, 0, true,
		  false, { 7, 70, CAPJOIN_MOVE, "/", false, NS, ROOT }, false, false },
		{ "under a shared parent: a copy may be anywhere", CAPTURE_NR_MOUNT, "/p1/a", 0, 0, true,
		  false, { 7, 70, CAPJOIN_ATTACH, "/p2/a", true, NS, ROOT }, false, true },
		{ "pivot_root(2) without a pidfd: nobody", CAPTURE_NR_PIVOT_ROOT, "/new", 0, 0, true,
		  false, { 7, 0, CAPJOIN_MOVE, "/", false, NS, ROOT }, false, false },
		{ "MS_BIND|MS_PRIVATE: a bind, as the kernel takes it", CAPTURE_NR_MOUNT, "/mnt/a", 0,
		  4096 | (1 << 18), true, false, { 7, 0, CAPJOIN_ATTACH, "/mnt/a", false, NS, ROOT }, false,
		  true },
		{ "MS_BIND|MS_MOVE: a bind, not a move", CAPTURE_NR_MOUNT, "/mnt/a", 0, 4096 | 8192, true,
		  false, { 7, 0, CAPJOIN_MOVE, "/mnt/a", false, NS, ROOT }, false, false },
		{ "open_tree(2) makes no record", CAPTURE_NR_OPEN_TREE, "/mnt/a", 0, 0, true, false,
		  { 7, 70, CAPJOIN_ATTACH, "/mnt/a", false, NS, ROOT }, false, false },
	};
	struct capjoin_call calls[3];
	struct capture_enter e;
	const struct capjoin_call *who;
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		e = enter(t[i].nr, 7, 70, t[i].path, t[i].a1, t[i].a3, "mount", 0);
		if (!capjoin_decode(&e, &calls[0])) {
			CHECK(!t[i].behind, "%s: decoded as no record", t[i].what);
			continue;
		}
		calls[0].open = t[i].open;
		calls[0].ok = t[i].ok;
		CHECK(capjoin_may_be(&calls[0], &t[i].ch) == t[i].behind, "%s", t[i].what);
	}

	/* A pid reused: the first process mounted, the second (its uid dropped) too. */
	e = enter(CAPTURE_NR_MOUNT, 7, 70, "/w/1", 0, 0, "first", 0);
	capjoin_decode(&e, &calls[0]);
	e = enter(CAPTURE_NR_MOUNT, 7, 75, "/w/r1", 0, 0, "second", 65534);
	capjoin_decode(&e, &calls[1]);
	calls[0].open = calls[1].open = false;
	calls[0].ok = calls[1].ok = true;
	calls[1].start = 2;
	who = capjoin_name(calls, 2, &(struct capjoin_change){ 7, 0, CAPJOIN_ATTACH, "/w/1", false, NS, ROOT });
	CHECK(who == NULL, "two processes had the pid, no pidfd: nobody, whatever the path");
	who = capjoin_name(calls, 1, &(struct capjoin_change){ 7, 0, CAPJOIN_ATTACH, "/w/1", false, NS, ROOT });
	CHECK(who == &calls[0], "reaped, joined by its path: the one process");
	calls[0].reused = true;
	who = capjoin_name(calls, 1, &(struct capjoin_change){ 7, 0, CAPJOIN_ATTACH, "/w/1", false, NS, ROOT });
	CHECK(who == NULL, "its pid given to a new process since, no pidfd: nobody");
	who = capjoin_name(calls, 1, &(struct capjoin_change){ 7, 70, CAPJOIN_ATTACH, "/w/1", false, NS, ROOT });
	CHECK(who == &calls[0], "its pid given again, but the pidfd is its own: named");
	calls[0].reused = false;
	who = capjoin_name(calls, 2, &(struct capjoin_change){ 7, 75, CAPJOIN_ATTACH, "/w/r1", false, NS, ROOT });
	CHECK(who == &calls[1] && who->uid == 65534, "by its pidfd and path: the second, as at its call");
	who = capjoin_name(calls, 2, &(struct capjoin_change){ 7, 76, CAPJOIN_ATTACH, "/w/1", false, NS, ROOT });
	CHECK(who == NULL, "a third process with the pid: nobody");
	/* Both at one place, different names: which one cannot be told. */
	e = enter(CAPTURE_NR_MOUNT, 7, 75, "/w/1", 0, 0, "second", 65534);
	capjoin_decode(&e, &calls[2]);
	calls[2].ok = true;
	calls[2].open = false;
	calls[2].start = 2;
	CHECK(capjoin_name(calls, 3, &(struct capjoin_change){ 7, 75, CAPJOIN_ATTACH, "/w/1", false, NS, ROOT }) == &calls[2],
	    "two processes at one place: the pidfd's");
	/* One process, renamed between two mounts at one place: its name at either is not sure. */
	e = enter(CAPTURE_NR_MOUNT, 7, 70, "/w/1", 0, 0, "renamed", 0);
	capjoin_decode(&e, &calls[1]);
	calls[1].ok = true;
	calls[1].open = false;
	CHECK(capjoin_name(calls, 2, &(struct capjoin_change){ 7, 70, CAPJOIN_ATTACH, "/w/1", false, NS, ROOT }) == NULL,
	    "renamed between two calls at one place: nobody");
	/* Under a shared parent, two calls of one process: a copy of either may be there. */
	CHECK(capjoin_name(calls, 2, &(struct capjoin_change){ 7, 70, CAPJOIN_ATTACH, "/w/1", true, NS, ROOT }) == NULL,
	    "shared parent, two calls: nobody");
	/* One process, renamed between a call elsewhere and one here: its name here is not sure (a
	 * mount of the first call may have been moved here since). */
	e = enter(CAPTURE_NR_MOUNT, 9, 90, "/x/1", 0, 0, "first", 0);
	capjoin_decode(&e, &calls[0]);
	e = enter(CAPTURE_NR_MOUNT, 9, 90, "/y/1", 0, 0, "second", 0);
	capjoin_decode(&e, &calls[1]);
	calls[0].open = calls[1].open = false;
	calls[0].ok = calls[1].ok = true;
	CHECK(capjoin_name(calls, 2, &(struct capjoin_change){ 9, 90, CAPJOIN_ATTACH, "/x/1", false, NS, ROOT }) == NULL,
	    "two identities of one process: nobody");
	/* A remount is kept too, as the process's identity then. */
	e = enter(CAPTURE_NR_MOUNT, 9, 90, "/x/1", 0, 32, "second", 0);
	CHECK(!capjoin_decode(&e, &calls[1]) && strcmp(calls[1].comm, "second") == 0, "remount kept as identity");
	calls[1].ok = true;
	CHECK(capjoin_name(calls, 2, &(struct capjoin_change){ 9, 90, CAPJOIN_ATTACH, "/x/1", false, NS, ROOT }) == NULL,
	    "renamed before a remount: nobody");
	/*
	 * A change read from the table (no pid): only a call that has ended is proof, by a process
	 * with a pid here, and only where no call that cannot be placed may have made it instead.
	 */
	{
		const struct capjoin_change any = { CAPJOIN_ANY_PID, 0, CAPJOIN_ATTACH, "/t/a",
		    false, NS, ROOT };
		const struct capjoin_change spread = { CAPJOIN_ANY_PID, 0, CAPJOIN_ATTACH, "/t/a",
		    true, NS, ROOT };

		e = enter(CAPTURE_NR_MOUNT, 5, 50, "/t/a", 0, 0, "maker", 0);
		capjoin_decode(&e, &calls[0]);
		calls[0].open = false;
		calls[0].ok = true;
		CHECK(capjoin_name(calls, 1, &any) == &calls[0], "no pid: the one call that ended");
		calls[0].open = true;
		CHECK(capjoin_name(calls, 1, &any) == NULL, "no pid: a call under way is no proof");
		CHECK(capjoin_name(calls, 1, &(struct capjoin_change){ 5, 0, CAPJOIN_ATTACH, "/t/a",
		    false, NS, ROOT }) == &calls[0], "a record's pid: its call under way is behind it");
		calls[0].open = false;
		calls[0].tgid = 0;
		CHECK(capjoin_name(calls, 1, &any) == NULL, "no pid: a caller with no pid here");
		calls[0].tgid = 5;
		/* Beside it, a call that cannot be placed: a relative path, another root. */
		e = enter(CAPTURE_NR_MOUNT, 6, 60, "t/a", 0, 0, "relative", 0);
		capjoin_decode(&e, &calls[1]);
		calls[1].open = false;
		calls[1].ok = true;
		CHECK(capjoin_name(calls, 2, &any) == NULL, "no pid: a relative path beside it");
		calls[1].ok = false;
		CHECK(capjoin_name(calls, 2, &any) == &calls[0], "no pid: a failed call beside it");
		e = enter(CAPTURE_NR_MOUNT, 6, 60, "/t/a", 0, 0, "chrooted", 0);
		capjoin_decode(&e, &calls[1]);
		calls[1].root.ino++;
		calls[1].open = true;
		CHECK(capjoin_name(calls, 2, &any) == NULL, "no pid: a call under way from another root");
		calls[1].mnt_ns++;
		calls[1].open = false;
		calls[1].ok = true;
		CHECK(capjoin_name(calls, 2, &any) == &calls[0],
		    "no pid: another namespace's call, the parent private");
		CHECK(capjoin_name(calls, 2, &spread) == NULL,
		    "no pid: another namespace's call, a copy may propagate");
		/*
		 * Beside it, a move above it: a mount may have come here with the moved one. A move
		 * elsewhere, or a mount elsewhere, is no part of a mount here.
		 */
		e = enter(CAPTURE_NR_MOUNT, 6, 60, "/t", 0, 8192 /* MS_MOVE */, "mover", 0);
		capjoin_decode(&e, &calls[1]);
		calls[1].open = false;
		calls[1].ok = true;
		CHECK(capjoin_name(calls, 2, &any) == NULL, "no pid: a move above it");
		calls[1].ok = false;
		CHECK(capjoin_name(calls, 2, &any) == &calls[0], "no pid: a failed move above it");
		e = enter(CAPTURE_NR_MOUNT, 6, 60, "/u", 0, 8192 /* MS_MOVE */, "mover", 0);
		capjoin_decode(&e, &calls[1]);
		calls[1].open = false;
		calls[1].ok = true;
		CHECK(capjoin_name(calls, 2, &any) == &calls[0], "no pid: a move elsewhere");
		/* Two moves read as one: from the first's source to the second's target. */
		{
			const struct capjoin_change moved = { CAPJOIN_ANY_PID, 0, CAPJOIN_MOVE, "/u",
			    false, NS, ROOT };

			calls[2] = calls[1];
			CHECK(capjoin_name(&calls[1], 1, &moved) == &calls[1], "no pid: one move");
			e = enter(CAPTURE_NR_MOUNT, 7, 70, "/x", 0, 8192 /* MS_MOVE */, "first", 0);
			capjoin_decode(&e, &calls[2]);
			calls[2].open = false;
			calls[2].ok = true;
			CHECK(capjoin_name(&calls[1], 2, &moved) == NULL, "no pid: two moves");
		}
		e = enter(CAPTURE_NR_MOUNT, 6, 60, "/u", 0, 0, "other", 0);
		capjoin_decode(&e, &calls[1]);
		calls[1].open = false;
		calls[1].ok = true;
		CHECK(capjoin_name(calls, 2, &any) == &calls[0], "no pid: a mount elsewhere beside it");
		/* move_mount(2) here, a mount elsewhere: that mount, moved here, reads as a mount. */
		e = enter(CAPTURE_NR_MOVE_MOUNT, 5, 50, "/t/a", 0, 0, "mover", 0);
		capjoin_decode(&e, &calls[0]);
		calls[0].open = false;
		calls[0].ok = true;
		CHECK(capjoin_name(calls, 1, &any) == &calls[0], "no pid: move_mount alone");
		CHECK(capjoin_name(calls, 2, &any) == NULL, "no pid: move_mount, and a mount elsewhere");
		calls[1].used = true;
		CHECK(capjoin_name(calls, 2, &any) == &calls[0],
		    "no pid: move_mount, and a mount elsewhere read before");
		/* Named once, a plain mount call made that mount alone. */
		e = enter(CAPTURE_NR_MOUNT, 5, 50, "/t/a", 0, 0, "maker", 0);
		capjoin_decode(&e, &calls[0]);
		calls[0].open = false;
		calls[0].ok = true;
		calls[0].used = true;
		CHECK(capjoin_name(calls, 1, &any) == NULL, "no pid: a call named for a change before");
	}
	/* A call whose path filled the room is no path. */
	e = enter(CAPTURE_NR_MOUNT, 7, 70, NULL, 0, 0, "mount", 0);
	CHECK(capjoin_decode(&e, &calls[0]) && calls[0].path_len == 0, "no path");
	return unit_done("test_capjoin");
}
