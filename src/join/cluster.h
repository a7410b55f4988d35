/*
 * Clustering fingerprints of one scheme into groups of near-duplicates,
 * with Henzinger's combined idea: candidates from one mechanism, confirmed
 * by an estimate before they join a group (union-find).  The mechanism is
 * the candidate rule of the scheme's algorithm (algo.h):
 *  - CAND_BANDS (minhash, oph): LSH bands (lsh.h) give candidates; a pair
 *    joins if its estimated resemblance (matching values / k) is at least t.
 *  - CAND_SMALLEST (bottomk): documents sharing one of their b smallest
 *    hashes are candidates; a pair joins if its resemblance estimate is at
 *    least t.
 *  - CAND_HAMMING (simhash): pairs within d bits (index.h) join.
 *  - CAND_EQUAL (key): equal keys join.
 * Identical fingerprints are always candidates.
 *
 * Where the documents are at hand, an exact callback gives a candidate
 * pair's exact resemblance, which then decides instead of the estimate.
 *
 * Groups are formed by the leader rule unless transitive is set: the
 * documents are taken in keep order (order), and each joins the first
 * kept document before it that it is a confirmed near-duplicate of, or is
 * kept itself.  So every member of a group is at least t similar to the
 * one kept, whatever joins it to the others.  With transitive, confirmed
 * pairs join by union-find: connected components, which chain.
 */
#ifndef CLUSTER_H
#define CLUSTER_H

#include <stddef.h>
#include <stdint.h>

#include "lsh.h"
#include "scheme.h"
#include "unionfind.h"

/*
 * The exact resemblance of documents a and b, or a negative value where
 * it cannot be had (the estimate then decides for that pair).
 */
typedef double cluster_exact_fn(void *ctx, uint32_t a, uint32_t b);

struct cluster_opts {
	double	 t;		/* resemblance threshold */
	unsigned d;		/* simhash: largest distance */
	struct lsh lsh;		/* minhash, oph: bands; bottomk: lsh.b */
	int	 pairs;		/* keep the confirmed pairs */
	int	 transitive;	/* union-find groups, not leaders */
	const uint32_t *order;	/* leaders: the ids in keep order, or NULL
				   for input order */
	cluster_exact_fn *exact; /* or NULL: the estimates decide */
	/*
	 * Called once, if set, before the leader rule asks exact for
	 * anything: the n documents ids[] it may ask about, in the order
	 * it will first need them, for their sets to be read ahead.
	 */
	void	(*prefetch)(void *ctx, const uint32_t *ids, size_t n);
	void	*ctx;		/* exact's and prefetch's */
};

struct cluster_pair {
	uint32_t a, b;		/* a < b */
	double	 sim;		/* exact, or the scheme's estimate */
	int	 exact;
};

struct clusters {
	struct unionfind uf;	/* transitive: the groups */
	uint32_t *leader;	/* leaders: the kept one each joined, or
				   itself if kept */
	double	*sim;		/* leaders: the similarity to it */
	unsigned char *exact;	/* leaders: was that exact */
	struct cluster_pair *pair;
	size_t	 npair, pcap;
	size_t	 candidates;	/* pairs looked at */
	size_t	 confirmed;	/* pairs that joined or were already one */
	size_t	 exacts;	/* pairs decided by the exact resemblance */
	double	 floor;		/* cluster_floor() */
};

/*
 * Bands for threshold t: LSH for minhash and oph, b single rows for
 * bottomk.  They make a candidate of a pair of resemblance t + 0.1 with
 * probability LSH_RECALL; with exact, of resemblance t itself, since a
 * false candidate then costs only a check.
 */
void	cluster_bands(const struct scheme *, double t, int exact,
	    struct lsh *);

/* Cluster n fingerprints v (scheme_nvalues each, one after another). */
void	cluster_run(const struct scheme *, const uint64_t *v, size_t n,
	    const struct cluster_opts *, struct clusters *);

/*
 * Group n documents by the np pairs p[] confirmed already, exactly (the
 * exact join of --exact), as cluster_run does: by the leader rule in
 * o->order, by union-find with o->transitive, or keeping the pairs with
 * o->pairs.
 */
void	cluster_given(size_t n, const struct cluster_pair *p, size_t np,
	    const struct cluster_opts *o, struct clusters *c);

/*
 * The scheme's similarity estimate for two fingerprints: resemblance for
 * minhash, oph and bottomk, the cosine for simhash, 1 or 0 for key.
 */
double	cluster_similarity(const struct scheme *, const uint64_t *a,
	    const uint64_t *b);

/*
 * An estimate below this rules a candidate out without the exact look:
 * more than six standard errors of the estimate (sqrt(t(1 - t) / k)) and
 * 0.1 below t.  0 for simhash and key, whose figures are no estimate of
 * the resemblance.
 */
double	cluster_floor(const struct scheme *, double t);

void	cluster_free(struct clusters *);

#endif
