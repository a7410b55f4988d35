/*
 * Unit tests of src/run/pool.c: whatever the number of threads, and however
 * long each item's work takes, pool_get hands items back in the order
 * pool_put took them, each one processed exactly once and finished.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pool.h"
#include "unit.h"

#define NITEMS	1000
#define MAXTHREADS 8

struct item {
	size_t	 seq;
	unsigned usec;		/* how long its work takes */
	int	 runs;		/* times the work was done */
	int	 worker;	/* the context it was done with */
};

struct wctx {
	int	 id;
	size_t	 done;		/* items done with this context */
};

static void
work(void *ctx, void *arg)
{
	struct wctx *w = ctx;
	struct item *it = arg;
	struct timespec ts;

	if (it->usec > 0) {
		ts.tv_sec = 0;
		ts.tv_nsec = (long)it->usec * 1000;
		nanosleep(&ts, NULL);
	}
	it->runs++;
	it->worker = w->id;
	w->done++;
}

/*
 * Check an item handed back: the next in order, its work done once, with
 * one of the workers' contexts.
 */
static int
check_got(const struct item *it, size_t want, unsigned nthreads)
{
	if (!CHECK(it != NULL, "%u threads: NULL before item %zu", nthreads,
	    want))
		return 0;
	if (!CHECK(it->seq == want, "%u threads: got item %zu, want %zu",
	    nthreads, it->seq, want))
		return 0;
	if (!CHECK(it->runs == 1, "%u threads: item %zu handed back after "
	    "%d runs of its work", nthreads, want, it->runs))
		return 0;
	return CHECK(it->worker >= 0 && (unsigned)it->worker <
	    (nthreads > 1 ? nthreads : 1), "%u threads: item %zu done with "
	    "context %d", nthreads, want, it->worker);
}

/*
 * Put NITEMS items, each taking 0 to 300 microseconds (a few much
 * longer), getting items back when the pool is full and, with eager,
 * also at random moments; then drain it.
 */
static void
run_pool(unsigned nthreads, int eager)
{
	static struct item items[NITEMS];
	struct wctx ctx[MAXTHREADS];
	void *wctx[MAXTHREADS];
	struct pool *p;
	struct item *it;
	uint64_t x = nthreads * 2 + (unsigned)eager;
	size_t i, next = 0, total = 0;
	unsigned t;

	for (t = 0; t < MAXTHREADS; t++) {
		ctx[t].id = (int)t;
		ctx[t].done = 0;
		wctx[t] = &ctx[t];
	}
	for (i = 0; i < NITEMS; i++) {
		items[i].seq = i;
		items[i].usec = (unsigned)(splitmix64(&x) % 300);
		if (i % 97 == 0)
			items[i].usec = 3000;	/* a slow one holds the line */
		if (i % 5 == 0)
			items[i].usec = 0;
		items[i].runs = 0;
		items[i].worker = -1;
	}
	p = pool_new(nthreads, work, wctx);
	if (!CHECK(p != NULL, "pool_new(%u) failed", nthreads))
		return;
	CHECK(pool_get(p) == NULL, "%u threads: an empty pool gave an item",
	    nthreads);
	for (i = 0; i < NITEMS; i++) {
		while (pool_full(p) || (eager && splitmix64(&x) % 3 == 0 &&
		    next < i)) {
			it = pool_get(p);
			if (!check_got(it, next, nthreads))
				goto out;
			next++;
		}
		pool_put(p, &items[i]);
		if (nthreads == 1)
			CHECK(items[i].runs == 1, "1 thread: item %zu not done "
			    "by pool_put", i);
	}
	while ((it = pool_get(p)) != NULL) {
		if (!check_got(it, next, nthreads))
			goto out;
		next++;
	}
	CHECK(next == NITEMS, "%u threads: %zu items back, want %d",
	    nthreads, next, NITEMS);
	for (t = 0; t < MAXTHREADS; t++)
		total += ctx[t].done;
	CHECK(total == NITEMS, "%u threads: the contexts count %zu items, "
	    "want %d", nthreads, total, NITEMS);
	if (nthreads == 1)
		CHECK(ctx[0].done == NITEMS, "1 thread: not all done with "
		    "context 0");
out:
	/* Items may still be in flight after a failure: drain first. */
	while (pool_get(p) != NULL)
		;
	pool_free(p);
}

static void
test_order_1(void)
{
	run_pool(1, 0);
	run_pool(1, 1);
}

static void
test_order_2(void)
{
	run_pool(2, 0);
	run_pool(2, 1);
}

static void
test_order_8(void)
{
	run_pool(8, 0);
	run_pool(8, 1);
}

/* A pool that is made and freed without work ends cleanly. */
static void
test_idle(void)
{
	struct wctx ctx[MAXTHREADS];
	void *wctx[MAXTHREADS];
	struct pool *p;
	unsigned t;

	for (t = 0; t < MAXTHREADS; t++) {
		ctx[t].id = (int)t;
		ctx[t].done = 0;
		wctx[t] = &ctx[t];
	}
	p = pool_new(MAXTHREADS, work, wctx);
	CHECK(p != NULL && !pool_full(p) && pool_get(p) == NULL,
	    "idle pool not empty");
	pool_free(p);
	for (t = 0; t < MAXTHREADS; t++)
		CHECK(ctx[t].done == 0, "idle pool did work");
}

int
main(void)
{
	RUN(test_order_1);
	RUN(test_order_2);
	RUN(test_order_8);
	RUN(test_idle);
	return unit_status();
}
