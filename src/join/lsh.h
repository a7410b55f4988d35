/*
 * Locality-sensitive hashing by banding (Rajaraman and Ullman; RiskIQ): a
 * signature of k minhash values is cut into b bands of r rows, and two
 * documents become candidates when some band is equal in both.  With
 * resemblance s that happens with probability P(s) = 1 - (1 - s^r)^b, an
 * S-curve whose steep part sits near (1/b)^(1/r).
 */
#ifndef LSH_H
#define LSH_H

#include <stddef.h>
#include <stdint.h>

struct lsh {
	unsigned b;		/* bands */
	unsigned r;		/* rows per band */
};

/* P(s): the probability that resemblance s makes a candidate pair. */
double	lsh_prob(const struct lsh *, double s);

/*
 * Bands and rows for threshold t from k values (b * r <= k, b <= maxb):
 * the pair that minimizes fpw * (false-positive area below t) + fnw *
 * (false-negative area above t) under the S-curve, as datasketch chooses,
 * among those that make a candidate of resemblance t + 0.1 with
 * probability at least LSH_RECALL (if any pair does).
 */
#define LSH_RECALL	0.99
#define LSH_FPW		0.1	/* a false positive costs a confirmation */
#define LSH_FNW		0.9	/* a false negative is a duplicate missed */

void	lsh_choose(struct lsh *, double t, unsigned k, unsigned maxb,
	    double fpw, double fnw);

/* The same, with the recall bar at resemblance at instead of t + 0.1. */
void	lsh_choose_at(struct lsh *, double t, double at, unsigned k,
	    unsigned maxb, double fpw, double fnw);

/*
 * The RiskIQ "pickBands" rule for comparison: the least b with
 * b log b >= -k log t, r = k / b.
 */
void	lsh_pick_bands(struct lsh *, double t, unsigned k);

/*
 * Key of band i of signature v (values of 32 bits in 64-bit words): XXH3
 * of i and the band's r values, as little-endian bytes, with the seed.
 */
uint64_t lsh_band_key(const struct lsh *, const uint64_t *v, unsigned i,
	    uint64_t seed);

#endif
