/*
 * Unit tests of the LSH banding of src/join/lsh.c: the S-curve P(s) = 1 - (1 -
 * s^r)^b, the choice of bands and rows for a threshold (the recall bar at
 * t + 0.1, few candidates at t - 0.2, the least cost among the pairs that
 * meet the bar), RiskIQ's pickBands rule against its published table, and
 * band keys: equal bands give equal keys, a change shows in its own band
 * only, and the band index and the seed are part of the key.  Last, the
 * whole mechanism on random signatures: pairs whose rows agree with
 * probability s become candidates about P(s) of the time.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "lsh.h"
#include "unit.h"

#define K	128

static const double thresholds[] = { 0.5, 0.6, 0.7, 0.8, 0.9 };
#define NT (sizeof(thresholds) / sizeof(thresholds[0]))

static uint64_t rng = 0x6C73682D74657374ULL;

/* 1 - (1 - s^r)^b, written out independently of lsh.c. */
static double
prob(unsigned b, unsigned r, double s)
{
	double band = 1, miss = 1;
	unsigned i;

	for (i = 0; i < r; i++)
		band *= s;
	for (i = 0; i < b; i++)
		miss *= 1 - band;
	return 1 - miss;
}

/*
 * The cost lsh_choose minimizes, integrated here by the trapezoid rule
 * (to within about 1e-5 of lsh.c's Simpson sums): fpw times the area under P below t plus fnw times the
 * area above P over t.
 */
static double
cost(unsigned b, unsigned r, double t, double fpw, double fnw)
{
	const int n = 1000;
	double fp = 0, fn = 0, h, x, y;
	int i;

	h = t / n;
	for (i = 0; i <= n; i++) {
		x = i * h;
		y = 1 - pow(1 - pow(x, r), b);
		fp += (i == 0 || i == n ? 0.5 : 1) * y;
	}
	h = (1 - t) / n;
	for (i = 0; i <= n; i++) {
		x = t + i * h;
		y = pow(1 - pow(x, r), b);
		fn += (i == 0 || i == n ? 0.5 : 1) * y;
	}
	return fpw * fp * t / n + fnw * fn * (1 - t) / n;
}

static void
test_prob_formula(void)
{
	static const unsigned br[][2] = { { 1, 1 }, { 1, 128 }, { 128, 1 },
	    { 20, 5 }, { 14, 9 }, { 8, 16 }, { 32, 4 } };
	struct lsh l;
	double s, want, got;
	size_t i;
	int j;

	for (i = 0; i < sizeof(br) / sizeof(br[0]); i++) {
		l.b = br[i][0];
		l.r = br[i][1];
		for (j = 0; j <= 100; j++) {
			s = j / 100.0;
			want = 1 - pow(1 - pow(s, l.r), l.b);
			got = lsh_prob(&l, s);
			CHECK(fabs(got - want) < 1e-12, "P(%g) with %ux%u: "
			    "%.15g, want %.15g", s, l.b, l.r, got, want);
			CHECK(fabs(got - prob(l.b, l.r, s)) < 1e-9,
			    "P(%g) with %ux%u: %.15g, by products %.15g", s,
			    l.b, l.r, got, prob(l.b, l.r, s));
		}
		CHECK(lsh_prob(&l, 0) == 0, "P(0) with %ux%u: %g", l.b, l.r,
		    lsh_prob(&l, 0));
		CHECK(lsh_prob(&l, 1) == 1, "P(1) with %ux%u: %g", l.b, l.r,
		    lsh_prob(&l, 1));
	}
	/* One band of one row: a candidate exactly when that row agrees. */
	l.b = l.r = 1;
	CHECK(fabs(lsh_prob(&l, 0.37) - 0.37) < 1e-12, "P(0.37) with 1x1: %g",
	    lsh_prob(&l, 0.37));
}

/*
 * At k = 128 for each t: b r <= k, P(t + 0.1) >= LSH_RECALL, P(t - 0.2)
 * below one half (the curve is steep near t, not a flat yes), and no pair
 * (b, r) that meets the bar costs less than the one chosen.
 */
