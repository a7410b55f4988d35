/*
 * Unit tests of union-find (src/join/unionfind.c) and of clustering
 * (src/join/cluster.c).
 *
 * Union-find is checked against a naive labelling over random unions.
 * Clustering is checked two ways.  On synthetic fingerprints: the sketches
 * (sketch_init / sketch_add / sketch_final, as in test_estimators.c) of
 * many independent pairs of random sets of known Jaccard J, all clustered
 * in one run; pairs with J = t + 0.1 must end up in one group at least 99%
 * of the time (the recall bar the bands are chosen for), pairs with J = t
 * - 0.2 almost never.  On constructed fingerprints, where the right answer
 * is known exactly: a candidate whose estimate is below t does not join,
 * identical fingerprints do, --pairs lists every pair at or above t once,
 * and bottom-k, simhash (within d bits, against brute force) and key
 * fingerprints group as they should.
 *
 * The generator is a fixed-seed splitmix64: the test is deterministic.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bottomk.h"
#include "cluster.h"
#include "minhash.h"
#include "scheme.h"
#include "simhash.h"
#include "sketch.h"
#include "unionfind.h"
#include "unit.h"

#define K	128
#define UNION	1000	/* |A u B| of a synthetic pair */
#define NPAIR	600	/* pairs of each kind in one run */

static uint64_t rng = 0x636C75737465722DULL;

static size_t
below(size_t n)
{
	return (size_t)(splitmix64(&rng) % n);
}

static struct scheme
mkscheme(enum algo algo, unsigned size)
{
	struct scheme sc;

	memset(&sc, 0, sizeof(sc));
	sc.algo = algo;
	sc.size = size;
	sc.ngram = 3;
	sc.seed = 0;
	return sc;
}

/* ---------------------------------------------------------- union-find */

static void
test_uf_basics(void)
{
	struct unionfind u;
	uint32_t i;

	uf_init(&u, 10);
	for (i = 0; i < 10; i++)
		CHECK(uf_find(&u, i) == i && u.size[i] == 1, "%u: not alone "
		    "at first", i);
	CHECK(uf_union(&u, 1, 2) == 1, "1, 2: not joined");
	CHECK(uf_union(&u, 2, 1) == 0, "2, 1: joined twice");
	CHECK(uf_union(&u, 3, 4) == 1, "3, 4: not joined");
	CHECK(uf_find(&u, 1) == uf_find(&u, 2), "1, 2: apart");
	CHECK(uf_find(&u, 2) != uf_find(&u, 3), "2, 3: together");
	CHECK(uf_union(&u, 4, 1) == 1, "4, 1: not joined");
	/* Transitivity: 3 meets 2 through 4 and 1. */
	CHECK(uf_find(&u, 3) == uf_find(&u, 2), "3, 2: apart");
	CHECK(uf_union(&u, 3, 2) == 0, "3, 2: joined twice");
	CHECK(u.size[uf_find(&u, 1)] == 4, "size of {1, 2, 3, 4}: %u",
	    u.size[uf_find(&u, 1)]);
	CHECK(uf_find(&u, 0) == 0 && uf_find(&u, 9) == 9, "0, 9 moved");
	CHECK(uf_union(&u, 7, 7) == 0, "7 with itself");
	uf_free(&u);
	CHECK(u.parent == NULL && u.size == NULL && u.n == 0, "not emptied");

	uf_init(&u, 0);		/* no items: nothing to do, nothing to leak */
	uf_free(&u);
}

/*
 * Random unions over n items against a naive labelling (relabel every
 * member on each join): the same partition, the same set sizes, and
 * uf_union's return value says whether the sets were apart.
 */
