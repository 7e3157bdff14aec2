#include "output_end.h"

void
output_end(struct buf *b, enum output_end end)
{
	if (end == OUTPUT_END_NEWLINE)
		buf_addc(b, '\n');
	else if (end == OUTPUT_END_NUL)
		buf_addc(b, '\0');
}