static void
test_choose(void)
{
	struct lsh l;
	double t, c, cb, hi;
	unsigned b, r;
	size_t i;

	for (i = 0; i < NT; i++) {
		t = thresholds[i];
		lsh_choose(&l, t, K, K, LSH_FPW, LSH_FNW);
		if (!CHECK(l.b >= 1 && l.r >= 1 && l.b * l.r <= K,
		    "t %.1f: %u x %u for k = %u", t, l.b, l.r, K))
			continue;
		hi = t + 0.1 < 1 ? t + 0.1 : 1;
		CHECK(lsh_prob(&l, hi) >= LSH_RECALL, "t %.1f: %u x %u: "
		    "P(%.1f) = %.4f < %g", t, l.b, l.r, hi, lsh_prob(&l, hi),
		    LSH_RECALL);
		CHECK(lsh_prob(&l, t - 0.2) < 0.5, "t %.1f: %u x %u: "
		    "P(%.1f) = %.4f, not small", t, l.b, l.r, t - 0.2,
		    lsh_prob(&l, t - 0.2));
		/* The curve rises through t: above it more than below. */
		CHECK(lsh_prob(&l, t) > lsh_prob(&l, t - 0.2) + 0.3,
		    "t %.1f: %u x %u: P(t) %.3f, P(t - 0.2) %.3f", t, l.b, l.r,
		    lsh_prob(&l, t), lsh_prob(&l, t - 0.2));

		cb = cost(l.b, l.r, t, LSH_FPW, LSH_FNW);
		for (b = 1; b <= K; b++) {
			for (r = 1; b * r <= K; r++) {
				if (prob(b, r, hi) < LSH_RECALL)
					continue;
				c = cost(b, r, t, LSH_FPW, LSH_FNW);
				CHECK(c >= cb - 1e-4, "t %.1f: %u x %u costs "
				    "%.6f, less than the chosen %u x %u at "
				    "%.6f", t, b, r, c, l.b, l.r, cb);
			}
		}
	}
}

/* With at most 14 bands the recall bar is still met (fewer rows). */
static void
test_choose_maxb(void)
{
	struct lsh l;
	double t, hi;
	size_t i;

	for (i = 0; i < NT; i++) {
		t = thresholds[i];
		lsh_choose(&l, t, K, 14, LSH_FPW, LSH_FNW);
		CHECK(l.b >= 1 && l.b <= 14 && l.r >= 1 && l.b * l.r <= K,
		    "t %.1f, maxb 14: %u x %u", t, l.b, l.r);
		hi = t + 0.1 < 1 ? t + 0.1 : 1;
		CHECK(lsh_prob(&l, hi) >= LSH_RECALL, "t %.1f, maxb 14: "
		    "%u x %u: P(%.1f) = %.4f < %g", t, l.b, l.r, hi,
		    lsh_prob(&l, hi), LSH_RECALL);
	}
}

/*
 * When no pair meets the bar (k = 4 at t = 0.5 cannot reach 0.99 at 0.6),
 * the least cost among all pairs is still a valid choice.
 */
static void
test_choose_unreachable(void)
{
	struct lsh l;

	lsh_choose(&l, 0.5, 4, 4, LSH_FPW, LSH_FNW);
	CHECK(l.b >= 1 && l.r >= 1 && l.b * l.r <= 4, "k 4: %u x %u", l.b,
	    l.r);
	/* A threshold of 1 has no t + 0.1: still a choice within k. */
	lsh_choose(&l, 1, K, K, LSH_FPW, LSH_FNW);
	CHECK(l.b >= 1 && l.r >= 1 && l.b * l.r <= K, "t 1: %u x %u", l.b,
	    l.r);
}

