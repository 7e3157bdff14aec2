#include <string.h>
#include <strings.h>

#include "findmnt.h"

/* findmnt(8)'s output columns. */
static const char *const findmnt_names[] = {
	"ACTION", "AVAIL", "FREQ", "FSROOT", "FSTYPE", "FS-OPTIONS", "ID", "INO.AVAIL",
	"INO.TOTAL", "INO.USED", "INO.USE%", "LABEL", "MAJ:MIN", "OLD-OPTIONS", "OLD-TARGET",
	"OPTIONS", "OPT-FIELDS", "PARENT", "PARTLABEL", "PARTUUID", "PASSNO", "PROPAGATION",
	"SIZE", "SOURCES", "SOURCE", "TARGET", "TID", "UNIQ-ID", "USED", "USE%", "UUID",
	"VFS-OPTIONS", NULL,
};

/* Whether the n bytes at name are a column's name, case ignored as findmnt ignores it. */
static bool
findmnt_is_column(const char *name, size_t n)
{
	const char *const *c;

	for (c = findmnt_names; *c; c++)
		if (strlen(*c) == n && strncasecmp(*c, name, n) == 0)
			return true;
	return false;
}

bool
findmnt_columns(const char *s)
{
	size_t n;

	/* findmnt -o +LIST adds LIST to its default columns. */
	if (*s == '+')
		s++;
	for (;;) {
		n = strcspn(s, ",");
		if (!findmnt_is_column(s, n))
			return false;
		if (s[n] == '\0')
			return true;
		s += n + 1;
	}
}
