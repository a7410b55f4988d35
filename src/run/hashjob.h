/*
 * A unit of hashing work and its result: a batch of whole files, or a
 * batch of records from a file.  Workers turn jobs into fingerprint lines (and the
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
	const struct jsonl_spec *json;	/* REC_JSONL: the fields to read */
	int	 zero;		/* -z: NUL-terminated records and lines */
	int	 binary;	/* --binary: hash binary files too */
};

/* A problem with one record: the record's number and what is wrong. */
struct hashnote {
	uint64_t rec;
	const char *why;
};

/* A whole file of a batch. */
struct hashdoc {
	char	*name;
	int	 isstdin;	/* read fd 0 */
	int	 errnum;	/* it could not be read (or walked) */
	int	 binary;	/* skipped: binary (see digest_fd) */
	size_t	 end;		/* where its lines end in the job's out */
	uint64_t size;		/* its size when opened, if a regular file */
};

struct hashjob {
	struct hashdoc *docs;	/* whole files, or NULL */
	size_t	 ndocs;

	char	*name;		/* a record batch: the file's name */
	char	*data;		/* the records */
	size_t	 len;
	uint64_t first;		/* number of the batch's first record */
	int	 errnum;	/* the file could not be read to its end */
	struct hashnote *notes;
	size_t	 nnotes;

	struct buf out;		/* fingerprint lines */
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
