/*
 * Exact and estimated similarity.
 */
#include <string.h>

#include "algo.h"
#include "similarity.h"

void
similarity_exact(const struct shset *a, const struct shset *b,
    struct similarity *r)
{
	size_t uni;

	memset(r, 0, sizeof(*r));
	r->size_a = a->n;
	r->size_b = b->n;
	r->shared = shset_shared(a, b);
	uni = r->size_a + r->size_b - r->shared;
	r->jaccard = uni ? (double)r->shared / (double)uni : 1.0;
	r->cont_ab = r->size_a ? (double)r->shared / (double)r->size_a : 1.0;
	r->cont_ba = r->size_b ? (double)r->shared / (double)r->size_b : 1.0;
}

void
similarity_estimate(const struct scheme *sc, const uint64_t *a,
    const uint64_t *b, struct estimate *e)
{
	memset(e, 0, sizeof(*e));
	algo_get(sc->algo)->estimate(sc, a, b, scheme_nvalues(sc), e);
}

size_t
similarity_least_shared(size_t na, size_t nb, double t, int beyond)
{
	size_t most = na < nb ? na : nb, limit = most + (beyond != 0), o;

	o = (size_t)(t * (double)(na + nb) / (1 + t));
	if (o > limit)
		o = limit;
	while (o > 0 && (double)(o - 1) / (double)(na + nb - (o - 1)) >= t)
		o--;
	while (o < limit && (double)o / (double)(na + nb - o) < t)
		o++;
	return o;
}
