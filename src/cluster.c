/*
 * Candidates, confirmation and union-find (see cluster.h).
 *
 * Candidates come from runs of equal keys: fingerprints sorted by a band
 * key (or the whole fingerprint, or the key) with keysort, one band at a
 * time, so memory is 12 bytes a fingerprint beyond the fingerprints.
 * Inside a run every pair not yet in one group is confirmed; a run of m
 * members costs up to m(m-1)/2 estimates, which stays small unless many
 * documents share a band without being near-duplicates of each other.
 * Copies (identical fingerprints) are found first and take no part in the
 * runs of bands: their original stands for them, so that a million copies
 * of one page cost a million steps, not half a million million.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bottomk.h"
#include "cluster.h"
#include "index.h"
#include "keysort.h"
#include "minhash.h"
#include "simhash.h"
#include "xmalloc.h"
#include "xxh.h"

void
cluster_bands(const struct scheme *sc, double t, struct lsh *l)
{
	double s = t + 0.1 < 1 ? t + 0.1 : 1;

	if (sc->algo == ALGO_BOTTOMK) {
		/*
		 * The smallest hash of the union is in both documents with
		 * probability s; take enough of the smallest to find pairs
		 * of resemblance t + 0.1 with probability LSH_RECALL.
		 */
		l->r = 1;
		l->b = s >= 1 ? 1 : (unsigned)ceil(log(1 - LSH_RECALL) /
		    log(1 - s));
		if (l->b > sc->size)
			l->b = sc->size;
		return;
	}
	lsh_choose(l, t, sc->size, sc->size, LSH_FPW, LSH_FNW);
}

double
cluster_similarity(const struct scheme *sc, const uint64_t *a,
    const uint64_t *b)
{
	size_t nv = scheme_nvalues(sc);

	switch (sc->algo) {
	case ALGO_MINHASH:
	case ALGO_OPH:
		return minhash_jaccard(a, b, nv);
	case ALGO_BOTTOMK:
		return bottomk_jaccard(a, b, nv);
	case ALGO_SIMHASH:
		return cos(M_PI * simhash_distance(a, b, nv) / sc->size);
	case ALGO_KEY:
		break;
	}
	return a[0] == b[0];
}

static void
add_pair(struct clusters *c, uint32_t a, uint32_t b, double sim, int keep)
{
	if (!keep)
		return;
	if (c->npair == c->pcap) {
		c->pcap = c->pcap ? 2 * c->pcap : 1024;
		c->pair = xreallocarray(c->pair, c->pcap, sizeof(*c->pair));
	}
	c->pair[c->npair].a = a < b ? a : b;
	c->pair[c->npair].b = a < b ? b : a;
	c->pair[c->npair].sim = sim;
	c->npair++;
}

/*
 * Listing pairs, each once: was the pair of fingerprints a and b met by a
 * pass before this one?  Identical ones were, by the first pass; minhash
 * and oph ones equal in an earlier band were, by that band's; bottom-k
 * ones sharing a hash below key, within the b compared, were, by that
 * hash's run (runs go by ascending key).  The estimate is the same in
 * every pass, so the first one to meet a pair decides it.  (Band keys
 * that agree on different values leave a pair found twice, which
 * unique_pairs() drops.)
 */
static int
met_before(const struct scheme *sc, const struct lsh *l, const uint64_t *a,
    const uint64_t *b, unsigned band, uint64_t key)
{
	size_t nv = scheme_nvalues(sc), i, j;
	unsigned e;

	if (memcmp(a, b, nv * sizeof(*a)) == 0)
		return 1;
	switch (sc->algo) {
	case ALGO_MINHASH:
	case ALGO_OPH:
		for (e = 0; e < band; e++)
			if (memcmp(a + (size_t)e * l->r, b + (size_t)e * l->r,
			    l->r * sizeof(*a)) == 0)
				return 1;
		break;
	case ALGO_BOTTOMK:
		for (i = j = 0; i < l->b && j < l->b && a[i] < key &&
		    b[j] < key;) {
			if (a[i] == b[j])
				return 1;
			if (a[i] < b[j])
				i++;
			else
				j++;
		}
		break;
	default:
		break;
	}
	return 0;
}

