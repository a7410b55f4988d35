/*
 * The permuted tables of src/join/index.c against brute force: for random and
 * clustered 64- and 128-bit fingerprints, every distance and several
 * sizes, index_query must return exactly the fingerprints a linear scan
 * finds, with their distances, nearest first and ties by id, and
 * index_self exactly the pairs a scan over all pairs finds, each once with
 * a < b.  The shape of every index is checked too: at most
 * INDEX_MAXTABLES tables, more blocks than the distance, one table per
 * choice of B - d key blocks.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "index.h"
#include "unit.h"

/* A set of fingerprints, most significant word first. */
struct data {
	unsigned bits, words;
	size_t	 n;
	uint64_t *fp;
};

struct pair {
	uint32_t a, b;
	unsigned dist;
};

struct pairs {
	struct pair *p;
	size_t	 n, cap;
};

static uint64_t seed = 0x6E65617264757021ULL;

/* A uniform number below n (n small: the bias is negligible). */
static size_t
below(size_t n)
{
	return (size_t)(splitmix64(&seed) % n);
}

static unsigned
hamming(const uint64_t *a, const uint64_t *b, unsigned words)
{
	unsigned i, dist = 0;

	for (i = 0; i < words; i++)
		dist += (unsigned)__builtin_popcountll(a[i] ^ b[i]);
	return dist;
}

static void
flip_bit(uint64_t *v, unsigned bit)
{
	v[bit / 64] ^= (uint64_t)1 << (63 - bit % 64);
}

/*
 * Flip exactly k distinct bits of v, placed in one of three ways: anywhere,
 * within a short window (the differences fall in few blocks), or spread
 * evenly over the whole width (they fall in as many blocks as can be, the
 * case where only one table holds the pair).
 */
static void
flip_bits(uint64_t *v, unsigned bits, unsigned k)
{
	uint64_t orig[2];
	unsigned i, start, win, bit;

	memcpy(orig, v, bits / 8);
	switch (below(3)) {
	case 0:
		while (hamming(orig, v, bits / 64) < k) {
			bit = (unsigned)below(bits);
			if ((((orig[bit / 64] ^ v[bit / 64]) >>
			    (63 - bit % 64)) & 1) == 0)
				flip_bit(v, bit);
		}
		break;
	case 1:
		win = k + (unsigned)below(k + 1);
		start = (unsigned)below(bits);
		while (hamming(orig, v, bits / 64) < k) {
			bit = (start + (unsigned)below(win)) % bits;
			if ((((orig[bit / 64] ^ v[bit / 64]) >>
			    (63 - bit % 64)) & 1) == 0)
				flip_bit(v, bit);
		}
		break;
	default:
		start = (unsigned)below(bits);
		for (i = 0; i < k; i++)
			flip_bit(v, (start + i * bits / k) % bits);
		break;
	}
}

static void
data_init(struct data *s, unsigned bits, size_t n)
{
	s->bits = bits;
	s->words = bits / 64;
	s->n = n;
	s->fp = calloc(n ? n * s->words : 1, sizeof(*s->fp));
	if (s->fp == NULL)
		abort();
}

static void
data_random(struct data *s, unsigned bits, size_t n)
{
	size_t i;

	data_init(s, bits, n);
	for (i = 0; i < n * s->words; i++)
		s->fp[i] = splitmix64(&seed);
}

/*
 * Clusters of about 20: a random centre, then copies of earlier members of
 * its cluster with 0 .. maxflip bits flipped (exact duplicates among them),
 * all shuffled so that a cluster's ids are not contiguous.
 */
static void
data_clustered(struct data *s, unsigned bits, size_t n, unsigned maxflip)
{
	size_t i, j, first = 0;
	unsigned w, k;
	uint64_t t;

	data_init(s, bits, n);
	for (i = 0; i < n; i++) {
		if (i % 20 == 0) {
			first = i;
			for (w = 0; w < s->words; w++)
				s->fp[i * s->words + w] = splitmix64(&seed);
			continue;
		}
		j = first + below(i - first);
		memcpy(s->fp + i * s->words, s->fp + j * s->words,
		    s->words * sizeof(*s->fp));
		k = below(4) == 0 ? 0 : (unsigned)below(maxflip + 1);
		flip_bits(s->fp + i * s->words, bits, k);
	}
	for (i = n; i > 1; i--) {
		j = below(i);
		for (w = 0; w < s->words; w++) {
			t = s->fp[(i - 1) * s->words + w];
			s->fp[(i - 1) * s->words + w] = s->fp[j * s->words + w];
			s->fp[j * s->words + w] = t;
		}
	}
}

