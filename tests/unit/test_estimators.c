/*
 * Unit tests of the sketches (src/sketch/sketch.c and the simhash, minhash, oph,
 * bottomk and key algorithms under it) on synthetic sets of known Jaccard
 * similarity: the estimates must be unbiased and about as precise as
 * theory says, keys must match with probability about J^n, and simhash
 * distance must grow with the fraction of elements changed.
 *
 * The sets are random 64-bit values standing for shingle hashes.  Every
 * trial draws new sets (and uses a new sketch seed), so trials are
 * independent; the generator is a fixed-seed splitmix64, so the test is
 * deterministic.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bottomk.h"
#include "cpu.h"
#include "minhash.h"
#include "scheme.h"
#include "simhash.h"
#include "sketch.h"
#include "unit.h"

#define UNION	2000	/* |A u B| */
#define K	128
#define TRIALS	50

static const double jaccards[] = { 0.1, 0.3, 0.5, 0.7, 0.9, 0.95 };
#define NJ (sizeof(jaccards) / sizeof(jaccards[0]))

static struct scheme
mkscheme(enum algo algo, unsigned size, uint64_t seed)
{
	struct scheme sc;

	memset(&sc, 0, sizeof(sc));
	sc.algo = algo;
	sc.size = size;
	sc.ngram = 3;
	sc.seed = seed;
	return sc;
}

/*
 * Two sets with |A n B| = shared, |A \ B| = aonly, |B \ A| = bonly: the
 * shared values first in both, then each set's own.
 */
struct pair {
	uint64_t a[2 * UNION], b[2 * UNION];
	size_t	 na, nb;
};

static void
make_pair(struct pair *p, size_t shared, size_t aonly, size_t bonly,
    uint64_t *x)
{
	size_t i;

	p->na = p->nb = 0;
	for (i = 0; i < shared; i++)
		p->a[p->na++] = p->b[p->nb++] = splitmix64(x);
	for (i = 0; i < aonly; i++)
		p->a[p->na++] = splitmix64(x);
	for (i = 0; i < bonly; i++)
		p->b[p->nb++] = splitmix64(x);
}

/* Sets of |A u B| = UNION and Jaccard j, as exactly as integers allow. */
static double
make_jaccard(struct pair *p, double j, uint64_t *x)
{
	size_t shared = (size_t)lround(j * UNION), rest = UNION - shared;

	make_pair(p, shared, rest / 2, rest - rest / 2, x);
	return (double)shared / UNION;
}

/*
 * The fingerprint values of a set under a scheme, through
 * sketch_init / sketch_add / sketch_final, added in uneven batches.
 */
static void
sketch_of(const struct scheme *sc, const uint64_t *v, size_t n,
    uint64_t *out)
{
	struct sketch sk;
	const uint64_t *r;
	size_t off, m;

	sketch_init(&sk, sc);
	for (off = 0, m = 1; off < n; off += m, m = m * 3 % 1031 + 1) {
		if (m > n - off)
			m = n - off;
		sketch_add(&sk, v + off, NULL, m);
	}
	r = sketch_final(&sk);
	memcpy(out, r, sk.nv * sizeof(*out));
	sketch_free(&sk);
}

static double
estimate(enum algo algo, const uint64_t *a, const uint64_t *b)
{
	if (algo == ALGO_BOTTOMK)
		return bottomk_jaccard(a, b, K);
	return minhash_jaccard(a, b, K);
}

/*
 * For each J, over TRIALS independent trials at k = 128:
 *  - mean absolute error <= 3 sigma, sigma = sqrt(J(1-J)/k) the standard
 *    deviation of k independent matches (the k-hash MinHash estimate is
 *    binomial; OPH and bottom-k sample without replacement and are at
 *    most as spread).  An unbiased estimate has E|err| ~ 0.8 sigma, so 3
 *    sigma fails only when the estimator is badly off, never by chance;
 *  - |mean - J| <= 4 sigma / sqrt(TRIALS): the mean of TRIALS independent
 *    estimates has standard deviation sigma / sqrt(TRIALS), so an unbiased
 *    estimator lands outside 4 of them with probability 6e-5, while a bias
 *    of a couple of percent (e.g. 0.02 at J = 0.5, about 4.5 of them) is
 *    caught.
 */
