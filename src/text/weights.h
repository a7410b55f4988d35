/*
 * Feature weights for simhash (--weights FILE): lines "TOKEN<TAB>WEIGHT",
 * for instance inverse document frequencies.  Tokens are normalized as the
 * text is, so "The" and "the" are one token unless case is kept.
 */
#ifndef WEIGHTS_H
#define WEIGHTS_H

#include <stddef.h>
#include <stdint.h>

#include "scheme.h"

#define WEIGHTS_DEFAULT 1.0	/* weight of a token not in the table */
/*
 * The largest weight: simhash sums the weights of a document's shingles
 * in doubles, which 1e12 times the shingles of any file cannot overflow
 * (a sum of 1e308 made every bit 0, the empty document's fingerprint).
 */
#define WEIGHTS_MAX	1e12

struct weights {
	uint64_t *key;		/* token hashes */
	double	*val;
	unsigned char *used;
	size_t	 cap;
	size_t	 n;
	uint64_t digest;	/* names the table in the scheme */
};

struct weights_error {
	size_t	 line;		/* 0: not about a line (see errnum) */
	int	 errnum;	/* errno of a failed read, else 0 */
	const char *why;
};

/*
 * Load the table at path for scheme sc.  Returns 0, or -1 with *e set.
 */
int	weights_load(struct weights *, const char *path,
	    const struct scheme *sc, struct weights_error *e);

/* Weight of the token with hash th (WEIGHTS_DEFAULT if absent). */
double	weights_get(const struct weights *, uint64_t th);

void	weights_free(struct weights *);

#endif
