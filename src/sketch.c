/*
 * Dispatch from a scheme to its sketch.
 */
#include <stdlib.h>
#include <string.h>

#include "sketch.h"
#include "xmalloc.h"

void
sketch_init(struct sketch *s, const struct scheme *sc)
{
	memset(s, 0, sizeof(*s));
	s->sc = *sc;
	s->nv = scheme_nvalues(sc);
	s->out = xreallocarray(NULL, s->nv, sizeof(*s->out));
	switch (sc->algo) {
	case ALGO_SIMHASH:
		simhash_init(&s->u.sim, sc->size, sc->seed);
		break;
	case ALGO_MINHASH:
	case ALGO_OPH:
		minhash_init(&s->u.min, sc->size, sc->algo == ALGO_OPH,
		    sc->seed);
		break;
	case ALGO_BOTTOMK:
	case ALGO_KEY:
		bottomk_init(&s->u.bot, sc->size);
		break;
	}
}

void
sketch_reset(struct sketch *s)
{
	switch (s->sc.algo) {
	case ALGO_SIMHASH:
		simhash_init(&s->u.sim, s->sc.size, s->sc.seed);
		break;
	case ALGO_MINHASH:
	case ALGO_OPH:
		minhash_reset(&s->u.min);
		break;
	case ALGO_BOTTOMK:
	case ALGO_KEY:
		bottomk_reset(&s->u.bot);
		break;
	}
}

void
sketch_add(struct sketch *s, const uint64_t *h, const double *w, size_t n)
{
	switch (s->sc.algo) {
	case ALGO_SIMHASH:
		if (w != NULL)
			simhash_add_weighted(&s->u.sim, h, w, n);
		else
			simhash_add(&s->u.sim, h, n);
		break;
	case ALGO_MINHASH:
	case ALGO_OPH:
		minhash_add(&s->u.min, h, n);
		break;
	case ALGO_BOTTOMK:
	case ALGO_KEY:
		bottomk_add(&s->u.bot, h, n);
		break;
	}
}

const uint64_t *
sketch_final(struct sketch *s)
{
	switch (s->sc.algo) {
	case ALGO_SIMHASH:
		simhash_final(&s->u.sim, s->out);
		break;
	case ALGO_MINHASH:
	case ALGO_OPH:
		minhash_final(&s->u.min, s->out);
		break;
	case ALGO_BOTTOMK:
		bottomk_final(&s->u.bot, s->out);
		break;
	case ALGO_KEY:
		s->out[0] = bottomk_key(&s->u.bot);
		break;
	}
	return s->out;
}

void
sketch_free(struct sketch *s)
{
	switch (s->sc.algo) {
	case ALGO_SIMHASH:
		break;
	case ALGO_MINHASH:
	case ALGO_OPH:
		minhash_free(&s->u.min);
		break;
	case ALGO_BOTTOMK:
	case ALGO_KEY:
		bottomk_free(&s->u.bot);
		break;
	}
	free(s->out);
	s->out = NULL;
}
