/*
 * The SSE2 block scanners (see wordscan.h).  Between words the text is read 64
 * bytes at a time: SSE2 compares turn a block into bitmaps of word bytes,
 * capitals and non-ASCII bytes, and the words are the runs of ones.  The
 * window state lives in locals here, where the compiler keeps it in
 * registers.
 */
#include <string.h>

#include "cpu.h"
#include "token.h"
#include "window.h"
#include "wordscan.h"

#ifdef CPU_SSE2_SCAN
#include <emmintrin.h>
#include <immintrin.h>


/*
 * Bitmaps of 64 bytes at p: bytes that belong to words, ASCII capitals,
 * and non-ASCII bytes.  Also the 64 bytes with capitals folded, in low.
 */
static inline __attribute__((always_inline)) void
classify64(const unsigned char *p, int keeppunct, int fold, uint64_t *word,
    uint64_t *upper, uint64_t *high, unsigned char low[64])
{
	const __m128i k80 = _mm_set1_epi8((char)0x80);
	__m128i v, t, w, u;
	uint64_t mw = 0, mu = 0, mh = 0;
	unsigned i;

#pragma GCC unroll 4
	for (i = 0; i < 4; i++) {
		v = _mm_loadu_si128((const __m128i *)(p + 16 * i));
		/* x in [lo, lo + n) as a signed compare, offset by 0x80. */
		u = _mm_cmplt_epi8(_mm_add_epi8(v, _mm_set1_epi8(0x80 - 'A')),
		    _mm_set1_epi8((char)(0x80 + 26)));
		if (keeppunct) {
			t = _mm_cmplt_epi8(_mm_add_epi8(v,
			    _mm_set1_epi8(0x80 - 9)), _mm_set1_epi8((char)(0x80 + 5)));
			t = _mm_or_si128(t, _mm_cmpeq_epi8(v, _mm_set1_epi8(' ')));
			w = _mm_andnot_si128(t, _mm_cmpeq_epi8(v, v));
		} else {
			t = _mm_cmplt_epi8(_mm_add_epi8(v,
			    _mm_set1_epi8(0x80 - '0')), _mm_set1_epi8((char)(0x80 + 10)));
			w = _mm_cmplt_epi8(_mm_add_epi8(_mm_or_si128(v,
			    _mm_set1_epi8(0x20)), _mm_set1_epi8(0x80 - 'a')),
			    _mm_set1_epi8((char)(0x80 + 26)));
			w = _mm_or_si128(w, t);
		}
		if (fold)
			v = _mm_or_si128(v, _mm_and_si128(u, _mm_set1_epi8(0x20)));
		_mm_storeu_si128((__m128i *)(low + 16 * i), v);
		mh |= (uint64_t)(unsigned)_mm_movemask_epi8(
		    _mm_and_si128(v, k80)) << (16 * i);
		mw |= (uint64_t)(unsigned)_mm_movemask_epi8(w) << (16 * i);
		mu |= (uint64_t)(unsigned)_mm_movemask_epi8(u) << (16 * i);
	}
	*word = mw & ~mh;
	*upper = mu;
	*high = mh;
}

/*
 * The hash of a word of len bytes at p, of which at least 8 are readable.
 * Words of up to 8 bytes go through a direct-mapped cache: text reuses a
 * small vocabulary, and a hit costs less than XXH3's length dispatch.
 */
static inline uint64_t
word_hash(struct scan *s, const unsigned char *p, unsigned len)
{
	struct scan_cached *c;
	uint64_t key, w;

	memcpy(&w, p, sizeof(w));
	/* An 8-byte word whose last byte looks like a length is not cached. */
	if (len > 8 || (len == 8 && (w >> 56) < 8))
		return token_hash(p, len, s->seed);
	/* Shorter words: the top byte is free, it holds the length. */
	key = len == 8 ? w : (w & (((uint64_t)1 << (8 * len)) - 1)) |
	    (uint64_t)len << 56;
	c = &s->cache[(key * 0x9E3779B97F4A7C15ULL) >> (64 - SCAN_CACHE_BITS)];
	if (c->key == key)
		return c->hash;
	c->key = key;
	return c->hash = token_hash(p, len, s->seed);
}

/*
 * Slide the window by item hash h, queueing the n-gram when there is one,
 * and by the word low[b, e); the state is the caller's locals.  A full
 * out goes to the caller's flush.
 */
#define ITEM(h) do {							\
	t = (h);							\
	if (window_slide(&roll, &seen, &pos, win, n, t)) {		\
		s->out[nout++] = roll;					\
		if (nout == SCAN_BATCH) {				\
			s->nout = nout;					\
			s->flush(s->flushctx);				\
			nout = 0;					\
		}							\
	}								\
} while (0)
#define WORD(b, e) ITEM(word_hash(s, low + (b), (e) - (b)))

/*
 * The scanner for one setting of the options, which are constants here so
 * that the classification of a block has no branches.  Two blocks are
 * classified at a time, so that a word running from one block into the
 * next is found whole, in the 128 bytes of low, and only a word longer
 * than a block, or one that reaches the last block before the end or a
 * block of non-ASCII bytes, makes the scanner stop at its start.
 */
