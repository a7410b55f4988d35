/*
 * A set of 64-bit shingle hashes, for exact resemblance and containment.
 * Memory is 16 to 32 bytes per distinct shingle (open addressing, at
 * most half full), 48 for a moment while the table doubles.  Two different shingles with the same 64-bit hash are
 * one element: with n distinct shingles that happens with probability
 * about n^2 / 2^65, negligible below billions of shingles.
 */
#ifndef SHSET_H
#define SHSET_H

#include <stddef.h>
#include <stdint.h>

struct shset {
	uint64_t *slot;		/* 0: empty; the value 0 is kept apart */
	size_t	 cap;		/* a power of two, or 0 */
	unsigned shift;		/* 64 - log2(cap): a hash's home is h >> shift */
	size_t	 n;		/* elements, the value 0 included */
	int	 has_zero;
};

void	shset_init(struct shset *);

/* Add n hashes (repeats are ignored). */
void	shset_add(struct shset *, const uint64_t *h, size_t n);

/* Is h in the set? */
int	shset_has(const struct shset *, uint64_t h);

/* Number of elements in both sets. */
size_t	shset_shared(const struct shset *, const struct shset *);

void	shset_free(struct shset *);

#endif
