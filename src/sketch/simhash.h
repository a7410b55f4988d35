/*
 * Charikar's simhash: every feature hash votes +w or -w on each bit; a bit
 * of the fingerprint is set when its votes sum above zero.
 */
#ifndef SIMHASH_H
#define SIMHASH_H

#include <stddef.h>
#include <stdint.h>

struct simhash {
	/*
	 * What a document of a line touches first, together: a line is
	 * as short as most documents get, and its every cache line counts.
	 */
	unsigned bits;		/* 64 or 128 */
	unsigned pending;	/* features held in the byte lanes */
	unsigned pending16;	/* sixteens held in lanes16 */
	unsigned vpending;	/* groups of 128 counted in vbytes */
	int	 vused;		/* some were counted, since simhash_init */
	int	 wide;		/* their lanes eight at a time (AVX-512) */
	int	 counted;	/* count has been added to */
	uint64_t seed;
	uint64_t nfeat;		/* features seen (unweighted) */
	double	 wtotal;
	uint64_t ones, twos, fours, eights;	/* carry-save planes */
	uint64_t lanes[16];	/* 8 one-byte counters per word */
	uint64_t lanes16[8];	/* the same, counting sixteens */
	uint64_t vones[8], vtwos[8], vfours[8], veights[8];	/* by lane */
	/* Sixteens of bit 8 k + j of lane l in byte k of vbytes[j][l]. */
	uint64_t vbytes[8][8];
	uint64_t count[128];	/* votes for 1, per bit */
	double	 wsum[128];	/* weight voting 1, per bit (weighted) */
};

/* Start an empty simhash of 64 or 128 bits. */
void	simhash_init(struct simhash *, unsigned bits, uint64_t seed);

/* Empty it again, for the next document: only what it used is cleared. */
void	simhash_reset(struct simhash *);

/* Add n features, each with weight 1. */
void	simhash_add(struct simhash *, const uint64_t *h, size_t n);

/* Add n features with weights w[i] (finite, >= 0). */
void	simhash_add_weighted(struct simhash *, const uint64_t *h,
	    const double *w, size_t n);

/* The fingerprint: out[0] (and out[1], low half, for 128 bits). */
void	simhash_final(struct simhash *, uint64_t *out);

/* Hamming distance between two fingerprints of nv 64-bit words. */
unsigned simhash_distance(const uint64_t *a, const uint64_t *b, size_t nv);

#endif
