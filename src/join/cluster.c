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

#include "algo.h"
#include "bottomk.h"
#include "cluster.h"
#include "index.h"
#include "keysort.h"
#include "xmalloc.h"
#include "xxh.h"

/* How the scheme's candidates are found (algo.h). */
static enum cand_rule
rule(const struct scheme *sc)
{
	return algo_get(sc->algo)->cand;
}

void
cluster_bands(const struct scheme *sc, double t, int exact, struct lsh *l)
{
	double at = exact ? t : t + 0.1, s = at < 1 ? at : 1;

	if (rule(sc) == CAND_SMALLEST) {
		/*
		 * The smallest hash of the union is in both documents with
		 * probability s; take enough of the smallest to find pairs
		 * of resemblance s with probability LSH_RECALL.
		 */
		l->r = 1;
		l->b = s >= 1 ? 1 : (unsigned)ceil(log(1 - LSH_RECALL) /
		    log(1 - s));
		if (l->b > sc->size)
			l->b = sc->size;
		return;
	}
	lsh_choose_at(l, t, at, sc->size, sc->size, LSH_FPW, LSH_FNW);
}

double
cluster_similarity(const struct scheme *sc, const uint64_t *a,
    const uint64_t *b)
{
	return algo_get(sc->algo)->similarity(sc, a, b, scheme_nvalues(sc));
}

static void
add_pair(struct clusters *c, uint32_t a, uint32_t b, double sim, int exact,
    int keep)
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
	c->pair[c->npair].exact = exact;
	c->npair++;
}

/*
 * Decide candidate pair a, b: its similarity into *sim (exact when the
 * callback can give it, *exact then set), and whether it reaches t.  est
 * is the estimate, or a negative value for a pair that reached its
 * scheme's own criterion (simhash distance, equal keys) already.
 */
static int
decide(const struct cluster_opts *o, struct clusters *c, uint32_t a,
    uint32_t b, double est, double *sim, int *exact)
{
	double x;

	*exact = 0;
	/* Far below t, the estimate rules a pair out without a look. */
	if (est >= 0 && est < c->floor) {
		*sim = est;
		return 0;
	}
	if (o->exact != NULL && (x = o->exact(o->ctx, a, b)) >= 0) {
		c->exacts++;
		*exact = 1;
		*sim = x;
		return x >= o->t;
	}
	if (est < 0) {
		*sim = -est;
		return 1;
	}
	*sim = est;
	return est >= o->t;
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
	switch (rule(sc)) {
	case CAND_BANDS:
		for (e = 0; e < band; e++)
			if (memcmp(a + (size_t)e * l->r, b + (size_t)e * l->r,
			    l->r * sizeof(*a)) == 0)
				return 1;
		break;
	case CAND_SMALLEST:
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
 * listed) that decide() confirms joins.  With copies set, the pass of
 * whole fingerprints, only identical fingerprints are candidates, and one
 * confirmed to be a copy of one before it is marked in copy[]; copies are
 * then passed over, unless pairs are listed, or the exact callback
 * decides (identical fingerprints are then no proof of one text).  Listing pairs, a pair met
 * by an earlier pass is passed over (met_before(); band is this pass's,
 * for minhash and oph).
 */
static void
confirm_runs(const struct scheme *sc, const uint64_t *v, const uint64_t *key,
    const uint32_t *id, size_t n, const struct cluster_opts *o, int copies,
    unsigned band, unsigned char *copy, struct clusters *c)
{
	size_t nv = scheme_nvalues(sc), i, j, k, end;
	const uint64_t *a, *b;
	double sim;
	int ex;

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
				if (o->pairs && !copies &&
				    met_before(sc, &o->lsh, a, b, band, key[i]))
					continue;
				if (copies && memcmp(a, b, nv * sizeof(*a)) != 0)
					continue;
				c->candidates++;
				if (!decide(o, c, id[k], id[j], copies ? -1 :
				    cluster_similarity(sc, a, b), &sim, &ex))
					continue;
				c->confirmed++;
				uf_union(&c->uf, id[j], id[k]);
				add_pair(c, id[k], id[j], sim, ex, o->pairs);
				if (copies && !o->pairs && o->exact == NULL) {
					copy[id[j]] = 1;
					break;
				}
			}
		}
	}
}

