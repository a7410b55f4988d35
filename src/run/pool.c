/*
 * Ordered work pool on POSIX threads.  Items sit in a ring: "head" is the
 * oldest not yet handed back, "next" the first not yet claimed by a
 * worker, "tail" the first free slot.
 */
#include <pthread.h>
#include <stdlib.h>

#include "pool.h"
#include "thread.h"
#include "xmalloc.h"

struct pool {
	pthread_mutex_t mu;
	pthread_cond_t	work;
	pthread_cond_t	done;
	pool_fn	*fn;
	void	**wctx;
	unsigned nthreads;
	struct thread *th;
	void	**items;
	unsigned char *finished;
	size_t	 cap, head, next, tail;
	int	 quit;
};

struct worker {
	struct pool *p;
	void	*ctx;
};

static void *
worker_main(void *arg)
{
	struct worker *w = arg;
	struct pool *p = w->p;
	size_t i;

	pthread_mutex_lock(&p->mu);
	for (;;) {
		while (!p->quit && p->next == p->tail)
			pthread_cond_wait(&p->work, &p->mu);
		if (p->next == p->tail)
			break;
		i = p->next++ % p->cap;
		pthread_mutex_unlock(&p->mu);
		p->fn(w->ctx, p->items[i]);
		pthread_mutex_lock(&p->mu);
		p->finished[i] = 1;
		pthread_cond_broadcast(&p->done);
	}
	pthread_mutex_unlock(&p->mu);
	free(w);
	return NULL;
}

struct pool *
pool_new(unsigned nthreads, pool_fn *fn, void **wctx)
{
	struct pool *p;
	struct worker *w;
	unsigned i;

	p = xcalloc(1, sizeof(*p));
	p->fn = fn;
	p->wctx = wctx;
	p->nthreads = nthreads > 1 ? nthreads : 0;
	p->cap = 4 * (size_t)nthreads + 4;
	p->items = xreallocarray(NULL, p->cap, sizeof(*p->items));
	p->finished = xcalloc(p->cap, 1);
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->work, NULL);
	pthread_cond_init(&p->done, NULL);
	if (p->nthreads > 0) {
		p->th = xreallocarray(NULL, p->nthreads, sizeof(*p->th));
		for (i = 0; i < p->nthreads; i++) {
			w = xmalloc(sizeof(*w));
			w->p = p;
			w->ctx = wctx[i];
			if (thread_start(&p->th[i], worker_main, w) != 0) {
				/* Go on with the threads we have. */
				free(w);
				break;
			}
		}
		if ((p->nthreads = i) == 0) {
			free(p->th);
			p->th = NULL;
		}
	}
	return p;
}

int
pool_full(const struct pool *p)
{
	return p->tail - p->head == p->cap;
}

void
pool_put(struct pool *p, void *item)
{
	size_t i;

	if (p->nthreads == 0) {
		p->fn(p->wctx[0], item);
		i = p->tail++ % p->cap;
		p->items[i] = item;
		p->finished[i] = 1;
		return;
	}
	pthread_mutex_lock(&p->mu);
	i = p->tail++ % p->cap;
	p->items[i] = item;
	p->finished[i] = 0;
	pthread_cond_signal(&p->work);
	pthread_mutex_unlock(&p->mu);
}

void *
pool_get(struct pool *p)
{
	void *item;
	size_t i;

	if (p->nthreads == 0) {
		if (p->head == p->tail)
			return NULL;
		return p->items[p->head++ % p->cap];
	}
	pthread_mutex_lock(&p->mu);
	if (p->head == p->tail) {
		pthread_mutex_unlock(&p->mu);
		return NULL;
	}
	i = p->head % p->cap;
	while (!p->finished[i])
		pthread_cond_wait(&p->done, &p->mu);
	item = p->items[i];
	p->head++;
	pthread_mutex_unlock(&p->mu);
	return item;
}

void
pool_free(struct pool *p)
{
	unsigned i;

	if (p == NULL)
		return;
	if (p->nthreads > 0) {
		pthread_mutex_lock(&p->mu);
		p->quit = 1;
		pthread_cond_broadcast(&p->work);
		pthread_mutex_unlock(&p->mu);
		for (i = 0; i < p->nthreads; i++)
			thread_join(&p->th[i]);
	}
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->work);
	pthread_cond_destroy(&p->done);
	free(p->th);
	free(p->items);
	free(p->finished);
	free(p);
}
