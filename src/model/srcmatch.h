#ifndef WATCHQ_SRCMATCH_H
#define WATCHQ_SRCMATCH_H

#include <stdbool.h>
#include <sys/types.h>

/* What --source names, as findmnt -S takes it. */
enum srcmatch_kind {
	SRCMATCH_SOURCE,	/* a device path or source string */
	SRCMATCH_TAG,		/* LABEL=, UUID=, PARTUUID=, PARTLABEL= */
	SRCMATCH_DEVNO,		/* MAJ:MIN */
};

/* The kind of spec; *devno is set for SRCMATCH_DEVNO; -1 for a tag with an empty value. */
int srcmatch_kind(const char *spec, dev_t *devno);
/* The device a tag spec names now (malloc'd, as blkid resolves it), or NULL if none does. */
char *srcmatch_resolve(const char *spec);
/*
 * Whether a mount of device dev whose source reads source is the one spec names; real: spec's
 * canonical path, or NULL.
 */
bool srcmatch_matches(const char *spec, const char *real, const char *source, dev_t dev);
/*
 * As srcmatch_matches(): 1 yes, 0 no, -1 cannot tell (a tag on a block device that can be neither
 * probed nor found through udev's links).
 */
int srcmatch_judge(const char *spec, const char *real, const char *source, dev_t dev);

#endif
