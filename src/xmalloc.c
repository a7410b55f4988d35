/*
 * Allocation wrappers that end the program when memory is exhausted.
 */
#include <err.h>
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"

void *
xmalloc(size_t size)
{
	void *p;

	if ((p = malloc(size ? size : 1)) == NULL)
		err(2, NULL);
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void *p;

	if ((p = calloc(n ? n : 1, size ? size : 1)) == NULL)
		err(2, NULL);
	return p;
}

void *
xreallocarray(void *old, size_t n, size_t size)
{
	void *p;

	if ((p = reallocarray(old, n ? n : 1, size ? size : 1)) == NULL)
		err(2, NULL);
	return p;
}

char *
xstrdup(const char *s)
{
	char *p;

	if ((p = strdup(s)) == NULL)
		err(2, NULL);
	return p;
}