static void
test_uf_random(void)
{
	static const size_t sizes[] = { 2, 17, 300, 5000 };
	struct unionfind u;
	uint32_t *label, *count, a, b, la, lb;
	size_t s, n, i, j, ops;
	int joined;

	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		n = sizes[s];
		uf_init(&u, n);
		label = calloc(n, sizeof(*label));
		count = calloc(n, sizeof(*count));
		if (label == NULL || count == NULL)
			abort();
		for (i = 0; i < n; i++)
			label[i] = (uint32_t)i;
		for (ops = 0; ops < 2 * n; ops++) {
			a = (uint32_t)below(n);
			b = (uint32_t)below(n);
			la = label[a];
			lb = label[b];
			joined = uf_union(&u, a, b);
			CHECK(joined == (la != lb), "n %zu: union(%u, %u) "
			    "returned %d, labels %u %u", n, a, b, joined, la,
			    lb);
			if (la != lb)
				for (i = 0; i < n; i++)
					if (label[i] == lb)
						label[i] = la;
			/* Now and then, the whole partition. */
			if (ops % (n / 2 + 1) != 0 && ops != 2 * n - 1)
				continue;
			memset(count, 0, n * sizeof(*count));
			for (i = 0; i < n; i++)
				count[label[i]]++;
			for (i = 0; i < n; i++) {
				j = below(n);
				if (!CHECK((uf_find(&u, (uint32_t)i) ==
				    uf_find(&u, (uint32_t)j)) ==
				    (label[i] == label[j]), "n %zu: %zu and %zu "
				    "wrongly %s", n, i, j, label[i] == label[j] ?
				    "apart" : "together"))
					break;
				if (!CHECK(u.size[uf_find(&u, (uint32_t)i)] ==
				    count[label[i]], "n %zu: set of %zu has size "
				    "%u, want %u", n, i,
				    u.size[uf_find(&u, (uint32_t)i)],
				    count[label[i]]))
					break;
			}
		}
		uf_free(&u);
		free(label);
		free(count);
	}
}

/* ------------------------------------------------- synthetic sketches */

/* Ascending 64-bit values, as bottom-k sketches are printed. */
static int
u64cmp(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return (a > b) - (a < b);
}


/*
 * The fingerprint of n hashes under a scheme, through the sketch API in
 * uneven batches.
 */
static void
sketch_of(const struct scheme *sc, const uint64_t *v, size_t n,
    uint64_t *out)
{
	struct sketch sk;
	const uint64_t *r;
	size_t off, m;

	sketch_init(&sk, sc);
	for (off = 0, m = 1; off < n; off += m, m = m * 3 % 251 + 1) {
		if (m > n - off)
			m = n - off;
		sketch_add(&sk, v + off, NULL, m);
	}
	r = sketch_final(&sk);
	memcpy(out, r, sk.nv * sizeof(*out));
	sketch_free(&sk);
}

/*
 * Documents 2i and 2i+1 (i < npair): random sets with |A u B| = UNION and
 * round(J UNION) elements in common; every set is disjoint from all the
 * others (fresh random values), so only the planted pairs are similar.
 */
static uint64_t *
make_pairs(const struct scheme *sc, const double *j, size_t npair)
{
	size_t nv = scheme_nvalues(sc), i, e, shared, rest;
	uint64_t *v, a[UNION], b[UNION], x;
	size_t na, nb;

	v = calloc(2 * npair * nv, sizeof(*v));
	if (v == NULL)
		abort();
	for (i = 0; i < npair; i++) {
		shared = (size_t)lround(j[i] * UNION);
		rest = UNION - shared;
		na = nb = 0;
		for (e = 0; e < shared; e++) {
			x = splitmix64(&rng);
			a[na++] = b[nb++] = x;
		}
		for (e = 0; e < rest / 2; e++)
			a[na++] = splitmix64(&rng);
		for (e = rest / 2; e < rest; e++)
			b[nb++] = splitmix64(&rng);
		sketch_of(sc, a, na, v + 2 * i * nv);
		sketch_of(sc, b, nb, v + (2 * i + 1) * nv);
	}
	return v;
}

/*
 * For each threshold t and each of minhash, oph and bottomk at k = 128:
 * NPAIR pairs at J = t + 0.1 and NPAIR at J = t - 0.2, clustered together
 * with the bands cluster_bands chooses.  The planted pairs at t + 0.1 must
 * be in one group at least 99% of the time (allowing 3 standard deviations
 * of sampling noise on NPAIR pairs), those at t - 0.2 at most 1%, and no
 * group may hold documents of two different pairs.
 */