static double
binom(unsigned n, unsigned k)
{
	double r = 1;
	unsigned i;

	for (i = 1; i <= k; i++)
		r = r * (n - k + i) / i;
	return r;
}

/* The blocks and tables index_build chose, and the order of each table. */
static int
check_shape(const struct index *ix, const char *what, unsigned d)
{
	const struct index_table *t;
	uint64_t all;
	size_t x;
	unsigned b, i, j, pbits;
	int ok = 1;

	/* A plain scan, past the block limit or where it costs less. */
	if (ix->ntables == 0)
		return 1;
	ok &= CHECK(ix->nblocks > d && ix->nblocks <= INDEX_MAXBLOCKS,
	    "%s d=%u: %u blocks", what, d, ix->nblocks);
	ok &= CHECK(ix->ntables >= 1 && ix->ntables <= INDEX_MAXTABLES,
	    "%s d=%u: %u tables (at most %d)", what, d, ix->ntables,
	    INDEX_MAXTABLES);
	if (!ok)
		return 0;
	ok &= CHECK(ix->ntables == binom(ix->nblocks, d),
	    "%s d=%u: %u tables, want C(%u, %u)", what, d, ix->ntables,
	    ix->nblocks, d);
	ok &= CHECK(ix->bstart[0] == 0 && ix->bstart[ix->nblocks] == ix->bits,
	    "%s d=%u: blocks span %u..%u", what, d, ix->bstart[0],
	    ix->bstart[ix->nblocks]);
	for (b = 0; b < ix->nblocks; b++)
		ok &= CHECK(ix->bstart[b] < ix->bstart[b + 1],
		    "%s d=%u: block %u is empty", what, d, b);
	all = ix->nblocks >= 64 ? ~(uint64_t)0 :
	    ((uint64_t)1 << ix->nblocks) - 1;
	for (i = 0; i < ix->ntables && ok; i++) {
		t = &ix->t[i];
		ok &= CHECK((unsigned)__builtin_popcountll(t->smask) ==
		    ix->nblocks - d && (t->smask & ~all) == 0,
		    "%s d=%u: table %u key blocks %#llx", what, d, i,
		    (unsigned long long)t->smask);
		for (j = 0, pbits = 0; j < ix->nblocks - d; j++)
			pbits += ix->bstart[t->order[j] + 1] -
			    ix->bstart[t->order[j]];
		ok &= CHECK(t->pbits == (pbits < 64 ? pbits : 64),
		    "%s d=%u: table %u pbits %u, want %u", what, d, i,
		    t->pbits, pbits);
		for (j = 0; j < i; j++)
			ok &= CHECK(ix->t[j].smask != t->smask,
			    "%s d=%u: tables %u and %u alike", what, d, j, i);
		/* Sorted by the key blocks, which is all a search needs. */
		for (x = 1; x < ix->n && ok; x++)
			ok &= CHECK(t->key[x - 1] >> (64 - t->pbits) <=
			    t->key[x] >> (64 - t->pbits),
			    "%s d=%u: table %u unsorted at %zu", what, d, i, x);
	}
	return ok;
}

static int
match_cmp(const void *x, const void *y)
{
	const struct index_match *a = x, *b = y;

	if (a->dist != b->dist)
		return a->dist < b->dist ? -1 : 1;
	return (a->id > b->id) - (a->id < b->id);
}

/* Query ix with q and compare with a scan of s: ids, distances, order. */
static int
check_query(const struct index *ix, const struct data *s, const uint64_t *q,
    const char *what, unsigned d, struct index_match **got, size_t *gcap,
    struct index_match *want)
{
	size_t n, nw = 0, i;
	unsigned dist;
	int ok = 1;

