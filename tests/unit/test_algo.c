/*
 * The table of algorithms (algo.h): every row is whole and agrees with
 * itself, so that a new row that leaves something out fails here rather
 * than in the middle of a cluster run.
 */
#include <stdlib.h>
#include <string.h>

#include "algo.h"
#include "scheme.h"
#include "similarity.h"
#include "sketch.h"
#include "unit.h"

#define NSET	500

static struct scheme
scheme_of(enum algo a)
{
	struct scheme sc;

	memset(&sc, 0, sizeof(sc));
	sc.algo = a;
	sc.size = scheme_default_size(a);
	sc.ngram = 3;
	sc.seed = 7;
	return sc;
}

/* Each row has a name, sizes and every function a sketch needs. */
static void
test_rows_whole(void)
{
	const struct algo_desc *a;
	size_t i, j;

	CHECK(algo_count() >= 5, "%zu algorithms", algo_count());
	for (i = 0; i < algo_count(); i++) {
		a = algo_get((enum algo)i);
		if (!CHECK(a != NULL && a->name != NULL, "row %zu empty", i))
			continue;
		CHECK(algo_lookup(a->name) == (int)i, "%s: lookup", a->name);
		for (j = 0; j < i; j++)
			CHECK(strcmp(a->name, algo_get((enum algo)j)->name) != 0,
			    "%s: named twice", a->name);
		CHECK(a->check_size(a->defsize) == NULL, "%s: default size "
		    "refused", a->name);
		CHECK(a->check_size(0) != NULL, "%s: size 0 taken", a->name);
		CHECK(a->digits >= 1 && a->digits <= 16, "%s: %u digits",
		    a->name, a->digits);
		CHECK(a->statesize > 0 && a->init != NULL && a->reset != NULL &&
		    a->add != NULL && a->final != NULL, "%s: sketch incomplete",
		    a->name);
		CHECK(a->similarity != NULL && a->estimate != NULL,
		    "%s: estimator missing", a->name);
	}
	CHECK(algo_lookup("nosuch") == -1, "unknown name found");
}

/* A scheme of each algorithm at its default size formats and parses back. */
static void
test_scheme_round_trip(void)
{
	struct scheme sc, back;
	char buf[SCHEME_MAX];
	const char *why;
	size_t i, n;

	for (i = 0; i < algo_count(); i++) {
		sc = scheme_of((enum algo)i);
		n = scheme_format(&sc, buf);
		CHECK(scheme_parse(buf, n, &back, &why) == 0 &&
		    scheme_equal(&sc, &back), "%s: does not parse back", buf);
		CHECK(scheme_nvalues(&sc) >= 1, "%s: no values", buf);
	}
}

/*
 * A set against itself is as similar as the scheme can say; the figure
 * from similarity is the one estimate gives, and the values pass the
 * row's own check.
 */
static void
test_estimators_agree(void)
{
	uint64_t *h = malloc(NSET * sizeof(*h)), *a, *b;
	struct estimate e;
	struct scheme sc;
	struct sketch sk;
	const struct algo_desc *al;
	size_t i, nv;
	double s;

	for (i = 0; i < NSET; i++)
		h[i] = (i + 1) * 0x9E3779B97F4A7C15ULL;
	for (i = 0; i < algo_count(); i++) {
		sc = scheme_of((enum algo)i);
		al = algo_get(sc.algo);
		nv = scheme_nvalues(&sc);
		a = calloc(nv, sizeof(*a));
		b = calloc(nv, sizeof(*b));
		sketch_init(&sk, &sc);
		sketch_add(&sk, h, NULL, NSET);
		memcpy(a, sketch_final(&sk), nv * sizeof(*a));
		sketch_reset(&sk);
		sketch_add(&sk, h + NSET / 2, NULL, NSET - NSET / 2);
		memcpy(b, sketch_final(&sk), nv * sizeof(*b));
		sketch_free(&sk);
		CHECK(al->similarity(&sc, a, a, nv) == 1, "%s: a set is not "
		    "like itself", al->name);
		s = al->similarity(&sc, a, b, nv);
		similarity_estimate(&sc, a, b, &e);
		CHECK(e.similarity == s && e.have != 0, "%s: estimate %g, "
		    "similarity %g", al->name, e.similarity, s);
		CHECK(al->check_values == NULL || al->check_values(a, nv) ==
		    NULL, "%s: its own values refused", al->name);
		free(a);
		free(b);
	}
	free(h);
}

int
main(void)
{
	RUN(test_rows_whole);
	RUN(test_scheme_round_trip);
	RUN(test_estimators_agree);
	return unit_status();
}
