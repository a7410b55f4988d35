/*
 * The exact shingle set of a document, as a sorted array of its distinct
 * 64-bit shingle hashes: what exact resemblance is computed from when a
 * sketch only proposed a pair (Henzinger's combined algorithm with an
 * exact second step).  8 bytes a distinct shingle.
 */
#ifndef DOCSET_H
#define DOCSET_H

#include <stddef.h>
#include <stdint.h>

#include "scheme.h"
#include "shingle.h"
#include "shset.h"

struct docset {
	uint64_t *h;		/* sorted, distinct */
	size_t	 n;
};

/* Reads documents into sets, one after another. */
struct docreader {
	struct shingler sh;
	struct shset set;
	unsigned char *rbuf;
};

/* Set up for the shingling of scheme sc (weights change no set). */
void	docreader_init(struct docreader *, const struct scheme *);

/*
 * Read everything from fd as one document: its set into *ds (storage of
 * the caller's, to free with docset_free).  Returns 0 or an errno value.
 */
int	docreader_fd(struct docreader *, int fd, struct docset *ds);

/* The set of a document already in memory. */
void	docreader_mem(struct docreader *, const void *, size_t,
	    struct docset *ds);

void	docreader_free(struct docreader *);

/*
 * Elements in both sets, and the resemblance |A n B| / |A u B| (1 for two
 * empty sets, as similarity_exact() has it).
 */
size_t	docset_shared(const struct docset *, const struct docset *);
double	docset_jaccard(const struct docset *, const struct docset *);

/* Would J(A, B) >= t?  Decided on the integers, so that J = t passes. */
int	docset_reaches(size_t shared, size_t na, size_t nb, double t);

void	docset_free(struct docset *);

#endif
