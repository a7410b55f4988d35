/*
 * Jobs done one at a time, in the order given, in a thread of their own:
 * work its owner can go on without until it needs the result, such as a
 * table rebuilt larger while the old one is still read (tagmap.c).  Jobs
 * are given from one thread at a time; each has a flag of its own, so
 * that owners sharing the thread can each tell when theirs is done.
 * Where no thread can be started, a job is done when it is given, in the
 * caller's thread.
 */
#ifndef BGJOB_H
#define BGJOB_H

#include <stdatomic.h>

struct bgjob_task {
	void	(*fn)(void *);
	void	*arg;
	atomic_int done;	/* fn has returned */
	struct bgjob_task *next;	/* in the queue */
};

struct bgjob;

/* A thread for jobs, started with the first job. */
struct bgjob *bgjob_new(void);

/*
 * Run t->fn(t->arg) in the thread once the jobs given before it are done.
 * t must stay in place until its job is done.
 */
void	bgjob_start(struct bgjob *, struct bgjob_task *t);

/* Has t's job returned?  What it wrote can then be read. */
static inline int
bgjob_done(struct bgjob_task *t)
{
	return atomic_load_explicit(&t->done, memory_order_acquire);
}

/* Wait until t's job has returned. */
void	bgjob_wait(struct bgjob *, struct bgjob_task *t);

/* Stop the thread, once the jobs given are done.  NULL: nothing. */
void	bgjob_free(struct bgjob *);

#endif
