/*
 * Record modes, where one input holds many documents: lines (or
 * NUL-terminated records with -z), optionally "ID<TAB>TEXT", or JSON
 * objects one a line (jsonl.h reads those).  The reader
 * cuts an input into batches that end at a record boundary, so that
 * batches can be hashed in parallel and still be numbered in order; a
 * recbatch then cuts a batch into records, each an (id, text) pair.  This
 * is the one place that knows what a record looks like: a new mode is a
 * new recmode here and a case in recbatch_next().
 */
#ifndef RECORD_H
#define RECORD_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define RECORD_BATCH (1024 * 1024)	/* bytes per batch, at least */
#define RECORD_MAX	16777216	/* longest record or line read: 16 MiB */
#define RECORD_LONG_WHY	"record longer than 16777216 bytes"	/* the same */
#define RECORD_LINE_WHY	"line longer than 16777216 bytes"	/* the same */
#define RECORD_JSONL_MAX 1073741824	/* longest JSON Lines record: 1 GiB */
#define RECORD_JSONL_WHY "record longer than 1073741824 bytes"	/* the same */
#define RECORD_ID_MAX	1048576	/* longest --tsv ID of hash: 1 MiB */
#define RECORD_LONG	2	/* recreader_next: a record past RECORD_MAX */

enum recmode {
	REC_NONE,	/* whole documents */
	REC_LINES,	/* a document per record, named FILE:NUMBER */
	REC_TSV,	/* a document per record, "ID<TAB>TEXT", named ID */
	REC_JSONL	/* a JSON object per line, its text in a field (jsonl.h),
			   named by another field or FILE:NUMBER */
};

struct jsonl;
struct jsonl_spec;

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
	size_t	 max;		/* longest record: RECORD_MAX unless set */
	const char *longwhy;	/* what is wrong with one longer */
	size_t	 batch;		/* bytes per batch: RECORD_BATCH unless set */
};

void	recreader_init(struct recreader *, int fd, int delim);

/*
 * Records up to max bytes rather than RECORD_MAX, and why for one longer
 * (JSON Lines datasets hold records of 100 MB and more).
 */
void	recreader_limit(struct recreader *, size_t max, const char *why);

/*
 * Batches of at least bytes rather than RECORD_BATCH, for a reader whose
 * batches cost many times their bytes in memory (uniq's sketches).
 */
void	recreader_batch(struct recreader *, size_t bytes);

/*
 * The next batch: a malloc'd buffer of whole records (the last may lack
 * its delimiter at the end of input) and the number of its first record.
 * Returns 1, 0 at the end of input, or an errno value (negated) on a read
 * error, once the whole records read before it have been returned.  A
 * batch holds at least RECORD_BATCH bytes (or as recreader_batch() set)
 * unless the input ends, and more when a record is longer.  A record
 * longer than the limit (RECORD_MAX) is skipped, never cut: RECORD_LONG
 * is returned, with its number in *first, so that memory stays within
 * about twice the limit whatever the input.
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

/* One record of a batch. */
struct record {
	uint64_t num;		/* its number in the input (from 1) */
	const char *rec;	/* the whole record, without its delimiter */
	size_t	 len;
	const char *id;		/* REC_TSV, REC_JSONL with an id field: the ID;
				   otherwise NULL */
	size_t	 idlen;
	const char *text;	/* what is shingled; REC_JSONL: the field's
				   string unescaped, valid until the next
				   recbatch_next() (as the ID is) */
	size_t	 tlen;
};

/* The records of a batch, in order. */
struct recbatch {
	const char *p, *end;
	enum recmode mode;
	int	 delim;
	uint64_t next;		/* number of the record at p */
	const struct jsonl_spec *spec;	/* REC_JSONL: what to read */
	struct jsonl *json;	/* and the parser, made when first needed */
};

/* Cut data, a batch of len bytes whose first record is number first. */
void	recbatch_init(struct recbatch *, enum recmode, int delim,
	    const char *data, size_t len, uint64_t first);

/* REC_JSONL: the fields to read, which must outlive the batch. */
void	recbatch_jsonl(struct recbatch *, const struct jsonl_spec *);

/* Release what the batch holds (the JSON parser); the data is the caller's. */
void	recbatch_free(struct recbatch *);

/*
 * The next record of the batch into *r: 1, or 0 at its end.  A record
 * that the mode cannot read (an ID<TAB>TEXT record without a tab or with
 * an empty ID; a line that is not a JSON object, or lacks the field)
 * returns -1 with r->num and r->rec set and *why saying what is wrong:
 * the caller reports it as "name:num: why" and goes on.  In REC_JSONL a
 * blank line is no record: it is passed over without a word.
 */
int	recbatch_next(struct recbatch *, struct record *, const char **why);

/*
 * Why record r's ID cannot name a fingerprint line (a NUL byte, longer
 * than RECORD_ID_MAX), or NULL if it can.
 */
const char *record_name_why(const struct record *);

/*
 * The text of a whole record rec, read before by recbatch_next() in mode:
 * what is shingled.  Inline: the index of uniq asks it of every record
 * several times.  A REC_JSONL record is its text, once unescaped: the
 * index is given that, not the line.
 */
static inline const char *
record_text(enum recmode mode, const char *rec, size_t len, size_t *tlen)
{
	const char *tab;

	if (mode == REC_TSV && (tab = memchr(rec, '\t', len)) != NULL) {
		*tlen = len - (size_t)(tab + 1 - rec);
		return tab + 1;
	}
	*tlen = len;
	return rec;
}

/*
 * What names a whole record rec, read before by recbatch_next() in mode,
 * where records are named by what they hold (uniq --explain): the ID of
 * an ID<TAB>TEXT record, the whole record in the other modes.  Its
 * length into *idlen.
 */
const char *record_id(enum recmode mode, const char *rec, size_t len,
	    size_t *idlen);

/*
 * What of a record is compared, as uniq(1) says with -f, -s and -w: its
 * text (record_text()) less the first skipfields fields, each blanks then
 * non-blanks, then less skipchars bytes, and of the rest at most
 * checkchars bytes.  Bytes, not characters, as GNU uniq counts them; the
 * blanks are space, tab and newline (a newline is in a NUL-terminated
 * record), as GNU's.
 */
struct reckey {
	enum recmode mode;
	size_t	 skipfields;
	size_t	 skipchars;
	size_t	 checkchars;	/* SIZE_MAX: all */
};

/* Compare the whole text of records in mode. */
#define RECKEY_WHOLE(mode) { (mode), 0, 0, SIZE_MAX }

static inline int
record_blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n';
}

/* The part of record rec that key k compares, and its length in *klen. */
static inline const char *
record_key(const struct reckey *k, const char *rec, size_t len,
    size_t *klen)
{
	const char *p, *end;
	size_t i;

	p = record_text(k->mode, rec, len, &len);
	end = p + len;
	for (i = 0; i < k->skipfields && p < end; i++) {
		while (p < end && record_blank(*p))
			p++;
		while (p < end && !record_blank(*p))
			p++;
	}
	p += (size_t)(end - p) < k->skipchars ? (size_t)(end - p) :
	    k->skipchars;
	*klen = (size_t)(end - p) < k->checkchars ? (size_t)(end - p) :
	    k->checkchars;
	return p;
}

#endif
