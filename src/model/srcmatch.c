#include <blkid.h>
#include <libmount.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "srcmatch.h"

/*
 * The tags findmnt -S resolves through libblkid, and the names libblkid's prober gives their
 * values.
 */
static const struct tag {
	const char *name, *probed;
} tags[] = {
	{ "LABEL", "LABEL" },
	{ "UUID", "UUID" },
	{ "PARTUUID", "PART_ENTRY_UUID" },
	{ "PARTLABEL", "PART_ENTRY_NAME" },
	{ NULL, NULL },
};

/* The tag spec starts with (LABEL for "LABEL=x"), or NULL. */
static const struct tag *
srcmatch_tag_of(const char *spec)
{
	const struct tag *t;
	size_t n = strcspn(spec, "=");

	if (spec[n] != '=')
		return NULL;
	for (t = tags; t->name; t++)
		if (strlen(t->name) == n && strncmp(t->name, spec, n) == 0)
			return t;
	return NULL;
}

/*
 * Whether the block device dev carries the tag's value: 1 yes, 0 no, -1 it
 * cannot be read (no privilege). Its own superblock and partition entry are
 * probed, as blkid -p does: a cache could be stale, and this is one device.
 */
static int
srcmatch_probe_has(dev_t dev, const struct tag *t, const char *value)
{
	blkid_probe pr;
	const char *v;
	char *name;
	int r;

	if ((name = blkid_devno_to_devname(dev)) == NULL)
		return -1;
	pr = blkid_new_probe_from_filename(name);
	free(name);
	if (pr == NULL)
		return -1;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_LABEL | BLKID_SUBLKS_UUID);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_ENTRY_DETAILS);
	r = blkid_do_safeprobe(pr) == 0 && blkid_probe_lookup_value(pr, t->probed, &v, NULL) == 0 &&
	    strcmp(v, value) == 0;
	blkid_free_probe(pr);
	return r;
}

int
srcmatch_kind(const char *spec, dev_t *devno)
{
	const struct tag *t = srcmatch_tag_of(spec);
	unsigned maj, min;
	int end = 0;

	if (t)
		return spec[strlen(t->name) + 1] ? SRCMATCH_TAG : -1;
	if (strspn(spec, "0123456789:") == strlen(spec) &&
	    sscanf(spec, "%u:%u%n", &maj, &min, &end) == 2 && spec[end] == '\0') {
		*devno = makedev(maj, min);
		return SRCMATCH_DEVNO;
	}
	return SRCMATCH_SOURCE;
}

char *
srcmatch_resolve(const char *spec)
{
	const struct tag *t = srcmatch_tag_of(spec);

	/*
	 * Without a cache libmount asks libblkid afresh (udev's links, else its cache file, checked
	 * by a probe).
	 */
	return t ? mnt_resolve_tag(t->name, spec + strlen(t->name) + 1, NULL) : NULL;
}

int
srcmatch_judge(const char *spec, const char *real, const char *source, dev_t dev)
{
	struct stat st;
	dev_t want;
	char *tagdev;
	int r;

	switch (srcmatch_kind(spec, &want)) {
	case SRCMATCH_DEVNO:
		return dev == want;
	case SRCMATCH_TAG:
		/* A filesystem on a block device has the device's number. */
		if (major(dev) != 0 && (r = srcmatch_probe_has(dev, srcmatch_tag_of(spec),
		    strchr(spec, '=') + 1)) >= 0)
			return r;
		/*
		 * Unprivileged: as findmnt, through udev's links to the device. A block device
		 * that neither its probe nor a link tells about may carry the tag.
		 */
		if ((tagdev = srcmatch_resolve(spec)) == NULL)
			return major(dev) != 0 ? -1 : 0;
		r = strcmp(tagdev, source) == 0 ||
		    (stat(tagdev, &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == dev);
		free(tagdev);
		return r;
	default:
		return strcmp(spec, source) == 0 || (real && strcmp(real, source) == 0);
	}
}

bool
srcmatch_matches(const char *spec, const char *real, const char *source, dev_t dev)
{
	return srcmatch_judge(spec, real, source, dev) == 1;
}