static void
test_recall_precision(void)
{
	static const double ts[] = { 0.5, 0.6, 0.7, 0.8 };
	static const enum algo algos[] = { ALGO_MINHASH, ALGO_OPH,
	    ALGO_BOTTOMK };
	double j[2 * NPAIR], miss_max;
	struct cluster_opts o;
	struct clusters c;
	struct scheme sc;
	uint64_t *v;
	size_t ti, ai, i, n = 4 * NPAIR, hit, low, mixed;

	/* 99% of NPAIR, less 3 sd of a binomial(NPAIR, 0.01). */
	miss_max = 0.01 * NPAIR + 3 * sqrt(0.01 * 0.99 * NPAIR);
	for (ai = 0; ai < sizeof(algos) / sizeof(algos[0]); ai++) {
		sc = mkscheme(algos[ai], K);
		for (ti = 0; ti < sizeof(ts) / sizeof(ts[0]); ti++) {
			for (i = 0; i < NPAIR; i++) {
				j[i] = ts[ti] + 0.1;
				j[NPAIR + i] = ts[ti] - 0.2;
			}
			v = make_pairs(&sc, j, 2 * NPAIR);
			memset(&o, 0, sizeof(o));
			o.transitive = 1;
			o.t = ts[ti];
			cluster_bands(&sc, o.t, 0, &o.lsh);
			cluster_run(&sc, v, n, &o, &c);
			hit = low = mixed = 0;
			for (i = 0; i < 2 * NPAIR; i++) {
				int one = uf_find(&c.uf, (uint32_t)(2 * i)) ==
				    uf_find(&c.uf, (uint32_t)(2 * i + 1));

				if (i < NPAIR)
					hit += one;
				else
					low += one;
				if (c.uf.size[uf_find(&c.uf,
				    (uint32_t)(2 * i))] > 2)
					mixed++;
			}
			CHECK(NPAIR - hit <= miss_max, "%s, t %.1f (%u x %u): "
			    "%zu of %d pairs at J %.1f apart (%.1f%%, want at "
			    "most 1%%)", scheme_algo_name(sc.algo), o.t,
			    o.lsh.b, o.lsh.r, NPAIR - hit, NPAIR, o.t + 0.1,
			    100.0 * (NPAIR - hit) / NPAIR);
			CHECK(low <= miss_max, "%s, t %.1f: %zu of %d pairs at "
			    "J %.1f joined", scheme_algo_name(sc.algo), o.t,
			    low, NPAIR, o.t - 0.2);
			CHECK(mixed == 0, "%s, t %.1f: %zu documents in groups "
			    "of more than their pair", scheme_algo_name(sc.algo),
			    o.t, mixed);
			cluster_free(&c);
			free(v);
		}
	}
}

/* --------------------------------------------- constructed fingerprints */

/* Random 32-bit minhash values. */
static void
random_values(uint64_t *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = splitmix64(&rng) & 0xFFFFFFFF;
}

/*
 * Two minhash signatures that agree on the first band (8 x 16) and on m
 * values in all: always candidates, with estimate m / 128.  They join iff
 * m / 128 >= t, whatever the bands say.
 */
static void
test_confirm(void)
{
	static const unsigned ms[] = { 16, 63, 64, 65, 100, 127 };
	struct scheme sc = mkscheme(ALGO_MINHASH, K);
	struct cluster_opts o;
	struct clusters c;
	uint64_t v[2 * K];
	size_t i;
	int one;

	for (i = 0; i < sizeof(ms) / sizeof(ms[0]); i++) {
		random_values(v, 2 * K);
		memcpy(v + K, v, ms[i] * sizeof(*v));
		memset(&o, 0, sizeof(o));
		o.transitive = 1;
		o.t = 0.5;
		o.lsh.b = 8;
		o.lsh.r = 16;
		cluster_run(&sc, v, 2, &o, &c);
		one = uf_find(&c.uf, 0) == uf_find(&c.uf, 1);
		CHECK(c.candidates >= 1, "m %u: no candidate", ms[i]);
		CHECK(one == (ms[i] >= 64), "m %u of 128, t 0.5: %s", ms[i],
		    one ? "joined" : "apart");
		CHECK(c.confirmed == (size_t)one, "m %u: %zu confirmed", ms[i],
		    c.confirmed);
		cluster_free(&c);
	}

	/* Estimates of the same pair at several thresholds. */
	random_values(v, 2 * K);
	memcpy(v + K, v, 96 * sizeof(*v));	/* estimate 0.75 */
	for (i = 0; i < 3; i++) {
		double t = i == 0 ? 0.7 : i == 1 ? 0.75 : 0.8;

		memset(&o, 0, sizeof(o));
		o.transitive = 1;
		o.t = t;
		o.lsh.b = 4;
		o.lsh.r = 16;
		cluster_run(&sc, v, 2, &o, &c);
		one = uf_find(&c.uf, 0) == uf_find(&c.uf, 1);
		CHECK(one == (t <= 0.75), "estimate 0.75, t %.2f: %s", t,
		    one ? "joined" : "apart");
		cluster_free(&c);
	}
}

/*
 * Identical fingerprints join whatever the threshold and bands: even with
 * t = 1, with no bands at all, and for every algorithm.
 */
