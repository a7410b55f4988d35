/*
 * Fingerprint lines, "SCHEME:HEX  NAME": formatting and parsing back.
 * Names are escaped the way sha256sum escapes them: a line whose name holds
 * a backslash, newline or carriage return starts with a backslash, and the
 * name has \\, \n and \r in their place.  NUL-terminated lines (-z) are
 * never escaped.
 */
#ifndef FPLINE_H
#define FPLINE_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "scheme.h"

struct fpline {
	struct scheme sc;
	size_t	 nv;		/* number of values */
	uint64_t *v;		/* the values, owned */
	size_t	 vcap;
	struct buf name;	/* the unescaped name, NUL-terminated */
};

/* Append the fingerprint line for values v to out, with its terminator. */
void	fpline_format(struct buf *out, const struct scheme *,
	    const uint64_t *v, const char *name, size_t namelen, int zero);

/*
 * The same for many lines of one scheme, its string made once: for a
 * line a record, formatting it took more than the rest of the line.
 */
struct fpline_head {
	char	 text[SCHEME_MAX];	/* the scheme string */
	size_t	 len;
	size_t	 nv, digits;		/* values, hex digits of each */
};

void	fpline_head_init(struct fpline_head *, const struct scheme *);
void	fpline_put(struct buf *out, const struct fpline_head *,
	    const uint64_t *v, const char *name, size_t namelen, int zero);

/* Append name to out, escaped unless zero; returns 1 if it was escaped. */
int	fpline_escape_name(struct buf *out, const char *name, size_t len,
	    int zero);

/*
 * What is wrong with a fingerprint or band key in upper case: hex digits
 * are read in lower case only, as they are written, so that equal values
 * are equal text too (cluster --sorted, sort(1)).
 */
#define FPLINE_UPPER_WHY \
	"upper-case hex digit (neardup reads and writes lower case)"

/*
 * Parse one line (without its terminator) into fp, reusing fp's memory.
 * Returns 0, or -1 with *why saying what is wrong.
 */
int	fpline_parse(const char *line, size_t len, int zero, struct fpline *,
	    const char **why);

/* Release what fpline_parse allocated. */
void	fpline_free(struct fpline *);

/*
 * Does the name of fp (read with -z) go on, after a newline, with what
 * is a fingerprint line by itself?  Then the input was written one line
 * a fingerprint, not -z, and read as one record it would be one
 * document with a long name: nothing found, silently.
 */
int	fpline_holds_line(const struct fpline *);

#endif
