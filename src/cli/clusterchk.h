/*
 * Exact confirmation for neardup cluster: the cluster_exact_fn that reads
 * the documents named by the fingerprints again, through a bounded cache
 * of their shingle sets, and says what went wrong with one.
 */
#ifndef CLUSTERCHK_H
#define CLUSTERCHK_H

#include <stdint.h>

#include "fpset.h"
#include "setcache.h"

struct clusterchk {
	const struct fpset *s;
	struct setcache *cache;
	unsigned char *told;	/* a document's trouble was reported */
	unsigned jobs;		/* threads to read sets ahead with */
	int	 rval;		/* EXIT_TROUBLE once something was */
};

/* For the documents of s, read ahead with jobs threads. */
void	clusterchk_init(struct clusterchk *, const struct fpset *s,
	    unsigned jobs);

/* Read the sets of documents ids[] ahead (a cluster_opts prefetch). */
void	clusterchk_prefetch(void *ctx, const uint32_t *ids, size_t n);

/*
 * The exact resemblance of documents a and b (a cluster_exact_fn); -1 for
 * a document that is not a regular file (it cannot be read again), 0
 * after a warning for one that cannot be read.
 */
double	clusterchk_exact(void *ctx, uint32_t a, uint32_t b);

void	clusterchk_free(struct clusterchk *);

#endif
