/*
 * Allocation wrappers that end the program when memory is exhausted.
 */
#include <sys/mman.h>

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

void *
xmap(size_t len)
{
	void *p;

	p = mmap(NULL, len ? len : 1, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		err(2, NULL);
	xpopulate(p, len);
	return p;
}

void
xpopulate(void *p, size_t len)
{
#ifdef MADV_POPULATE_WRITE
	if (len > 0)
		(void)madvise(p, len, MADV_POPULATE_WRITE);
#else
	(void)p;
	(void)len;
#endif
}
