/*
 * The portable block scanners (see scan.h): words of plain ASCII found 64
 * bytes at a time with bitmaps (from SSE2, or without it from 64-bit
 * words, see cpu.h), their hashes through a small cache, or with AVX2 in
 * batches, eight at a time (wordhash.h).
 */
#ifndef WORDSCAN_H
#define WORDSCAN_H

#include "scan.h"

/*
 * Scan from p, between words, in whole blocks of 64 bytes; a word that
 * runs into the next block is found whole there.  Stops at the end (less
 * than 64 bytes left), at a block's first non-ASCII byte (*scalar_until is
 * then set past the block's last, for the byte-at-a-time path; see
 * scan_cut), at the start of a word that goes on past what the scanner
 * can see (into the last bytes, a non-ASCII byte, or beyond the next
 * block).  Full batches of out go to s->flush.  Returns where it stopped,
 * between words.  out[0 .. s->nout) must be finished (s->nfin ==
 * s->nout), and the n-grams these queue are.
 */
const unsigned char *wordscan_words(struct scan *s, const unsigned char *p,
	    const unsigned char *end, const unsigned char **scalar_until);

/*
 * The same for character n-grams, which have no words to carry: stops at
 * the end (*scalar_until is then set to end) or at a block's first
 * non-ASCII byte (*scalar_until set past its last).
 */
const unsigned char *wordscan_chars(struct scan *s, const unsigned char *p,
	    const unsigned char *end, const unsigned char **scalar_until);

#endif
