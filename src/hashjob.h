/*
 * A unit of hashing work and its result: one whole file, or a batch of
 * records from a file.  Workers turn jobs into fingerprint lines (and the
 * problems met) without printing; the command layer prints them in order.
 */
#ifndef HASHJOB_H
#define HASHJOB_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "digest.h"
#include "record.h"
#include "scheme.h"

struct weights;

struct lsh;

struct hashcfg {
	struct scheme sc;
	const struct lsh *bands;	/* band lines instead of fingerprints */
	const struct weights *wt;
	enum recmode mode;
	int	 zero;		/* -z: NUL-terminated records and lines */
};

/* A problem with one record: the record's number and what is wrong. */
struct hashnote {
	uint64_t rec;
	const char *why;
};

struct hashjob {
	char	*name;		/* path, or the label of a record batch */
	int	 isstdin;	/* whole-document job reading fd 0 */
	char	*data;		/* record batch, or NULL */
	size_t	 len;
	uint64_t first;		/* number of the batch's first record */

	struct buf out;		/* fingerprint lines */
	int	 errnum;	/* the file could not be read */
	struct hashnote *notes;
	size_t	 nnotes;
};

struct hashworker {
	const struct hashcfg *cfg;
	struct digest dg;
	struct buf name;
};

void	hashworker_init(struct hashworker *, const struct hashcfg *);
void	hashworker_free(struct hashworker *);

/* Do a job (a pool_fn: worker, job). */
void	hashjob_run(void *worker, void *job);

/* Release a job and its results. */
void	hashjob_free(struct hashjob *);

#endif
