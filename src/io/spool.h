/*
 * Texts set aside on disk: the record texts of neardup cluster --jsonl,
 * numbered in the order they were added, so that each can be read again
 * to confirm a candidate pair by its exact resemblance, as a file is.
 * They go to a file that is unlinked as soon as it is made, in $TMPDIR
 * (else /tmp) as sort(1) puts its runs, so that nothing is left behind
 * whatever way the process ends, and memory holds only an offset a text.
 */
#ifndef SPOOL_H
#define SPOOL_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

struct spool;

/* A new, empty spool: NULL with errno set if its file cannot be made. */
struct spool *spool_new(void);

/* Append a text of len bytes, number spool_count() before: 0 or errno. */
int	spool_add(struct spool *, const void *text, size_t len);

/*
 * Write out what is buffered, before texts are read: 0 or errno (a full
 * disk, first seen here, is said here).  Nothing is added after it.
 */
int	spool_seal(struct spool *);

/* How many texts, and the length of text i. */
size_t	spool_count(const struct spool *);
size_t	spool_len(const struct spool *, size_t i);

/*
 * Text i into b (emptied first), once sealed: 0 or an errno value.  Safe
 * from threads at once, each with a buffer of its own.
 */
int	spool_read(const struct spool *, size_t i, struct buf *b);

void	spool_free(struct spool *);

#endif
