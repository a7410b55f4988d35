/*
 * An ordered work pool: items are processed by worker threads in any order
 * and handed back in the order they were put in, so output never depends
 * on the number of threads.  With one thread there are no threads at all:
 * pool_put does the work at once.
 */
#ifndef POOL_H
#define POOL_H

#include <stddef.h>

/* Do the work of one item with a worker's own context. */
typedef void pool_fn(void *wctx, void *item);

struct pool;

/* Start nthreads workers; wctx[i] is worker i's context. */
struct pool *pool_new(unsigned nthreads, pool_fn *, void **wctx);

/* Is the window of items in flight full (pool_get first)? */
int	pool_full(const struct pool *);

/* Queue an item (the pool must not be full). */
void	pool_put(struct pool *, void *item);

/* The oldest item once its work is done, or NULL if none is queued. */
void	*pool_get(struct pool *);

/* Stop the workers (all items must have been got). */
void	pool_free(struct pool *);

#endif
