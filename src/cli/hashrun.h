/*
 * Hashing documents for a command: operands, -r trees, --files0-from lists
 * and record batches go through the ordered pool of hashjob workers, and
 * the finished jobs come back in input order to a callback.  Problems
 * (unreadable files, bad records) are reported here, in their place.
 */
#ifndef HASHRUN_H
#define HASHRUN_H

#include "hashjob.h"

struct hashrun;

/* Receives the fingerprint lines of the documents, in input order. */
typedef void hashrun_emit(void *ctx, const char *lines, size_t len);

/* Threads to use by default: the online CPUs, within 1 .. HASHRUN_JOBS_MAX. */
#define HASHRUN_JOBS_MAX 256
unsigned hashrun_default_jobs(void);

/* The operands are walked as wo says (see walk.h), which must outlive it. */
struct walkopts;
struct hashrun *hashrun_new(const struct hashcfg *, unsigned jobs,
	    const struct walkopts *wo, hashrun_emit *, void *ctx);

/*
 * Records that cannot be read are reported (or counted) through rec, which
 * must outlive the run; without it, each is reported.
 */
struct recopts;
void	hashrun_records(struct hashrun *, struct recopts *rec);

/*
 * Records: hand fn, with the run's ctx, the texts of the records whose
 * lines were just handed on (texts one after another, the lengths in
 * tlen), one for each line, in the same order.  Before any operand.
 */
typedef void hashrun_texts_fn(void *ctx, const char *texts,
	    const size_t *tlen, size_t n);
void	hashrun_texts(struct hashrun *, hashrun_texts_fn *fn);

/*
 * Hash an operand ("-" is standard input; a directory is walked with -r).
 * A binary file is skipped with a note, unless the hashcfg says binary.
 */
void	hashrun_operand(struct hashrun *, const char *);

/* Hash the NUL-separated names read from list ("-": standard input). */
void	hashrun_files0(struct hashrun *, const char *list);

/*
 * Say what was passed over of document d (binary, or binary members) and
 * what went wrong: 1 if it is an error (exit status 2), else 0.
 */
int	hashrun_note(const struct hashdoc *d);

/* Wait for the last jobs, free the run: EXIT_OK, or EXIT_TROUBLE. */
int	hashrun_finish(struct hashrun *);

#endif
