/*
 * Unit tests of the exact self-join of src/join/allpairs.c.
 *
 * The join is held to a brute-force merge of every pair: exactly the same
 * pairs, with the same resemblance to the bit.  The sets are drawn so that
 * the filters are put to work where they could go wrong: near-duplicates
 * of random bases (a few elements deleted, a few added, from a common
 * vocabulary as well as fresh hashes, so that token frequencies vary),
 * small sets whose resemblances land on the thresholds exactly, and every
 * pair of small sizes and overlaps at thresholds that are such ratios.
 * Then the edges: empty and one-element sets, no sets, one set, two
 * thousand copies of one set (in time), sets of very different sizes, the
 * memory limit, and input refused.
 *
 * The generator is a fixed-seed splitmix64: the test is deterministic.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "allpairs.h"
#include "unit.h"

#define BIG	((size_t)1 << 40)	/* a memory limit that never refuses */

static uint64_t rng = 0x616C6C7061697273ULL;

static size_t
below(size_t n)
{
	return (size_t)(splitmix64(&rng) % n);
}

struct tpair {
	uint32_t a, b;
	double	 sim;
};

struct tpairs {
	struct tpair *p;
	size_t	 n, cap;
};

static void
collect(void *ctx, uint32_t a, uint32_t b, double sim)
{
	struct tpairs *ps = ctx;

	if (ps->n == ps->cap) {
		ps->cap = ps->cap ? 2 * ps->cap : 256;
		if ((ps->p = realloc(ps->p, ps->cap * sizeof(*ps->p))) == NULL)
			abort();
	}
	ps->p[ps->n].a = a;
	ps->p[ps->n].b = b;
	ps->p[ps->n].sim = sim;
	ps->n++;
}

static int
cmppair(const void *x, const void *y)
{
	const struct tpair *p = x, *q = y;

	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	return p->b < q->b ? -1 : p->b > q->b;
}

/* A collection of sets, each sorted and distinct once made. */
struct tsets {
	uint64_t **v;
	size_t	*len;
	uint32_t n;
};

static int
cmpu64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

/* Add a set of the len values v (any order, repeats allowed). */
static void
add_set(struct tsets *s, const uint64_t *v, size_t len)
{
	uint64_t *c;
	size_t i, k;

	s->v = realloc(s->v, (s->n + 1) * sizeof(*s->v));
	s->len = realloc(s->len, (s->n + 1) * sizeof(*s->len));
	c = malloc((len ? len : 1) * sizeof(*c));
	if (s->v == NULL || s->len == NULL || c == NULL)
		abort();
	if (len > 0)
		memcpy(c, v, len * sizeof(*c));
	qsort(c, len, sizeof(*c), cmpu64);
	for (i = k = 0; i < len; i++)
		if (k == 0 || c[k - 1] != c[i])
			c[k++] = c[i];
	s->v[s->n] = c;
	s->len[s->n] = k;
	s->n++;
}

static void
free_sets(struct tsets *s)
{
	uint32_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	free(s->len);
	memset(s, 0, sizeof(*s));
}

/* The values two sorted sets share, by a merge. */
static size_t
brute_shared(const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
	size_t i = 0, k = 0, shared = 0;

	while (i < na && k < nb) {
		if (a[i] == b[k]) {
			shared++;
			i++;
			k++;
		} else if (a[i] < b[k])
			i++;
		else
			k++;
	}
	return shared;
}

/* Resemblance, as similarity_exact() gives it. */
static double
brute_sim(const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
	size_t shared = brute_shared(a, na, b, nb);

	if (na + nb - shared == 0)
		return 1.0;
	return (double)shared / (double)(na + nb - shared);
}

static void
brute(const struct tsets *s, double t, struct tpairs *out)
{
	uint32_t a, b;
	double sim;

	for (a = 0; a < s->n; a++)
		for (b = a + 1; b < s->n; b++) {
			sim = brute_sim(s->v[a], s->len[a], s->v[b], s->len[b]);
			if (sim >= t)
				collect(out, a, b, sim);
		}
}

static int
join(const struct tsets *s, double t, struct tpairs *out)
{
	size_t need;

	return allpairs_join((const uint64_t *const *)s->v, s->len, s->n, t,
	    BIG, &need, collect, out);
}

/*
 * Join the sets at t and compare with brute force: the same pairs, the
 * same resemblances.  Returns the number of pairs.
 */
