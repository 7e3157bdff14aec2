#ifndef WATCHQ_KEYNAMES_H
#define WATCHQ_KEYNAMES_H

#include <stddef.h>
#include <stdint.h>

/* A key's serial, type and description (NULL: unknown). */
struct keyname {
	int32_t serial;
	char *type, *description;
};

/* What a key source knew of the keys it reported linked, for an unlinked key that can no longer
 * be described. */
struct keynames {
	struct keyname *v;
	size_t n;
};

/* Remember serial's type and description (copied; a known serial is renamed); at most KEYNAMES_MAX
 * are kept. */
void keynames_put(struct keynames *kn, int32_t serial, const char *type, const char *description);
/* The name remembered for serial, or NULL. */
const struct keyname *keynames_get(const struct keynames *kn, int32_t serial);
/* Forget serial. */
void keynames_drop(struct keynames *kn, int32_t serial);
/* Forget everything. */
void keynames_free(struct keynames *kn);

#define KEYNAMES_MAX	65536

#endif
