/*
 * The job thread: it takes the first job of the queue, runs it, marks it
 * done, and takes the next, or waits for one.
 */
#include <pthread.h>
#include <stdlib.h>

#include "bgjob.h"
#include "thread.h"
#include "xmalloc.h"

struct bgjob {
	pthread_mutex_t mu;
	pthread_cond_t cv;	/* a job given or done; quit */
	struct thread th;
	struct bgjob_task *head, **tail;	/* given, not yet taken */
	int	 started;	/* 1: the thread runs, -1: it could not */
	int	 quit;
};

static void *
bgjob_main(void *arg)
{
	struct bgjob *b = arg;
	struct bgjob_task *t;

	pthread_mutex_lock(&b->mu);
	for (;;) {
		while (!b->quit && b->head == NULL)
			pthread_cond_wait(&b->cv, &b->mu);
		if ((t = b->head) == NULL)
			break;
		if ((b->head = t->next) == NULL)
			b->tail = &b->head;
		pthread_mutex_unlock(&b->mu);
		t->fn(t->arg);
		pthread_mutex_lock(&b->mu);
		atomic_store_explicit(&t->done, 1, memory_order_release);
		pthread_cond_broadcast(&b->cv);
	}
	pthread_mutex_unlock(&b->mu);
	return NULL;
}

struct bgjob *
bgjob_new(void)
{
	struct bgjob *b = xcalloc(1, sizeof(*b));

	b->tail = &b->head;
	pthread_mutex_init(&b->mu, NULL);
	pthread_cond_init(&b->cv, NULL);
	return b;
}

void
bgjob_start(struct bgjob *b, struct bgjob_task *t)
{
	atomic_store_explicit(&t->done, 0, memory_order_relaxed);
	if (b->started == 0)
		b->started = thread_start(&b->th, bgjob_main, b) == 0 ?
		    1 : -1;
	if (b->started < 0) {
		t->fn(t->arg);
		atomic_store_explicit(&t->done, 1, memory_order_release);
		return;
	}
	t->next = NULL;
	pthread_mutex_lock(&b->mu);
	*b->tail = t;
	b->tail = &t->next;
	pthread_cond_broadcast(&b->cv);
	pthread_mutex_unlock(&b->mu);
}

void
bgjob_wait(struct bgjob *b, struct bgjob_task *t)
{
	if (bgjob_done(t))
		return;
	pthread_mutex_lock(&b->mu);
	while (!atomic_load_explicit(&t->done, memory_order_acquire))
		pthread_cond_wait(&b->cv, &b->mu);
	pthread_mutex_unlock(&b->mu);
}

void
bgjob_free(struct bgjob *b)
{
	if (b == NULL)
		return;
	if (b->started > 0) {
		pthread_mutex_lock(&b->mu);
		b->quit = 1;
		pthread_cond_broadcast(&b->cv);
		pthread_mutex_unlock(&b->mu);
		thread_join(&b->th);
	}
	pthread_mutex_destroy(&b->mu);
	pthread_cond_destroy(&b->cv);
	free(b);
}
