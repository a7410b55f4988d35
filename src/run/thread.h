/*
 * The one place neardup starts threads (the pool's workers, the job
 * thread, the prefault thread, compare's readers, the progress line's
 * sizer): a thread runs a function of its argument until it returns, and
 * is joined.  Every start may fail, and each caller then does without it.
 */
#ifndef THREAD_H
#define THREAD_H

#include <pthread.h>

struct thread {
	pthread_t id;
};

/*
 * Run fn(arg) in a new thread t: 0, or -1 if no thread could be started
 * (the caller does the work itself, or goes on without it).
 */
int	thread_start(struct thread *t, void *(*fn)(void *), void *arg);

/* Wait until the thread t started has returned. */
void	thread_join(struct thread *t);

#endif
