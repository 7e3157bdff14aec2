#include <errno.h>
#include <keyutils.h>
#include <stdlib.h>
#include <string.h>

#include "keyspec.h"
#include "xalloc.h"

static const struct {
	const char *name;
	key_serial_t id;
} specials[] = {
	{ "@s", KEY_SPEC_SESSION_KEYRING },
	{ "@u", KEY_SPEC_USER_KEYRING },
	{ "@us", KEY_SPEC_USER_SESSION_KEYRING },
	{ "@p", KEY_SPEC_PROCESS_KEYRING },
	{ "@t", KEY_SPEC_THREAD_KEYRING },
	{ "@g", KEY_SPEC_GROUP_KEYRING },
	{ "@a", KEY_SPEC_REQKEY_AUTH_KEY },
};

int
keyspec_resolve(const char *spec, int32_t *serial)
{
	key_serial_t id;
	char *end, *type, *colon;
	long long v;
	size_t i;

	if (spec[0] == '@') {
		for (i = 0; i < sizeof(specials) / sizeof(specials[0]); i++) {
			if (strcmp(spec, specials[i].name) != 0)
				continue;
			if ((id = keyctl_get_keyring_ID(specials[i].id, 0)) < 0)
				return -1;
			*serial = id;
			return 0;
		}
		errno = EINVAL;
		return -1;
	}
	if (spec[0] == '%') {
		type = xstrdup(spec + 1);
		if ((colon = strchr(type, ':')) == NULL || colon == type) {
			free(type);
			errno = EINVAL;
			return -1;
		}
		*colon = '\0';
		id = find_key_by_type_and_desc(type, colon + 1, 0);
		free(type);
		if (id < 0)
			return -1;
		*serial = id;
		return 0;
	}
	errno = 0;
	v = strtoll(spec, &end, 0);
	if (errno || end == spec || *end != '\0' || v <= 0 || v > INT32_MAX) {
		errno = EINVAL;
		return -1;
	}
	/* The serial must name a key we may see. */
	if (keyctl_describe(v, NULL, 0) < 0)
		return -1;
	*serial = (int32_t)v;
	return 0;
}
