/*
 * Exact confirmation for neardup cluster: the cluster_exact_fn that reads
 * the documents named by the fingerprints again, through a bounded cache
 * of their shingle sets, and says what went wrong with one.
 */
#ifndef CLUSTERCHK_H
#define CLUSTERCHK_H

#include <stdint.h>

#include "cluster.h"
#include "fpset.h"
#include "setcache.h"

struct clusterchk {
	const struct fpset *s;
	struct setcache *cache;
	const struct spool *texts;	/* records' texts, or NULL: files */
	unsigned char *told;	/* a document's trouble was reported */
	unsigned jobs;		/* threads to read sets ahead with */
	int	 rval;		/* EXIT_TROUBLE once something was */
};

/*
 * For the documents of s, read ahead with jobs threads: the files they
 * name, or (texts not NULL) the records' texts set aside in it.
 */
void	clusterchk_init(struct clusterchk *, const struct fpset *s,
	    const struct spool *texts, unsigned jobs);

/* Read the sets of documents ids[] ahead (a cluster_opts prefetch). */
void	clusterchk_prefetch(void *ctx, const uint32_t *ids, size_t n);

/*
 * The exact resemblance of documents a and b (a cluster_exact_fn); -1 for
 * a document that is not a regular file (it cannot be read again), 0
 * after a warning for one that cannot be read.
 */
double	clusterchk_exact(void *ctx, uint32_t a, uint32_t b);

/*
 * --exact: every pair of documents of exact resemblance >= t, found by
 * the exact join over all their sets, read with the jobs threads, into
 * *pairs (*npairs of them).  Exits 2, naming the limit, if the sets and
 * the join would take more than CLUSTERCHK_EXACT_MAX bytes or half the
 * memory of the machine, whichever is less.  A document that cannot be
 * read is reported and left out.
 */
#define CLUSTERCHK_EXACT_MAX	((size_t)4 << 30)
void	clusterchk_all(struct clusterchk *, double t,
	    struct cluster_pair **pairs, size_t *npairs);

void	clusterchk_free(struct clusterchk *);

#endif
