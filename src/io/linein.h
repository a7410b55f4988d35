/*
 * Lines of bounded length from a file descriptor: fingerprint lines, band
 * lines, lists of names.  A line longer than the bound is said to be too
 * long as soon as the bound is passed, and skipped whole, never cut, so
 * that no input makes the reader hold much more than the bound in memory,
 * nor read without end.
 */
#ifndef LINEIN_H
#define LINEIN_H

#include <stddef.h>
#include <stdint.h>

#include "source.h"

#define LINEIN_LONG	2	/* linein_next: a line longer than max */

struct linein {
	int	 fd;
	int	 delim;		/* '\n' or '\0' */
	size_t	 max;		/* longest line, without its delimiter */
	char	*buf;
	size_t	 start, len, cap;	/* unread bytes: buf[start..len) */
	int	 eof;
	int	 skip;		/* the rest of a long line is to be dropped */
	uint64_t lineno;	/* lines returned or skipped so far */
	struct source src;	/* linein_open: the file, decompressed */
};

void	linein_init(struct linein *, int fd, int delim, size_t max);

/*
 * Open path (isstdin: standard input) decompressed, if it is compressed
 * (see source.h), and set up li to read it: 0, or an errno value.
 */
int	linein_open(struct linein *, const char *path, int isstdin,
	    int delim, size_t max);

/*
 * Close what linein_open() opened and free li: 0, or what source_close()
 * says; for a broken stream (SOURCE_BROKEN) *why is its reason, malloc'd.
 */
int	linein_close(struct linein *, char **why);

/*
 * The next line, without its delimiter and NUL-terminated, in *line and
 * *len (valid until the next call).  Returns 1; 0 at the end of input;
 * LINEIN_LONG when line number lineno is longer than max, as soon as
 * more than max bytes of it have been read (the next call drops the rest
 * of it before it reads the next line, and an endless line is reported all
 * the same); or an errno value, negated, when a read failed.  The last line
 * may lack its delimiter.
 */
int	linein_next(struct linein *, char **line, size_t *len);

void	linein_free(struct linein *);

#endif
