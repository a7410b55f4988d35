/*
 * Union-find.
 */
#include <stdlib.h>
#include <string.h>

#include "unionfind.h"
#include "xmalloc.h"

void
uf_init(struct unionfind *u, size_t n)
{
	size_t i;

	u->n = n;
	u->parent = xreallocarray(NULL, n ? n : 1, sizeof(*u->parent));
	u->size = xreallocarray(NULL, n ? n : 1, sizeof(*u->size));
	for (i = 0; i < n; i++) {
		u->parent[i] = (uint32_t)i;
		u->size[i] = 1;
	}
}

uint32_t
uf_find(struct unionfind *u, uint32_t x)
{
	while (u->parent[x] != x) {
		u->parent[x] = u->parent[u->parent[x]];
		x = u->parent[x];
	}
	return x;
}

int
uf_union(struct unionfind *u, uint32_t a, uint32_t b)
{
	uint32_t t;

	a = uf_find(u, a);
	b = uf_find(u, b);
	if (a == b)
		return 0;
	if (u->size[a] < u->size[b]) {
		t = a;
		a = b;
		b = t;
	}
	u->parent[b] = a;
	u->size[a] += u->size[b];
	return 1;
}

void
uf_free(struct unionfind *u)
{
	free(u->parent);
	free(u->size);
	memset(u, 0, sizeof(*u));
}
