/*
 * Exact and estimated similarity.
 */
#include <math.h>
#include <string.h>

#include "bottomk.h"
#include "minhash.h"
#include "similarity.h"
#include "simhash.h"

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
	size_t nv = scheme_nvalues(sc);

	memset(e, 0, sizeof(*e));
	switch (sc->algo) {
	case ALGO_MINHASH:
	case ALGO_OPH:
		e->have = EST_JACCARD;
		e->jaccard = minhash_jaccard(a, b, nv);
		e->similarity = e->jaccard;
		break;
	case ALGO_BOTTOMK:
		e->have = EST_JACCARD | EST_CONTAIN;
		e->jaccard = bottomk_jaccard(a, b, nv);
		e->cont_ab = bottomk_containment(a, b, nv);
		e->cont_ba = bottomk_containment(b, a, nv);
		e->similarity = e->jaccard;
		break;
	case ALGO_SIMHASH:
		e->have = EST_DISTANCE;
		e->bits = sc->size;
		e->distance = simhash_distance(a, b, nv);
		e->cosine = cos(M_PI * e->distance / e->bits);
		e->similarity = e->cosine;
		break;
	case ALGO_KEY:
		e->have = EST_KEY;
		e->equal = a[0] == b[0];
		e->similarity = e->equal;
		break;
	}
}
