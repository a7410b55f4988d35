/*
 * The prefault thread: it takes the asked ranges one at a time, in slot
 * order from where it last stopped, and faults each in a chunk at a time,
 * so that a drop waits at most for one chunk.
 */
#include <sys/mman.h>

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "prefault.h"
#include "thread.h"
#include "xmalloc.h"

#define CHUNK	(1024 * 1024)

enum { IDLE, ASKED, BUSY };

struct slot {
	char	*addr;
	size_t	 len;
	int	 state;
	int	 cancel;	/* BUSY: stop after this chunk */
};

struct prefault {
	pthread_mutex_t mu;
	pthread_cond_t cv;	/* a slot asked, dropped or done; quit */
	struct thread th;
	struct slot *slot;
	size_t	 nslots, next;
	uintptr_t page;		/* bytes of a page, a power of two */
	int	 started;	/* 1: the thread runs, -1: it could not */
	int	 quit;
};

/* An asked slot, from where the thread last took one; locked. */
static struct slot *
asked(struct prefault *f)
{
	size_t i, k;

	for (i = 0; i < f->nslots; i++) {
		k = (f->next + i) % f->nslots;
		if (f->slot[k].state == ASKED) {
			f->next = k + 1;
			return &f->slot[k];
		}
	}
	return NULL;
}

static void *
prefault_main(void *arg)
{
	struct prefault *f = arg;
	struct slot *s;
	size_t done, n;

	pthread_mutex_lock(&f->mu);
	for (;;) {
		s = NULL;
		while (!f->quit && (s = asked(f)) == NULL)
			pthread_cond_wait(&f->cv, &f->mu);
		if (s == NULL)
			break;
		s->state = BUSY;
		s->cancel = 0;
		for (done = 0; done < s->len && !s->cancel && !f->quit;
		    done += n) {
			n = s->len - done < CHUNK ? s->len - done : CHUNK;
			pthread_mutex_unlock(&f->mu);
#ifdef MADV_POPULATE_WRITE
			(void)madvise(s->addr + done, n, MADV_POPULATE_WRITE);
#endif
			pthread_mutex_lock(&f->mu);
		}
		s->state = IDLE;
		pthread_cond_broadcast(&f->cv);
	}
	pthread_mutex_unlock(&f->mu);
	return NULL;
}

/*
 * Can this system fault memory in ahead?  An emulator may take the advice
 * and do nothing: the page must be resident after it.
 */
static int
supported(void)
{
	int ok = 0;
#ifdef MADV_POPULATE_WRITE
	unsigned char in = 0;
	void *p;

	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 0;
	ok = madvise(p, 4096, MADV_POPULATE_WRITE) == 0 &&
	    mincore(p, 4096, &in) == 0 && (in & 1);
	munmap(p, 4096);
#endif
	return ok;
}

struct prefault *
prefault_new(size_t nslots)
{
	struct prefault *f;

	if (!supported())
		return NULL;
	f = xcalloc(1, sizeof(*f));
	f->slot = xcalloc(nslots, sizeof(*f->slot));
	f->nslots = nslots;
	f->page = sysconf(_SC_PAGESIZE) > 0 ?
	    (uintptr_t)sysconf(_SC_PAGESIZE) : 4096;
	pthread_mutex_init(&f->mu, NULL);
	pthread_cond_init(&f->cv, NULL);
	return f;
}

/* Wait for the slot to be neither asked nor faulted in; locked. */
static void
settle(struct prefault *f, struct slot *s)
{
	if (s->state == ASKED)
		s->state = IDLE;
	while (s->state == BUSY) {
		s->cancel = 1;
		pthread_cond_wait(&f->cv, &f->mu);
	}
}

void
prefault_ask(struct prefault *f, size_t slot, void *addr, size_t len)
{
	struct slot *s = &f->slot[slot];
	uintptr_t from = ((uintptr_t)addr + f->page - 1) & ~(f->page - 1),
	    to = ((uintptr_t)addr + len) & ~(f->page - 1);

	if (to <= from) {
		prefault_drop(f, slot);
		return;
	}
	/* Asks and drops come from one thread at a time (prefault.h). */
	if (f->started == 0)
		f->started = thread_start(&f->th, prefault_main, f) == 0 ?
		    1 : -1;
	if (f->started < 0)
		return;
	pthread_mutex_lock(&f->mu);
	settle(f, s);
	s->addr = (char *)from;
	s->len = (size_t)(to - from);
	s->state = ASKED;
	pthread_cond_broadcast(&f->cv);
	pthread_mutex_unlock(&f->mu);
}

void
prefault_drop(struct prefault *f, size_t slot)
{
	pthread_mutex_lock(&f->mu);
	settle(f, &f->slot[slot]);
	pthread_mutex_unlock(&f->mu);
}

void
prefault_free(struct prefault *f)
{
	if (f == NULL)
		return;
	if (f->started > 0) {
		pthread_mutex_lock(&f->mu);
		f->quit = 1;
		pthread_cond_broadcast(&f->cv);
		pthread_mutex_unlock(&f->mu);
		thread_join(&f->th);
	}
	pthread_mutex_destroy(&f->mu);
	pthread_cond_destroy(&f->cv);
	free(f->slot);
	free(f);
}
