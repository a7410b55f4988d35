/*
 * JSON Lines records: each line a JSON object whose field names the text
 * of a document (and optionally another its name).  The one place that
 * calls the JSON parser (json-c, chosen by bench/jsonparse.sh), so that
 * record.c cuts records and this file reads what is in them.
 */
#ifndef JSONL_H
#define JSONL_H

#include <stddef.h>

#define JSONL_WHY_MAX	128	/* a message naming a field; the name is cut
				   to its first 64 bytes */

/*
 * What to take from each object: the field holding the text, and the
 * field naming the record or NULL.  Built once for a run; its messages
 * live as long as it does, so that they can be reported later.  It
 * holds no memory of its own: a command may exit without a word.
 */
struct jsonl_spec {
	const char *field;
	const char *idfield;
	char	 nofield[JSONL_WHY_MAX];	/* no "text" field */
	char	 badfield[JSONL_WHY_MAX];	/* "text" is not a string */
	char	 noid[JSONL_WHY_MAX];
	char	 badid[JSONL_WHY_MAX];
};

void	jsonl_spec_init(struct jsonl_spec *, const char *field,
	    const char *idfield);

/* A parser, and the object it read last; one per thread. */
struct jsonl;

struct jsonl *jsonl_new(const struct jsonl_spec *);

/*
 * Read one line (without its delimiter; a trailing CR is white space):
 * 0 with *text the unescaped UTF-8 bytes of the field (a lone surrogate
 * becomes U+FFFD; \u0000 a NUL byte) and *id those of the id field (a
 * string, or a number as written) or NULL, valid until the next call; 1
 * if the line is blank, not a record; -1 with *why if it cannot be read.
 */
int	jsonl_read(struct jsonl *, const char *line, size_t len,
	    const char **text, size_t *tlen, const char **id, size_t *idlen,
	    const char **why);

void	jsonl_free(struct jsonl *);

#endif