/* Every S-curve (chosen or not) rises with s. */
static void
test_monotone(void)
{
	struct lsh l;
	double prev, p;
	size_t i;
	int j;

	for (i = 0; i < NT + 3; i++) {
		if (i < NT)
			lsh_choose(&l, thresholds[i], K, K, LSH_FPW, LSH_FNW);
		else {
			l.b = i == NT ? 1 : i == NT + 1 ? 128 : 7;
			l.r = i == NT ? 128 : i == NT + 1 ? 1 : 11;
		}
		prev = -1;
		for (j = 0; j <= 1000; j++) {
			p = lsh_prob(&l, j / 1000.0);
			if (!CHECK(p >= prev && p >= 0 && p <= 1, "%u x %u: "
			    "P(%g) = %.15g after %.15g", l.b, l.r, j / 1000.0,
			    p, prev))
				break;
			prev = p;
		}
	}
	/* A steeper curve for a higher threshold: its 50% point is later. */
	for (i = 1; i < NT; i++) {
		struct lsh lo, hi;
		double slo, shi;

		lsh_choose(&lo, thresholds[i - 1], K, K, LSH_FPW, LSH_FNW);
		lsh_choose(&hi, thresholds[i], K, K, LSH_FPW, LSH_FNW);
		slo = pow(1.0 / lo.b, 1.0 / lo.r);
		shi = pow(1.0 / hi.b, 1.0 / hi.r);
		CHECK(slo < shi, "t %.1f: %u x %u steps at %.3f, t %.1f: "
		    "%u x %u at %.3f", thresholds[i - 1], lo.b, lo.r, slo,
		    thresholds[i], hi.b, hi.r, shi);
	}
}

/*
 * RiskIQ's table (pickBands(t, 100)): 23, 18, 14, 10, 6, 4 bands for t =
 * 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, with r = 100 / b rows.
 */
static void
test_pick_bands(void)
{
	static const struct { double t; unsigned b; } tab[] = {
		{ 0.5, 23 }, { 0.6, 18 }, { 0.7, 14 }, { 0.8, 10 },
		{ 0.9, 6 }, { 0.95, 4 }
	};
	struct lsh l;
	size_t i;

	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		lsh_pick_bands(&l, tab[i].t, 100);
		CHECK(l.b == tab[i].b && l.r == 100 / tab[i].b,
		    "pickBands(%g, 100): %u x %u, want %u x %u", tab[i].t, l.b,
		    l.r, tab[i].b, 100 / tab[i].b);
	}
}

static void
random_sig(uint64_t *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = splitmix64(&rng) & 0xFFFFFFFF;
}

static void
test_band_key_equal(void)
{
	static const unsigned shapes[][2] = { { 16, 8 }, { 14, 9 },
	    { 8, 16 }, { 1, 128 }, { 128, 1 }, { 1, 100 }, { 2, 64 } };
	uint64_t a[K], b[K];
	struct lsh l;
	unsigned i, j, s;

	for (s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
		l.b = shapes[s][0];
		l.r = shapes[s][1];
		random_sig(a, K);
		random_sig(b, K);
		/* b's band i is a's band i; the rest stays random. */
		for (i = 0; i < l.b; i++) {
			uint64_t c[K];

			memcpy(c, b, sizeof(c));
			memcpy(c + i * l.r, a + i * l.r, l.r * sizeof(*a));
			CHECK(lsh_band_key(&l, a, i, 7) ==
			    lsh_band_key(&l, c, i, 7), "%ux%u band %u: equal "
			    "values, different keys", l.b, l.r, i);
			for (j = 0; j < l.b; j++)
				if (j != i)
					CHECK(lsh_band_key(&l, a, j, 7) !=
					    lsh_band_key(&l, c, j, 7),
					    "%ux%u band %u: random values, "
					    "equal keys", l.b, l.r, j);
		}
	}
}

/*
 * Changing any one value changes the key of its own band and of no other;
 * for bands of more than 64 rows too, whose keys are chained.
 */
static void
test_band_key_change(void)
{
	static const unsigned shapes[][2] = { { 14, 9 }, { 8, 16 },
	    { 1, 128 }, { 1, 100 }, { 32, 4 } };
	uint64_t v[K], w[K];
	struct lsh l;
	unsigned s, pos, i;

	for (s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
		l.b = shapes[s][0];
		l.r = shapes[s][1];
		random_sig(v, K);
		for (pos = 0; pos < l.b * l.r; pos++) {
			memcpy(w, v, sizeof(w));
			w[pos] ^= 1 + (splitmix64(&rng) & 0x7FFFFFFF);
			for (i = 0; i < l.b; i++) {
				int same = lsh_band_key(&l, v, i, 0) ==
				    lsh_band_key(&l, w, i, 0);

				CHECK(same == (i != pos / l.r), "%ux%u: value "
				    "%u changed, band %u key %s", l.b, l.r,
				    pos, i, same ? "unchanged" : "changed");
			}
		}
	}
}

