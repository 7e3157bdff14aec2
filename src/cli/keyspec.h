#ifndef WATCHQ_KEYSPEC_H
#define WATCHQ_KEYSPEC_H

#include <stdint.h>

/*
 * Resolve @s @u @us @p @t @g @a, a serial (decimal or 0x hex) or %TYPE:DESC to an existing key's
 * serial; -1 with errno set (EINVAL: not a key spec).
 */
int keyspec_resolve(const char *spec, int32_t *serial);

#endif
