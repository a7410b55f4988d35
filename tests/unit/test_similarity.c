/*
 * Exact resemblance and containment (Broder 1997) through the real
 * shingler and shingle sets, checked against sets counted by hand, and the
 * estimates each scheme gives.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "digest.h"
#include "scheme.h"
#include "shset.h"
#include "similarity.h"
#include "unit.h"

static struct scheme
words(unsigned n, int multiset)
{
	struct scheme sc;

	memset(&sc, 0, sizeof(sc));
	sc.algo = ALGO_BOTTOMK;
	sc.size = 128;
	sc.ngram = n;
	sc.multiset = multiset;
	return sc;
}

/* The shingle set of a text, and its fingerprint values in v. */
static void
set_of(const struct scheme *sc, const char *text, struct shset *set,
    uint64_t *v)
{
	struct digest d;

	shset_init(set);
	digest_init(&d, sc, NULL, set);
	digest_feed(&d, text, strlen(text));
	memcpy(v, digest_end(&d), scheme_nvalues(sc) * sizeof(*v));
	digest_free(&d);
}

#define ROSE	"a rose is a rose is a rose"
/* (a rose is a) is the only 4-gram it shares with ROSE. */
#define FLOWER	"a rose is a flower which is a rose"

static void
test_rose_set(void)
{
	struct scheme sc = words(4, 0);
	struct shset a, b;
	struct similarity r;
	uint64_t va[128], vb[128];

	set_of(&sc, ROSE, &a, va);
	set_of(&sc, FLOWER, &b, vb);
	similarity_exact(&a, &b, &r);
	/* Broder: {(a rose is a), (rose is a rose), (is a rose is)}. */
	CHECK(r.size_a == 3, "|A| = %zu, want 3", r.size_a);
	CHECK(r.size_b == 6, "|B| = %zu, want 6", r.size_b);
	CHECK(r.shared == 1, "shared = %zu, want 1", r.shared);
	CHECK(r.jaccard == 1.0 / 8, "r(A,B) = %g, want 1/8", r.jaccard);
	CHECK(r.cont_ab == 1.0 / 3, "c(A,B) = %g, want 1/3", r.cont_ab);
	CHECK(r.cont_ba == 1.0 / 6, "c(B,A) = %g, want 1/6", r.cont_ba);
	/* Under 128 distinct shingles bottom-k holds them all: exact. */
	struct estimate e;
	similarity_estimate(&sc, va, vb, &e);
	CHECK(e.jaccard == r.jaccard, "bottomk estimate %g, exact %g",
	    e.jaccard, r.jaccard);
	CHECK(e.cont_ab == r.cont_ab && e.cont_ba == r.cont_ba,
	    "bottomk containment %g %g", e.cont_ab, e.cont_ba);
	shset_free(&a);
	shset_free(&b);
}

static void
test_rose_multiset(void)
{
	struct scheme sc = words(4, 1);
	struct shset a, b;
	struct similarity r;
	uint64_t va[128], vb[128];

	set_of(&sc, ROSE, &a, va);
	set_of(&sc, FLOWER, &b, vb);
	similarity_exact(&a, &b, &r);
	/* Labelled: (a rose is a, 1..2), (rose is a rose, 1..2), (is a rose is, 1). */
	CHECK(r.size_a == 5, "|A| = %zu, want 5", r.size_a);
	CHECK(r.size_b == 6, "|B| = %zu, want 6", r.size_b);
	CHECK(r.shared == 1, "shared = %zu, want 1", r.shared);
	CHECK(r.jaccard == 0.1, "r(A,B) = %g, want 1/10", r.jaccard);
	shset_free(&a);
	shset_free(&b);
}

