/*
 * A scheme is everything two fingerprints must share to be comparable:
 * algorithm, size, shingle kind and length, normalization, seed, weights
 * and format version.  It is printed before the ':' of every fingerprint
 * line, for example "nd1-simhash64-w3-fs-s0".
 */
#ifndef SCHEME_H
#define SCHEME_H

#include <stddef.h>
#include <stdint.h>

#include "algo.h"

#define SCHEME_VERSION	"nd1"
#define SCHEME_MAX	96	/* longest scheme string, with its NUL */
#define SCHEME_NGRAM_MAX 64
#define SCHEME_K_MAX	ALGO_K_MAX

struct scheme {
	enum algo algo;
	unsigned size;		/* bits for simhash, else k (or n for key) */
	unsigned ngram;		/* shingle length n */
	int	 chars;		/* character rather than word n-grams */
	int	 multiset;	/* labelled shingles */
	int	 keepcase;
	int	 keeppunct;
	uint64_t seed;
	int	 weighted;	/* --weights: wdigest names the table */
	uint64_t wdigest;
};

/*
 * The name of an algorithm, or its number from a name (-1 if none), from
 * the table of algorithms (algo.h), as are the sizes and digits below.
 */
const char *scheme_algo_name(enum algo);
int	 scheme_algo_lookup(const char *);

/* Default size (-k) for an algorithm. */
unsigned scheme_default_size(enum algo);

/*
 * Check the size for the algorithm: returns NULL if valid, else a reason.
 */
const char *scheme_check_size(enum algo, unsigned size);

/* Number of values in a fingerprint of this scheme, and hex digits each. */
size_t	 scheme_nvalues(const struct scheme *);
size_t	 scheme_value_digits(const struct scheme *);

/* Write the scheme string into buf (SCHEME_MAX bytes); returns its length. */
size_t	 scheme_format(const struct scheme *, char *buf);

/*
 * Parse s[0..len) as a scheme string.  Returns 0, or -1 with *why set to
 * what is wrong.
 */
int	 scheme_parse(const char *s, size_t len, struct scheme *,
	    const char **why);

/* Same scheme (fingerprints comparable)? */
int	 scheme_equal(const struct scheme *, const struct scheme *);

#endif
