/*
 * The shingler's block scanners: private to the shingler (shingle.c),
 * which is their only caller.
 *
 * Each scanner is an implementation of the word rule and the item hashes
 * of token.h over whole 64-byte blocks of ASCII text: SSE2 in wordscan.c
 * (its words hashed eight at a time with AVX2 or AVX-512, in wordhash.c),
 * AVX-512 with VBMI2 in wordvec.c; shingle.c's byte-at-a-time path is the
 * third, and the reference.  A scanner takes the state below, reads
 * blocks from p between words, slides the n-gram window over the items it
 * finds and queues the n-grams in out, finished, then returns where it
 * stopped, again between words.  It calls nothing above it: what it
 * cannot do (a word it cannot see the end of, non-ASCII bytes other than
 * those scan_high takes) it leaves to its caller by returning, and a full
 * out it hands to the flush its caller gave it.  Unweighted shingling
 * only.
 */
#ifndef SCAN_H
#define SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "scheme.h"
#include "token.h"
#include "xxh.h"

/*
 * The n-grams queued in out at most: 8 KiB, so that out, the AVX-512
 * scanner's queue (18 KiB) and what the sink touches share the level 1
 * cache (4096 made -w 3 18% slower under AVX-512).  A scanner hands a
 * full out to flush and goes on: returning to its caller for each batch
 * instead made -w 3 and -c 5 7 to 10% slower.
 */
#define SCAN_BATCH	1024
#define SCAN_CACHE_BITS	13	/* wordscan.c: 8192 cached words, 128 KiB */

/*
 * A remembered word of at most 8 bytes and its hash, as the item the
 * scanner rolls: xxh_le64_lin of it (xxh.h, wordscan.c).
 */
struct scan_cached {
	uint64_t key;		/* the word's bytes (wordscan.c), 0 if none */
	uint64_t hash;
};

struct scan {
	/* Set up by the shingler for its scheme. */
	unsigned n;
	uint64_t seed;
	int	 keeppunct, keepcase;
	uint64_t ascii[128];	/* token_char_hash of the ASCII characters */
	uint64_t lin[128];	/* xxh_le64_lin of ascii (xxh.h): char items */
	struct scan_cached *cache;	/* wordscan.c: recent short words */
	/*
	 * wordvec.c's scanners: 2 both, with VBMI2; 1 the word scanner
	 * alone, without.
	 */
	int	 avx512;
	int	 ssse3;		/* wordscan.c: compress with SSSE3 */
	int	 v3;		/* wordscan.c: its x86-64-v3 copies */
	int	 gather;	/* wordvec.c: look up with gathers (CPU_GATHER) */
	/*
	 * wordscan.c: hash words in batches (wordhash.c), with AVX2.  The
	 * cache is cheaper while it hits, and is tried first: of tried words
	 * through it, missed were not there; if too many, batched more words
	 * are hashed in batches before it is tried again, more as backoff
	 * counts the trials that failed in a row (words_by_options).
	 */
	int	 avx2;
	unsigned backoff;
	uint64_t tried, missed, batched;
	uint64_t vctl[8], vkey[8];	/* wordvec.c: see wordvec_init */
	/*
	 * The item hashes of the characters of two bytes met so far, and
	 * which (scan_two_hash).
	 */
	uint64_t *twohash;
	uint64_t twoset[TOKEN_TWO / 64];
	/* The same to U+FFFF, and after them which (scan_three_hash). */
	uint64_t *threehash;
	/*
	 * For scan_high: the word rule below U+0800, and to U+FFFF as the
	 * scanner meets the code points, in bitmaps (scan_three_class): the
	 * word characters that stand as they are, the separators, and which
	 * groups of 64 code points the two have; NULL before the first.
	 */
	const uint16_t *two;		/* token_two */
	uint64_t *three;
	/*
	 * The caller's: hands out[0 .. nout) to the sink and empties out.
	 * A scanner calls it with flushctx when out is full.
	 */
	void	(*flush)(void *flushctx);
	void	*flushctx;

