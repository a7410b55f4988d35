/*
 * Bottom-k sketches kept as a sorted array.  After the first few thousand
 * shingles almost every hash is above the k-th smallest and is rejected by
 * one comparison; the rest are placed by binary search.
 */
#include <stdlib.h>
#include <string.h>

#include "algo.h"
#include "bottomk.h"
#include "scheme.h"
#include "similarity.h"
#include "xmalloc.h"

void
bottomk_init(struct bottomk *b, unsigned k)
{
	b->k = k;
	b->n = 0;
	b->v = xreallocarray(NULL, k, sizeof(*b->v));
}

void
bottomk_reset(struct bottomk *b)
{
	b->n = 0;
}

static void
insert(struct bottomk *b, uint64_t h)
{
	unsigned lo = 0, hi = b->n, mid;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (b->v[mid] < h)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < b->n && b->v[lo] == h)
		return;
	if (b->n < b->k)
		b->n++;
	memmove(b->v + lo + 1, b->v + lo, (b->n - 1 - lo) * sizeof(*b->v));
	b->v[lo] = h;
}

void
bottomk_add(struct bottomk *b, const uint64_t *h, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (b->n == b->k && h[i] >= b->v[b->k - 1])
			continue;
		insert(b, h[i]);
	}
}

void
bottomk_final(const struct bottomk *b, uint64_t *out)
{
	unsigned i;

	memcpy(out, b->v, b->n * sizeof(*out));
	for (i = b->n; i < b->k; i++)
		out[i] = BOTTOMK_EMPTY;
}

uint64_t
bottomk_key(const struct bottomk *b)
{
	uint64_t x = 0;
	unsigned i;

	for (i = 0; i < b->n; i++)
		x ^= b->v[i];
	return x;
}

void
bottomk_free(struct bottomk *b)
{
	free(b->v);
	b->v = NULL;
}

static size_t
used(const uint64_t *a, size_t k)
{
	while (k > 0 && a[k - 1] == BOTTOMK_EMPTY)
		k--;
	return k;
}

double
bottomk_jaccard(const uint64_t *a, const uint64_t *b, size_t k)
{
	size_t na = used(a, k), nb = used(b, k), i = 0, j = 0, seen = 0;
	size_t shared = 0;

	if (na == 0 && nb == 0)
		return 1.0;
	/* Walk the union in order, stopping after its k smallest. */
	while (seen < k && (i < na || j < nb)) {
		if (j == nb || (i < na && a[i] < b[j]))
			i++;
		else if (i == na || b[j] < a[i])
			j++;
		else {
			shared++;
			i++;
			j++;
		}
		seen++;
	}
	/*
	 * A value of the union's bottom k that one sketch lacks is absent
	 * from that document only if the sketch was not full up to it; a
	 * full sketch ends below it, and the walk stops there too, so
	 * shared / seen is Broder's estimate.
	 */
	return (double)shared / (double)seen;
}

double
bottomk_containment(const uint64_t *a, const uint64_t *b, size_t k)
{
	size_t na = used(a, k), nb = used(b, k), i, j = 0, below = 0;
	size_t shared = 0;
	uint64_t limit = nb == k ? b[k - 1] : BOTTOMK_EMPTY;

	if (na == 0)
		return 1.0;
	for (i = 0; i < na && a[i] <= limit; i++) {
		below++;
		while (j < nb && b[j] < a[i])
			j++;
		if (j < nb && b[j] == a[i])
			shared++;
	}
	return below ? (double)shared / (double)below : 0.0;
}

/*
 * The descriptors (algo.h) of bottomk, which prints the k smallest, and
 * key, the XOR of the n smallest, one value.
 */

static void
algo_init(void *st, const struct scheme *sc)
{
	bottomk_init(st, sc->size);
}

static void
algo_reset(void *st)
{
	bottomk_reset(st);
}

static void
algo_add(void *st, const uint64_t *h, const double *w, size_t n)
{
	(void)w;
	bottomk_add(st, h, n);
}

static void
algo_final(void *st, uint64_t *out)
{
	bottomk_final(st, out);
}

static void
algo_free(void *st)
{
	bottomk_free(st);
}

static double
algo_similarity(const struct scheme *sc, const uint64_t *a,
    const uint64_t *b, size_t nv)
{
	(void)sc;
	return bottomk_jaccard(a, b, nv);
}

static void
algo_estimate(const struct scheme *sc, const uint64_t *a, const uint64_t *b,
    size_t nv, struct estimate *e)
{
	(void)sc;
	e->have = EST_JACCARD | EST_CONTAIN;
	e->jaccard = bottomk_jaccard(a, b, nv);
	e->cont_ab = bottomk_containment(a, b, nv);
	e->cont_ba = bottomk_containment(b, a, nv);
	e->similarity = e->jaccard;
}

/* The values of a sketch ascend, the unused slots last. */
static const char *
check_values(const uint64_t *v, size_t nv)
{
	size_t i;

	for (i = 1; i < nv; i++)
		if (v[i] <= v[i - 1] && v[i] != BOTTOMK_EMPTY)
			return "bottomk values not in ascending order";
	return NULL;
}

const struct algo_desc bottomk_algo = {
	.name = "bottomk",
	.defsize = 128,
	.check_size = algo_check_k,
	.per_value = 1,
	.digits = 16,
	.flags = ALGO_RESEMBLANCE | ALGO_CONTAINMENT,
	.cand = CAND_SMALLEST,
	.statesize = sizeof(struct bottomk),
	.init = algo_init,
	.reset = algo_reset,
	.add = algo_add,
	.final = algo_final,
	.free = algo_free,
	.similarity = algo_similarity,
	.estimate = algo_estimate,
	.check_values = check_values,
};

static void
key_final(void *st, uint64_t *out)
{
	out[0] = bottomk_key(st);
}

static double
key_similarity(const struct scheme *sc, const uint64_t *a, const uint64_t *b,
    size_t nv)
{
	(void)sc;
	(void)nv;
	return a[0] == b[0];
}

static void
key_estimate(const struct scheme *sc, const uint64_t *a, const uint64_t *b,
    size_t nv, struct estimate *e)
{
	(void)sc;
	(void)nv;
	e->have = EST_KEY;
	e->equal = a[0] == b[0];
	e->similarity = e->equal;
}

const struct algo_desc key_algo = {
	.name = "key",
	.defsize = 3,
	.check_size = algo_check_k,
	.per_value = 0,
	.digits = 16,
	.flags = 0,
	.cand = CAND_EQUAL,
	.statesize = sizeof(struct bottomk),
	.init = algo_init,
	.reset = algo_reset,
	.add = algo_add,
	.final = key_final,
	.free = algo_free,
	.similarity = key_similarity,
	.estimate = key_estimate,
};