	for (i = 0; i < s->n; i++) {
		dist = hamming(s->fp + i * s->words, q, s->words);
		if (dist <= d) {
			want[nw].id = (uint32_t)i;
			want[nw].dist = dist;
			nw++;
		}
	}
	qsort(want, nw, sizeof(*want), match_cmp);
	n = index_query(ix, q, got, gcap);
	ok &= CHECK(n == nw, "%s N=%zu d=%u: query %016llx: %zu matches, "
	    "want %zu", what, s->n, d, (unsigned long long)q[0], n, nw);
	for (i = 0; i < n && i < nw && ok; i++)
		ok &= CHECK((*got)[i].id == want[i].id &&
		    (*got)[i].dist == want[i].dist, "%s N=%zu d=%u: query "
		    "%016llx: match %zu is %u at %u, want %u at %u", what,
		    s->n, d, (unsigned long long)q[0], i, (*got)[i].id,
		    (*got)[i].dist, want[i].id, want[i].dist);
	return ok;
}

/*
 * Queries: every indexed fingerprint (up to 300 of them), as many copies
 * of them with 0 .. d + 2 bits flipped, and up to 50 random ones.
 */
static int
check_queries(const struct index *ix, const struct data *s, const char *what,
    unsigned d)
{
	struct index_match *got = NULL, *want;
	size_t gcap = 0, i, nq;
	uint64_t q[2];
	unsigned w;
	int ok = 1;

	want = calloc(s->n ? s->n : 1, sizeof(*want));
	if (want == NULL)
		abort();
	nq = s->n < 300 ? s->n : 300;
	for (i = 0; i < nq && ok; i++)
		ok = check_query(ix, s, s->fp + (s->n == nq ? i : below(s->n)) *
		    s->words, what, d, &got, &gcap, want);
	for (i = 0; i < nq && ok; i++) {
		memcpy(q, s->fp + below(s->n) * s->words,
		    s->words * sizeof(*q));
		flip_bits(q, s->bits, (unsigned)below(d + 3));
		ok = check_query(ix, s, q, what, d, &got, &gcap, want);
	}
	for (i = 0; i < 50 && i <= nq && ok; i++) {
		for (w = 0; w < s->words; w++)
			q[w] = splitmix64(&seed);
		ok = check_query(ix, s, q, what, d, &got, &gcap, want);
	}
	free(got);
	free(want);
	return ok;
}

static void
add_pair(void *ctx, uint32_t a, uint32_t b, unsigned dist)
{
	struct pairs *ps = ctx;

	if (ps->n == ps->cap) {
		ps->cap = ps->cap ? 2 * ps->cap : 256;
		ps->p = realloc(ps->p, ps->cap * sizeof(*ps->p));
		if (ps->p == NULL)
			abort();
	}
	ps->p[ps->n].a = a;
	ps->p[ps->n].b = b;
	ps->p[ps->n].dist = dist;
	ps->n++;
}

static int
pair_cmp(const void *x, const void *y)
{
	const struct pair *p = x, *q = y;

	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	return (p->b > q->b) - (p->b < q->b);
}

/* Every pair of s within d bits, by a scan of all pairs, in order. */
static void
close_pairs(const struct data *s, unsigned d, struct pairs *ps)
{
	size_t i, j;
	unsigned dist;

	ps->n = 0;
	for (i = 0; i < s->n; i++)
		for (j = i + 1; j < s->n; j++) {
			dist = hamming(s->fp + i * s->words,
			    s->fp + j * s->words, s->words);
			if (dist <= d)
				add_pair(ps, (uint32_t)i, (uint32_t)j, dist);
		}
}

/*
 * index_self against the pairs of s within d bits, taken from all, the
 * pairs within some larger distance: each close pair once, a < b.
 */
