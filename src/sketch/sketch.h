/*
 * A sketch turns a stream of shingle hashes into the values of one
 * fingerprint, whichever algorithm the scheme names.
 */
#ifndef SKETCH_H
#define SKETCH_H

#include <stddef.h>
#include <stdint.h>

#include "scheme.h"

struct sketch {
	struct scheme sc;
	const struct algo_desc *algo;	/* the scheme's descriptor */
	void	*state;		/* its sketch's, algo->statesize bytes */
	size_t	 nv;		/* values in out */
	uint64_t *out;		/* the fingerprint after sketch_final */
};

void	sketch_init(struct sketch *, const struct scheme *);

/* Empty the sketch for the next document. */
void	sketch_reset(struct sketch *);

/* Add n shingle hashes, with weights w (simhash only) or NULL. */
void	sketch_add(struct sketch *, const uint64_t *h, const double *w,
	    size_t n);

/* Finish the document: sketch->out holds sketch->nv values. */
const uint64_t *sketch_final(struct sketch *);

void	sketch_free(struct sketch *);

#endif
