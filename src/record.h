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
#define RECORD_MAX	16777216	/* longest record or line read: 16 MiB */
#define RECORD_LONG_WHY	"record longer than 16777216 bytes"	/* the same */
#define RECORD_LINE_WHY	"line longer than 16777216 bytes"	/* the same */
#define RECORD_ID_MAX	1048576	/* longest --tsv ID of hash: 1 MiB */
#define RECORD_LONG	2	/* recreader_next: a record past RECORD_MAX */

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
	int	 err;		/* a read failed: errno, once the records
				   before have been handed on */
	int	 idle;		/* the last batch was cut where the input had
				   no more to read for now */
	uint64_t next;		/* number of the next record (from 1) */
};

void	recreader_init(struct recreader *, int fd, int delim);

/*
 * The next batch: a malloc'd buffer of whole records (the last may lack
 * its delimiter at the end of input) and the number of its first record.
 * Returns 1, 0 at the end of input, or an errno value (negated) on a read
 * error, once the whole records read before it have been returned.  A
 * batch holds at least RECORD_BATCH bytes unless the input ends, and more
 * when a record is longer.  A record longer than RECORD_MAX is skipped,
 * never cut: RECORD_LONG is returned, with its number in *first, so that
 * memory stays within about twice RECORD_MAX whatever the input.
 *
 * A batch ends sooner, at the last whole record, when a pipe or terminal
 * has nothing more to read for now: its writer is slower than the
 * reader, as a live log is.  Then idle is set, so that the caller can
 * hand on all it holds before it waits for more.  A regular file is
 * never idle.
 */
int	recreader_next(struct recreader *, char **data, size_t *len,
	    uint64_t *first);

void	recreader_free(struct recreader *);

#endif
