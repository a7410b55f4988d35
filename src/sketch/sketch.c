/*
 * Dispatch from a scheme to its sketch, through its algorithm's
 * descriptor: one indirect call a batch of shingle hashes.
 */
#include <stdlib.h>
#include <string.h>

#include "algo.h"
#include "sketch.h"
#include "xmalloc.h"

void
sketch_init(struct sketch *s, const struct scheme *sc)
{
	memset(s, 0, sizeof(*s));
	s->sc = *sc;
	s->algo = algo_get(sc->algo);
	s->nv = scheme_nvalues(sc);
	s->out = xreallocarray(NULL, s->nv, sizeof(*s->out));
	s->state = xcalloc(1, s->algo->statesize);
	s->algo->init(s->state, sc);
}

void
sketch_reset(struct sketch *s)
{
	s->algo->reset(s->state);
}

void
sketch_add(struct sketch *s, const uint64_t *h, const double *w, size_t n)
{
	s->algo->add(s->state, h, w, n);
}

const uint64_t *
sketch_final(struct sketch *s)
{
	s->algo->final(s->state, s->out);
	return s->out;
}

void
sketch_free(struct sketch *s)
{
	if (s->algo->free != NULL)
		s->algo->free(s->state);
	free(s->state);
	s->state = NULL;
	free(s->out);
	s->out = NULL;
}
