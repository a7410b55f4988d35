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
#include "fpline.h"
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
	int	 archives;	/* --archives: members are documents */
	int	 texts;		/* record batches keep the text of each line
				   they make (hashjob's texts) */
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
	char	*why;		/* errnum SOURCE_BROKEN: the reason */
	int	 binary;	/* skipped: binary (see digest_fd) */
	struct buf skipped;	/* binary members skipped: names, each
				   NUL-terminated */
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
	char	*why;		/* errnum SOURCE_BROKEN: the reason */
	struct hashnote *notes;
	size_t	 nnotes;

	struct buf out;		/* fingerprint lines */
	struct buf texts;	/* cfg texts: the records' texts, one a line
				   of out, in its order */
	size_t	*tlen;		/* and their lengths */
	size_t	 ntexts;
};

struct hashworker {
	const struct hashcfg *cfg;
	struct fpline_head head;	/* cfg's scheme, for its lines */
	struct digest dg;
	struct buf name;
	struct buf *out;	/* where the job being done writes */
};

/*
 * Read document d (d->name, or standard input) whole, decompressed if it
 * is compressed (see source.h), into dg: 0 with its values in *v, or 0
 * with d->binary set if binary and it skips binary files, or else the
 * d->errnum it sets (SOURCE_BROKEN: d->why says why).  d->size is the
 * size of the file, if a regular one.
 */
int	hashdoc_digest(struct digest *dg, struct hashdoc *d, int binary,
	    const uint64_t **v);

/* Receives the values of a member named name (len bytes). */
typedef void hashdoc_fn(void *ctx, const char *name, size_t len,
	    const uint64_t *v);

/*
 * --archives: read document d as an archive (see members.h), handing the
 * values of each regular member, named ARCHIVE//PATH in the storage of
 * name (NUL-terminated), to fn, and naming the binary ones skipped in d->skipped, unless
 * binary.  Returns MEMBERS_PLAIN, with nothing read, when d is neither an
 * archive nor compressed (hashdoc_digest reads it), else 0 or the
 * d->errnum it sets; a broken archive stops it, the member it broke in
 * not handed on.
 */
int	hashdoc_members(struct digest *dg, struct buf *name, struct hashdoc *d,
	    int binary, hashdoc_fn *fn, void *ctx);

void	hashworker_init(struct hashworker *, const struct hashcfg *);
void	hashworker_free(struct hashworker *);

/* Do a job (a pool_fn: worker, job). */
void	hashjob_run(void *worker, void *job);

/* Release a job and its results. */
void	hashjob_free(struct hashjob *);

#endif
