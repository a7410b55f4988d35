/*
 * The streaming shingler: bytes in, 64-bit shingle hashes out.
 *
 * Text is decoded as UTF-8, normalized (case folding, word boundaries) and
 * cut into word or character n-grams; each n-gram is hashed with XXH3.  A
 * document may arrive in blocks of any size: multibyte characters, tokens
 * and the n-gram window carry over from one block to the next, so memory
 * does not grow with the document (except under --multiset, which must
 * count occurrences of each distinct shingle).
 */
#ifndef SHINGLE_H
#define SHINGLE_H

#include <stddef.h>
#include <stdint.h>

#include "scan.h"
#include "scheme.h"
#include "token.h"

#define SHINGLE_BATCH	SCAN_BATCH	/* hashes handed to the sink at a time */
#define SHINGLE_TOKMAX	256	/* longer tokens are hashed in a stream */

struct weights;

/* Receives shingle hashes, with weights when a weight table is in use. */
typedef void shingle_sink(void *ctx, const uint64_t *h, const double *w,
	    size_t n);

struct shingle_counts {
	uint64_t *key;
	uint32_t *count;	/* 0: empty slot */
	size_t	 cap;
	size_t	 used;
};

struct shingler {
	/*
	 * The scheme's n, seed and options, the n-gram window and the queue
	 * of n-grams: the state the block scanners (scan.h) share.
	 */
	struct scan ws;
	int	 chars, multiset;
	const struct weights *wt;
	shingle_sink *sink;
	void	*ctx;
	const unsigned char *cls;	/* byte class table (token.h) */

	unsigned char carry[4];	/* an unfinished UTF-8 sequence */
	size_t	 ncarry;

	unsigned char tok[SHINGLE_TOKMAX];
	size_t	 toklen;
	int	 tokstream;	/* token longer than tok: hashing in st */
	void	*st;		/* XXH3_state_t */

	double	 wwin[SCHEME_NGRAM_MAX];	/* token weights, as ws.win */

	struct shingle_counts counts;

	double	 outw[SHINGLE_BATCH];	/* the weights of ws.out */
};

/* Set up for a scheme; wt (may be NULL) weights word tokens. */
void	shingle_init(struct shingler *, const struct scheme *,
	    const struct weights *wt, shingle_sink *, void *ctx);

/* Feed the next len bytes of the current document. */
void	shingle_feed(struct shingler *, const void *buf, size_t len);

/*
 * Feed everything readable from fd, in blocks of size bytes read into
 * buf.  With probe, a NUL byte among the first probe bytes (which from a
 * pipe may come in several reads) stops it: no text holds one.  Returns
 * 0, SHINGLE_BINARY, or the errno value of a failed read; either way the
 * document is not ended.
 */
#define SHINGLE_BINARY	(-1)
int	shingle_fd(struct shingler *, int fd, void *buf, size_t size,
	    size_t probe);

/* End the document: flush everything to the sink, ready for the next. */
void	shingle_end(struct shingler *);

void	shingle_free(struct shingler *);

/* The hash of one normalized token: token_hash (token.h). */
uint64_t shingle_token_hash(const void *tok, size_t len, uint64_t seed);

#endif
