/*
 * A digest computes fingerprints of whole documents: bytes go through the
 * shingler into the sketch of the scheme.  One digest serves many
 * documents in turn; each thread has its own.
 */
#ifndef DIGEST_H
#define DIGEST_H

#include <stddef.h>
#include <stdint.h>

#include "scheme.h"
#include "shingle.h"
#include "sketch.h"

#define DIGEST_READSIZE (256 * 1024)

struct shset;
struct weights;

struct digest {
	struct scheme sc;
	struct shingler sh;
	struct sketch sk;
	struct shset *set;	/* if set, every shingle also goes here */
	unsigned char *rbuf;	/* read buffer for digest_fd */
};

/*
 * Set up for a scheme.  If set is not NULL, the distinct shingles of the
 * documents are also collected there (for exact figures).
 */
void	digest_init(struct digest *, const struct scheme *,
	    const struct weights *, struct shset *set);

/* Feed the next bytes of the current document. */
void	digest_feed(struct digest *, const void *, size_t);

/* End the document; returns its scheme_nvalues() values. */
const uint64_t *digest_end(struct digest *);

/*
 * Digest everything readable from fd as one document.  Returns 0, or an
 * errno value if a read failed (the document is then abandoned).
 */
int	digest_fd(struct digest *, int fd, const uint64_t **values);

void	digest_free(struct digest *);

#endif
