/*
 * MinHash signatures of k 32-bit values, two ways:
 *  - k independent hash functions, the minimum of each (Broder; the
 *    "many hash functions" variant): O(k) per shingle;
 *  - one permutation hashing (Li, Owen and Zhang 2012): one hash splits
 *    shingles into k bins and each bin keeps its minimum, O(1) per shingle;
 *    empty bins borrow from another bin by Shrivastava's (2017) optimal
 *    densification.  Both estimate Jaccard as matching values / k.
 */
#ifndef MINHASH_H
#define MINHASH_H

#include <stddef.h>
#include <stdint.h>

struct minhash {
	unsigned k;
	int	 oph;		/* one permutation hashing */
	uint64_t seed;
	uint32_t *mins;
	uint32_t *alo, *ahi;	/* k-hash: multipliers, low and high halves */
	uint64_t *b;		/* k-hash: addends */
	uint64_t *bpack;	/* k-hash: b in the order the AVX2 loop reads */
	int	 avx2;		/* k-hash: use the AVX2 loop, 2: AVX-512 */
	uint64_t *seen;		/* k-hash: shingles met lately (minhash.c), */
	uint32_t *seengen;	/*   and the document they were met in */
	uint32_t gen;		/* k-hash: the document, counted */
	unsigned char *filled;	/* oph: bins that received a shingle */
	uint16_t *probe;	/* oph: first probes of each bin, precomputed */
};

void	minhash_init(struct minhash *, unsigned k, int oph, uint64_t seed);
void	minhash_reset(struct minhash *);
void	minhash_add(struct minhash *, const uint64_t *h, size_t n);
/*
 * The same for n shingles known to be distinct: the k-hash way then
 * skips its lookup of the shingles met lately.
 */
void	minhash_add_distinct(struct minhash *, const uint64_t *h, size_t n);

/* Write the k values to out (as 64-bit words). */
void	minhash_final(struct minhash *, uint64_t *out);
void	minhash_free(struct minhash *);

/* Estimated Jaccard of two signatures of k values: matches / k. */
double	minhash_jaccard(const uint64_t *a, const uint64_t *b, size_t k);

#endif