/*
 * The band index is hashed with the values: equal values in different
 * bands are different keys (else two documents would meet through
 * unrelated bands); and the seed is hashed too.
 */
static void
test_band_key_index_seed(void)
{
	struct lsh l = { 16, 8 };
	uint64_t v[K], key[16];
	unsigned i, j;

	/* Every band holds the same eight values. */
	random_sig(v, 8);
	for (i = 1; i < l.b; i++)
		memcpy(v + i * l.r, v, l.r * sizeof(*v));
	for (i = 0; i < l.b; i++)
		key[i] = lsh_band_key(&l, v, i, 0);
	for (i = 0; i < l.b; i++)
		for (j = 0; j < i; j++)
			CHECK(key[i] != key[j], "bands %u and %u of equal "
			    "values: equal keys", j, i);
	for (i = 0; i < l.b; i++) {
		CHECK(lsh_band_key(&l, v, i, 1) != key[i], "band %u: seeds 0 "
		    "and 1 give the same key", i);
		CHECK(lsh_band_key(&l, v, i, 1) == lsh_band_key(&l, v, i, 1),
		    "band %u: one seed, two keys", i);
	}
	/* The values are of 32 bits: the high half of a word is not read. */
	for (i = 0; i < l.r; i++)
		v[i] |= (uint64_t)0xABCD0000 << 32;
	CHECK(lsh_band_key(&l, v, 0, 0) == lsh_band_key(&l, v + l.r, 0, 0),
	    "high halves of the values change the key");
}

/*
 * The mechanism as a whole: two random signatures whose rows agree
 * independently with probability s share some band key in a fraction of
 * trials within 4 standard deviations of lsh_prob(s), for the bands
 * chosen at t = 0.5 and t = 0.8.
 */
static void
test_band_key_rate(void)
{
	static const double ss[] = { 0.3, 0.5, 0.6, 0.7, 0.8, 0.9 };
	const int trials = 3000;
	uint64_t a[K], b[K];
	struct lsh l;
	double p, sd, rate;
	unsigned i, hit, n;
	size_t ti, si;
	int trial;

	for (ti = 0; ti < 2; ti++) {
		lsh_choose(&l, ti ? 0.8 : 0.5, K, K, LSH_FPW, LSH_FNW);
		for (si = 0; si < sizeof(ss) / sizeof(ss[0]); si++) {
			n = 0;
			for (trial = 0; trial < trials; trial++) {
				random_sig(a, K);
				random_sig(b, K);
				for (i = 0; i < K; i++)
					if ((double)(splitmix64(&rng) >> 11) *
					    0x1p-53 < ss[si])
						b[i] = a[i];
				hit = 0;
				for (i = 0; i < l.b && !hit; i++)
					hit = lsh_band_key(&l, a, i, 42) ==
					    lsh_band_key(&l, b, i, 42);
				n += hit;
			}
			p = lsh_prob(&l, ss[si]);
			sd = sqrt(p * (1 - p) / trials);
			rate = (double)n / trials;
			CHECK(fabs(rate - p) <= 4 * sd + 1e-3, "%ux%u, s %.1f: "
			    "candidates %.4f of trials, P(s) = %.4f", l.b, l.r,
			    ss[si], rate, p);
		}
	}
}

int
main(void)
{
	RUN(test_prob_formula);
	RUN(test_choose);
	RUN(test_choose_maxb);
	RUN(test_choose_unreachable);
	RUN(test_monotone);
	RUN(test_pick_bands);
	RUN(test_band_key_equal);
	RUN(test_band_key_change);
	RUN(test_band_key_index_seed);
	RUN(test_band_key_rate);
	return unit_status();
}
