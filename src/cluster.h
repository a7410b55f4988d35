/*
 * Clustering fingerprints of one scheme into groups of near-duplicates,
 * with Henzinger's combined idea: candidates from one mechanism, confirmed
 * by an estimate before they join a group (union-find).
 *  - minhash, oph: LSH bands (lsh.h) give candidates; a pair joins if its
 *    estimated resemblance (matching values / k) is at least t.
 *  - bottomk: documents sharing one of their b smallest hashes are
 *    candidates; a pair joins if its bottom-k resemblance estimate is at
 *    least t.
 *  - simhash: pairs within d bits (index.h) join.
 *  - key: equal keys join.
 * Identical fingerprints always join at once.
 */
#ifndef CLUSTER_H
#define CLUSTER_H

#include <stddef.h>
#include <stdint.h>

#include "lsh.h"
#include "scheme.h"
#include "unionfind.h"

struct cluster_opts {
	double	 t;		/* resemblance threshold */
	unsigned d;		/* simhash: largest distance */
	struct lsh lsh;		/* minhash, oph: bands; bottomk: lsh.b */
	int	 pairs;		/* keep the confirmed pairs */
};

struct cluster_pair {
	uint32_t a, b;		/* a < b */
	double	 sim;		/* the scheme's estimate */
};

struct clusters {
	struct unionfind uf;
	struct cluster_pair *pair;
	size_t	 npair, pcap;
	size_t	 candidates;	/* pairs looked at */
	size_t	 confirmed;	/* pairs that joined or were already one */
};

/* Bands for threshold t: LSH for minhash and oph, b single rows for bottomk. */
void	cluster_bands(const struct scheme *, double t, struct lsh *);

/* Cluster n fingerprints v (scheme_nvalues each, one after another). */
void	cluster_run(const struct scheme *, const uint64_t *v, size_t n,
	    const struct cluster_opts *, struct clusters *);

/*
 * The scheme's similarity estimate for two fingerprints: resemblance for
 * minhash, oph and bottomk, the cosine for simhash, 1 or 0 for key.
 */
double	cluster_similarity(const struct scheme *, const uint64_t *a,
	    const uint64_t *b);

void	cluster_free(struct clusters *);

#endif
