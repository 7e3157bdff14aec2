/* --source's forms, as findmnt -S takes them; and matching by device number and by source string. */
#include <sys/sysmacros.h>

#include "srcmatch.h"
#include "unit.h"

static const struct {
	const char *spec;
	int kind;
	unsigned maj, min;
} kinds[] = {
	{ "LABEL=backup", SRCMATCH_TAG, 0, 0 },
	{ "UUID=0b8c5a4e-3f1d-4c2a-9e1b-7d6f5a4c3b2a", SRCMATCH_TAG, 0, 0 },
	{ "PARTUUID=1234-01", SRCMATCH_TAG, 0, 0 },
	{ "PARTLABEL=EFI system partition", SRCMATCH_TAG, 0, 0 },
	{ "LABEL=", -1, 0, 0 },
	{ "label=backup", SRCMATCH_SOURCE, 0, 0 },	/* findmnt's tags are upper case */
	{ "ID=x", SRCMATCH_SOURCE, 0, 0 },
	{ "8:1", SRCMATCH_DEVNO, 8, 1 },
	{ "259:65536", SRCMATCH_DEVNO, 259, 65536 },
	{ "8:", SRCMATCH_SOURCE, 0, 0 },
	{ ":1", SRCMATCH_SOURCE, 0, 0 },
	{ "8:1:2", SRCMATCH_SOURCE, 0, 0 },
	{ "host:/export", SRCMATCH_SOURCE, 0, 0 },
	{ "/dev/sda1", SRCMATCH_SOURCE, 0, 0 },
	{ "tmpfs", SRCMATCH_SOURCE, 0, 0 },
};

int
main(void)
{
	size_t i;
	dev_t d;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		d = 0;
		CHECK(srcmatch_kind(kinds[i].spec, &d) == kinds[i].kind, "%s", kinds[i].spec);
		if (kinds[i].kind == SRCMATCH_DEVNO)
			CHECK(d == makedev(kinds[i].maj, kinds[i].min), "%s", kinds[i].spec);
	}
	CHECK(srcmatch_matches("8:1", NULL, "/dev/sda1", makedev(8, 1)), "MAJ:MIN");
	CHECK(!srcmatch_matches("8:2", NULL, "/dev/sda1", makedev(8, 1)), "other MAJ:MIN");
	CHECK(srcmatch_matches("tmpfs", NULL, "tmpfs", makedev(0, 40)), "source string");
	CHECK(srcmatch_matches("/dev/disk/x", "/dev/sda1", "/dev/sda1", makedev(8, 1)), "resolved path");
	CHECK(!srcmatch_matches("/dev/sdb1", NULL, "/dev/sda1", makedev(8, 1)), "other path");
	/* A tag no device is known to carry: a block device nothing names cannot be ruled out. */
	CHECK(srcmatch_judge("LABEL=wq-unit-none", NULL, "/dev/wq-none", makedev(259, 4095)) == -1,
	    "block device neither probed nor linked");
	CHECK(srcmatch_judge("LABEL=wq-unit-none", NULL, "tmpfs", makedev(0, 40)) == 0,
	    "no block device");
	CHECK(!srcmatch_matches("LABEL=wq-unit-none", NULL, "/dev/wq-none", makedev(259, 4095)),
	    "cannot tell is no match");
	return unit_done("test_srcmatch");
}
