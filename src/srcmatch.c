#include <libmount.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "srcmatch.h"

/* The tags findmnt -S resolves through libblkid. */
static const char *const tags[] = { "LABEL", "UUID", "PARTUUID", "PARTLABEL", NULL };

/* The tag name spec starts with ("LABEL" for "LABEL=x"), or NULL. */
static const char *
tag_of(const char *spec)
{
	const char *const *t;
	size_t n = strcspn(spec, "=");

	if (spec[n] != '=')
		return NULL;
	for (t = tags; *t; t++)
		if (strlen(*t) == n && strncmp(*t, spec, n) == 0)
			return *t;
	return NULL;
}

int
srcmatch_kind(const char *spec, dev_t *devno)
{
	const char *tag = tag_of(spec);
	unsigned maj, min;
	int end = 0;

	if (tag)
		return spec[strlen(tag) + 1] ? SRCMATCH_TAG : -1;
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
	const char *tag = tag_of(spec);
	char *name;
	char *dev;

	if (tag == NULL)
		return NULL;
	name = strndup(spec, strlen(tag));
	if (name == NULL)
		return NULL;
	/* Without a cache libmount asks libblkid afresh (udev's links, else a probe), so a device plugged in later is found. */
	dev = mnt_resolve_tag(name, spec + strlen(tag) + 1, NULL);
	free(name);
	return dev;
}

bool
srcmatch_matches(const char *spec, const char *real, const char *source, dev_t dev)
{
	struct stat st;
	dev_t want;
	char *tagdev;
	bool match;

	switch (srcmatch_kind(spec, &want)) {
	case SRCMATCH_DEVNO:
		return dev == want;
	case SRCMATCH_TAG:
		/* Labels are on block devices: the mount's device number is theirs, or its source names one. */
		if ((major(dev) == 0 && source[0] != '/') || (tagdev = srcmatch_resolve(spec)) == NULL)
			return false;
		match = strcmp(tagdev, source) == 0 ||
		    (stat(tagdev, &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == dev);
		free(tagdev);
		return match;
	default:
		return strcmp(spec, source) == 0 || (real && strcmp(real, source) == 0);
	}
}