/*
 * Confirm the pairs of each run of equal keys (key[] sorted, id[] along):
 * every pair not yet in one group (every pair at all when pairs are
 * listed) whose estimate reaches t, or with exact set whose fingerprints
 * are identical, joins.  With exact set, a fingerprint identical to one
 * before it is marked in copy[]; copies are then passed over, unless
 * pairs are listed.  Listing pairs, a pair met by an earlier pass is
 * passed over (met_before(); band is this pass's, for minhash and oph).
 */
static void
confirm_runs(const struct scheme *sc, const uint64_t *v, const uint64_t *key,
    const uint32_t *id, size_t n, const struct cluster_opts *o, int exact,
    unsigned band, unsigned char *copy, struct clusters *c)
{
	size_t nv = scheme_nvalues(sc), i, j, k, end;
	const uint64_t *a, *b;
	double sim;

	for (i = 0; i < n; i = end) {
		for (end = i + 1; end < n && key[end] == key[i]; end++)
			;
		for (j = i + 1; j < end; j++) {
			if (!o->pairs && copy[id[j]])
				continue;
			for (k = i; k < j; k++) {
				/* Listing pairs: every one, not just joins. */
				if (!o->pairs && (copy[id[k]] ||
				    uf_find(&c->uf, id[j]) ==
				    uf_find(&c->uf, id[k])))
					continue;
				a = v + (size_t)id[k] * nv;
				b = v + (size_t)id[j] * nv;
				if (o->pairs && !exact &&
				    met_before(sc, &o->lsh, a, b, band, key[i]))
					continue;
				c->candidates++;
				if (exact) {
					if (memcmp(a, b, nv * sizeof(*a)) != 0)
						continue;
					sim = 1;
				} else if ((sim = cluster_similarity(sc, a, b)) <
				    o->t)
					continue;
				c->confirmed++;
				uf_union(&c->uf, id[j], id[k]);
				add_pair(c, id[k], id[j], sim, o->pairs);
				if (exact && !o->pairs) {
					copy[id[j]] = 1;
					break;
				}
			}
		}
	}
}

struct selfctx {
	const struct scheme *sc;
	const uint64_t *v;
	size_t	 nv;
	const struct cluster_opts *o;
	struct clusters *c;
	const uint32_t *map;	/* index number to id, or NULL: the same */
};

static void
simhash_pair(void *ctx, uint32_t a, uint32_t b, unsigned dist)
{
	struct selfctx *x = ctx;

	if (x->map != NULL) {
		a = x->map[a];
		b = x->map[b];
	}
	x->c->candidates++;
	x->c->confirmed++;
	uf_union(&x->c->uf, a, b);
	/* Identical ones were listed by the first pass. */
	add_pair(x->c, a, b, cos(M_PI * dist / x->sc->size), x->o->pairs &&
	    memcmp(x->v + (size_t)a * x->nv, x->v + (size_t)b * x->nv,
	    x->nv * sizeof(*x->v)) != 0);
}

static int
pair_cmp(const void *x, const void *y)
{
	const struct cluster_pair *p = x, *q = y;

	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	return (p->b > q->b) - (p->b < q->b);
}

/* Sort the pairs and drop those found twice (by two bands, say). */
static void
unique_pairs(struct clusters *c)
{
	size_t i, n = 0;

	if (c->npair < 2)
		return;
	qsort(c->pair, c->npair, sizeof(*c->pair), pair_cmp);
	for (i = 0; i < c->npair; i++)
		if (n == 0 || pair_cmp(&c->pair[n - 1], &c->pair[i]) != 0)
			c->pair[n++] = c->pair[i];
	c->npair = n;
}

