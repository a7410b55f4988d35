/*
 * Fingerprint lines read from files: their values and names, all of one
 * scheme.
 */
#ifndef FPSET_H
#define FPSET_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "scheme.h"

struct fpset {
	struct scheme sc;
	int	 have_sc;	/* a line was read: sc is its scheme */
	size_t	 n, cap;
	uint64_t *v;		/* n * scheme_nvalues(&sc) values */
	size_t	*name;		/* offsets into names */
	struct buf names;	/* NUL-terminated names */
	uint64_t *empty;	/* the empty text's values, once asked */
	/*
	 * Set by the command before loading, for a first mistake: what to
	 * do when the first line read is no fingerprint line at all (a
	 * text file), and when an input is a directory (NULL: nothing).
	 */
	const char *hint_text, *hint_dir;
};

/*
 * Append every fingerprint line of path ("-": standard input; lines end
 * with NUL if zero) to s.  Exits 2 on a malformed line, a line of another
 * scheme than the first, or (if simhash) a line that is not simhash, with
 * FILE:LINE (hint_text says what to do if the first line of the set is
 * text, not a fingerprint line), and on a line longer than RECORD_MAX.  Returns -1 after a
 * warning if path cannot be opened or read to its end; the lines read
 * before a read error are kept.
 */
int	fpset_load(struct fpset *, const char *path, int zero, int simhash);

/*
 * Append fingerprint line fp (of the set's scheme, checked by the caller)
 * to s.
 */
struct fpline;
void	fpset_add(struct fpset *, const struct fpline *fp);

/* The name of fingerprint i. */
const char *fpset_name(const struct fpset *, size_t i);

void	fpset_free(struct fpset *);

#endif
