/*
 * keyburst KEYRING N PREFIX: add the user keys PREFIX1..PREFIXN to KEYRING
 * (@s, @u or a serial) as fast as the kernel takes them: a burst that races
 * whoever watches. Built by tests/keys.bats.
 */
#include <keyutils.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
main(int argc, char **argv)
{
	key_serial_t ring;
	char desc[8192];
	long i, n;

	if (argc != 4) {
		fprintf(stderr, "usage: keyburst KEYRING N PREFIX\n");
		return 64;
	}
	if (strcmp(argv[1], "@s") == 0)
		ring = KEY_SPEC_SESSION_KEYRING;
	else if (strcmp(argv[1], "@u") == 0)
		ring = KEY_SPEC_USER_KEYRING;
	else
		ring = (key_serial_t)strtol(argv[1], NULL, 0);
	n = strtol(argv[2], NULL, 10);
	for (i = 1; i <= n; i++) {
		snprintf(desc, sizeof(desc), "%s%ld", argv[3], i);
		if (add_key("user", desc, "v", 1, ring) < 0) {
			perror(desc);
			return 1;
		}
	}
	return 0;
}
