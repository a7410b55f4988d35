/*
 * neardup near --self: the index joined with itself, by its permuted
 * tables (simhash) or by cluster's bands (minhash, oph, bottomk).
 */
#include <stdlib.h>

#include "cluster.h"
#include "nearself.h"
#include "progress.h"
#include "xmalloc.h"

/* The progress of the join, as the index reports it. */
static void
join_tick(void *ctx, uint64_t done, uint64_t total)
{
	static int staged;

	(void)ctx;
	if (!staged) {
		progress_stage("joining", NULL, total);
		staged = 1;
	}
	progress_set(done);
}

/* A pair at distance dist, or of estimated resemblance sim. */
struct pair {
	uint32_t a, b;
	unsigned dist;
	double	 sim;
};

/*
 * The pairs, printed by a, then distance or resemblance, then b: all of
 * them at the end, from the tables, which find them in no order; or from
 * a scan, which finds them by a, those of each a as soon as the next a
 * has one (put_pairs()), so that output begins at once and memory holds
 * one a's pairs only.
 */
struct pairs {
	struct pair *p;
	size_t	 n, cap;
	struct near *r;
	int	 stream;	/* by a: print each a's when the next comes */
};

static int
pair_cmp(const void *x, const void *y)
{
	const struct pair *p = x, *q = y;

	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	if (p->dist != q->dist)
		return p->dist < q->dist ? -1 : 1;
	if (p->sim != q->sim)
		return p->sim > q->sim ? -1 : 1;
	return (p->b > q->b) - (p->b < q->b);
}

static void
put_pairs(struct pairs *ps)
{
	size_t k;

	if (ps->n > 1)
		qsort(ps->p, ps->n, sizeof(*ps->p), pair_cmp);
	for (k = 0; k < ps->n; k++)
		nearix_put(ps->r, fpset_name(&ps->r->ix, ps->p[k].a),
		    fpset_name(&ps->r->ix, ps->p[k].b), ps->p[k].dist,
		    ps->p[k].sim);
	ps->n = 0;
}

static void
add_pair(struct pairs *ps, uint32_t a, uint32_t b, unsigned dist,
    double sim)
{
	if (ps->stream && ps->n > 0 && ps->p[0].a != a)
		put_pairs(ps);
	if (ps->n == ps->cap) {
		ps->cap = ps->cap ? 2 * ps->cap : 1024;
		ps->p = xreallocarray(ps->p, ps->cap, sizeof(*ps->p));
	}
	ps->p[ps->n].a = a;
	ps->p[ps->n].b = b;
	ps->p[ps->n].dist = dist;
	ps->p[ps->n].sim = sim;
	ps->n++;
}

/* A pair within d bits (an index_pair_fn). */
static void
add_dist_pair(void *ctx, uint32_t a, uint32_t b, unsigned dist)
{
	add_pair(ctx, a, b, dist, 0);
}

/* Every pair of the index within d bits. */
static void
self_dist(struct near *r, struct pairs *ps)
{
	r->index.tick = join_tick;
	ps->stream = r->index.ntables == 0;
	index_self(&r->index, add_dist_pair, ps);
}

/*
 * Every pair of estimated resemblance at least t that cluster's bands
 * find, as cluster --pairs lists them.
 */
static void
self_resem(struct near *r, struct pairs *ps)
{
	struct cluster_opts o = { 0 };
	struct clusters cl;
	size_t i;

	progress_stage("joining", NULL, 0);
	o.t = r->t;
	o.pairs = 1;
	cluster_bands(&r->ix.sc, r->t, 1, &o.lsh);
	cluster_run(&r->ix.sc, r->ix.v, r->ix.n, &o, &cl);
	for (i = 0; i < cl.npair; i++)
		add_pair(ps, cl.pair[i].a, cl.pair[i].b, 0, cl.pair[i].sim);
	cluster_free(&cl);
}

void
nearself_run(struct near *r)
{
	struct pairs ps = { 0 };

	ps.r = r;
	/* An empty index of no known mode has no tables: nothing to join. */
	if (r->ix.n > 0 && r->mode == NEAR_RESEM)
		self_resem(r, &ps);
	else if (r->ix.n > 0)
		self_dist(r, &ps);
	progress_end();
	put_pairs(&ps);
	free(ps.p);
}
