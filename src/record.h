/*
 * Record modes, where one input holds many documents: lines (or
 * NUL-terminated records with -z), optionally "ID<TAB>TEXT".  The reader
 * cuts an input into batches that end at a record boundary, so that
 * batches can be hashed in parallel and still be numbered in order.
 */
#ifndef RECORD_H
#define RECORD_H

#include <stddef.h>
#include <stdint.h>

#define RECORD_BATCH (1024 * 1024)	/* bytes per batch, at least */

enum recmode {
	REC_NONE,	/* whole documents */
	REC_LINES,	/* a document per record, named FILE:NUMBER */
	REC_TSV		/* a document per record, "ID<TAB>TEXT", named ID */
};

struct recreader {
	int	 fd;
	int	 delim;		/* '\n' or '\0' */
	char	*buf;		/* bytes read and not yet batched */
	size_t	 len, cap;
	int	 eof;
	uint64_t next;		/* number of the next record (from 1) */
};

void	recreader_init(struct recreader *, int fd, int delim);

/*
 * The next batch: a malloc'd buffer of whole records (the last may lack
 * its delimiter at the end of input) and the number of its first record.
 * Returns 1, 0 at the end of input, or an errno value (negated) on a read
 * error.  A batch holds at least RECORD_BATCH bytes unless the input ends,
 * and more when a record is longer.
 */
int	recreader_next(struct recreader *, char **data, size_t *len,
	    uint64_t *first);

void	recreader_free(struct recreader *);

#endif