static size_t
same_as_brute(const struct tsets *s, double t, const char *what)
{
	struct tpairs got = { NULL, 0, 0 }, want = { NULL, 0, 0 };
	size_t i, n, bad = 0;

	if (!CHECK(join(s, t, &got) == 0, "%s t=%g: join failed: %s", what, t,
	    strerror(errno)))
		return 0;
	brute(s, t, &want);
	qsort(got.p, got.n, sizeof(*got.p), cmppair);
	CHECK(got.n == want.n, "%s t=%g: %zu pairs, brute force %zu", what, t,
	    got.n, want.n);
	n = got.n < want.n ? got.n : want.n;
	for (i = 0; i < n && bad < 3; i++)
		if (got.p[i].a != want.p[i].a || got.p[i].b != want.p[i].b ||
		    got.p[i].sim != want.p[i].sim) {
			CHECK(0, "%s t=%g: pair %zu is (%u, %u) %.17g, brute "
			    "force (%u, %u) %.17g", what, t, i, got.p[i].a,
			    got.p[i].b, got.p[i].sim, want.p[i].a, want.p[i].b,
			    want.p[i].sim);
			bad++;
		}
	free(got.p);
	free(want.p);
	return want.n;
}

static const double thresholds[] = { 0.5, 0.7, 0.8, 0.9, 1.0 };
#define NT	(sizeof(thresholds) / sizeof(thresholds[0]))

/* A value from a vocabulary of 300, the first ones far more likely. */
static uint64_t
common(void)
{
	return 1 + below(1 + below(300));
}

/*
 * Bases of 0 to 40 values (a few of 150), half from the common
 * vocabulary, and variants of each: copies, and copies with up to three
 * values deleted and up to three added.
 */
static void
planted(struct tsets *s, unsigned nbase)
{
	uint64_t base[200], v[210];
	size_t nb, nv, i, k, d;
	unsigned b, c;

	for (b = 0; b < nbase; b++) {
		nb = below(8) == 0 ? 100 + below(50) : below(41);
		for (i = 0; i < nb; i++)
			base[i] = below(2) ? common() : splitmix64(&rng);
		add_set(s, base, nb);
		for (c = below(6); c > 0; c--) {
			memcpy(v, base, nb * sizeof(*v));
			nv = nb;
			for (d = below(4); d > 0 && nv > 0; d--) {
				k = below(nv);
				v[k] = v[--nv];
			}
			for (d = below(4); d > 0; d--)
				v[nv++] = below(2) ? common() :
				    splitmix64(&rng);
			add_set(s, v, nv);
		}
	}
}

static void
test_planted(void)
{
	struct tsets s = { NULL, NULL, 0 };
	size_t i, round, total = 0;

	for (round = 0; round < 4; round++) {
		planted(&s, 80);
		for (i = 0; i < NT; i++)
			total += same_as_brute(&s, thresholds[i], "planted");
		free_sets(&s);
	}
	/* The sets must have pairs to find, many of them. */
	CHECK(total > 1000, "only %zu pairs in all", total);
}

/*
 * Small sets of one vocabulary of 12: resemblances are ratios of small
 * numbers, and many land on each threshold exactly.
 */
static void
test_small_vocabulary(void)
{
	static const double more[] = { 1.0 / 3, 0.6, 2.0 / 3, 0.75, 5.0 / 6 };
	struct tsets s = { NULL, NULL, 0 };
	uint64_t v[12];
	size_t i, k, nv;

	for (i = 0; i < 400; i++) {
		nv = below(13);
		for (k = 0; k < nv; k++)
			v[k] = 1000 + below(12);
		add_set(&s, v, nv);
	}
	for (i = 0; i < NT; i++)
		same_as_brute(&s, thresholds[i], "vocabulary of 12");
	for (i = 0; i < sizeof(more) / sizeof(more[0]); i++)
		same_as_brute(&s, more[i], "vocabulary of 12");
	free_sets(&s);
}

/*
 * Every pair of sizes up to 24 and every overlap, each pair on values of
 * its own, joined at thresholds that are ratios of such numbers: a pair
 * is found if and only if shared / union >= t in doubles, at exactly t
 * too.
 */