static void
test_identical(void)
{
	static const enum algo algos[] = { ALGO_MINHASH, ALGO_OPH,
	    ALGO_BOTTOMK, ALGO_SIMHASH, ALGO_KEY };
	struct cluster_opts o;
	struct clusters c;
	struct scheme sc;
	uint64_t v[6 * K];
	size_t ai, nv, i;

	for (ai = 0; ai < sizeof(algos) / sizeof(algos[0]); ai++) {
		sc = mkscheme(algos[ai], algos[ai] == ALGO_SIMHASH ? 64 :
		    algos[ai] == ALGO_KEY ? 3 : K);
		nv = scheme_nvalues(&sc);
		/* 0, 2, 5 identical; 1, 3, 4 each different. */
		random_values(v, 6 * nv);
		if (sc.algo == ALGO_BOTTOMK)
			for (i = 0; i < 6; i++)
				qsort(v + i * nv, nv, sizeof(*v), u64cmp);
		memcpy(v + 2 * nv, v, nv * sizeof(*v));
		memcpy(v + 5 * nv, v, nv * sizeof(*v));
		memset(&o, 0, sizeof(o));
		o.transitive = 1;
		o.t = 1;
		o.d = 0;
		o.lsh.b = 0;
		o.lsh.r = 0;
		cluster_run(&sc, v, 6, &o, &c);
		CHECK(uf_find(&c.uf, 0) == uf_find(&c.uf, 2) &&
		    uf_find(&c.uf, 0) == uf_find(&c.uf, 5), "%s: identical "
		    "fingerprints apart", scheme_algo_name(sc.algo));
		CHECK(c.uf.size[uf_find(&c.uf, 0)] == 3, "%s: group of "
		    "identical ones has %u members", scheme_algo_name(sc.algo),
		    c.uf.size[uf_find(&c.uf, 0)]);
		for (i = 1; i < 5; i += i == 1 ? 2 : 1)
			CHECK(c.uf.size[uf_find(&c.uf, (uint32_t)i)] == 1,
			    "%s: %zu not alone", scheme_algo_name(sc.algo), i);
		cluster_free(&c);
	}
}

struct ipair {
	uint32_t a, b;
};

/*
 * --pairs: 40 minhash signatures that all share band 0 (so every pair is
 * a candidate), in families whose members agree on many more values, some
 * of them identical.  The pairs listed must be exactly the pairs whose
 * estimate is at least t, each once, a < b, in order, with the estimate.
 * Groups must be the connected components of those pairs.
 */
static void
test_pairs(void)
{
	enum { N = 40 };
	struct scheme sc = mkscheme(ALGO_MINHASH, K);
	struct cluster_opts o;
	struct clusters c;
	uint64_t v[N * K], fam[5][K];
	struct ipair want[N * N];
	size_t nwant = 0, i, j, m, f;
	struct unionfind comp;
	double sim;

	random_values(&fam[0][0], 5 * K);
	for (f = 1; f < 5; f++)		/* band 0 in common */
		memcpy(fam[f], fam[0], 16 * sizeof(fam[0][0]));
	for (i = 0; i < N; i++) {
		f = i % 5;
		random_values(v + i * K, K);
		memcpy(v + i * K, fam[f], 16 * sizeof(*v));
		/* Family members agree on 60 to 128 values. */
		m = 60 + below(69);
		memcpy(v + i * K, fam[f], m * sizeof(*v));
		if (i % 7 == 3)	/* some exact copies of the family */
			memcpy(v + i * K, fam[f], K * sizeof(*v));
	}
	memset(&o, 0, sizeof(o));
	o.transitive = 1;
	o.t = 0.7;
	o.pairs = 1;
	o.lsh.b = 8;
	o.lsh.r = 16;
	cluster_run(&sc, v, N, &o, &c);

	uf_init(&comp, N);
	for (i = 0; i < N; i++)
		for (j = i + 1; j < N; j++)
			if (minhash_jaccard(v + i * K, v + j * K, K) >= o.t) {
				want[nwant].a = (uint32_t)i;
				want[nwant++].b = (uint32_t)j;
				uf_union(&comp, (uint32_t)i, (uint32_t)j);
			}
	CHECK(nwant > 20, "only %zu pairs to list: a weak test", nwant);
	if (CHECK(c.npair == nwant, "%zu pairs listed, want %zu", c.npair,
	    nwant)) {
		for (i = 0; i < nwant; i++) {
			if (!CHECK(c.pair[i].a == want[i].a &&
			    c.pair[i].b == want[i].b, "pair %zu: %u %u, want "
			    "%u %u", i, c.pair[i].a, c.pair[i].b, want[i].a,
			    want[i].b))
				break;
			sim = minhash_jaccard(v + (size_t)want[i].a * K,
			    v + (size_t)want[i].b * K, K);
			CHECK(c.pair[i].sim == sim, "pair %u %u: similarity "
			    "%g, want %g", want[i].a, want[i].b, c.pair[i].sim,
			    sim);
		}
	}
	for (i = 0; i < N; i++)
		for (j = 0; j < i; j++)
			CHECK((uf_find(&c.uf, (uint32_t)i) ==
			    uf_find(&c.uf, (uint32_t)j)) ==
			    (uf_find(&comp, (uint32_t)i) ==
			    uf_find(&comp, (uint32_t)j)), "%zu, %zu: wrongly "
			    "%s", j, i, uf_find(&comp, (uint32_t)i) ==
			    uf_find(&comp, (uint32_t)j) ? "apart" : "together");
	uf_free(&comp);
	cluster_free(&c);

	/* Without --pairs nothing is kept, but the groups are the same. */
	o.pairs = 0;
	cluster_run(&sc, v, N, &o, &c);
	CHECK(c.npair == 0 && c.pair == NULL, "%zu pairs kept without "
	    "pairs", c.npair);
	cluster_free(&c);
}

