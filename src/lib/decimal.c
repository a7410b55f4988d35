/*
 * Decimal numbers (see decimal.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "decimal.h"

int
decimal_parse(const char *s, double *v)
{
	char *end;

	if (s[strspn(s, "0123456789.eE+-")] != '\0')
		return -1;
	errno = 0;
	*v = strtod(s, &end);
	return end == s || *end != '\0' || errno != 0 ? -1 : 0;
}
