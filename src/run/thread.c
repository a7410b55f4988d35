/*
 * Starting and joining threads, in one place: all of neardup's threads
 * are started here, with the default attributes.
 */
#include <pthread.h>

#include "thread.h"

int
thread_start(struct thread *t, void *(*fn)(void *), void *arg)
{
	return pthread_create(&t->id, NULL, fn, arg) == 0 ? 0 : -1;
}

void
thread_join(struct thread *t)
{
	(void)pthread_join(t->id, NULL);
}