static void
check_estimator(enum algo algo, uint64_t stream)
{
	static struct pair p;
	uint64_t x = stream, va[K], vb[K];
	struct scheme sc;
	double j, sigma, est, sum, abssum, mean, mae;
	size_t ji, t;

	for (ji = 0; ji < NJ; ji++) {
		sum = abssum = 0;
		j = jaccards[ji];
		for (t = 0; t < TRIALS; t++) {
			j = make_jaccard(&p, jaccards[ji], &x);
			sc = mkscheme(algo, K, t + 1);
			sketch_of(&sc, p.a, p.na, va);
			sketch_of(&sc, p.b, p.nb, vb);
			est = estimate(algo, va, vb);
			sum += est;
			abssum += fabs(est - j);
		}
		sigma = sqrt(j * (1 - j) / K);
		mean = sum / TRIALS;
		mae = abssum / TRIALS;
		CHECK(mae <= 3 * sigma, "%s J=%.2f: mean absolute error "
		    "%.4f > 3 sigma = %.4f", scheme_algo_name(algo), j, mae,
		    3 * sigma);
		CHECK(fabs(mean - j) <= 4 * sigma / sqrt(TRIALS), "%s "
		    "J=%.2f: mean estimate %.4f, bias %.4f > %.4f",
		    scheme_algo_name(algo), j, mean, mean - j,
		    4 * sigma / sqrt(TRIALS));
	}
}

static void
test_minhash_jaccard(void)
{
	check_estimator(ALGO_MINHASH, 1);
}

static void
test_oph_jaccard(void)
{
	check_estimator(ALGO_OPH, 2);
}

static void
test_bottomk_jaccard(void)
{
	check_estimator(ALGO_BOTTOMK, 3);
}

/* Identical sets give 1 and disjoint ones 0 under every estimator. */
static void
test_extremes(void)
{
	static const enum algo algos[] = {
		ALGO_MINHASH, ALGO_OPH, ALGO_BOTTOMK,
	};
	static struct pair p;
	uint64_t x = 4, va[K], vb[K];
	struct scheme sc;
	size_t i;
	double e;

	for (i = 0; i < 3; i++) {
		sc = mkscheme(algos[i], K, 9);
		make_pair(&p, UNION, 0, 0, &x);
		sketch_of(&sc, p.a, p.na, va);
		sketch_of(&sc, p.b, p.nb, vb);
		e = estimate(algos[i], va, vb);
		CHECK(e == 1.0, "%s: identical sets estimate %g",
		    scheme_algo_name(algos[i]), e);
		make_pair(&p, 0, UNION / 2, UNION / 2, &x);
		sketch_of(&sc, p.a, p.na, va);
		sketch_of(&sc, p.b, p.nb, vb);
		e = estimate(algos[i], va, vb);
		CHECK(e == 0.0, "%s: disjoint sets estimate %g",
		    scheme_algo_name(algos[i]), e);
	}
}

/* A union smaller than k: a bottom-k sketch holds it all, and is exact. */
static void
test_bottomk_small_exact(void)
{
	static struct pair p;
	uint64_t x = 5, va[K], vb[K];
	struct scheme sc = mkscheme(ALGO_BOTTOMK, K, 0);
	double e;

	make_pair(&p, 30, 35, 35, &x);
	sketch_of(&sc, p.a, p.na, va);
	sketch_of(&sc, p.b, p.nb, vb);
	e = bottomk_jaccard(va, vb, K);
	CHECK(fabs(e - 0.3) < 1e-12, "union of 100 < k: estimate %g, "
	    "exact 0.3", e);
	e = bottomk_containment(va, vb, K);
	CHECK(fabs(e - 30.0 / 65) < 1e-12, "union of 100 < k: containment "
	    "%g, exact %g", e, 30.0 / 65);
}

/*
 * Containment of A in B.  With A in B it is 1 in every trial (every value
 * of A below B's k-th smallest is in B's sketch).  With |A| = 1000, of
 * which 500 in B, |B| = 2000, the estimate is a proportion among the
 * about k |A| / |B| = 64 values of A below B's k-th smallest, so its
 * standard deviation is about sqrt(.25 / 64) = 0.0625 and that of the
 * mean of TRIALS trials 0.0088: 4 of those is 0.035.  The other way, B in
 * A is 500 / 2000 = 0.25 from about 2000 k / 1000 = 256 values: standard
 * deviation sqrt(.25 * .75 / 256) = 0.027, of the mean 0.0038, allowed
 * 4 of those, 0.015.
 */
