/*
 * -N all's ledger of namespaces it lists but does not watch (src/sources/nsall.c, included):
 * a namespace with no process to look into is listed again until one is found, said once after
 * two listings; one no TARGET is in is left alone; a namespace reused under the same inode
 * number with another id is another namespace; and one watched is known by either.
 */
#include "../../src/sources/nsall.c"

#include "unit.h"

int
main(void)
{
	struct config cfg = { .quiet = true };
	struct nsall a = { .cfg = &cfg };
	struct nsall_ns watched = { .ns = { .ino = 40, .id = 400 } };
	struct nsall_ns *ns[] = { &watched };
	struct nslist_found f = { .ino = 7, .id = 70 };

	/* Nothing known: a new namespace. */
	CHECK(!nsall_known(&a, 7, 70), "a namespace never listed is new");
	/* No process found: pidless, looked for again at each listing (never "known"). */
	nsall_pidless(&a, &f);
	CHECK(a.nidle == 1 && a.idle[0].pidless && a.idle[0].rounds == 0, "pidless: noted");
	CHECK(!nsall_known(&a, 7, 70), "a pidless namespace is looked at again");
	CHECK(a.idle[0].listed, "and marked listed");
	nsall_pidless(&a, &f);
	nsall_pidless(&a, &f);
	CHECK(a.nidle == 1 && a.idle[0].rounds == 2, "one entry, its listings counted: %u",
	    a.idle[0].rounds);
	/* Found a process: watched, no longer idle. */
	nsall_unidle(&a, &f);
	CHECK(a.nidle == 0, "a namespace watched now leaves the ledger");
	/* No TARGET there: idle for good, known at each listing. */
	nsall_idle_add(&a, 8, 80, false);
	CHECK(nsall_known(&a, 8, 80), "a namespace with no TARGET in it is left alone");
	CHECK(nsall_known(&a, 8, 0), "found by /proc (no id): the same inode number is it");
	CHECK(!nsall_known(&a, 8, 81), "another id under that inode number is another namespace");
	nsall_unidle(&a, &(struct nslist_found){ .ino = 8, .id = 80 });
	CHECK(a.nidle == 1, "only a pidless entry leaves when its namespace is watched");
	/* Watched namespaces are known, by inode number and id. */
	a.ns = ns;
	a.n = 1;
	CHECK(nsall_known(&a, 40, 400) && watched.listed, "a watched namespace is known, listed");
	CHECK(nsall_known(&a, 40, 0), "by its inode number alone where /proc found it");
	CHECK(!nsall_known(&a, 40, 401), "not where the id says another namespace");
	CHECK(nsall_short(EMFILE) && nsall_short(ENOMEM) && !nsall_short(ENOENT),
	    "resources run short: EMFILE, ENFILE, ENOMEM; not what is there");
	free(a.idle);
	return unit_done("test_nsall");
}
