/*
 * Union-find (disjoint sets) over items 0 .. n-1, by size with path
 * halving: near-constant time per operation.
 */
#ifndef UNIONFIND_H
#define UNIONFIND_H

#include <stddef.h>
#include <stdint.h>

struct unionfind {
	uint32_t *parent;
	uint32_t *size;
	size_t	 n;
};

void	 uf_init(struct unionfind *, size_t n);

/* The representative of x's set. */
uint32_t uf_find(struct unionfind *, uint32_t x);

/* Join the sets of a and b; returns 0 if they were one set already. */
int	 uf_union(struct unionfind *, uint32_t a, uint32_t b);

void	 uf_free(struct unionfind *);

#endif
