/*
 * How similar two documents are: exactly, from their shingle sets
 * (Broder's resemblance r(A,B) = |A n B| / |A u B| and containment
 * c(A,B) = |A n B| / |A|), and as estimated from two fingerprints of one
 * scheme.
 */
#ifndef SIMILARITY_H
#define SIMILARITY_H

#include <stddef.h>
#include <stdint.h>

#include "scheme.h"
#include "shset.h"

/*
 * The one default threshold of resemblance, for compare, cluster, uniq,
 * hash --bands and near: on the labelled corpora of bench/quality.sh it
 * best separates edited copies of one text from different texts
 * (bench/README.md, "The default threshold").  neardup(1) says so in one
 * place, THRESHOLD.
 */
#define SIMILARITY_DEFAULT	0.5
#define SIMILARITY_DEFAULT_TEXT	"0.5"	/* the same, as compare prints it */

struct similarity {
	size_t	 size_a, size_b;	/* distinct shingles */
	size_t	 shared;
	double	 jaccard;		/* 1 for two empty documents */
	double	 cont_ab;		/* A in B; 1 when A is empty */
	double	 cont_ba;
};

/* Which of the fields of an estimate the scheme gives. */
#define EST_JACCARD	0x01
#define EST_CONTAIN	0x02
#define EST_DISTANCE	0x04
#define EST_KEY		0x08

struct estimate {
	unsigned have;		/* EST_* */
	double	 jaccard;	/* minhash, oph, bottomk */
	double	 cont_ab, cont_ba;	/* bottomk */
	unsigned distance, bits;	/* simhash: differing bits of bits */
	double	 cosine;	/* simhash: cos(pi * distance / bits) */
	int	 equal;		/* key: the keys are equal */
	double	 similarity;	/* the scheme's figure for a threshold */
};

/*
 * The least overlap o of sets of na and nb distinct hashes with a
 * resemblance o / (na + nb - o) >= t, computed in doubles as here.  If no
 * o up to min(na, nb) reaches t: min(na, nb) + 1 with beyond, else
 * min(na, nb) (for a caller that knows one exists, na / nb >= t).  The
 * resemblance grows with o, in doubles too (a division correctly rounded
 * is monotone), so the search from near the real root finds the least,
 * and the one test of a pair is whether it shares that many.
 */
size_t	similarity_least_shared(size_t na, size_t nb, double t, int beyond);

/* Exact figures from two shingle sets. */
void	similarity_exact(const struct shset *a, const struct shset *b,
	    struct similarity *);

/*
 * Estimates from the values of two fingerprints of scheme sc.  The
 * similarity field is the Jaccard estimate, the simhash cosine, or 1 or 0
 * for equal or different keys.
 */
void	similarity_estimate(const struct scheme *sc, const uint64_t *a,
	    const uint64_t *b, struct estimate *);

#endif