	/*
	 * The n-gram window (window.h), carried from item to item.  With
	 * winlin, win and roll are xxh_le64_lin of what window.h says (xxh.h),
	 * as a scanner leaves them for the next: undoing it costs more than
	 * a line's scan, and a document's end needs it only with fewer than
	 * n items (scan_window_plain).
	 */
	uint64_t win[SCHEME_NGRAM_MAX];
	uint64_t roll;
	int	 winlin;
	uint64_t seen;		/* items in this document so far */
	unsigned pos;		/* seen % n: the window slot to fill next */
	int	 pendsep;	/* characters: a separator since the last */
	int	 anychar;	/* characters: one was seen */

	/*
	 * The n-grams queued: out[0 .. nfin) finished (XXH3 of the rolled
	 * XOR), out[nfin .. nout) the rolled XORs still to be finished.
	 */
	uint64_t out[SCAN_BATCH];
	size_t	 nout;
	size_t	 nfin;
};

/* The window as window.h has it, for the byte-at-a-time way. */
static inline void
scan_window_plain(struct scan *s)
{
	unsigned i;

	if (!s->winlin)
		return;
	for (i = 0; i < s->n; i++)
		s->win[i] = xxh_le64_unlin(s->win[i]);
	s->roll = xxh_le64_unlin(s->roll);
	s->winlin = 0;
}

/*
 * A block at p with non-ASCII bytes that scan_high did not take, the bits
 * of high (not 0): the scanners go on to the first and leave the rest, to
 * past the block's last (*until), to the byte-at-a-time path.  Returns
 * the bits of the bytes before the first.  Past them, the word scanners
 * see one word to the end of the block, at whose start they stop: a word
 * with such a character (a letter of four bytes, or of three that folds,
 * say) goes the slow way, the words around it do not.
 */
static inline uint64_t
scan_cut(uint64_t high, const unsigned char *p, const unsigned char **until)
{
	*until = p + 64 - __builtin_clzll(high);
	return (high & -high) - 1;
}

/*
 * scan_cut for a word scanner: *w, the block's word bytes, becomes them
 * with one word from the first non-ASCII byte to the end of the block.
 * Returns 0 if no word byte comes before that byte.
 */
static inline int
scan_cut_words(uint64_t *w, uint64_t high, const unsigned char *p,
    const unsigned char **until)
{
	uint64_t cut = scan_cut(high, p, until), before = *w & cut;

	*w = before | ~cut;
	return before != 0;
}

/*
 * Code point cp of three bytes in UTF-8 (U+0800 to U+FFFF, not a
 * surrogate) under the word rule: SCAN_LETTER for a word character that a
 * token holds as it is (token_fold), SCAN_SEP for a separator, else 0 (a
 * letter that folds to another).  The bitmaps of s->three are made a
 * group of 64 code points at a time, for those the text has: all of them
 * would take 0.6 ms, a long time for a small file with one curly quote.
 */
enum { SCAN_LETTER = 1, SCAN_SEP };

/* Where s->three's bitmaps start, in 64-bit words. */
#define SCAN_THREE_WORDS	0
#define SCAN_THREE_SEPS		(TOKEN_THREE / 64)
#define SCAN_THREE_MADE		(2 * TOKEN_THREE / 64)
#define SCAN_THREE_SIZE		(SCAN_THREE_MADE + TOKEN_THREE / 64 / 64)

/* s->three, with group g of 64 code points made. */
const uint64_t *scan_three_make(struct scan *s, unsigned g);

static inline int
scan_three_class(struct scan *s, unsigned cp)
{
	const uint64_t *t = s->three;
	uint64_t bit = (uint64_t)1 << cp % 64;
	unsigned g = cp / 64;

	if (t == NULL || !(t[SCAN_THREE_MADE + g / 64] >> g % 64 & 1))
		t = scan_three_make(s, g);
	return t[SCAN_THREE_WORDS + g] & bit ? SCAN_LETTER :
	    t[SCAN_THREE_SEPS + g] & bit ? SCAN_SEP : 0;
}

/* The code point of the three bytes at p, a lead byte and two more. */
static inline unsigned
scan_three_cp(const unsigned char *p)
{
	return (p[0] & 0x0Fu) << 12 | (p[1] & 0x3Fu) << 6 | (p[2] & 0x3Fu);
}

/*
 * The character of three bytes at p (readable; p[0] from E0 to EF): its
 * scan_three_class, or 0 for an invalid sequence.
 */
