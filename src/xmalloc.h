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

#endif
