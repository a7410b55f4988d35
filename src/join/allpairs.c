/*
 * The exact self-join by prefix filtering (see allpairs.h).
 *
 * Copies of one set are found first (sorted by size and an XXH3 of their
 * hashes, confirmed by memcmp) and joined as one set: two thousand copies
 * of a licence would otherwise cost two million merges of it.
 *
 * The distinct sets' hashes are sorted with the set each came from
 * (keysort, 24 bytes a hash at its peak): a run of equal hashes is a
 * token and its length the token's document frequency.  A token of one
 * set can never be shared, so it is dropped; the others are ranked by
 * (frequency, hash), rarest first, and each set becomes its increasing
 * ranks, written in rank order so that no set needs sorting.  The
 * dropped tokens would come first in that order, so a prefix of
 * length p of a set of c1 of them is p - c1 of its ranks.
 *
 * Sets are then taken by increasing size.  A set x of size s can only
 * resemble a set y of size m <= s at t if m / s >= t (the length filter:
 * m >= lb) and then they must share need(s, m) tokens, which is at least
 * need(s, lb) = lb; any two sets sharing o tokens meet in their first
 * |x| - o + 1 and |y| - o + 1 tokens.  So x probes the postings of its
 * first s - lb + 1 tokens, and x's first s - need(s, s) + 1 are indexed
 * for the larger sets that follow (AllPairs).  Each posting holds the
 * place of the token in its set: a candidate whose overlap so far, plus
 * one, plus the fewer of the tokens left after the two places cannot
 * reach need(s, m) is dropped for good (PPJoin's positional filter).
 * What is left is counted exactly from the last match on, by a merge that
 * stops once too few tokens are left.
 *
 * need(na, nb) is the least o with (double)o / (double)(na + nb - o) >= t,
 * the very comparison the emitted pair passes, found by searching from an
 * estimate rather than by a rounded formula: a pair at exactly t is
 * never filtered out by a rounding.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "allpairs.h"
#include "keysort.h"
#include "similarity.h"
#include "xmalloc.h"
#include "xxh.h"

#define NONE		UINT32_MAX	/* the end of a chain of copies */
#define PRUNED		UINT32_MAX	/* a candidate ruled out by position */
#define SORT_BYTES	(65536 * sizeof(size_t))	/* keysort()'s counts */
#define TOKEN_BYTES	24	/* a hash and its set, twice, in keysort() */

/* A set, sorted by: copies of one set lie side by side. */
struct apkey {
	uint64_t fp;		/* XXH3 of its hashes */
	size_t	 len;
	uint32_t idx;
};

/* One distinct set, in the order of processing (by size). */
struct apset {
	uint32_t idx;		/* a copy's input index; next[] has others */
	uint32_t size;		/* its hashes */
	uint32_t rlen;		/* those in another set too: its ranks */
	uint32_t off;		/* its ranks are rank[off .. off + rlen) */
	uint32_t pre;		/* the first pre ranks are indexed */
};

/* A posting: the set whose indexed prefix holds a token, and where. */
struct apentry {
	uint32_t set;
	uint32_t pos;
};

struct apjoin {
	double	 t;
	void	(*emit)(void *, uint32_t, uint32_t, double);
	void	*ctx;
	struct apset *set;	/* the distinct sets, by size */
	uint32_t nset;
	uint32_t *next;		/* copies, by input index: NONE ends */
	uint32_t *rank;		/* the sets' ranks, one after another */
	uint32_t nrank;
	uint32_t *head, *tail;	/* rank r's postings: ent[head[r] .. tail[r]) */
	struct apentry *ent;
	uint32_t *acc;		/* a candidate's overlap so far, or PRUNED */
	uint32_t *lasti, *lastj;	/* its last match, in x and in it */
	uint32_t *touched;	/* the candidates of x */
	uint32_t *alpha;	/* need(s, m) for x of size s, by m */
	uint32_t *stamp;	/* alpha[m] is x's if stamp[m] is x + 1 */
};