static inline __attribute__((always_inline)) const unsigned char *
scan(struct scan *s, const unsigned char *p, const unsigned char *end,
    const unsigned char **scalar_until, int keeppunct, int fold)
{
	unsigned char low[128 + 8] = { 0 };	/* + 8: word_hash reads 8 */
	uint64_t mw, mu, mh, nw, nh, st, en, t, in = 0;
	uint64_t roll = s->roll, seen = s->seen, *win = s->win;
	unsigned b, e, stop, n = s->n, pos = s->pos;
	size_t nout = s->nout;

	if (end - p < 64)
		return p;
	classify64(p, keeppunct, fold, &mw, &mu, &mh, low);
	if (mh != 0) {
		*scalar_until = p + 64;
		goto out;
	}
	for (;;) {
		/*
		 * Word starts and last bytes, each word one bit of each; a
		 * word that came in from the previous block (in) was done
		 * there.  Walking the two masks by clearing their lowest bits
		 * keeps the loop's dependency chain one cycle long.
		 */
		st = mw & ~((mw << 1) | in);
		en = mw & ~(mw >> 1);
		if (in)
			en &= en - 1;
		nw = nh = 0;
		if (end - p >= 128)
			classify64(p + 64, keeppunct, fold, &nw, &mu, &nh,
			    low + 64);
		if (end - p < 128 || nh != 0 || (mw >> 63 && ~nw == 0)) {
			/*
			 * The last block here: stop at the start of a word
			 * that goes on past it.
			 */
			if (nh != 0)
				*scalar_until = p + 128;
			stop = 64;
			if (mw >> 63) {
				stop = 63 - (unsigned)__builtin_clzll(st);
				st &= ~((uint64_t)1 << stop);
				en &= ~((uint64_t)1 << 63);
			}
			for (; st != 0; st &= st - 1, en &= en - 1) {
				b = (unsigned)__builtin_ctzll(st);
				e = (unsigned)__builtin_ctzll(en) + 1;
				WORD(b, e);
			}
			p += stop;
			break;
		}
		in = mw >> 63 & nw;
		en &= ~(in << 63);
		for (; en != 0; st &= st - 1, en &= en - 1) {
			b = (unsigned)__builtin_ctzll(st);
			e = (unsigned)__builtin_ctzll(en) + 1;
			WORD(b, e);
		}
		if (in) {
			/* The word goes on into the next block. */
			b = (unsigned)__builtin_ctzll(st);
			e = 64 + (unsigned)__builtin_ctzll(~nw);
			WORD(b, e);
		}
		memcpy(low, low + 64, 64);
		mw = nw;
		p += 64;
	}
out:
	s->roll = roll;
	s->seen = seen;
	s->pos = pos;
	s->nout = nout;
	return p;
}

/*
 * Character n-grams, 64 bytes at a time: each word byte is an item, and a
 * run of separators is one space item before the next word byte, if a
 * character came before it (as the shingler's byte-at-a-time path does).
 */
static inline __attribute__((always_inline)) const unsigned char *
cscan(struct scan *s, const unsigned char *p, const unsigned char *end,
    const unsigned char **scalar_until, int keeppunct, int fold)
{
	unsigned char low[64], item[192];
	uint64_t mw, mu, mh, st, t;
	uint64_t roll = s->roll, seen = s->seen, *win = s->win;
	const uint64_t *ascii = s->ascii;
	unsigned i, k, nitem, n = s->n, pos = s->pos;
	size_t nout = s->nout;
	int pendsep = s->pendsep, anychar = s->anychar;

	for (;; p += 64) {
		if (end - p < 64) {
			*scalar_until = end;
			break;
		}
		classify64(p, keeppunct, fold, &mw, &mu, &mh, low);
		if (mh != 0) {
			*scalar_until = p + 64;
			break;
		}
		/* Word bytes after a separator; none before the first. */
		st = mw & ~((mw << 1) | (uint64_t)!pendsep);
		if (!anychar)
			st &= ~(mw & -mw);
		/*
		 * The items in order, without a branch (a word start
		 * mispredicts too often), then their hashes.
		 */
		for (i = nitem = 0; i < 64; i++) {
			item[nitem] = ' ';
			nitem += (unsigned)(st >> i & 1);
			item[nitem] = low[i];
			nitem += (unsigned)(mw >> i & 1);
		}
		for (k = 0; k < nitem; k++)
			ITEM(ascii[item[k]]);
		anychar |= mw != 0;
		pendsep = !(mw >> 63);
	}
	s->roll = roll;
	s->seen = seen;
	s->pos = pos;
	s->nout = nout;
	s->pendsep = pendsep;
	s->anychar = anychar;
	return p;
}

CPU_CLONES const unsigned char *
wordscan_chars(struct scan *s, const unsigned char *p,
    const unsigned char *end, const unsigned char **scalar_until)
{
	if (s->keeppunct)
		return s->keepcase ? cscan(s, p, end, scalar_until, 1, 0) :
		    cscan(s, p, end, scalar_until, 1, 1);
	return s->keepcase ? cscan(s, p, end, scalar_until, 0, 0) :
	    cscan(s, p, end, scalar_until, 0, 1);
}

CPU_CLONES const unsigned char *
wordscan_words(struct scan *s, const unsigned char *p,
    const unsigned char *end, const unsigned char **scalar_until)
{
	if (s->keeppunct)
		return s->keepcase ? scan(s, p, end, scalar_until, 1, 0) :
		    scan(s, p, end, scalar_until, 1, 1);
	return s->keepcase ? scan(s, p, end, scalar_until, 0, 0) :
	    scan(s, p, end, scalar_until, 0, 1);
}
#else
typedef int wordscan_unused;	/* ISO C wants something here */
#endif