/*
 * --pairs over many copies: 300 fingerprints, the first half identical,
 * the rest the same but for a bit of their last value (equal in every
 * band but the last, in all but a hash of a bottom-k sketch, within 2
 * bits of simhash).  Every pair is listed once,
 * and the pairs are never held many times over: a pair met by each band
 * in turn, 8 times, took 8 times the memory before being made unique.
 */
static void
test_pairs_once(void)
{
	enum { N = 300 };
	static const enum algo algos[] = { ALGO_MINHASH, ALGO_OPH,
	    ALGO_BOTTOMK, ALGO_SIMHASH };
	static uint64_t v[N * K];
	struct cluster_opts o;
	struct clusters c;
	struct scheme sc;
	size_t ai, nv, i, want = (size_t)N * (N - 1) / 2;

	for (ai = 0; ai < sizeof(algos) / sizeof(algos[0]); ai++) {
		sc = mkscheme(algos[ai], algos[ai] == ALGO_SIMHASH ? 64 : K);
		nv = scheme_nvalues(&sc);
		random_values(v, nv);
		if (sc.algo == ALGO_BOTTOMK)
			qsort(v, nv, sizeof(*v), u64cmp);
		for (i = 1; i < N; i++) {
			memcpy(v + i * nv, v, nv * sizeof(*v));
			if (i >= N / 2)		/* one bit of the last differs */
				v[i * nv + nv - 1] ^= (uint64_t)1 << i % 64;
			if (sc.algo == ALGO_BOTTOMK)
				qsort(v + i * nv, nv, sizeof(*v), u64cmp);
		}
		memset(&o, 0, sizeof(o));
		o.transitive = 1;
		o.t = 0.5;
		o.d = 3;
		o.pairs = 1;
		o.lsh.b = 8;
		o.lsh.r = 16;
		cluster_run(&sc, v, N, &o, &c);
		CHECK(c.npair == want, "%s: %zu pairs listed, want %zu",
		    scheme_algo_name(sc.algo), c.npair, want);
		CHECK(c.pcap < 2 * want + 1024, "%s: room for %zu pairs "
		    "held, for %zu listed", scheme_algo_name(sc.algo), c.pcap,
		    want);
		for (i = 1; i < c.npair; i++)
			if (!CHECK(c.pair[i - 1].a < c.pair[i].a ||
			    (c.pair[i - 1].a == c.pair[i].a &&
			    c.pair[i - 1].b < c.pair[i].b), "%s: pairs out of "
			    "order or twice", scheme_algo_name(sc.algo)))
				break;
		cluster_free(&c);
	}
}

/*
 * Bottom-k: families of documents made of a common core of 400 elements
 * (values in [2^41, 2^62)) and 20 of each member's own (J = 400 / 440 =
 * 0.91 within a family); strangers share nothing.  Members 0 and 1 of a
 * family have all their own elements above the core (from 2^63), members
 * 2 and 3 one of them below it (under 2^40), so the core's least value is
 * the first of the sketch in members 0 and 1 and the second in 2 and 3:
 * within the 2 smallest the bands of t = 0.8 look at, in all four.  Each
 * family must be one group, and no group may mix families.
 */
