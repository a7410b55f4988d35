/*
 * neardup near's index: the fingerprint lines of its first operand, the
 * tables that search them, by distance or by estimated resemblance, and
 * the rows of the matches.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>

#include "algo.h"
#include "cli.h"
#include "nearix.h"
#include "progress.h"
#include "report.h"
#include "similarity.h"

int
nearix_kind(int algo)
{
	const struct algo_desc *a = algo_get(algo);

	if (a->cand == CAND_HAMMING)
		return NEAR_DISTANCE;
	/* lshindex.c finds candidates by bands or the smallest values. */
	if ((a->flags & ALGO_RESEMBLANCE) && (a->cand == CAND_BANDS ||
	    a->cand == CAND_SMALLEST))
		return NEAR_RESEM;
	return NEAR_NONE;
}

char *
nearix_schemes(char *buf, size_t size)
{
	char h[ALGO_LIST_MAX], t[ALGO_LIST_MAX];

	snprintf(buf, size, "%s fingerprints by -d and %s ones by -t",
	    algo_list(h, sizeof(h), 0, CAND_HAMMING, "", "and"),
	    algo_list(t, sizeof(t), ALGO_RESEMBLANCE, -1, "", "and"));
	return buf;
}

void
nearix_scheme(struct near *r, const char *path, const struct scheme *sc)
{
	char l[NEARIX_SCHEMES_MAX];
	int kind = nearix_kind(sc->algo);

	if (kind == NEAR_NONE)
		errx(EXIT_TROUBLE, "%s: %s fingerprints cannot be searched: "
		    "near searches %s", cli_vis(path),
		    scheme_algo_name(sc->algo), nearix_schemes(l, sizeof(l)));
	if (r->mode == NEAR_NONE) {
		if (kind == NEAR_DISTANCE && !r->have_d) {
			warnx("-d: the largest distance is required");
			cli_usage(r->cmd);
		}
		r->mode = kind;
	} else if (r->mode != kind)
		errx(EXIT_TROUBLE, "%s: %s fingerprints are searched by %s, "
		    "not %s", cli_vis(path), scheme_algo_name(sc->algo),
		    kind == NEAR_RESEM ? "-t" : "-d",
		    kind == NEAR_RESEM ? "-d" : "-t");
	if (kind == NEAR_DISTANCE && r->d > INDEX_MAXD(sc->size))
		errx(EXIT_TROUBLE, "-d: %u: too large for %u-bit fingerprints "
		    "(at most %u)", r->d, sc->size, INDEX_MAXD(sc->size));
}

int
nearix_load(struct near *r, const char *path)
{
	r->ix.hint_text = "the index is fingerprint lines, as neardup hash "
	    "prints them";
	r->ix.hint_dir = "the index is a file of fingerprint lines";
	if (fpset_load(&r->ix, path, r->rep.zero,
	    r->mode == NEAR_DISTANCE) == -1) {
		fpset_free(&r->ix);
		return -1;
	}
	if (r->ix.have_sc)
		nearix_scheme(r, path, &r->ix.sc);
	/*
	 * --self by resemblance uses cluster's tables (nearself.c); -n
	 * alone, those of the default threshold, which bound what they miss.
	 * An empty index of no known mode needs no tables.
	 */
	if (r->mode == NEAR_RESEM && !r->self && r->ix.n > 0)
		lshindex_build(&r->lx, &r->ix.sc, r->ix.v, r->ix.n,
		    r->exact ? SIMILARITY_DEFAULT : r->t);
	if (r->mode != NEAR_DISTANCE)
		return 0;
	if (r->self)
		progress_stage("building the tables", NULL, 0);
	index_build(&r->index, r->ix.v, r->ix.n, r->ix.have_sc ?
	    r->ix.sc.size : 64, r->d, r->self ? INDEX_SELF : INDEX_QUERIES);
	return 0;
}

void
nearix_query(struct near *r, const char *name, const uint64_t *v)
{
	size_t n, i;

	if (r->mode == NEAR_RESEM) {
		n = r->ix.n == 0 ? 0 : lshindex_query(&r->lx, v, r->t,
		    r->limit, r->exact, &r->lm, &r->lmcap);
		for (i = 0; i < n; i++)
			nearix_put(r, name, fpset_name(&r->ix, r->lm[i].id), 0,
			    r->lm[i].sim);
		return;
	}
	n = index_query(&r->index, v, &r->m, &r->mcap);
	if (r->limit > 0 && n > r->limit)
		n = r->limit;
	for (i = 0; i < n; i++)
		nearix_put(r, name, fpset_name(&r->ix, r->m[i].id),
		    r->m[i].dist, 0);
}

void
nearix_put(struct near *r, const char *a, const char *b, unsigned dist,
    double sim)
{
	progress_stdout();
	report_row(&r->rep);
	report_cell_name(&r->rep, "query", a);
	report_cell_name(&r->rep, "match", b);
	if (r->mode == NEAR_RESEM)
		report_cell_figure(&r->rep, "est_jaccard", 1, sim);
	else
		report_cell_count(&r->rep, "distance", dist);
	report_row_end(&r->rep);
	r->printed++;
}

void
nearix_header(struct near *r)
{
	progress_stdout();
	report_header(&r->rep, r->mode == NEAR_RESEM ?
	    "query\tmatch\test_jaccard" : "query\tmatch\tdistance");
}

void
nearix_free(struct near *r)
{
	index_free(&r->index);
	lshindex_free(&r->lx);
	free(r->m);
	free(r->lm);
	fpset_free(&r->ix);
}