static void
test_identical_disjoint_empty(void)
{
	struct scheme sc = words(3, 0);
	struct shset a, b, e1, e2;
	struct similarity r;
	uint64_t va[128], vb[128];

	set_of(&sc, "one two three four five", &a, va);
	set_of(&sc, "six seven eight nine ten", &b, vb);
	similarity_exact(&a, &a, &r);
	CHECK(r.jaccard == 1 && r.cont_ab == 1 && r.cont_ba == 1,
	    "identical: %g %g %g", r.jaccard, r.cont_ab, r.cont_ba);
	similarity_exact(&a, &b, &r);
	CHECK(r.jaccard == 0 && r.shared == 0, "disjoint: %g", r.jaccard);
	set_of(&sc, "", &e1, va);
	set_of(&sc, " ,;. ", &e2, vb);
	similarity_exact(&e1, &e2, &r);
	CHECK(r.size_a == 0 && r.jaccard == 1 && r.cont_ab == 1,
	    "two empty documents: J %g c %g", r.jaccard, r.cont_ab);
	similarity_exact(&e1, &a, &r);
	CHECK(r.jaccard == 0 && r.cont_ab == 1 && r.cont_ba == 0,
	    "empty in a document: J %g c %g %g", r.jaccard, r.cont_ab,
	    r.cont_ba);
	shset_free(&a);
	shset_free(&b);
	shset_free(&e1);
	shset_free(&e2);
}

