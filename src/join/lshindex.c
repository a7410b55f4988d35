/*
 * Resemblance search by LSH tables (see lshindex.h).
 */
#include <stdlib.h>
#include <string.h>

#include "algo.h"
#include "bottomk.h"
#include "cluster.h"
#include "keysort.h"
#include "lshindex.h"
#include "xmalloc.h"
#include "xxh.h"

/* The hash of a whole fingerprint, the key of table 0. */
static uint64_t
whole(const struct lshindex *x, const uint64_t *v)
{
	return xxh_bytes(v, x->nv * sizeof(*v), 0);
}

/* Table i's entries: its keys of the n fingerprints, sorted. */
static void
fill(struct lshindex *x, unsigned i)
{
	struct lshindex_table *tb = &x->t[i];
	size_t per = i == 0 || x->sc.algo != ALGO_BOTTOMK ? 1 : x->lsh.b;
	const uint64_t *v;
	size_t f, j;

	tb->key = xreallocarray(NULL, x->n * per + 1, sizeof(*tb->key));
	tb->id = xreallocarray(NULL, x->n * per + 1, sizeof(*tb->id));
	for (f = 0; f < x->n; f++) {
		v = x->v + f * x->nv;
		for (j = 0; j < per; j++) {
			if (i == 0)
				tb->key[tb->n] = whole(x, v);
			else if (per == 1)
				tb->key[tb->n] = lsh_band_key(&x->lsh, v, i - 1,
				    x->sc.seed);
			else if ((tb->key[tb->n] = v[j]) == BOTTOMK_EMPTY)
				continue;
			tb->id[tb->n++] = (uint32_t)f;
		}
	}
	keysort(tb->key, tb->id, tb->n, 64);
}

void
lshindex_build(struct lshindex *x, const struct scheme *sc,
    const uint64_t *v, size_t n, double t)
{
	unsigned i;

	memset(x, 0, sizeof(*x));
	x->sc = *sc;
	x->v = v;
	x->n = n;
	x->nv = scheme_nvalues(sc);
	cluster_bands(sc, t, 1, &x->lsh);
	if (sc->algo == ALGO_BOTTOMK) {
		x->ntables = 2;
		/* With all k hashes indexed, one shared is a candidate. */
		x->bound = x->lsh.b >= x->nv ? 0 : 1;
	} else {
		x->ntables = 1 + x->lsh.b;
		x->bound = (double)(x->nv - x->lsh.b) / (double)x->nv;
	}
	x->t = xcalloc(x->ntables, sizeof(*x->t));
	for (i = 0; i < x->ntables; i++)
		fill(x, i);
	x->seen = xcalloc(n + 1, 1);
}

/* Is match a before match b: more similar, or as similar and earlier? */
static int
before(const struct lshindex_match *a, const struct lshindex_match *b)
{
	return a->sim > b->sim || (a->sim == b->sim && a->id < b->id);
}

static int
match_cmp(const void *p, const void *q)
{
	return before(p, q) ? -1 : before(q, p) ? 1 : 0;
}

static void
grow(struct lshindex_match **out, size_t *cap, size_t n)
{
	if (n < *cap)
		return;
	*cap = *cap ? 2 * *cap : 64;
	if (*cap <= n)
		*cap = n + 1;
	*out = xreallocarray(*out, *cap, sizeof(**out));
}

/*
 * Look key up in table i: each fingerprint not met yet becomes a
 * candidate, and a match (into out[*m]) if its estimate reaches t.
 * Returns how many new candidates are above the bound.
 */
static size_t
look(struct lshindex *x, unsigned i, uint64_t key, const uint64_t *q,
    double t, struct lshindex_match **out, size_t *cap, size_t *m)
{
	const struct lshindex_table *tb = &x->t[i];
	size_t lo = 0, hi = tb->n, mid, over = 0;
	uint32_t f;
	double sim;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (tb->key[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < tb->n && tb->key[lo] == key; lo++) {
		if (x->seen[f = tb->id[lo]])
			continue;
		x->seen[f] = 1;
		if (x->ncand == x->candcap) {
			x->candcap = x->candcap ? 2 * x->candcap : 256;
			x->cand = xreallocarray(x->cand, x->candcap,
			    sizeof(*x->cand));
		}
		x->cand[x->ncand++] = f;
		sim = cluster_similarity(&x->sc, q, x->v + (size_t)f * x->nv);
		over += sim > x->bound;
		if (sim >= t) {
			grow(out, cap, *m);
			(*out)[*m].id = f;
			(*out)[(*m)++].sim = sim;
		}
	}
	return over;
}

/* Sift the worst-first heap h of n matches down from k. */
static void
sift(struct lshindex_match *h, size_t n, size_t k)
{
	struct lshindex_match tmp;
	size_t c;

	for (; (c = 2 * k + 1) < n; k = c) {
		if (c + 1 < n && before(&h[c], &h[c + 1]))
			c++;
		if (!before(&h[k], &h[c]))
			break;
		tmp = h[k];
		h[k] = h[c];
		h[c] = tmp;
	}
}

/*
 * The limit most similar of all n fingerprints with estimates of at least
 * t: a heap whose root is the worst kept.
 */
static size_t
scan(struct lshindex *x, const uint64_t *q, double t, size_t limit,
    struct lshindex_match **out, size_t *cap)
{
	struct lshindex_match c, *h;
	size_t f, m = 0, k;

	grow(out, cap, limit);
	h = *out;
	for (f = 0; f < x->n; f++) {
		c.sim = cluster_similarity(&x->sc, q, x->v + f * x->nv);
		c.id = (uint32_t)f;
		if (c.sim < t || (m == limit && !before(&c, &h[0])))
			continue;
		if (m < limit) {
			/* Up from the new leaf, the worst rising to the root. */
			for (k = m++; k > 0 && before(&h[(k - 1) / 2], &c);
			    k = (k - 1) / 2)
				h[k] = h[(k - 1) / 2];
			h[k] = c;
		} else {
			h[0] = c;
			sift(h, m, 0);
		}
	}
	return m;
}

size_t
lshindex_query(struct lshindex *x, const uint64_t *q, double t,
    size_t limit, int exact, struct lshindex_match **out, size_t *cap)
{
	size_t m = 0, over, i;
	unsigned b;

	over = look(x, 0, whole(x, q), q, t, out, cap, &m);
	for (b = 0; b < x->lsh.b; b++) {
		if (x->sc.algo != ALGO_BOTTOMK)
			over += look(x, 1 + b, lsh_band_key(&x->lsh, q, b,
			    x->sc.seed), q, t, out, cap, &m);
		else if (q[b] != BOTTOMK_EMPTY)
			over += look(x, 1, q[b], q, t, out, cap, &m);
	}
	for (i = 0; i < x->ncand; i++)
		x->seen[x->cand[i]] = 0;
	x->ncand = 0;
	/* Fewer than limit sure ones: one below the bound may be next. */
	if (exact && limit > 0 && over < limit && t <= x->bound)
		m = scan(x, q, t, limit, out, cap);
	if (m > 1)
		qsort(*out, m, sizeof(**out), match_cmp);
	return limit > 0 && m > limit ? limit : m;
}

void
lshindex_free(struct lshindex *x)
{
	unsigned i;

	for (i = 0; i < x->ntables; i++) {
		free(x->t[i].key);
		free(x->t[i].id);
	}
	free(x->t);
	free(x->seen);
	free(x->cand);
	memset(x, 0, sizeof(*x));
}