/* The per-set bytes: keys, chains, distinct sets and candidate state. */
#define SET_BYTES	(sizeof(struct apkey) + sizeof(uint32_t) + \
	    sizeof(struct apset) + 4 * sizeof(uint32_t))

/* By size, then hash, then input index: copies side by side, in order. */
static int
cmpkey(const void *a, const void *b)
{
	const struct apkey *x = a, *y = b;

	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	if (x->fp != y->fp)
		return x->fp < y->fp ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* The least m in [1, s] with (double)m / (double)s >= t; s >= 1. */
static size_t
least_size(size_t s, double t)
{
	size_t m = (size_t)(t * (double)s);

	if (m < 1)
		m = 1;
	if (m > s)
		m = s;
	while (m > 1 && (double)(m - 1) / (double)s >= t)
		m--;
	while (m < s && (double)m / (double)s < t)
		m++;
	return m;
}

/* Hand over every pair of a copy of x and a copy of y. */
static void
emit_all(const struct apjoin *j, uint32_t x, uint32_t y, double sim)
{
	uint32_t a, b;

	for (a = j->set[x].idx; a != NONE; a = j->next[a])
		for (b = j->set[y].idx; b != NONE; b = j->next[b])
			j->emit(j->ctx, a < b ? a : b, a < b ? b : a, sim);
}

/* Hand over the pairs of copies of one set: resemblance 1. */
static void
emit_copies(const struct apjoin *j, uint32_t x)
{
	uint32_t a, b;

	for (a = j->set[x].idx; a != NONE; a = j->next[a])
		for (b = j->next[a]; b != NONE; b = j->next[b])
			j->emit(j->ctx, a < b ? a : b, a < b ? b : a, 1.0);
}

/*
 * Group the n sets into distinct ones, by size, in j->set and j->next,
 * from keys sorted by cmpkey().
 */
static void
group(struct apjoin *j, const uint64_t *const *set, const struct apkey *key,
    uint32_t n)
{
	const struct apkey *k;
	uint32_t i, end, first, r;

	j->nset = 0;
	for (i = 0; i < n; i = end) {
		for (end = i + 1; end < n && key[end].len == key[i].len &&
		    key[end].fp == key[i].fp; end++)
			continue;
		first = j->nset;
		for (k = key + i; k < key + end; k++) {
			/* Equal hashes of unequal sets: rare, but possible. */
			for (r = first; r < j->nset; r++)
				if (k->len == 0 || memcmp(set[j->set[r].idx],
				    set[k->idx], k->len * sizeof(**set)) == 0)
					break;
			if (r < j->nset) {
				j->next[k->idx] = j->next[j->set[r].idx];
				j->next[j->set[r].idx] = k->idx;
				continue;
			}
			j->set[r].idx = k->idx;
			j->set[r].size = (uint32_t)k->len;
			j->set[r].rlen = 0;
			j->next[k->idx] = NONE;
			j->nset++;
		}
	}
}

/*
 * Sort the tokens by hash, with the sets they came from.  keysort() by
 * the top 32 bits takes two passes, not four; then a run of equal top
 * bits that holds more than one hash (a few hundred among millions of
 * hashes) is sorted whole, by insertion when short (it is stable too).
 */
static void
sort_tokens(uint64_t *key, uint32_t *id, size_t ntok)
{
	size_t i, e, a, b;
	uint64_t kv;
	uint32_t iv;
	int mixed;

	keysort(key, id, ntok, 32);
	for (i = 0; i < ntok; i = e) {
		mixed = 0;
		for (e = i + 1; e < ntok && key[e] >> 32 == key[i] >> 32; e++)
			mixed |= key[e] != key[i];
		if (!mixed)
			continue;
		if (e - i > 64) {
			keysort(key + i, id + i, e - i, 64);
			continue;
		}
		for (a = i + 1; a < e; a++) {
			kv = key[a];
			iv = id[a];
			for (b = a; b > i && key[b - 1] > kv; b--) {
				key[b] = key[b - 1];
				id[b] = id[b - 1];
			}
			key[b] = kv;
			id[b] = iv;
		}
	}
}

/*
 * Rank the tokens of the distinct sets shared by two or more, rarest
 * first, and write each set's ranks, increasing, at j->rank + off.
 */
static void
rank_tokens(struct apjoin *j, const uint64_t *const *set, size_t ntok)
{
	struct apset *s;
	uint64_t *key;
	uint32_t *id, *gstart, *dfc, *perm, *cur, k, i, df, sum, c;
	size_t e, g, u, r, d;

	key = xreallocarray(NULL, ntok ? ntok : 1, sizeof(*key));
	id = xreallocarray(NULL, ntok ? ntok : 1, sizeof(*id));
	for (e = 0, k = 0; k < j->nset; k++) {
		s = &j->set[k];
		if (s->size == 0)
			continue;
		memcpy(key + e, set[s->idx], s->size * sizeof(*key));
		for (i = 0; i < s->size; i++)
			id[e + i] = k;
		e += s->size;
	}
	sort_tokens(key, id, ntok);

	/* The runs of equal hashes: gstart[g] .. gstart[g + 1]. */
	for (u = 0, e = 0; e < ntok; e++)
		if (e == 0 || key[e] != key[e - 1])
			u++;
	gstart = xreallocarray(NULL, u + 1, sizeof(*gstart));
	for (g = 0, e = 0; e < ntok; e++)
		if (e == 0 || key[e] != key[e - 1])
			gstart[g++] = (uint32_t)e;
	gstart[u] = (uint32_t)ntok;
	free(key);

	/* A set holds a token once, so no token is in more than nset. */
	dfc = xcalloc((size_t)j->nset + 1, sizeof(*dfc));
	for (g = 0; g < u; g++) {
		if ((df = gstart[g + 1] - gstart[g]) < 2)
			continue;
		dfc[df]++;
		for (e = gstart[g]; e < gstart[g + 1]; e++)
			j->set[id[e]].rlen++;
	}
	for (sum = 0, d = 2; d <= j->nset; d++) {
		c = dfc[d];
		dfc[d] = sum;
		sum += c;
	}
	j->nrank = sum;
	perm = xreallocarray(NULL, sum ? sum : 1, sizeof(*perm));
	for (g = 0; g < u; g++)
		if ((df = gstart[g + 1] - gstart[g]) >= 2)
			perm[dfc[df]++] = (uint32_t)g;	/* ties by hash */
	free(dfc);

	for (sum = 0, k = 0; k < j->nset; k++) {
		j->set[k].off = sum;
		sum += j->set[k].rlen;
	}
	j->rank = xreallocarray(NULL, sum ? sum : 1, sizeof(*j->rank));
	cur = j->touched;
	memset(cur, 0, j->nset * sizeof(*cur));
	for (r = 0; r < j->nrank; r++) {
		g = perm[r];
		for (e = gstart[g]; e < gstart[g + 1]; e++) {
			k = id[e];
			j->rank[j->set[k].off + cur[k]++] = (uint32_t)r;
		}
	}
	free(perm);
	free(gstart);
	free(id);
}

/*
 * Room for the postings of every set's indexed prefix, each rank's list
 * empty and as long as it will be.
 */
static void
make_index(struct apjoin *j)
{
	struct apset *s;
	size_t full, c1;
	uint32_t k, i, sum, c, r;

	j->head = xcalloc((size_t)j->nrank + 1, sizeof(*j->head));
	j->tail = xreallocarray(NULL, (size_t)j->nrank + 1, sizeof(*j->tail));
	for (k = 0; k < j->nset; k++) {
		s = &j->set[k];
		s->pre = 0;
		if (s->size == 0)
			continue;
		full = s->size - similarity_least_shared(s->size, s->size,
		    j->t, 0) + 1;
		c1 = s->size - s->rlen;
		if (full > c1)
			s->pre = (uint32_t)(full - c1);
		for (i = 0; i < s->pre; i++)
			j->head[j->rank[s->off + i]]++;
	}
	for (sum = 0, r = 0; r < j->nrank; r++) {
		c = j->head[r];
		j->head[r] = j->tail[r] = sum;
		sum += c;
	}
	j->ent = xreallocarray(NULL, sum ? sum : 1, sizeof(*j->ent));
}

/* need(s, m) for the set x of size s being probed; lb <= m <= s. */
static uint32_t
need_of(struct apjoin *j, uint32_t x, size_t s, size_t m)
{
	if (j->stamp[m] != x + 1) {
		j->stamp[m] = x + 1;
		j->alpha[m] = (uint32_t)similarity_least_shared(s, m,
		    j->t, 0);
	}
	return j->alpha[m];
}

/*
 * Count the overlap of x and y from their last match on, with what was
 * counted in the prefixes, and hand over the pair if it reaches need.
 */
static void
verify(struct apjoin *j, uint32_t x, uint32_t y, size_t need)
{
	const struct apset *sx = &j->set[x], *sy = &j->set[y];
	const uint32_t *rx = j->rank + sx->off, *ry = j->rank + sy->off;
	size_t o = j->acc[y], i = j->lasti[y] + 1, k = j->lastj[y] + 1;
	size_t nx = sx->rlen, ny = sy->rlen;
	double sim;

	if (o + (nx - i < ny - k ? nx - i : ny - k) < need)
		return;
	while (i < nx && k < ny) {
		if (rx[i] == ry[k]) {
			o++;
			i++;
			k++;
			continue;
		}
		if (rx[i] < ry[k])
			i++;
		else
			k++;
		if (o + (nx - i < ny - k ? nx - i : ny - k) < need)
			return;
	}
	/* o >= need is this very comparison; it decides. */
	sim = (double)o / (double)(sx->size + sy->size - o);
	if (sim >= j->t)
		emit_all(j, x, y, sim);
}

/*
 * Find the pairs of the set x with the sets before it, then index its
 * prefix for the sets after it.
 */
static void
probe(struct apjoin *j, uint32_t x)
{
	const struct apset *sx = &j->set[x], *sy;
	const uint32_t *rx = j->rank + sx->off;
	const struct apentry *p;
	size_t s = sx->size, lb, pp, c1, rem, ry;
	uint32_t i, w, e, y, nt = 0;

	lb = least_size(s, j->t);
	pp = s - lb + 1;
	c1 = s - sx->rlen;
	pp = pp > c1 ? pp - c1 : 0;
	for (i = 0; i < pp; i++) {
		w = rx[i];
		/* Sets come by size: one too small now always will be. */
		while (j->head[w] < j->tail[w] &&
		    j->set[j->ent[j->head[w]].set].size < lb)
			j->head[w]++;
		for (e = j->head[w]; e < j->tail[w]; e++) {
			p = &j->ent[e];
			y = p->set;
			if (j->acc[y] == PRUNED)
				continue;
			if (j->acc[y] == 0)
				j->touched[nt++] = y;
			sy = &j->set[y];
			rem = sx->rlen - i - 1;
			ry = sy->rlen - p->pos - 1;
			if (ry < rem)
				rem = ry;
			if (j->acc[y] + 1 + rem < need_of(j, x, s, sy->size)) {
				j->acc[y] = PRUNED;
				continue;
			}
			j->acc[y]++;
			j->lasti[y] = i;
			j->lastj[y] = p->pos;
		}
	}
	for (e = 0; e < nt; e++) {
		y = j->touched[e];
		if (j->acc[y] != PRUNED)
			verify(j, x, y, need_of(j, x, s, j->set[y].size));
		j->acc[y] = 0;
	}
	for (i = 0; i < sx->pre; i++) {
		w = rx[i];
		j->ent[j->tail[w]].set = x;
		j->ent[j->tail[w]].pos = i;
		j->tail[w]++;
	}
}

int
allpairs_join(const uint64_t *const *set, const size_t *len, uint32_t n,
    double t, size_t maxmem, size_t *need,
    void (*emit)(void *ctx, uint32_t a, uint32_t b, double sim), void *ctx)
{
	struct apjoin j;
	struct apkey *key;
	uint64_t bytes;
	size_t ntok, maxlen, i, k;
	uint32_t x;

	*need = 0;
	if (!(t > 0 && t <= 1)) {
		errno = EINVAL;
		return -1;
	}
	for (ntok = 0, i = 0; i < n; i++) {
		if (len[i] >= UINT32_MAX - ntok) {
			errno = EOVERFLOW;
			return -1;
		}
		ntok += len[i];
	}
	if (n == 0)
		return 0;
	/* In 64 bits, which cannot overflow with n and ntok below 2^32. */
	bytes = (uint64_t)n * SET_BYTES + SORT_BYTES;
	*need = bytes < SIZE_MAX ? (size_t)bytes : SIZE_MAX;
	if (bytes > maxmem) {
		errno = ENOMEM;
		return -1;
	}

	key = xreallocarray(NULL, n, sizeof(*key));
	for (i = 0; i < n; i++) {
		for (k = 1; k < len[i]; k++)
			if (set[i][k - 1] >= set[i][k]) {
				free(key);
				*need = 0;
				errno = EINVAL;
				return -1;
			}
		key[i].fp = len[i] ? xxh_bytes(set[i], len[i] *
		    sizeof(**set), 0) : 0;
		key[i].len = len[i];
		key[i].idx = (uint32_t)i;
	}
	qsort(key, n, sizeof(*key), cmpkey);
	memset(&j, 0, sizeof(j));
	j.t = t;
	j.emit = emit;
	j.ctx = ctx;
	j.set = xreallocarray(NULL, n, sizeof(*j.set));
	j.next = xreallocarray(NULL, n, sizeof(*j.next));
	group(&j, set, key, n);
	maxlen = key[n - 1].len;
	free(key);

	/* The figure, now that copies are known: the sort is the peak. */
	for (ntok = 0, x = 0; x < j.nset; x++)
		ntok += j.set[x].size;
	bytes += (uint64_t)TOKEN_BYTES * ntok + 2 * sizeof(uint32_t) *
	    ((uint64_t)maxlen + 1) + sizeof(uint32_t) * ((uint64_t)j.nset + 1);
	*need = bytes < SIZE_MAX ? (size_t)bytes : SIZE_MAX;
	if (bytes > maxmem) {
		free(j.set);
		free(j.next);
		errno = ENOMEM;
		return -1;
	}

	j.acc = xcalloc(j.nset, sizeof(*j.acc));
	j.lasti = xreallocarray(NULL, j.nset, sizeof(*j.lasti));
	j.lastj = xreallocarray(NULL, j.nset, sizeof(*j.lastj));
	j.touched = xreallocarray(NULL, j.nset, sizeof(*j.touched));
	j.alpha = xreallocarray(NULL, maxlen + 1, sizeof(*j.alpha));
	j.stamp = xcalloc(maxlen + 1, sizeof(*j.stamp));
	rank_tokens(&j, set, ntok);
	make_index(&j);
	for (x = 0; x < j.nset; x++) {
		emit_copies(&j, x);
		if (j.set[x].size > 0)
			probe(&j, x);
	}

	free(j.set);
	free(j.next);
	free(j.rank);
	free(j.head);
	free(j.tail);
	free(j.ent);
	free(j.acc);
	free(j.lasti);
	free(j.lastj);
	free(j.touched);
	free(j.alpha);
	free(j.stamp);
	return 0;
}
