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

#include "scheme.h"

#define SHINGLE_BATCH	1024	/* hashes handed to the sink at a time */
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

/* A remembered word of at most 8 bytes and its hash. */
struct shingle_cached {
	uint64_t key;		/* the word's bytes, and its length (< 8) */
	uint64_t hash;
};

struct shingler {
	unsigned n;
	int	 chars, keepcase, keeppunct, multiset;
	uint64_t seed;
	const struct weights *wt;
	shingle_sink *sink;
	void	*ctx;
	const unsigned char *cls;	/* byte class table */
	int	 avx512;	/* the block scanners may use AVX-512 */

	unsigned char carry[4];	/* an unfinished UTF-8 sequence */
	size_t	 ncarry;

	unsigned char tok[SHINGLE_TOKMAX];
	size_t	 toklen;
	int	 tokstream;	/* token longer than tok: hashing in st */
	void	*st;		/* XXH3_state_t */

	int	 pendsep;	/* chars: a boundary since the last char */
	int	 anychar;	/* chars: a character was seen */

	uint64_t win[SCHEME_NGRAM_MAX];	/* word or character hashes */
	double	 wwin[SCHEME_NGRAM_MAX];	/* token weights */
	uint64_t roll;		/* XOR of the window's rotated hashes */
	uint64_t ascii[128];	/* hashes of the ASCII code points */
	uint64_t vctl[8], vkey[8];	/* for wordvec.c: see wordvec_init */
	struct shingle_cached *cache;	/* portable scanner: recent short words */
	uint64_t seen;		/* tokens or characters in this document */
	unsigned pos;		/* seen % n: the window slot to fill next */

	struct shingle_counts counts;

	uint64_t out[SHINGLE_BATCH];
	double	 outw[SHINGLE_BATCH];
	size_t	 nout;
	size_t	 nfin;		/* out[0 .. nfin) are finished already */
};

/* Set up for a scheme; wt (may be NULL) weights word tokens. */
void	shingle_init(struct shingler *, const struct scheme *,
	    const struct weights *wt, shingle_sink *, void *ctx);

/* Feed the next len bytes of the current document. */
void	shingle_feed(struct shingler *, const void *buf, size_t len);

/* End the document: flush everything to the sink, ready for the next. */
void	shingle_end(struct shingler *);

void	shingle_free(struct shingler *);

/*
 * For the block scanners (wordscan.c, wordvec.c): hand the queued shingles
 * to the sink, finish those queued so far (so that ones finished already
 * can follow), and append bytes already normalized to the current word.
 */
void	shingle_flush(struct shingler *);
void	shingle_settle(struct shingler *);
void	shingle_add_tok(struct shingler *, const unsigned char *, size_t);

/* The hash of one normalized token, as the shingler computes it. */
uint64_t shingle_token_hash(const void *tok, size_t len, uint64_t seed);

#endif
