#include <stdlib.h>
#include <string.h>

#include "keynames.h"
#include "xalloc.h"

static struct keyname *
keynames_find(const struct keynames *kn, int32_t serial)
{
	size_t i;

	for (i = 0; i < kn->n; i++)
		if (kn->v[i].serial == serial)
			return &kn->v[i];
	return NULL;
}

void
keynames_put(struct keynames *kn, int32_t serial, const char *type, const char *description)
{
	struct keyname *k = keynames_find(kn, serial);

	if (k == NULL) {
		if (kn->n >= KEYNAMES_MAX)
			return;
		kn->v = xreallocarray(kn->v, kn->n + 1, sizeof(*kn->v));
		k = &kn->v[kn->n++];
		k->serial = serial;
	} else {
		free(k->type);
		free(k->description);
	}
	k->type = xstrdup(type);
	k->description = xstrdup(description);
}

const struct keyname *
keynames_get(const struct keynames *kn, int32_t serial)
{
	return keynames_find(kn, serial);
}

void
keynames_drop(struct keynames *kn, int32_t serial)
{
	struct keyname *k = keynames_find(kn, serial);

	if (k == NULL)
		return;
	free(k->type);
	free(k->description);
	*k = kn->v[--kn->n];
}

void
keynames_free(struct keynames *kn)
{
	while (kn->n > 0)
		keynames_drop(kn, kn->v[kn->n - 1].serial);
	free(kn->v);
	kn->v = NULL;
}