static void
test_bottomk_groups(void)
{
	enum { FAM = 30, PER = 4, NDOC = FAM * PER, SET = 400 };
	struct scheme sc = mkscheme(ALGO_BOTTOMK, K);
	struct cluster_opts o;
	struct clusters c;
	uint64_t *v, set[SET + 20];
	size_t f, m, i, e, ok = 0;

	v = calloc(NDOC * K, sizeof(*v));
	if (v == NULL)
		abort();
	for (f = 0; f < FAM; f++) {
		uint64_t core[SET];

		for (e = 0; e < SET; e++)
			core[e] = (splitmix64(&rng) >> 3 | (uint64_t)1 << 41) &
			    (((uint64_t)1 << 62) - 1);
		for (m = 0; m < PER; m++) {
			memcpy(set, core, sizeof(core));
			for (e = 0; e < 20; e++)
				set[SET + e] = splitmix64(&rng) |
				    (uint64_t)1 << 63;
			if (m >= 2)
				set[SET] = splitmix64(&rng) >> 24;
			sketch_of(&sc, set, SET + 20, v + (f * PER + m) * K);
		}
	}
	memset(&o, 0, sizeof(o));
	o.transitive = 1;
	o.t = 0.8;
	cluster_bands(&sc, o.t, 0, &o.lsh);
	CHECK(o.lsh.r == 1 && o.lsh.b >= 1 && o.lsh.b <= K, "bottomk bands: "
	    "%u x %u", o.lsh.b, o.lsh.r);
	cluster_run(&sc, v, NDOC, &o, &c);
	for (i = 0; i < NDOC; i++) {
		uint32_t root = uf_find(&c.uf, (uint32_t)i);

		if (c.uf.size[root] == PER && root == uf_find(&c.uf,
		    (uint32_t)(i / PER * PER)))
			ok++;
	}
	CHECK(ok == NDOC, "%zu of %d documents in their family's group",
	    ok, NDOC);
	cluster_free(&c);

	/*
	 * Hand-made sketches, sorted as bottomk prints them, with the same
	 * shared values.  Two agree on all but the last 10 of 128 (estimate
	 * about 0.85), a third shares only 40.
	 */
	random_values(v, 3 * K);
	for (i = 0; i < 3 * K; i++)
		v[i] |= (uint64_t)1 << 40;
	memcpy(v + K, v, 118 * sizeof(*v));
	memcpy(v + 2 * K, v, 40 * sizeof(*v));
	for (i = 0; i < 3; i++)
		qsort(v + i * K, K, sizeof(*v), u64cmp);
	cluster_run(&sc, v, 3, &o, &c);
	CHECK(uf_find(&c.uf, 0) == uf_find(&c.uf, 1), "bottomk: estimate "
	    "%.3f, t 0.8: apart", bottomk_jaccard(v, v + K, K));
	CHECK(uf_find(&c.uf, 2) != uf_find(&c.uf, 0), "bottomk: estimate "
	    "%.3f, t 0.8: joined", bottomk_jaccard(v, v + 2 * K, K));
	cluster_free(&c);
	free(v);
}

/*
 * Bottom-k recall when the shared minimum is not at the same rank: A = S
 * plus one extra element smaller than all of S, B = S plus one extra
 * element larger than all of S.  J = |S| / (|S| + 2), above 0.99, and
 * the sketches share 127 of their values, each one place apart.
 */
static void
test_bottomk_shifted(void)
{
	enum { SET = 400 };
	struct scheme sc = mkscheme(ALGO_BOTTOMK, K);
	struct cluster_opts o;
	struct clusters c;
	uint64_t v[2 * K], s[SET + 1];
	size_t e;

	for (e = 0; e < SET; e++)
		s[e] = (splitmix64(&rng) >> 2) + ((uint64_t)1 << 61);
	qsort(s, SET, sizeof(*s), u64cmp);
	/* The sketches directly: k smallest, ascending. */
	v[0] = 5;			/* A's extra, below all of S */
	memcpy(v + 1, s, (K - 1) * sizeof(*v));
	memcpy(v + K, s, K * sizeof(*v));	/* B's extra is above */
	memset(&o, 0, sizeof(o));
	o.transitive = 1;
	o.t = 0.8;
	cluster_bands(&sc, o.t, 0, &o.lsh);
	cluster_run(&sc, v, 2, &o, &c);
	CHECK(bottomk_jaccard(v, v + K, K) >= 0.98, "estimate %.3f",
	    bottomk_jaccard(v, v + K, K));
	CHECK(uf_find(&c.uf, 0) == uf_find(&c.uf, 1), "bottomk: estimate "
	    "%.3f but apart: bands compare ranks (%u bands), not values",
	    bottomk_jaccard(v, v + K, K), o.lsh.b);
	cluster_free(&c);
}

/*
 * Simhash: clusters of 64- and 128-bit fingerprints made by flipping 0 to
 * 6 bits of a few centres, plus strangers.  The groups must be exactly the
 * connected components of the pairs within d bits, found by brute force.
 */