/* Candidate pairs by document, for the leader rule. */
struct adj {
	uint32_t *pair;		/* a, b, a, b, ... as found */
	size_t	 n, cap;	/* pairs */
	size_t	*off;		/* CSR: neighbours of i at nb[off[i]..off[i+1]) */
	uint32_t *nb;
};

static void
adj_add(struct adj *g, uint32_t a, uint32_t b)
{
	if (g->n == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 1024;
		g->pair = xreallocarray(g->pair, g->cap, 2 * sizeof(*g->pair));
	}
	g->pair[2 * g->n] = a;
	g->pair[2 * g->n + 1] = b;
	g->n++;
}

/* The pairs found, as lists of neighbours of each of n documents. */
static void
adj_index(struct adj *g, size_t n)
{
	size_t i, *at;

	g->off = xcalloc(n + 1, sizeof(*g->off));
	for (i = 0; i < 2 * g->n; i++)
		g->off[g->pair[i] + 1]++;
	for (i = 0; i < n; i++)
		g->off[i + 1] += g->off[i];
	g->nb = xreallocarray(NULL, 2 * g->n + 1, sizeof(*g->nb));
	at = xreallocarray(NULL, n + 1, sizeof(*at));
	memcpy(at, g->off, (n + 1) * sizeof(*at));
	for (i = 0; i < g->n; i++) {
		g->nb[at[g->pair[2 * i]]++] = g->pair[2 * i + 1];
		g->nb[at[g->pair[2 * i + 1]]++] = g->pair[2 * i];
	}
	free(at);
	free(g->pair);
	g->pair = NULL;
}

static void
adj_free(struct adj *g)
{
	free(g->pair);
	free(g->off);
	free(g->nb);
	memset(g, 0, sizeof(*g));
}

struct selfctx {
	const struct scheme *sc;
	const uint64_t *v;
	size_t	 nv;
	const struct cluster_opts *o;
	struct clusters *c;
	const uint32_t *map;	/* index number to id, or NULL: the same */
	struct adj *adj;	/* leaders: where the pairs go */
};

