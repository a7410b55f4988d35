/*
 * Allocation that cannot fail: on exhaustion the program ends with a
 * message (the one exception to "the engine never exits").  Hostile sizes
 * are refused before they reach these functions.
 */
#ifndef XMALLOC_H
#define XMALLOC_H

#include <stddef.h>

void	*xmalloc(size_t);
void	*xcalloc(size_t, size_t);
void	*xreallocarray(void *, size_t, size_t);
char	*xstrdup(const char *);

/*
 * A zeroed private mapping of len bytes, faulted in for writing at once:
 * touched page by page, a large table would fault at each first write
 * (twice where the first access is a read).  Freed with munmap(2).
 */
void	*xmap(size_t len);

/* Fault in p[0..len) for writing, where the kernel can (a hint). */
void	 xpopulate(void *p, size_t len);

#endif
