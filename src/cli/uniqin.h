/*
 * The input side of neardup uniq: records read in batches, sketched ahead
 * by a worker thread, then added to the index in order and handed to the
 * output side.
 */
#ifndef UNIQIN_H
#define UNIQIN_H

#include <stddef.h>
#include <stdint.h>

#include "dedup.h"

/*
 * A JSON Lines record beside its item, whose rec is the unescaped text:
 * the whole line, what names it (the --id field, or NULL for
 * FILE:NUMBER), and its number.
 */
struct uniqin_rec {
	const char *line;
	size_t	 len;
	const char *id;
	size_t	 idlen;
	uint64_t num;
};

/*
 * Receives each batch of records of file name once the index has added
 * them; recs is NULL but with --jsonl.
 */
typedef void uniqin_fn(void *ctx, const char *name,
	    const struct dedup_item *items, const struct uniqin_rec *recs,
	    size_t n);

struct uniqin;
struct recopts;

/*
 * Read records as rec says (record.h; rec must outlive the reader) into
 * index d, handing them to fn; records that cannot be read go through
 * recopts_bad().
 */
struct uniqin *uniqin_new(struct dedup *d, struct recopts *rec,
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