static void
simhash_pair(void *ctx, uint32_t a, uint32_t b, unsigned dist)
{
	struct selfctx *x = ctx;
	double sim;
	int ex;

	if (x->map != NULL) {
		a = x->map[a];
		b = x->map[b];
	}
	/* Identical ones were met by the first pass. */
	if (memcmp(x->v + (size_t)a * x->nv, x->v + (size_t)b * x->nv,
	    x->nv * sizeof(*x->v)) == 0)
		return;
	if (x->adj != NULL) {
		adj_add(x->adj, a, b);
		return;
	}
	x->c->candidates++;
	/* The scheme's figure (algo.h) decides, as for every candidate. */
	(void)dist;
	if (!decide(x->o, x->c, a, b, -cluster_similarity(x->sc, x->v +
	    (size_t)a * x->nv, x->v + (size_t)b * x->nv), &sim, &ex))
		return;
	x->c->confirmed++;
	uf_union(&x->c->uf, a, b);
	add_pair(x->c, a, b, sim, ex, x->o->pairs);
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

/* The estimate for candidates a, b, as decide() takes it. */
static double
estimate(const struct scheme *sc, const uint64_t *v, uint32_t a, uint32_t b)
{
	size_t nv = scheme_nvalues(sc);
	const uint64_t *x = v + (size_t)a * nv, *y = v + (size_t)b * nv;
	double s;

	switch (rule(sc)) {
	case CAND_HAMMING:
	case CAND_EQUAL:
		if (memcmp(x, y, nv * sizeof(*x)) == 0)
			return -1;
		/* Within -d bits: the pair reached its criterion. */
		return rule(sc) == CAND_HAMMING ? -cluster_similarity(sc, x,
		    y) : 0;
	default:
		/* Only an estimate of 1 (or none) can be of copies. */
		s = cluster_similarity(sc, x, y);
		if (!(s < 1) && memcmp(x, y, nv * sizeof(*x)) == 0)
			return -1;
		return s;
	}
}

static int
rank_cmp(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	return (a > b) - (a < b);
}

/*
 * For each of the n fingerprints v, the first of its copies (identical
 * fingerprints): the one that stands for them all.
 */
static uint32_t *
copies(const uint64_t *v, size_t n, size_t nv)
{
	uint32_t *rep = xreallocarray(NULL, n + 1, sizeof(*rep));
	uint32_t *id = xreallocarray(NULL, n + 1, sizeof(*id));
	uint64_t *key = xreallocarray(NULL, n + 1, sizeof(*key));
	size_t i, first;

	for (i = 0; i < n; i++) {
		key[i] = xxh_bytes(v + i * nv, nv * sizeof(*v), 0);
		id[i] = (uint32_t)i;
	}
	keysort(key, id, n, 64);
	/* A stable sort: a run's first id is its least. */
	for (first = i = 0; i < n; i++) {
		if (key[i] != key[first])
			first = i;
		rep[id[i]] = memcmp(v + (size_t)id[i] * nv, v +
		    (size_t)id[first] * nv, nv * sizeof(*v)) == 0 ?
		    id[first] : id[i];
	}
	free(key);
	free(id);
	return rep;
}

/*
 * Hand o->prefetch the documents that have a candidate worth an exact
 * look (see decide()), in keep order: those of a key with one whose
 * estimate passes the floor, and simhash neighbours.  A key of more than
 * BIGRUN documents makes all of them count, unlooked at.
 */
#define BIGRUN	64

static void
involved(const struct scheme *sc, const uint64_t *v, size_t n,
    const struct cluster_opts *o, const struct clusters *c,
    const uint32_t *id, const uint32_t *bs, size_t m, const struct adj *g,
    const uint32_t *rep)
{
	unsigned char *in = xcalloc(n + 1, 1);
	uint32_t *ids = xreallocarray(NULL, n + 1, sizeof(*ids)), a, b;
	size_t p, q, end, r, k = 0;
	double est;

	for (p = 0; p < m; p = end) {
		for (end = p + 1; end < m && bs[end] == bs[p]; end++)
			;
		if (end - p > BIGRUN) {
			for (q = p; q < end; q++)
				in[id[q]] = 1;
			continue;
		}
		for (q = p; q < end; q++)
			for (r = q + 1; r < end; r++) {
				a = id[q];
				b = id[r];
				if (a == b || (in[a] && in[b]))
					continue;
				est = estimate(sc, v, a, b);
				if (est < 0 || est >= c->floor)
					in[a] = in[b] = 1;
			}
	}
	for (p = 0; p < n; p++)
		if (rep != NULL && g->off[rep[p] + 1] > g->off[rep[p]])
			in[p] = 1;
	for (r = 0; r < n; r++) {
		p = o->order != NULL ? o->order[r] : r;
		if (in[p])
			ids[k++] = (uint32_t)p;
	}
	o->prefetch(o->ctx, ids, k);
	free(ids);
	free(in);
}

/*
 * The leader rule (see cluster.h).  Every document has keys: the hash of
 * its whole fingerprint, and its band keys (minhash, oph) or smallest
 * hashes (bottomk); simhash neighbours come from the permuted tables.
 * Documents that share a key are candidates.  Taken in keep order, a
 * document is tried against the kept documents among its candidates, in
 * keep order, and joins the first that decide() confirms; if none does,
 * it is kept, and put on the list of kept ones of each of its keys.  So a
 * document is tried only against kept ones, and only against those it
 * shares a key with.
 */
static void
leaders(const struct scheme *sc, const uint64_t *v, size_t n,
    const struct cluster_opts *o, struct clusters *c)
{
	size_t nv = scheme_nvalues(sc), per = 1, m = 0, i, p, r, q, nc;
	enum cand_rule cr = rule(sc);
	struct selfctx x = { sc, v, nv, o, c, NULL, NULL };
	uint32_t *id, *bs, *head, *next, *rank, *cand, *stamp, j, t, *map;
	uint32_t *rep, *chead, *cnext, *dbs;
	size_t *doff, *dpos, *at;
	struct adj g = { 0 };
	struct index ix;
	uint64_t *key, *w;
	unsigned band;
	double sim;
	int ex;

	if (cr == CAND_BANDS || cr == CAND_SMALLEST)
		per += o->lsh.b;
	/*
	 * The keys by kind, each kind sorted apart, as cluster_run sorts a
	 * band at a time: the whole fingerprints' hashes, then each band's
	 * keys (minhash, oph), or all the smallest hashes together (bottomk,
	 * where one may stand anywhere in each list).  Sorts of n keys stay
	 * in the caches that one of n * per would not.  A run of equal keys
	 * is then within one kind.
	 */
	key = xreallocarray(NULL, n * per + 1, sizeof(*key));
	id = xreallocarray(NULL, n * per + 1, sizeof(*id));
	for (i = 0; i < n; i++) {
		key[m] = xxh_bytes(v + i * nv, nv * sizeof(*v), 0);
		id[m++] = (uint32_t)i;
	}
	keysort(key, id, m, 64);
	for (band = 0; band + 1 < per; band++) {
		q = m;
		for (i = 0; i < n; i++) {
			if (cr == CAND_BANDS)
				key[m] = lsh_band_key(&o->lsh, v + i * nv,
				    band, sc->seed);
			else if ((key[m] = v[i * nv + band]) == BOTTOMK_EMPTY)
				continue;
			id[m++] = (uint32_t)i;
		}
		if (cr == CAND_BANDS)
			keysort(key + q, id + q, m - q, 64);
	}
	if (cr == CAND_SMALLEST)
		keysort(key + n, id + n, m - n, 64);

	/* Each entry's key's first entry; each document's entries. */
	bs = xreallocarray(NULL, m + 1, sizeof(*bs));
	for (p = 0; p < m; p++)
		bs[p] = p > 0 && key[p] == key[p - 1] &&
		    (cr == CAND_BANDS ? p % n != 0 : p != n) ? bs[p - 1] :
		    (uint32_t)p;
	free(key);
	doff = xcalloc(n + 1, sizeof(*doff));
	for (p = 0; p < m; p++)
		doff[id[p] + 1]++;
	for (i = 0; i < n; i++)
		doff[i + 1] += doff[i];
	dpos = xreallocarray(NULL, m + 1, sizeof(*dpos));
	at = xreallocarray(NULL, n + 1, sizeof(*at));
	memcpy(at, doff, (n + 1) * sizeof(*at));
	for (p = 0; p < m; p++)
		dpos[at[id[p]]++] = p;
	free(at);
	/*
	 * Each document's keys in its own order, as the first entry of their
	 * run, or none for a key no other document has: most band keys of
	 * distinct documents, whose lists need no look.
	 */
	dbs = xreallocarray(NULL, m + 1, sizeof(*dbs));
	for (p = 0; p < m; p++) {
		q = dpos[p];
		dbs[p] = bs[q] == q && (q + 1 == m || bs[q + 1] != q) ?
		    UINT32_MAX : bs[q];
	}

	/*
	 * simhash: neighbours among the distinct fingerprints, each standing
	 * for its copies, so that a million copies of one page are one entry
	 * of the tables (and, as in cluster_run, not the empty text's).
	 */
	rep = cr == CAND_HAMMING ? copies(v, n, nv) : NULL;
	if (rule(sc) == CAND_HAMMING) {
		map = xreallocarray(NULL, n + 1, sizeof(*map));
		w = xreallocarray(NULL, n + 1, nv * sizeof(*w));
		for (q = 0, i = 0; i < n; i++)
			if (rep[i] == i && !zero(v + i * nv, nv)) {
				memcpy(w + q * nv, v + i * nv, nv * sizeof(*w));
				map[q++] = (uint32_t)i;
			}
		x.map = map;
		x.adj = &g;
		index_build(&ix, w, q, sc->size, o->d, INDEX_SELF);
		index_self(&ix, simhash_pair, &x);
		index_free(&ix);
		free(w);
		free(map);
	}
	adj_index(&g, n);

	if (o->exact != NULL && o->prefetch != NULL)
		involved(sc, v, n, o, c, id, bs, m, &g, rep);

	head = xreallocarray(NULL, m + 1, sizeof(*head));
	memset(head, 0xFF, (m + 1) * sizeof(*head));
	chead = xreallocarray(NULL, n + 1, sizeof(*chead));
	memset(chead, 0xFF, (n + 1) * sizeof(*chead));
	cnext = xreallocarray(NULL, n + 1, sizeof(*cnext));
	next = xreallocarray(NULL, m + 1, sizeof(*next));
	rank = xreallocarray(NULL, n + 1, sizeof(*rank));
	stamp = xreallocarray(NULL, n + 1, sizeof(*stamp));
	memset(stamp, 0xFF, (n + 1) * sizeof(*stamp));
	cand = xreallocarray(NULL, n + 1, sizeof(*cand));
	c->leader = xreallocarray(NULL, n + 1, sizeof(*c->leader));
	memset(c->leader, 0xFF, (n + 1) * sizeof(*c->leader));
	c->sim = xreallocarray(NULL, n + 1, sizeof(*c->sim));
	c->exact = xcalloc(n + 1, 1);
	for (r = 0; r < n; r++)
		rank[o->order != NULL ? o->order[r] : r] = (uint32_t)r;

	for (r = 0; r < n; r++) {
		i = o->order != NULL ? o->order[r] : r;
		nc = 0;
		for (p = doff[i]; p < doff[i + 1]; p++)
			for (q = dbs[p] != UINT32_MAX ? head[dbs[p]] :
			    UINT32_MAX; q != UINT32_MAX; q = next[q])
				if (stamp[j = id[q]] != i) {
					stamp[j] = (uint32_t)i;
					cand[nc++] = rank[j];
				}
		for (p = rep != NULL ? g.off[rep[i]] : 0;
		    rep != NULL && p < g.off[rep[i] + 1]; p++)
			for (j = chead[g.nb[p]]; j != UINT32_MAX; j = cnext[j])
				if (stamp[j] != i) {
					stamp[j] = (uint32_t)i;
					cand[nc++] = rank[j];
				}
		/* In keep order: ranks sorted, then back to ids. */
		if (nc > 16)
			qsort(cand, nc, sizeof(*cand), rank_cmp);
		else
			for (p = 1; p < nc; p++) {
				t = cand[p];
				for (q = p; q > 0 && cand[q - 1] > t; q--)
					cand[q] = cand[q - 1];
				cand[q] = t;
			}
		c->leader[i] = (uint32_t)i;
		c->sim[i] = 1;
		for (p = 0; p < nc; p++) {
			j = o->order != NULL ? o->order[cand[p]] : cand[p];
			c->candidates++;
			if (decide(o, c, (uint32_t)i, j, estimate(sc, v,
			    (uint32_t)i, j), &sim, &ex)) {
				c->confirmed++;
				c->leader[i] = j;
				c->sim[i] = sim;
				c->exact[i] = (unsigned char)ex;
				break;
			}
		}
		if (c->leader[i] != i)
			continue;
		if (rep != NULL) {
			cnext[i] = chead[rep[i]];
			chead[rep[i]] = (uint32_t)i;
		}
		for (p = doff[i]; p < doff[i + 1]; p++) {
			if (dbs[p] == UINT32_MAX)
				continue;
			next[dpos[p]] = head[dbs[p]];
			head[dbs[p]] = (uint32_t)dpos[p];
		}
	}
	adj_free(&g);
	free(id);
	free(bs);
	free(dbs);
	free(doff);
	free(dpos);
	free(head);
	free(next);
	free(chead);
	free(cnext);
	free(rep);
	free(rank);
	free(stamp);
	free(cand);
}

void
cluster_run(const struct scheme *sc, const uint64_t *v, size_t n,
    const struct cluster_opts *o, struct clusters *c)
{
	size_t nv = scheme_nvalues(sc), i, m;
	struct selfctx x = { sc, v, nv, o, c, NULL, NULL };
	struct index ix;
	unsigned char *copy;
	uint64_t *key, *w;
	uint32_t *id;
	unsigned band;

	memset(c, 0, sizeof(*c));
	uf_init(&c->uf, n);
	c->floor = cluster_floor(sc, o->t);
	if (!o->transitive && !o->pairs) {
		leaders(sc, v, n, o, c);
		return;
	}
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

	switch (rule(sc)) {
	case CAND_BANDS:
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
	case CAND_SMALLEST:
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
	case CAND_HAMMING:
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
	case CAND_EQUAL:
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
	free(c->leader);
	free(c->sim);
	free(c->exact);
	free(c->pair);
	memset(c, 0, sizeof(*c));
}

double
cluster_floor(const struct scheme *sc, double t)
{
	double f;

	if (!(algo_get(sc->algo)->flags & ALGO_RESEMBLANCE))
		return 0;
	f = t - 0.05 - 4 * sqrt(t * (1 - t) / sc->size);
	return f > 0 ? f : 0;
}

void
cluster_given(size_t n, const struct cluster_pair *p, size_t np,
    const struct cluster_opts *o, struct clusters *c)
{
	size_t i, k, r, *off, *at;
	uint32_t *nb, *rank, j, best;
	double *sim, bsim = 0;

	memset(c, 0, sizeof(*c));
	uf_init(&c->uf, n);
	c->candidates = c->confirmed = c->exacts = np;
	if (o->pairs || o->transitive) {
		for (i = 0; i < np; i++) {
			uf_union(&c->uf, p[i].a, p[i].b);
			add_pair(c, p[i].a, p[i].b, p[i].sim, p[i].exact,
			    o->pairs);
		}
		unique_pairs(c);
		return;
	}
	/* Each document's neighbours, with the similarity of each. */
	off = xcalloc(n + 1, sizeof(*off));
	for (i = 0; i < np; i++) {
		off[p[i].a + 1]++;
		off[p[i].b + 1]++;
	}
	for (i = 0; i < n; i++)
		off[i + 1] += off[i];
	nb = xreallocarray(NULL, 2 * np + 1, sizeof(*nb));
	sim = xreallocarray(NULL, 2 * np + 1, sizeof(*sim));
	at = xreallocarray(NULL, n + 1, sizeof(*at));
	memcpy(at, off, (n + 1) * sizeof(*at));
	for (i = 0; i < np; i++) {
		sim[at[p[i].a]] = sim[at[p[i].b]] = p[i].sim;
		nb[at[p[i].a]++] = p[i].b;
		nb[at[p[i].b]++] = p[i].a;
	}
	free(at);
	rank = xreallocarray(NULL, n + 1, sizeof(*rank));
	for (r = 0; r < n; r++)
		rank[o->order != NULL ? o->order[r] : r] = (uint32_t)r;
	c->leader = xreallocarray(NULL, n + 1, sizeof(*c->leader));
	memset(c->leader, 0xFF, (n + 1) * sizeof(*c->leader));
	c->sim = xreallocarray(NULL, n + 1, sizeof(*c->sim));
	c->exact = xcalloc(n + 1, 1);
	/* Every pair is confirmed: join the kept neighbour first in order. */
	for (r = 0; r < n; r++) {
		i = o->order != NULL ? o->order[r] : r;
		best = UINT32_MAX;
		for (k = off[i]; k < off[i + 1]; k++) {
			j = nb[k];
			if (c->leader[j] == j && (best == UINT32_MAX ||
			    rank[j] < rank[best])) {
				best = j;
				bsim = sim[k];
			}
		}
		c->leader[i] = best == UINT32_MAX ? (uint32_t)i : best;
		c->sim[i] = best == UINT32_MAX ? 1 : bsim;
		c->exact[i] = 1;
	}
	free(off);
	free(nb);
	free(sim);
	free(rank);
}