static int
check_self(const struct index *ix, const struct data *s, const char *what,
    unsigned d, const struct pairs *all)
{
	struct pairs got = { 0 }, want = { 0 };
	size_t i;
	int ok = 1;

	index_self(ix, add_pair, &got);
	for (i = 0; i < got.n && ok; i++) {
		ok &= CHECK(got.p[i].a < got.p[i].b && got.p[i].b < s->n,
		    "%s N=%zu d=%u: self pair (%u, %u)", what, s->n, d,
		    got.p[i].a, got.p[i].b);
		if (ok)
			ok &= CHECK(got.p[i].dist == hamming(s->fp +
			    (size_t)got.p[i].a * s->words, s->fp +
			    (size_t)got.p[i].b * s->words, s->words),
			    "%s N=%zu d=%u: self pair (%u, %u) at %u, is at %u",
			    what, s->n, d, got.p[i].a, got.p[i].b, got.p[i].dist,
			    hamming(s->fp + (size_t)got.p[i].a * s->words,
			    s->fp + (size_t)got.p[i].b * s->words, s->words));
	}
	if (got.n > 0)
		qsort(got.p, got.n, sizeof(*got.p), pair_cmp);
	for (i = 1; i < got.n && ok; i++)
		ok &= CHECK(pair_cmp(&got.p[i - 1], &got.p[i]) != 0,
		    "%s N=%zu d=%u: self pair (%u, %u) reported twice", what,
		    s->n, d, got.p[i].a, got.p[i].b);
	for (i = 0; i < all->n; i++)
		if (all->p[i].dist <= d)
			add_pair(&want, all->p[i].a, all->p[i].b,
			    all->p[i].dist);
	if (ok)
		ok &= CHECK(got.n == want.n, "%s N=%zu d=%u: %zu self pairs, "
		    "want %zu", what, s->n, d, got.n, want.n);
	for (i = 0; i < got.n && i < want.n && ok; i++)
		ok &= CHECK(pair_cmp(&got.p[i], &want.p[i]) == 0,
		    "%s N=%zu d=%u: self pair %zu is (%u, %u), want (%u, %u)",
		    what, s->n, d, i, got.p[i].a, got.p[i].b, want.p[i].a,
		    want.p[i].b);
	free(got.p);
	free(want.p);
	return ok;
}

/*
 * Build, check shape, queries and self-join; 0 after the first failure.
 * all: the pairs of s within at least d bits, or NULL to find them here.
 */
static int
check_all(const struct data *s, const char *what, unsigned d,
    const struct pairs *all)
{
	struct pairs mine = { 0 };
	struct index ix;
	int ok;

	if (all == NULL) {
		close_pairs(s, d, &mine);
		all = &mine;
	}
	/* Tables whatever they cost, then as chosen for each use. */
	index_build(&ix, s->fp, s->n, s->bits, d, INDEX_TABLES);
	ok = CHECK(ix.ntables > 0 || d >= INDEX_MAXBLOCKS,
	    "%s d=%u: a scan, want tables", what, d) &&
	    check_shape(&ix, what, d) && check_queries(&ix, s, what, d) &&
	    check_self(&ix, s, what, d, all);
	index_free(&ix);
	if (ok) {
		index_build(&ix, s->fp, s->n, s->bits, d, INDEX_QUERIES);
		ok = check_shape(&ix, what, d) &&
		    check_queries(&ix, s, what, d);
		index_free(&ix);
	}
	if (ok) {
		index_build(&ix, s->fp, s->n, s->bits, d, INDEX_SELF);
		ok = check_shape(&ix, what, d) &&
		    check_self(&ix, s, what, d, all);
		index_free(&ix);
	}
	free(mine.p);
	return ok;
}

static const size_t sizes[] = { 0, 1, 2, 100, 5000 };
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))

static void
random_at(unsigned bits, const unsigned *ds, size_t nd)
{
	struct pairs all = { 0 };
	struct data s;
	size_t i, k;

	for (i = 0; i < NSIZES; i++) {
		data_random(&s, bits, sizes[i]);
		close_pairs(&s, ds[nd - 1], &all);
		for (k = 0; k < nd; k++)
			if (!check_all(&s, bits == 64 ? "random64" :
			    "random128", ds[k], &all))
				break;
		free(s.fp);
	}
	free(all.p);
}

static void
clustered_at(unsigned bits, const unsigned *ds, size_t nd)
{
	struct data s;
	size_t i, k;

	for (i = 0; i < NSIZES; i++)
		for (k = 0; k < nd; k++) {
			data_clustered(&s, bits, sizes[i], ds[k] + 2);
			if (!check_all(&s, bits == 64 ? "clustered64" :
			    "clustered128", ds[k], NULL)) {
				free(s.fp);
				break;
			}
			free(s.fp);
		}
}