static void
test_simhash_groups(void)
{
	enum { N = 400 };
	static const unsigned ds[] = { 0, 1, 3, 5 };
	struct cluster_opts o;
	struct clusters c;
	struct scheme sc;
	struct unionfind comp;
	uint64_t *v;
	size_t i, j, w, nv, di, bad, joined;
	unsigned bits, dist, f;

	for (bits = 64; bits <= 128; bits += 64) {
		sc = mkscheme(ALGO_SIMHASH, bits);
		nv = scheme_nvalues(&sc);
		v = calloc(N * nv, sizeof(*v));
		if (v == NULL)
			abort();
		for (i = 0; i < N; i++) {
			if (i < 20 || i % 3 == 0) {	/* a new centre */
				for (w = 0; w < nv; w++)
					v[i * nv + w] = splitmix64(&rng);
				continue;
			}
			/* A copy of an earlier one with some bits flipped. */
			j = below(i);
			memcpy(v + i * nv, v + j * nv, nv * sizeof(*v));
			f = (unsigned)below(7);
			while (f-- > 0) {
				unsigned bit = (unsigned)below(bits);

				v[i * nv + bit / 64] ^= (uint64_t)1 << bit % 64;
			}
		}
		for (di = 0; di < sizeof(ds) / sizeof(ds[0]); di++) {
			memset(&o, 0, sizeof(o));
			o.transitive = 1;
			o.t = 0.8;
			o.d = ds[di];
			cluster_run(&sc, v, N, &o, &c);
			uf_init(&comp, N);
			joined = 0;
			for (i = 0; i < N; i++)
				for (j = 0; j < i; j++) {
					dist = simhash_distance(v + i * nv,
					    v + j * nv, nv);
					if (dist <= o.d) {
						uf_union(&comp, (uint32_t)i,
						    (uint32_t)j);
						joined++;
					}
				}
			bad = 0;
			for (i = 0; i < N; i++)
				for (j = 0; j < i; j++)
					bad += (uf_find(&c.uf, (uint32_t)i) ==
					    uf_find(&c.uf, (uint32_t)j)) !=
					    (uf_find(&comp, (uint32_t)i) ==
					    uf_find(&comp, (uint32_t)j));
			CHECK(bad == 0, "simhash %u, d %u: %zu pairs grouped "
			    "unlike brute force", bits, o.d, bad);
			CHECK(joined > 10, "simhash %u, d %u: only %zu pairs "
			    "within d: a weak test", bits, o.d, joined);
			uf_free(&comp);
			cluster_free(&c);
		}
		free(v);
	}
}

/* Key: equal keys form a group, different keys never join. */
static void
test_key_groups(void)
{
	enum { N = 500 };
	struct scheme sc = mkscheme(ALGO_KEY, 3);
	struct cluster_opts o;
	struct clusters c;
	uint64_t v[N], keys[37];
	size_t i, j, bad = 0;

	CHECK(scheme_nvalues(&sc) == 1, "key: %zu values",
	    scheme_nvalues(&sc));
	random_values(keys, 37);
	for (i = 0; i < N; i++)
		v[i] = i % 2 ? keys[below(37)] : splitmix64(&rng);
	memset(&o, 0, sizeof(o));
	o.transitive = 1;
	o.t = 0.8;
	cluster_run(&sc, v, N, &o, &c);
	for (i = 0; i < N; i++)
		for (j = 0; j < i; j++)
			bad += (uf_find(&c.uf, (uint32_t)i) ==
			    uf_find(&c.uf, (uint32_t)j)) != (v[i] == v[j]);
	CHECK(bad == 0, "key: %zu pairs grouped unlike their keys", bad);
	cluster_free(&c);
}

/* A similarity table for the exact callback: sim[a * n + b]. */
struct table {
	const double *sim;
	size_t	 n;
	size_t	 asked;
};

static double
table_exact(void *ctx, uint32_t a, uint32_t b)
{
	struct table *t = ctx;

	t->asked++;
	return t->sim[a * t->n + b];
}

/*
 * The leader rule: each document joins the first kept one, in keep order,
 * that the exact callback puts at t or more, or is kept.  Key
 * fingerprints all equal make every pair a candidate, so the table
 * decides alone.  A chain (A ~ B ~ C, A !~ C) is one group only with
 * transitive; random tables check every rule of the choice.
 */