static inline int
scan_three(struct scan *s, const unsigned char *p)
{
	unsigned cp;

	if ((p[1] & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80)
		return 0;
	cp = scan_three_cp(p);
	/* Overlong, or a surrogate: U+FFFD, the slow way. */
	if (cp < TOKEN_TWO || (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	return scan_three_class(s, cp);
}

/*
 * Of the non-ASCII bytes of the block at p, the bits of high, those that
 * start it (before any other) and are separators, whole sequences within
 * the block: no-break spaces, guillemets and the like below U+0800 (two
 * bytes), and from U+0800 to U+FFFF (three bytes) the quotes, dashes and
 * spaces, and without --keep-punct the CJK commas and full stops.  The
 * scanners take them as ASCII separators (their classification of the
 * block holds for the bytes past them), and go on to the first non-ASCII
 * byte left.  Returns the bits of the bytes taken.
 *
 * Unless low is NULL, the word characters are taken too, as word bytes
 * (*word): of two bytes (accented Latin letters, Greek, Cyrillic, ...)
 * whose folded bytes are written to low, the block as the word scanners
 * hash it, where the word rule folds one to two bytes again, as it does
 * all but a few; of three bytes (CJK, kana, Hangul, Indic scripts, Thai,
 * ...) those the rule keeps as they are, almost all.  The token is then
 * the same.  Such a letter may also end past the block, if lim, the bytes
 * readable from p, allows: *carry tells the next block how many of its
 * first bytes are taken, and on the way in says that the previous block
 * took the letter they end.  A letter, not a separator: its word goes on
 * into the next block, so a scanner that ends with this block stops
 * before it, never between its bytes.
 *
 * For the character scanners, which make an item of each character, low
 * is NULL: unless lead is also NULL, the letters are taken as word bytes
 * (*word) of which the first is in lead[0], for an item of its own, and
 * the others, for none, the byte after it and those in lead[1]: of two
 * bytes those whose fold is below U+0800, of three those that stand as
 * they are; across blocks as for words (the bytes in the next block in
 * its lead[1]).  Without carry, nothing is taken across blocks.
 */
static inline __attribute__((always_inline)) uint64_t
scan_high(struct scan *s, const unsigned char *p, uint64_t high,
    unsigned char *low, uint64_t *word, size_t lim, int *carry,
    uint64_t *lead)
{
	uint64_t taken = 0, m;
	unsigned i, cp;
	int k;

	if (carry != NULL) {
		/* The last bytes of a letter (never a separator). */
		m = ((uint64_t)1 << *carry) - 1;
		if (*carry && (high & m) == m) {
			/* The second of two, refolded: see below. */
			if (low != NULL && p[-1] >= 0xC2 && p[-1] <= 0xDF) {
				cp = s->two[(p[-1] & 0x1Fu) << 6 |
				    (p[0] & 0x3Fu)];
				low[0] = (unsigned char)(0x80 | (cp & 0x3F));
			}
			*word |= m;
			if (lead != NULL)
				lead[1] |= m;
			taken = m;
			high &= ~m;
		}
		*carry = 0;
	} else
		lim = 64;
	while (high != 0) {
		i = (unsigned)__builtin_ctzll(high);
		if (p[i] >= 0xC2 && p[i] <= 0xDF && i + 1 < lim &&
		    (p[i + 1] & 0xC0) == 0x80) {
			cp = s->two[(p[i] & 0x1Fu) << 6 | (p[i + 1] & 0x3Fu)];
			m = (uint64_t)3 << i;	/* (1 << 63 for i = 63) */
			if (cp != 0) {
				if (low != NULL) {
					if (cp < 0x80 || cp > 0x7FF)
						break;
					low[i] = (unsigned char)(0xC0 |
					    cp >> 6);
					low[i + 1] = (unsigned char)(0x80 |
					    (cp & 0x3F));
				} else if (lead != NULL && cp < TOKEN_TWO)
					lead[0] |= (uint64_t)1 << i;
				else
					break;
				*word |= m;
			} else if (i == 63)
				break;
			if (i == 63)
				*carry = 1;
		} else if ((p[i] & 0xF0) == 0xE0 && i + 2 < lim) {
			k = scan_three(s, p + i);
			if (k == 0 || (k == SCAN_LETTER && low == NULL &&
			    lead == NULL) || (k == SCAN_SEP && i > 61))
				break;
			m = (uint64_t)7 << i;	/* (to bit 63 for i > 61) */
			if (k == SCAN_LETTER) {
				*word |= m;
				if (lead != NULL) {
					lead[0] |= (uint64_t)1 << i;
					lead[1] |= m & (m - 1);
				}
				if (i > 61)
					*carry = (int)i - 61;
			}
		} else
			break;
		taken |= m;
		high &= ~m;
	}
	return taken;
}

/*
 * A character scanner's step past the block at *p, of which it took stop
 * bytes: returns 0 when it is to return, having left a non-ASCII byte or
 * come within a block of the end (then *until is the end, and *p past
 * the letter the block ends in, carry, not between its bytes).
 */
static inline int
scan_step(const unsigned char **p, const unsigned char *end, unsigned stop,
    int carry, const unsigned char **until)
{
	*p += stop;
	if (stop < 64)
		return 0;
	if (end - *p < 64) {
		*p += carry;
		*until = end;
		return 0;
	}
	return 1;
}

/* scan_two_hash's slow way: the hash made, kept, and returned. */
uint64_t scan_two_fill(struct scan *s, unsigned cp);

/* The item hash of the character cp, below TOKEN_TWO (token_char_hash). */
static inline uint64_t
scan_two_hash(struct scan *s, unsigned cp)
{
	if (s->twoset[cp / 64] >> cp % 64 & 1)
		return s->twohash[cp];
	return scan_two_fill(s, cp);
}

/* scan_three_hash's slow way. */
uint64_t scan_three_fill(struct scan *s, unsigned cp);

/* The item hash of the character cp, below TOKEN_THREE. */
static inline uint64_t
scan_three_hash(struct scan *s, unsigned cp)
{
	if (s->threehash != NULL && (s->threehash[TOKEN_THREE + cp / 64] >>
	    cp % 64 & 1))
		return s->threehash[cp];
	return scan_three_fill(s, cp);
}

/*
 * The item of the letter whose first byte is at p, as scan_high took it
 * for a character scanner: xxh_le64_lin of its hash (s->two giving the
 * fold of one of two bytes; one of three stands as it is).
 */
static inline uint64_t
scan_letter_item(struct scan *s, const unsigned char *p)
{
	if (p[0] < 0xE0)
		return xxh_le64_lin(scan_two_hash(s, s->two[(p[0] & 0x1Fu) <<
		    6 | (p[1] & 0x3Fu)]));
	return xxh_le64_lin(scan_three_hash(s, scan_three_cp(p)));
}

/*
 * The items of a block of characters with letters of more than one byte
 * (the bits of their first bytes in lead; see scan_high): each character
 * of chars, after a space if its bit is set in st too; the letters' from
 * their hashes (scan_letter_item).
 *
 * scan_items_fix puts the letters' right in out, the items made as if
 * all were ASCII (a letter's first byte for it): each one's place is the
 * number of characters and spaces before it.  scan_items_two makes them
 * all, one at a time, from b, the block with capitals folded, for
 * processors that count bits slowly (the scalar build; two count
 * instructions a letter made Russian 25% slower there, on x86-64).
 */
static inline size_t
scan_items_two(struct scan *s, const unsigned char *p,
    const unsigned char *b, uint64_t st, uint64_t chars, uint64_t lead,
    uint64_t *out)
{
	size_t c = 0;
	unsigned i;

	for (; chars != 0; chars &= chars - 1) {
		i = (unsigned)__builtin_ctzll(chars);
		if (st >> i & 1)
			out[c++] = s->lin[' '];
		out[c++] = lead >> i & 1 ? scan_letter_item(s, p + i) :
		    s->lin[b[i]];
	}
	return c;
}

static inline __attribute__((always_inline)) void
scan_items_fix(struct scan *s, const unsigned char *p, uint64_t st,
    uint64_t chars, uint64_t lead, uint64_t *out)
{
	uint64_t below;
	unsigned i;

	for (; lead != 0; lead &= lead - 1) {
		i = (unsigned)__builtin_ctzll(lead);
		below = ((uint64_t)1 << i) - 1;
		out[__builtin_popcountll(chars & below) +
		    __builtin_popcountll(st & (below << 1 | 1))] =
		    scan_letter_item(s, p + i);
	}
}

#endif