static void
test_every_ratio(void)
{
	static const double ts[] = { 1.0 / 3, 0.5, 0.6, 2.0 / 3, 0.7, 0.75,
	    0.8, 5.0 / 6, 6.0 / 7, 0.9, 10.0 / 11, 0.95, 21.0 / 22, 1.0 };
	struct tsets s = { NULL, NULL, 0 };
	struct tpairs got = { NULL, 0, 0 };
	uint64_t a[24], b[24], next = 1;
	size_t na, nb, o, i, k, want, at;
	double sim;

	for (na = 1; na <= 24; na++)
		for (nb = na; nb <= 24; nb++)
			for (o = 0; o <= na; o++) {
				for (i = 0; i < o; i++)
					a[i] = b[i] = next++;
				for (i = o; i < na; i++)
					a[i] = next++;
				for (i = o; i < nb; i++)
					b[i] = next++;
				add_set(&s, a, na);
				add_set(&s, b, nb);
			}
	for (k = 0; k < sizeof(ts) / sizeof(ts[0]); k++) {
		got.n = 0;
		if (!CHECK(join(&s, ts[k], &got) == 0, "t=%g: join failed",
		    ts[k]))
			continue;
		qsort(got.p, got.n, sizeof(*got.p), cmppair);
		want = at = 0;
		for (i = 0; i < s.n; i += 2) {
			na = s.len[i];
			nb = s.len[i + 1];
			o = brute_shared(s.v[i], na, s.v[i + 1], nb);
			sim = (double)o / (double)(na + nb - o);
			if (sim < ts[k])
				continue;
			at += sim == ts[k];
			if (want < got.n && got.p[want].a == i &&
			    got.p[want].b == i + 1 && got.p[want].sim == sim) {
				want++;
				continue;
			}
			CHECK(0, "t=%.17g: |A| %zu |B| %zu shared %zu "
			    "(J %.17g) not found", ts[k], na, nb, o, sim);
			break;
		}
		CHECK(want == got.n, "t=%g: %zu pairs found, %zu expected",
		    ts[k], got.n, want);
		CHECK(at > 0, "t=%g: no pair exactly at t", ts[k]);
	}
	free(got.p);
	free_sets(&s);
}