static void
test_leaders(void)
{
	struct scheme sc = mkscheme(ALGO_KEY, 3);
	enum { N = 60 };
	static double sim[N * N];
	uint32_t order[N], tmp;
	uint64_t v[N];
	struct cluster_opts o;
	struct clusters c;
	struct table tb;
	uint64_t seed = 7;
	size_t i, j, r, round, bad = 0, joined = 0;
	uint32_t rank[N];

	memset(v, 0, sizeof(v));
	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++)
			sim[i * 3 + j] = i == j ? 1 : 0.85;
	sim[0 * 3 + 2] = sim[2 * 3 + 0] = 0.5;
	tb.sim = sim;
	tb.n = 3;
	memset(&o, 0, sizeof(o));
	o.t = 0.8;
	o.exact = table_exact;
	o.ctx = &tb;
	cluster_run(&sc, v, 3, &o, &c);
	CHECK(c.leader[0] == 0 && c.leader[1] == 0 && c.leader[2] == 2,
	    "chain: leaders %u %u %u, want 0 0 2", c.leader[0], c.leader[1],
	    c.leader[2]);
	CHECK(c.sim[1] == 0.85 && c.exact[1], "chain: B's similarity %g",
	    c.sim[1]);
	cluster_free(&c);
	order[0] = 2;
	order[1] = 1;
	order[2] = 0;
	o.order = order;
	cluster_run(&sc, v, 3, &o, &c);
	CHECK(c.leader[2] == 2 && c.leader[1] == 2 && c.leader[0] == 0,
	    "chain, reversed: leaders %u %u %u, want 0 2 2", c.leader[0],
	    c.leader[1], c.leader[2]);
	cluster_free(&c);
	o.order = NULL;
	o.transitive = 1;
	cluster_run(&sc, v, 3, &o, &c);
	CHECK(uf_find(&c.uf, 0) == uf_find(&c.uf, 2),
	    "chain, transitive: A and C apart");
	cluster_free(&c);

	for (round = 0; round < 20; round++) {
		for (i = 0; i < N; i++) {
			sim[i * N + i] = 1;
			for (j = 0; j < i; j++)
				sim[i * N + j] = sim[j * N + i] =
				    (double)(splitmix64(&seed) % 1001) / 1000;
		}
		for (i = 0; i < N; i++)
			order[i] = (uint32_t)i;
		for (i = N - 1; i > 0 && round % 2; i--) {
			j = splitmix64(&seed) % (i + 1);
			tmp = order[i];
			order[i] = order[j];
			order[j] = tmp;
		}
		for (r = 0; r < N; r++)
			rank[order[r]] = (uint32_t)r;
		tb.sim = sim;
		tb.n = N;
		memset(&o, 0, sizeof(o));
		o.t = 0.8;
		o.exact = table_exact;
		o.ctx = &tb;
		o.order = order;
		cluster_run(&sc, v, N, &o, &c);
		for (i = 0; i < N; i++) {
			uint32_t l = c.leader[i];

			if (l != i) {
				joined++;
				bad += c.leader[l] != l || rank[l] >= rank[i] ||
				    sim[i * N + l] < o.t || c.sim[i] !=
				    sim[i * N + l];
			}
			/* No kept one before its leader (or it) that it
			 * reaches. */
			for (j = 0; j < N; j++)
				if (j != i && c.leader[j] == j &&
				    rank[j] < (l != i ? rank[l] : rank[i]) &&
				    sim[i * N + j] >= o.t)
					bad++;
		}
		cluster_free(&c);
	}
	CHECK(bad == 0 && joined > 0, "leaders: %zu rules broken (%zu joined)",
	    bad, joined);
}

/* No fingerprints at all, and one: no groups, no pairs, no crash. */
static void
test_empty(void)
{
	struct scheme sc = mkscheme(ALGO_MINHASH, K);
	struct cluster_opts o;
	struct clusters c;
	uint64_t v[K];

	memset(&o, 0, sizeof(o));
	o.transitive = 1;
	o.t = 0.8;
	o.pairs = 1;
	cluster_bands(&sc, o.t, 0, &o.lsh);
	cluster_run(&sc, v, 0, &o, &c);
	CHECK(c.npair == 0 && c.candidates == 0, "0 fingerprints: %zu pairs",
	    c.npair);
	cluster_free(&c);
	random_values(v, K);
	cluster_run(&sc, v, 1, &o, &c);
	CHECK(c.npair == 0 && c.candidates == 0 && uf_find(&c.uf, 0) == 0,
	    "1 fingerprint: %zu pairs", c.npair);
	cluster_free(&c);
}

int
main(void)
{
	RUN(test_uf_basics);
	RUN(test_uf_random);
	RUN(test_recall_precision);
	RUN(test_confirm);
	RUN(test_identical);
	RUN(test_pairs);
	RUN(test_pairs_once);
	RUN(test_bottomk_groups);
	RUN(test_bottomk_shifted);
	RUN(test_simhash_groups);
	RUN(test_key_groups);
	RUN(test_leaders);
	RUN(test_empty);
	return unit_status();
}