static void
test_bottomk_containment(void)
{
	static struct pair p;
	uint64_t x = 6, va[K], vb[K];
	struct scheme sc;
	double e, sum_ab = 0, sum_ba = 0;
	size_t t, ones = 0;

	for (t = 0; t < TRIALS; t++) {
		sc = mkscheme(ALGO_BOTTOMK, K, t);
		make_pair(&p, 1000, 0, 1000, &x);
		sketch_of(&sc, p.a, p.na, va);
		sketch_of(&sc, p.b, p.nb, vb);
		e = bottomk_containment(va, vb, K);
		ones += e == 1.0;
		make_pair(&p, 500, 500, 1500, &x);
		sketch_of(&sc, p.a, p.na, va);
		sketch_of(&sc, p.b, p.nb, vb);
		sum_ab += bottomk_containment(va, vb, K);
		sum_ba += bottomk_containment(vb, va, K);
	}
	CHECK(ones == TRIALS, "A in B: containment 1 in only %zu of %d "
	    "trials", ones, TRIALS);
	CHECK(fabs(sum_ab / TRIALS - 0.5) <= 0.035, "containment 0.5: mean "
	    "estimate %.4f", sum_ab / TRIALS);
	CHECK(fabs(sum_ba / TRIALS - 0.25) <= 0.015, "containment 0.25: mean "
	    "estimate %.4f", sum_ba / TRIALS);
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The key is the XOR of the n smallest hashes: the same for the same set
 * whatever the order and repetitions, and as computed by hand.
 */
static void
test_key_identical(void)
{
	static uint64_t v[3 * UNION], w[3 * UNION];
	uint64_t x = 7, ka, kb, want;
	struct scheme sc;
	size_t i, t, n;

	for (t = 0; t < 20; t++) {
		n = 1 + (size_t)(splitmix64(&x) % UNION);
		for (i = 0; i < n; i++)
			v[i] = splitmix64(&x);
		/* w: v reversed, then v again (repetitions). */
		for (i = 0; i < n; i++)
			w[i] = w[2 * n - 1 - i] = v[n - 1 - i];
		sc = mkscheme(ALGO_KEY, 3, t);
		sketch_of(&sc, v, n, &ka);
		sketch_of(&sc, w, 2 * n, &kb);
		CHECK(ka == kb, "key of %zu values: %016llx, reordered and "
		    "repeated %016llx", n, (unsigned long long)ka,
		    (unsigned long long)kb);
		qsort(v, n, sizeof(v[0]), cmp_u64);
		want = v[0] ^ (n > 1 ? v[1] : 0) ^ (n > 2 ? v[2] : 0);
		CHECK(ka == want, "key of %zu values is not the XOR of the 3 "
		    "smallest", n);
	}
}

/*
 * Two keys (n = 3) match when the 3 smallest of the union are all shared:
 * probability C(I,3) / C(U,3) for I shared of U, which is J^3 to within
 * 0.0015 here.  Over T = 1000 trials the match rate has standard deviation
 * sqrt(p(1-p)/T); allowed: 4 of those plus 1/T, plus the distance from the
 * exact probability to J^3.
 */
static void
test_key_match_rate(void)
{
	static struct pair p;
	uint64_t x = 8, ka, kb;
	struct scheme sc;
	double j, pex, rate, tol, shared;
	size_t ji, t, match, trials = 1000;

	for (ji = 0; ji < NJ; ji++) {
		match = 0;
		for (t = 0; t < trials; t++) {
			j = make_jaccard(&p, jaccards[ji], &x);
			sc = mkscheme(ALGO_KEY, 3, t);
			sketch_of(&sc, p.a, p.na, &ka);
			sketch_of(&sc, p.b, p.nb, &kb);
			match += ka == kb;
		}
		j = jaccards[ji];
		shared = (double)lround(j * UNION);
		pex = shared * (shared - 1) * (shared - 2) /
		    ((double)UNION * (UNION - 1) * (UNION - 2));
		rate = (double)match / (double)trials;
		tol = 4 * sqrt(pex * (1 - pex) / (double)trials) +
		    1.0 / (double)trials + fabs(pex - j * j * j);
		CHECK(fabs(rate - j * j * j) <= tol, "key n=3 J=%.2f: match "
		    "rate %.4f, J^3 = %.4f (exact %.4f), tolerance %.4f", j,
		    rate, j * j * j, pex, tol);
	}
}

/*
 * Simhash: a set and a copy with a fraction x of its elements replaced.
 * The mean Hamming distance over the trials is 0 for x = 0 (every trial),
 * grows strictly with x, and for x = 1 (unrelated sets) is half the bits
 * (each bit is an independent fair coin: standard deviation of the mean
 * sqrt(bits/4/TRIALS), 0.57 for 64 bits; allowed 3 bits, 4 for 128).
 */
static void
check_simhash(unsigned bits)
{
	static const double frac[] = { 0, 0.05, 0.1, 0.2, 0.4, 0.7, 1.0 };
	static struct pair p;
	uint64_t x = bits, va[2], vb[2];
	struct scheme sc;
	double mean[sizeof(frac) / sizeof(frac[0])];
	size_t fi, t, nrep, zero_nonzero = 0;
	unsigned d;

	for (fi = 0; fi < sizeof(frac) / sizeof(frac[0]); fi++) {
		mean[fi] = 0;
		nrep = (size_t)lround(frac[fi] * UNION);
		for (t = 0; t < TRIALS; t++) {
			make_pair(&p, UNION - nrep, nrep, nrep, &x);
			sc = mkscheme(ALGO_SIMHASH, bits, t);
			sketch_of(&sc, p.a, p.na, va);
			sketch_of(&sc, p.b, p.nb, vb);
			d = simhash_distance(va, vb, bits / 64);
			mean[fi] += d;
			if (nrep == 0 && d != 0)
				zero_nonzero++;
		}
		mean[fi] /= TRIALS;
	}
	CHECK(zero_nonzero == 0, "simhash%u: identical sets at distance > 0 "
	    "in %zu trials", bits, zero_nonzero);
	for (fi = 1; fi < sizeof(frac) / sizeof(frac[0]); fi++)
		CHECK(mean[fi] > mean[fi - 1], "simhash%u: mean distance %.2f "
		    "at %.0f%% replaced, %.2f at %.0f%%", bits, mean[fi],
		    100 * frac[fi], mean[fi - 1], 100 * frac[fi - 1]);
	CHECK(fabs(mean[fi - 1] - bits / 2.0) <= (bits == 64 ? 3 : 4),
	    "simhash%u: unrelated sets at mean distance %.2f", bits,
	    mean[fi - 1]);
}

static void
test_simhash64_distance(void)
{
	check_simhash(64);
}

static void
test_simhash128_distance(void)
{
	check_simhash(128);
}

/* The values of the sketch of no shingles at all, as documented. */
static void
check_empty(const struct scheme *sc, const uint64_t *v)
{
	size_t i, nv = scheme_nvalues(sc), bad = 0;
	uint64_t want;

	switch (sc->algo) {
	case ALGO_SIMHASH:
	case ALGO_KEY:
		want = 0;
		break;
	case ALGO_MINHASH:
	case ALGO_OPH:
		want = 0xffffffff;
		break;
	default:
		want = UINT64_MAX;
	}
	for (i = 0; i < nv; i++)
		bad += v[i] != want;
	CHECK(bad == 0, "empty %s%u: %zu of %zu values are not %llx",
	    scheme_algo_name(sc->algo), sc->size, bad, nv,
	    (unsigned long long)want);
}

static const struct {
	enum algo algo;
	unsigned size;
} all_schemes[] = {
	{ ALGO_SIMHASH, 64 }, { ALGO_SIMHASH, 128 }, { ALGO_MINHASH, 128 },
	{ ALGO_MINHASH, 1 }, { ALGO_OPH, 128 }, { ALGO_OPH, 4096 },
	{ ALGO_BOTTOMK, 128 }, { ALGO_KEY, 3 },
};
#define NSCHEMES (sizeof(all_schemes) / sizeof(all_schemes[0]))

/*
 * An empty document, a sketch fed zero-length batches, and a sketch reset
 * after a document all give the empty values.
 */
static void
test_empty(void)
{
	static uint64_t v[UNION];
	struct sketch sk;
	struct scheme sc;
	uint64_t x = 10;
	size_t i;

	for (i = 0; i < UNION; i++)
		v[i] = splitmix64(&x);
	for (i = 0; i < NSCHEMES; i++) {
		sc = mkscheme(all_schemes[i].algo, all_schemes[i].size, 3);
		sketch_init(&sk, &sc);
		CHECK(sk.nv == scheme_nvalues(&sc), "%s%u: %zu values, want "
		    "%zu", scheme_algo_name(sc.algo), sc.size, sk.nv,
		    scheme_nvalues(&sc));
		check_empty(&sc, sketch_final(&sk));
		sketch_reset(&sk);
		sketch_add(&sk, v, NULL, 0);
		check_empty(&sc, sketch_final(&sk));
		sketch_reset(&sk);
		sketch_add(&sk, v, NULL, UNION);
		sketch_final(&sk);
		sketch_reset(&sk);
		check_empty(&sc, sketch_final(&sk));
		sketch_free(&sk);
	}
}

/*
 * A sketch is a function of the set: the same after sketch_reset, in any
 * order, with repetitions (except simhash, which counts them).
 */
static void
test_reset_and_order(void)
{
	static uint64_t v[UNION], w[2 * UNION], first[SCHEME_K_MAX],
	    again[SCHEME_K_MAX], other[SCHEME_K_MAX];
	const uint64_t *r;
	struct sketch sk;
	struct scheme sc;
	uint64_t x = 11;
	size_t i, nv, n = UNION, nw;

	for (i = 0; i < n; i++)
		v[i] = splitmix64(&x);
	for (i = 0; i < NSCHEMES; i++) {
		sc = mkscheme(all_schemes[i].algo, all_schemes[i].size, 17);
		nv = scheme_nvalues(&sc);
		sketch_init(&sk, &sc);
		sketch_add(&sk, v, NULL, n);
		memcpy(first, sketch_final(&sk), nv * sizeof(first[0]));
		sketch_reset(&sk);
		sketch_add(&sk, v + n / 2, NULL, n - n / 2);
		sketch_add(&sk, v, NULL, n / 2);
		r = sketch_final(&sk);
		memcpy(again, r, nv * sizeof(again[0]));
		CHECK(memcmp(first, again, nv * sizeof(first[0])) == 0,
		    "%s%u: reset and reordered, a different sketch",
		    scheme_algo_name(sc.algo), sc.size);
		sketch_free(&sk);
		if (sc.algo == ALGO_SIMHASH)
			continue;
		/* Each value twice, reversed. */
		for (i = 0, nw = 0; i < n; i++) {
			w[nw++] = v[n - 1 - i];
			w[nw++] = v[n - 1 - i];
		}
		sketch_of(&sc, w, nw, other);
		CHECK(memcmp(first, other, nv * sizeof(first[0])) == 0,
		    "%s%u: repeated values change the sketch",
		    scheme_algo_name(sc.algo), sc.size);
	}
}

/*
 * OPH densification: with far fewer shingles than bins, every bin ends
 * with a value of the set (none is left empty), and the same set gives
 * the same signature.
 */
static void
test_oph_densify(void)
{
	uint64_t v[5], x = 12, a[K], b[K];
	struct scheme sc = mkscheme(ALGO_OPH, K, 21);
	size_t i, j, foreign = 0;

	for (i = 0; i < 5; i++)
		v[i] = splitmix64(&x);
	sketch_of(&sc, v, 5, a);
	sketch_of(&sc, v, 5, b);
	for (i = 0; i < K; i++) {
		for (j = 0; j < 5; j++)
			if (a[i] == (uint32_t)v[j])
				break;
		foreign += j == 5;
	}
	CHECK(foreign == 0, "oph of 5 values: %zu of %d bins hold no value of "
	    "the set", foreign, K);
	CHECK(memcmp(a, b, sizeof(a)) == 0, "oph of 5 values: not "
	    "deterministic");
}

/*
 * oph's bins as one value at a time gives them (the <= that also marks a
 * bin filled), whatever the batches: add_oph passes over groups of values
 * that are all above every minimum, and must miss none of the others.
 * Values are random, then a document's worth drawn low so that late ones
 * still lower minima, with batches of every size around the 64 below
 * which no group is passed over.
 */
static void
test_oph_batches(void)
{
	static const unsigned ks[] = { 16, 128, 200 };
	static const size_t batch[] = { 1, 31, 63, 64, 65, 100, 1000, 5000 };
	struct minhash m;
	uint32_t mins[200];
	unsigned char filled[200];
	uint64_t x = 99, *h = malloc(20000 * sizeof(*h));
	size_t i, j, b, n;
	unsigned t, bin, ki, bad = 0;
	uint32_t v;

	if (!CHECK(h != NULL, "malloc"))
		return;
	for (t = 0; t < 40; t++) {
		ki = t % 3;
		minhash_init(&m, ks[ki], 1, t);
		memset(mins, 0xff, sizeof(mins));
		memset(filled, 0, sizeof(filled));
		n = splitmix64(&x) % 20000;
		for (i = 0; i < n; i++) {
			h[i] = splitmix64(&x);
			/* Now and then a value low enough to be a new minimum
			   late in the document, or the empty one. */
			if (i % 97 == 0)
				h[i] &= 0xffffffff0000ffffULL;
			if (i % 1001 == 0)
				h[i] |= 0xffffffffULL;
		}
		for (i = 0; i < n; i++) {
			bin = (unsigned)(((h[i] >> 32) * ks[ki]) >> 32);
			v = (uint32_t)h[i];
			if (v <= mins[bin]) {
				mins[bin] = v;
				filled[bin] = 1;
			}
		}
		b = batch[t % (sizeof(batch) / sizeof(batch[0]))];
		for (i = 0; i < n; i += j) {
			j = n - i < b ? n - i : b;
			minhash_add(&m, h + i, j);
		}
		if (memcmp(m.mins, mins, ks[ki] * sizeof(*mins)) != 0 ||
		    memcmp(m.filled, filled, ks[ki]) != 0)
			bad++;
		minhash_free(&m);
	}
	CHECK(bad == 0, "%u of 40 documents differ from one value at a time",
	    bad);
	free(h);
}

/*
 * The k-hash minima of distinct shingles are the same with
 * minhash_add_distinct, which skips the lookup of shingles met lately, as
 * with minhash_add: for k of one, two and three groups of lanes and a
 * ragged one, on every path the processor has, and on the portable one.
 */
static void
test_khash_distinct(void)
{
	static const unsigned ks[] = { 8, 24, 16, 128, 13 };
	struct minhash a, b;
	uint64_t x = 7, h[700];
	unsigned t, path, bad = 0;
	size_t i, n;

	for (path = 0; path < 2; path++) {
		if (path == 1)
			cpu_disable(CPU_AVX512F | CPU_AVX2);
		for (t = 0; t < 30; t++) {
			minhash_init(&a, ks[t % 5], 0, t);
			minhash_init(&b, ks[t % 5], 0, t);
			n = 1 + splitmix64(&x) % 700;
			for (i = 0; i < n; i++)
				h[i] = splitmix64(&x) * 2 + i * 0x100000001ULL;
			minhash_add(&a, h, n);
			minhash_add_distinct(&b, h, n);
			if (memcmp(a.mins, b.mins, a.k * sizeof(*a.mins)) != 0)
				bad++;
			minhash_free(&a);
			minhash_free(&b);
		}
	}
	CHECK(bad == 0, "%u of 60 documents differ", bad);
}

int
main(void)
{
	RUN(test_minhash_jaccard);
	RUN(test_oph_jaccard);
	RUN(test_bottomk_jaccard);
	RUN(test_extremes);
	RUN(test_bottomk_small_exact);
	RUN(test_bottomk_containment);
	RUN(test_key_identical);
	RUN(test_key_match_rate);
	RUN(test_simhash64_distance);
	RUN(test_simhash128_distance);
	RUN(test_empty);
	RUN(test_reset_and_order);
	RUN(test_oph_densify);
	RUN(test_oph_batches);
	RUN(test_khash_distinct);
	return unit_status();
}
