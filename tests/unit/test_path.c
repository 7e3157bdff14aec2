/* Path canonicalisation: realpath for what exists, lexical for the missing rest. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>

#include "buf.h"
#include "path.h"
#include "unit.h"

static char dir[64];

/* path_canon_lenient(in) is want, both relative to the test directory when they start with '@'. */
static void
lenient(const char *in, const char *want)
{
	struct buf i = { 0 }, w = { 0 };
	char *got;

	if (*in == '@')
		buf_addf(&i, "%s%s", dir, in + 1);
	else
		buf_adds(&i, in);
	if (*want == '@')
		buf_addf(&w, "%s%s", dir, want + 1);
	else
		buf_adds(&w, want);
	got = path_canon_lenient(i.data);
	CHECK(got != NULL, "%s: %m", i.data);
	if (got)
		CHECK(strcmp(got, w.data) == 0, "%s: got %s, want %s", in, got, w.data);
	free(got);
	buf_free(&i);
	buf_free(&w);
}

int
main(void)
{
	char tmpl[] = "/tmp/watchq-unit-XXXXXX", *real, *got;
	struct buf b = { 0 };

	if (mkdtemp(tmpl) == NULL || (real = realpath(tmpl, NULL)) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(dir, sizeof(dir), "%s", real);
	buf_addf(&b, "%s/a", dir);
	mkdir(b.data, 0700);
	buf_adds(&b, "/b");
	mkdir(b.data, 0700);
	buf_reset(&b);
	buf_addf(&b, "%s/l", dir);
	CHECK(symlink("a", b.data) == 0, "symlink %m");
	buf_reset(&b);
	buf_addf(&b, "%s/f", dir);
	close(creat(b.data, 0600));
	buf_reset(&b);
	buf_addf(&b, "%s/loop", dir);
	CHECK(symlink("loop", b.data) == 0, "symlink %m");

	lenient("@/a/b", "@/a/b");				/* exists */
	lenient("@/a/missing/x", "@/a/missing/x");		/* missing components kept */
	lenient("@/a/../a/./b/", "@/a/b");			/* "..", "." and a trailing slash */
	lenient("@//a///b//", "@/a/b");				/* repeated slashes */
	lenient("@/l/b", "@/a/b");				/* a symlink resolved */
	lenient("@/l/missing", "@/a/missing");			/* through a symlink, then missing */
	lenient("@/l/..", "@");					/* ".." after a symlink: its target's parent */
	lenient("@/missing/../a", "@/a");			/* ".." of a missing component: lexical */
	lenient("@/missing/./y/", "@/missing/y");
	lenient("@/f/x", "@/f/x");				/* below a regular file: never exists */
	lenient("@/loop", "@/loop");				/* a symlink loop: lexical */
	lenient("@/loop/x/..", "@/loop");
	lenient("/", "/");
	lenient("/nonexistent-watchq/../..", "/");		/* never above the root */
	CHECK(chdir(dir) == 0, "chdir %m");
	lenient("a/new", "@/a/new");				/* relative to the working directory */
	lenient("l/./b/../../f", "@/f");
	errno = 0;
	CHECK(path_canon_lenient("") == NULL && errno == ENOENT, "empty path");

	got = path_canon("l/b");
	buf_reset(&b);
	buf_addf(&b, "%s/a/b", dir);
	CHECK(got && strcmp(got, b.data) == 0, "path_canon follows the symlink: %s", got ? got : "(null)");
	free(got);
	CHECK(path_canon("missing") == NULL && errno == ENOENT, "path_canon needs the file");

	CHECK(path_within("/", "/x"), "root holds all");
	CHECK(path_within("/a", "/a") && path_within("/a", "/a/b"), "itself and below");
	CHECK(!path_within("/a", "/ab") && !path_within("/a/b", "/a"), "not a prefix of a name, not above");

	buf_reset(&b);
	buf_addf(&b, "rm -rf '%s'", dir);
	if (system(b.data) != 0)
		perror("rm");
	buf_free(&b);
	free(real);
	return unit_done("test_path");
}