/* |A| = |B| = 9 sharing 8: J = 8/10, found at t = 0.8, not above. */
static void
test_exactly_t(void)
{
	static const uint64_t a[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	static const uint64_t b[] = { 2, 3, 4, 5, 6, 7, 8, 9, 10 };
	const uint64_t *set[] = { a, b };
	size_t len[] = { 9, 9 }, need;
	struct tpairs got = { NULL, 0, 0 };

	CHECK(allpairs_join(set, len, 2, 0.8, BIG, &need, collect, &got) == 0,
	    "join failed");
	CHECK(got.n == 1 && got.p[0].a == 0 && got.p[0].b == 1 &&
	    got.p[0].sim == 0.8, "J = 0.8 at t = 0.8: %zu pairs", got.n);
	got.n = 0;
	CHECK(allpairs_join(set, len, 2, nextafter(0.8, 1), BIG, &need,
	    collect, &got) == 0 && got.n == 0, "J = 0.8 found above 0.8");
	free(got.p);
}

/*
 * Empty sets pair with each other at resemblance 1 and with nothing
 * else; one-element sets pair when equal, and with a two-element set
 * that holds them at 1/2.
 */
static void
test_empty_and_single(void)
{
	static const uint64_t five[] = { 5 }, six[] = { 6 }, both[] = { 5, 6 };
	const uint64_t *set[] = { NULL, five, NULL, six, both, five, NULL };
	size_t len[] = { 0, 1, 0, 1, 2, 1, 0 }, need;
	struct tpairs got = { NULL, 0, 0 };
	struct tsets s = { NULL, NULL, 0 };
	uint32_t i;

	CHECK(allpairs_join(set, len, 7, 0.5, BIG, &need, collect, &got) == 0,
	    "join failed");
	qsort(got.p, got.n, sizeof(*got.p), cmppair);
	/* (0,2) (0,6) (2,6) empty; (1,5) equal; (1,4) (3,4) (4,5) at 1/2. */
	if (CHECK(got.n == 7, "%zu pairs, want 7", got.n)) {
		CHECK(got.p[0].a == 0 && got.p[0].b == 2 && got.p[0].sim == 1,
		    "(0, 2) empty");
		CHECK(got.p[1].a == 0 && got.p[1].b == 6 && got.p[1].sim == 1,
		    "(0, 6) empty");
		CHECK(got.p[2].a == 1 && got.p[2].b == 4 &&
		    got.p[2].sim == 0.5, "(1, 4) at 1/2");
		CHECK(got.p[3].a == 1 && got.p[3].b == 5 && got.p[3].sim == 1,
		    "(1, 5) equal");
		CHECK(got.p[6].a == 4 && got.p[6].b == 5 &&
		    got.p[6].sim == 0.5, "(4, 5) at 1/2");
	}
	free(got.p);
	for (i = 0; i < 7; i++)
		add_set(&s, set[i], len[i]);
	for (i = 0; i < NT; i++)
		same_as_brute(&s, thresholds[i], "empty and single");
	free_sets(&s);
}

/* No sets, one set (empty or not): nothing to hand over, and no error. */
static void
test_none_and_one(void)
{
	static const uint64_t a[] = { 1, 2, 3 };
	const uint64_t *set[] = { a };
	size_t len[] = { 3 }, need = 99;
	struct tpairs got = { NULL, 0, 0 };

	CHECK(allpairs_join(NULL, NULL, 0, 0.5, BIG, &need, collect, &got) ==
	    0 && got.n == 0, "n = 0: %zu pairs", got.n);
	CHECK(need == 0, "n = 0 needs %zu bytes", need);
	CHECK(allpairs_join(set, len, 1, 0.5, BIG, &need, collect, &got) ==
	    0 && got.n == 0, "n = 1: %zu pairs", got.n);
	len[0] = 0;
	CHECK(allpairs_join(set, len, 1, 1.0, BIG, &need, collect, &got) ==
	    0 && got.n == 0, "n = 1, empty: %zu pairs", got.n);
	free(got.p);
}

/* Each pair of a copy counts once in seen[a * n + b]. */
struct copies {
	unsigned char *seen;
	uint32_t n;
	size_t	 pairs, bad;
};

static void
count_copy(void *ctx, uint32_t a, uint32_t b, double sim)
{
	struct copies *c = ctx;

	if (a >= b || b >= c->n || sim != 1.0 ||
	    c->seen[(size_t)a * c->n + b]++ != 0)
		c->bad++;
	c->pairs++;
}

/*
 * Two thousand copies of one set of 300: every pair of them at 1, once,
 * in well under a second; then with near copies among them, as brute
 * force has it.
 */
static void
test_copies(void)
{
	struct tsets s = { NULL, NULL, 0 };
	struct copies c;
	uint64_t v[300], w[31];
	size_t need, i;
	uint32_t k;
	clock_t t0;
	double secs;

	for (i = 0; i < 300; i++)
		v[i] = splitmix64(&rng);
	for (k = 0; k < 2000; k++)
		add_set(&s, v, 300);
	c.n = s.n;
	c.pairs = c.bad = 0;
	if ((c.seen = calloc((size_t)c.n * c.n, 1)) == NULL)
		abort();
	t0 = clock();
	CHECK(allpairs_join((const uint64_t *const *)s.v, s.len, s.n, 0.9,
	    BIG, &need, count_copy, &c) == 0, "join failed");
	secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
	CHECK(c.pairs == (size_t)2000 * 1999 / 2 && c.bad == 0,
	    "%zu pairs, %zu of them wrong or twice", c.pairs, c.bad);
	CHECK(secs < 1.0 * unit_time_scale(), "2000 copies took %.2f s",
	    secs);
	/* Copies are sorted once: a tenth of what 2000 sets would take. */
	CHECK(need < (size_t)24 * 2000 * 300 / 10, "2000 copies of 300 "
	    "need %zu bytes", need);
	free(c.seen);
	free_sets(&s);

	/*
	 * 200 copies of 30 values, and near copies: one value replaced (J
	 * 29/31 with them), that and one more (29/32), one value deleted
	 * (29/30).
	 */
	for (k = 0; k < 200; k++)
		add_set(&s, v, 30);
	for (i = 0; i < 30; i++) {
		memcpy(w, v, 30 * sizeof(*w));
		w[i] = splitmix64(&rng);
		add_set(&s, w, 30);
		w[30] = splitmix64(&rng);
		add_set(&s, w, 31);
		memcpy(w, v, 30 * sizeof(*w));
		w[i] = w[29];
		add_set(&s, w, 29);
	}
	for (i = 0; i < NT; i++)
		same_as_brute(&s, thresholds[i], "copies");
	free_sets(&s);
}

/*
 * Sets of very different sizes: the first m of one sorted set of 2000
 * (each in the larger ones), and random subsets of it, at thresholds low
 * enough for sizes far apart to pair.
 */
static void
test_sizes(void)
{
	static const double ts[] = { 0.01, 0.05, 0.3, 0.5, 0.8 };
	static const size_t sizes[] = { 1, 2, 3, 10, 20, 50, 100, 101, 500,
	    1000, 1999, 2000 };
	struct tsets s = { NULL, NULL, 0 };
	uint64_t *v, *w;
	size_t i, k, m, nw;

	if ((v = malloc(2000 * sizeof(*v))) == NULL ||
	    (w = malloc(2000 * sizeof(*w))) == NULL)
		abort();
	for (i = 0; i < 2000; i++)
		v[i] = 10 * i + 1;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		add_set(&s, v, sizes[i]);
	for (i = 0; i < 40; i++) {
		m = 1 + below(2000);
		for (k = nw = 0; k < m; k++)
			if (below(4) != 0)
				w[nw++] = v[k];
		add_set(&s, w, nw);
	}
	for (i = 0; i < sizeof(ts) / sizeof(ts[0]); i++)
		same_as_brute(&s, ts[i], "sizes");
	free_sets(&s);
	free(v);
	free(w);
}

/*
 * A limit one byte below the figure is refused before anything is handed
 * over, with the figure in *need; the figure itself is enough.
 */
static void
test_maxmem(void)
{
	struct tsets s = { NULL, NULL, 0 };
	struct tpairs got = { NULL, 0, 0 };
	const uint64_t *const *set;
	size_t need, need2;
	int rc;

	planted(&s, 50);
	set = (const uint64_t *const *)s.v;
	CHECK(allpairs_join(set, s.len, s.n, 0.5, BIG, &need, collect, &got) ==
	    0, "join failed");
	CHECK(got.n > 0, "no pairs");
	got.n = 0;
	errno = 0;
	rc = allpairs_join(set, s.len, s.n, 0.5, need - 1, &need2, collect,
	    &got);
	CHECK(rc == -1 && errno == ENOMEM, "limit %zu - 1: rc %d, %s", need,
	    rc, strerror(errno));
	CHECK(need2 == need, "refused needing %zu, not %zu", need2, need);
	CHECK(got.n == 0, "refused, but %zu pairs handed over", got.n);
	errno = 0;
	rc = allpairs_join(set, s.len, s.n, 0.5, 0, &need2, collect, &got);
	CHECK(rc == -1 && errno == ENOMEM && need2 > 0 && got.n == 0,
	    "limit 0: rc %d, need %zu, %zu pairs", rc, need2, got.n);
	CHECK(allpairs_join(set, s.len, s.n, 0.5, need, &need2, collect,
	    &got) == 0 && got.n > 0, "the limit at the figure refused");
	free(got.p);
	free_sets(&s);
}

/* t out of (0, 1] and sets out of order are refused with EINVAL. */
static void
test_invalid(void)
{
	static const uint64_t ok[] = { 1, 2, 3 }, down[] = { 1, 3, 2 },
	    twice[] = { 1, 2, 2 };
	const uint64_t *set[] = { ok, down };
	size_t len[] = { 3, 3 }, need;
	struct tpairs got = { NULL, 0, 0 };
	static const double bad[] = { 0, -0.5, 1.0000001, 2 };
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		CHECK(allpairs_join(set, len, 1, bad[i], BIG, &need, collect,
		    &got) == -1 && errno == EINVAL, "t = %g accepted", bad[i]);
	}
	errno = 0;
	CHECK(allpairs_join(set, len, 1, NAN, BIG, &need, collect, &got) ==
	    -1 && errno == EINVAL, "t = NaN accepted");
	errno = 0;
	CHECK(allpairs_join(set, len, 2, 0.5, BIG, &need, collect, &got) ==
	    -1 && errno == EINVAL, "a set out of order accepted");
	set[1] = twice;
	errno = 0;
	CHECK(allpairs_join(set, len, 2, 0.5, BIG, &need, collect, &got) ==
	    -1 && errno == EINVAL, "a value twice in a set accepted");
	CHECK(got.n == 0, "%zu pairs handed over", got.n);
	free(got.p);
}

int
main(void)
{
	RUN(test_exactly_t);
	RUN(test_every_ratio);
	RUN(test_small_vocabulary);
	RUN(test_planted);
	RUN(test_empty_and_single);
	RUN(test_none_and_one);
	RUN(test_copies);
	RUN(test_sizes);
	RUN(test_maxmem);
	RUN(test_invalid);
	return unit_status();
}