static const unsigned d64[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
static const unsigned d128[] = { 0, 1, 2, 3, 4, 6, 8, 10, 16 };
#define ND64 (sizeof(d64) / sizeof(d64[0]))
#define ND128 (sizeof(d128) / sizeof(d128[0]))

static void
test_random64(void)
{
	random_at(64, d64, ND64);
}

static void
test_clustered64(void)
{
	clustered_at(64, d64, ND64);
}

static void
test_random128(void)
{
	random_at(128, d128, ND128);
}

static void
test_clustered128(void)
{
	clustered_at(128, d128, ND128);
}

/* Every distance the index answers, on 100 clustered fingerprints. */
static void
every_d(unsigned bits)
{
	struct data s;
	unsigned d;

	for (d = 0; d <= INDEX_MAXD(bits); d++) {
		data_clustered(&s, bits, 100, d + 2);
		if (!check_all(&s, bits == 64 ? "clustered64" : "clustered128",
		    d, NULL)) {
			free(s.fp);
			break;
		}
		free(s.fp);
	}
}

static void
test_every_d64(void)
{
	every_d(64);
}

static void
test_every_d128(void)
{
	every_d(128);
}

/*
 * Many copies of one fingerprint, and of its neighbours: all ties, so the
 * order by id is all that sorts them; and every pair of the copies is met
 * in every table, but must be reported once.
 */
static void
test_duplicates(void)
{
	struct data s;
	size_t i;
	unsigned d;

	data_init(&s, 64, 600);
	s.fp[0] = splitmix64(&seed);
	for (i = 1; i < s.n; i++) {
		s.fp[i] = s.fp[0];
		if (i % 3 == 0)
			flip_bits(&s.fp[i], 64, 1 + (unsigned)below(3));
	}
	for (d = 0; d <= 4; d++)
		if (!check_all(&s, "duplicates64", d, NULL))
			break;
	free(s.fp);
}

/* index_self of a scan: each pair after the one before, by a then b. */
struct order {
	uint32_t a, b;
	size_t	 n, bad;
};

static void
in_order(void *ctx, uint32_t a, uint32_t b, unsigned dist)
{
	struct order *o = ctx;

	(void)dist;
	if (o->n > 0 && (a < o->a || (a == o->a && b <= o->b)))
		o->bad++;
	o->a = a;
	o->b = b;
	o->n++;
}

/*
 * The tables where they cost less than a scan, the scan where they cost
 * more: at d = 16 of 64 bits, 17 tables of 3-bit keys would each look at
 * an eighth of the index.  The scan's pairs come in order.
 */
static void
test_choice(void)
{
	struct order o = { 0 };
	struct index ix;
	struct data s;

	data_clustered(&s, 64, 100000, 18);
	index_build(&ix, s.fp, s.n, 64, 3, INDEX_QUERIES);
	CHECK(ix.ntables > 0, "d=3 N=100000: a scan for queries");
	index_free(&ix);
	index_build(&ix, s.fp, s.n, 64, 3, INDEX_SELF);
	CHECK(ix.ntables > 0, "d=3 N=100000: a scan for a self join");
	index_free(&ix);
	index_build(&ix, s.fp, s.n, 64, 16, INDEX_QUERIES);
	CHECK(ix.ntables == 0, "d=16 N=100000: %u tables for queries",
	    ix.ntables);
	index_free(&ix);
	index_build(&ix, s.fp, 5000, 64, 16, INDEX_SELF);
	CHECK(ix.ntables == 0, "d=16 N=5000: %u tables for a self join",
	    ix.ntables);
	index_self(&ix, in_order, &o);
	CHECK(o.n > 0 && o.bad == 0, "d=16 N=5000: %zu of %zu pairs out of "
	    "order", o.bad, o.n);
	index_free(&ix);
	free(s.fp);
}

int
main(void)
{
	RUN(test_random64);
	RUN(test_clustered64);
	RUN(test_random128);
	RUN(test_clustered128);
	RUN(test_every_d64);
	RUN(test_every_d128);
	RUN(test_duplicates);
	RUN(test_choice);
	return unit_status();
}