/* The set counts what it holds, across growth, with the value 0 too. */
static void
test_shset(void)
{
	struct shset s, t;
	uint64_t x = 7, v, zero = 0;
	size_t i;

	shset_init(&s);
	shset_init(&t);
	for (i = 0; i < 100000; i++) {
		v = splitmix64(&x);
		shset_add(&s, &v, 1);
		shset_add(&s, &v, 1);
		if (i % 2 == 0)
			shset_add(&t, &v, 1);
	}
	CHECK(s.n == 100000, "n = %zu", s.n);
	CHECK(t.n == 50000, "n = %zu", t.n);
	CHECK(shset_shared(&s, &t) == 50000, "shared %zu",
	    shset_shared(&s, &t));
	CHECK(!shset_has(&s, 0), "0 is not in the set yet");
	shset_add(&s, &zero, 1);
	shset_add(&t, &zero, 1);
	CHECK(shset_has(&s, 0) && s.n == 100001, "0 added: n %zu", s.n);
	CHECK(shset_shared(&s, &t) == 50001, "shared with 0: %zu",
	    shset_shared(&s, &t));
	shset_free(&s);
	shset_free(&t);
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Distinct values of v[0..n), sorted in place: their number. */
static size_t
distinct_sorted(uint64_t *v, size_t n)
{
	size_t i, m = 0;

	qsort(v, n, sizeof(*v), cmp_u64);
	for (i = 0; i < n; i++)
		if (m == 0 || v[m - 1] != v[i])
			v[m++] = v[i];
	return m;
}

/*
 * Hashes come in batches, as the shingler hands them on, and a batch
 * may grow the table part way through, its slots asked for ahead in the
 * table before: the set still holds each once.  A fifth of the values
 * share their top bits, so their probes wrap round the end of the table.
 */
static void
test_shset_batches(void)
{
	enum { N = 300000, BATCH = 1024 };
	struct shset s, t;
	uint64_t *v = malloc(N * sizeof(*v));
	uint64_t *sv = malloc(N * sizeof(*sv)), *tv = malloc(N * sizeof(*tv));
	uint64_t x = 11, y;
	size_t i, j, nt = 0, ns, nd, shared;

	if (!CHECK(v != NULL && sv != NULL && tv != NULL, "malloc"))
		return;
	for (i = 0; i < N; i++) {
		v[i] = splitmix64(&x);
		if (i % 5 == 0)
			v[i] |= 0xfff0000000000000ULL;
		if (i % 7 == 3)
			v[i] = v[i / 2];	/* a repeat */
		if (i % 3 == 0)
			tv[nt++] = v[i];
	}
	v[N / 2] = 0;
	shset_init(&s);
	shset_init(&t);
	for (i = 0; i < N; i += BATCH)
		shset_add(&s, v + i, N - i < BATCH ? N - i : BATCH);
	shset_add(&t, tv, nt);		/* one batch, many growths */
	memcpy(sv, v, N * sizeof(*v));
	ns = distinct_sorted(sv, N);
	nt = distinct_sorted(tv, nt);
	CHECK(s.n == ns, "n = %zu, %zu distinct", s.n, ns);
	CHECK(t.n == nt, "n = %zu, %zu distinct", t.n, nt);
	for (i = j = shared = 0; i < ns && j < nt; )
		if (sv[i] == tv[j]) {
			shared++;
			i++;
			j++;
		} else if (sv[i] < tv[j])
			i++;
		else
			j++;
	CHECK(shset_shared(&s, &t) == shared, "shared %zu, not %zu",
	    shset_shared(&s, &t), shared);
	CHECK(shset_shared(&t, &s) == shared, "the other way: %zu",
	    shset_shared(&t, &s));
	for (i = nd = 0; i < N; i++)
		nd += !shset_has(&s, v[i]);
	CHECK(nd == 0, "%zu values added not found", nd);
	for (i = nd = 0; i < N; i++) {
		y = splitmix64(&x);
		nd += shset_has(&t, y) != (bsearch(&y, tv, nt, sizeof(y),
		    cmp_u64) != NULL);
	}
	CHECK(nd == 0, "%zu wrong answers for values never added", nd);
	shset_free(&s);
	shset_free(&t);
	free(v);
	free(sv);
	free(tv);
}

static void
test_estimates_per_scheme(void)
{
	struct scheme sc;
	struct estimate e;
	uint64_t a[2] = { 0xF0F0F0F0F0F0F0F0ULL, 1 };
	uint64_t b[2] = { 0xF0F0F0F0F0F0F0F1ULL, 1 };

	memset(&sc, 0, sizeof(sc));
	sc.algo = ALGO_SIMHASH;
	sc.size = 64;
	sc.ngram = 3;
	similarity_estimate(&sc, a, b, &e);
	CHECK(e.have == EST_DISTANCE && e.distance == 1 && e.bits == 64,
	    "simhash distance %u of %u", e.distance, e.bits);
	CHECK(fabs(e.cosine - cos(M_PI / 64)) < 1e-12 &&
	    e.similarity == e.cosine, "cosine %g", e.cosine);
	sc.size = 128;
	similarity_estimate(&sc, a, b, &e);
	CHECK(e.distance == 1 && e.bits == 128, "simhash128 %u of %u",
	    e.distance, e.bits);
	sc.algo = ALGO_KEY;
	sc.size = 3;
	similarity_estimate(&sc, a, a, &e);
	CHECK(e.have == EST_KEY && e.equal && e.similarity == 1, "key equal");
	similarity_estimate(&sc, a, b, &e);
	CHECK(!e.equal && e.similarity == 0, "keys differ");
}

/*
 * The least overlap for a resemblance of t, by brute force, against
 * similarity_least_shared(); past min(na, nb), beyond says what it is.
 */
static void
test_least_shared(void)
{
	static const double ts[] = { 0.1, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95, 1 };
	size_t na, nb, o, most, want, got;
	unsigned i;

	for (i = 0; i < sizeof(ts) / sizeof(ts[0]); i++)
		for (na = 1; na <= 40; na++)
			for (nb = 1; nb <= 40; nb++) {
				most = na < nb ? na : nb;
				for (o = 0; o <= most; o++)
					if ((double)o / (double)(na + nb - o) >=
					    ts[i])
						break;
				want = o;
				got = similarity_least_shared(na, nb, ts[i],
				    1);
				CHECK(got == want, "%zu, %zu, t %g: %zu, "
				    "want %zu", na, nb, ts[i], got, want);
				got = similarity_least_shared(na, nb, ts[i],
				    0);
				CHECK(got == (want > most ? most : want),
				    "%zu, %zu, t %g, not beyond: %zu", na, nb,
				    ts[i], got);
			}
}

int
main(void)
{
	RUN(test_rose_set);
	RUN(test_rose_multiset);
	RUN(test_identical_disjoint_empty);
	RUN(test_shset);
	RUN(test_shset_batches);
	RUN(test_estimates_per_scheme);
	RUN(test_least_shared);
	return unit_status();
}
