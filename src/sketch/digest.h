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
 * A document is binary, as grep and git decide, if a NUL byte is among
 * its first DIGEST_PROBE bytes: no text holds one, and every executable,
 * image or archive does.  Text in another encoding than UTF-8 is text.
 */
#define DIGEST_PROBE	(32 * 1024)

/* What digest_fd returns for a binary document it was told to skip. */
#define DIGEST_BINARY	(-1)

/*
 * Digest everything readable from fd as one document.  Returns 0, an
 * errno value if a read failed, or with skipbin DIGEST_BINARY for a
 * binary document (the document is then abandoned).
 */
int	digest_fd(struct digest *, int fd, int skipbin,
	    const uint64_t **values);

void	digest_free(struct digest *);

#endif