/* Are the n values at v all zero, as the empty text's simhash is? */
static int
zero(const uint64_t *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] != 0)
			return 0;
	return 1;
}

void
cluster_run(const struct scheme *sc, const uint64_t *v, size_t n,
    const struct cluster_opts *o, struct clusters *c)
{
	size_t nv = scheme_nvalues(sc), i, m;
	struct selfctx x = { sc, v, nv, o, c, NULL };
	struct index ix;
	unsigned char *copy;
	uint64_t *key, *w;
	uint32_t *id;
	unsigned band;

	memset(c, 0, sizeof(*c));
	uf_init(&c->uf, n);
	key = xreallocarray(NULL, n ? n : 1, sizeof(*key));
	id = xreallocarray(NULL, n ? n : 1, sizeof(*id));
	copy = xcalloc(n ? n : 1, 1);

	/* Identical fingerprints first: they join without an estimate. */
	for (i = 0; i < n; i++) {
		key[i] = xxh_bytes(v + i * nv, nv * sizeof(*v), 0);
		id[i] = (uint32_t)i;
	}
	keysort(key, id, n, 64);
	confirm_runs(sc, v, key, id, n, o, 1, 0, copy, c);

	switch (sc->algo) {
	case ALGO_MINHASH:
	case ALGO_OPH:
		for (band = 0; band < o->lsh.b; band++) {
			for (i = 0; i < n; i++) {
				key[i] = lsh_band_key(&o->lsh, v + i * nv, band,
				    sc->seed);
				id[i] = (uint32_t)i;
			}
			keysort(key, id, n, 64);
			confirm_runs(sc, v, key, id, n, o, 0, band, copy, c);
		}
		break;
	case ALGO_BOTTOMK:
		/*
		 * Documents sharing any of their b smallest hashes, wherever
		 * it stands in each list: one shingle more in one document
		 * shifts its list, not the hashes.
		 */
		free(key);
		free(id);
		key = xreallocarray(NULL, n * o->lsh.b + 1, sizeof(*key));
		id = xreallocarray(NULL, n * o->lsh.b + 1, sizeof(*id));
		for (m = 0, i = 0; i < n; i++)
			for (band = 0; band < o->lsh.b; band++)
				if (v[i * nv + band] != BOTTOMK_EMPTY) {
					key[m] = v[i * nv + band];
					id[m++] = (uint32_t)i;
				}
		keysort(key, id, m, 64);
		confirm_runs(sc, v, key, id, m, o, 0, 0, copy, c);
		break;
	case ALGO_SIMHASH:
		/*
		 * Copies have joined their originals: the others suffice.
		 * The empty text's fingerprint, all zero bits, joins only
		 * its copies: within d bits of every fingerprint of d bits
		 * or fewer, it would chain unrelated ones together.
		 */
		w = NULL;
		for (m = 0, i = 0; i < n; i++)
			if ((o->pairs || !copy[i]) && !zero(v + i * nv, nv))
				id[m++] = (uint32_t)i;
		if (m < n) {
			w = xreallocarray(NULL, m ? m : 1, nv * sizeof(*w));
			for (i = 0; i < m; i++)
				memcpy(w + i * nv, v + (size_t)id[i] * nv,
				    nv * sizeof(*w));
			x.map = id;
		}
		index_build(&ix, w != NULL ? w : v, m, sc->size, o->d,
		    INDEX_SELF);
		index_self(&ix, simhash_pair, &x);
		index_free(&ix);
		free(w);
		break;
	case ALGO_KEY:
		break;		/* equal keys were identical fingerprints */
	}
	free(key);
	free(id);
	free(copy);
	unique_pairs(c);
}

void
cluster_free(struct clusters *c)
{
	uf_free(&c->uf);
	free(c->pair);
	memset(c, 0, sizeof(*c));
}
