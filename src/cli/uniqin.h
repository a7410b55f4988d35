/*
 * The input side of neardup uniq: records read in batches, sketched ahead
 * by a worker thread, then added to the index in order and handed to the
 * output side.
 */
#ifndef UNIQIN_H
#define UNIQIN_H

#include <stddef.h>

#include "dedup.h"

/* Receives each batch of records once the index has added them. */
typedef void uniqin_fn(void *ctx, const struct dedup_item *items, size_t n);

struct uniqin;

/*
 * Read records in mode (record.h) ending in delim into index d, handing
 * them to fn.
 */
struct uniqin *uniqin_new(struct dedup *d, int delim, enum recmode mode,
	    uniqin_fn *fn, void *ctx);

/*
 * Every record of file name ("-": standard input), after those of the
 * files before it.  Returns 0, or EXIT_TROUBLE after a message about the
 * file or a bad record.
 */
int	uniqin_file(struct uniqin *, const char *name);

/* Add and hand over the records still in flight, and free. */
void	uniqin_end(struct uniqin *);

#endif
