/*
 * The block scanners (see wordscan.h).  Between words the text is read 64
 * bytes at a time: SSE2 compares, or without SSE2 the same tests on 64-bit
 * words, turn a block into bitmaps of word bytes, capitals and non-ASCII
 * bytes, and the words are the runs of ones.  The window state lives in
 * locals here, where the compiler keeps it in registers.
 */
#include <string.h>

#include "byteorder.h"
#include "cpu.h"
#include "scheme.h"
#include "token.h"
#include "window.h"
#include "wordhash.h"
#include "wordscan.h"
#include "xmalloc.h"
#include "xxh.h"

uint64_t
scan_two_fill(struct scan *s, unsigned cp)
{
	if (s->twohash == NULL)
		s->twohash = xmalloc(TOKEN_TWO * sizeof(*s->twohash));
	s->twoset[cp / 64] |= (uint64_t)1 << cp % 64;
	return s->twohash[cp] = token_char_hash(cp, s->seed);
}

uint64_t
scan_three_fill(struct scan *s, unsigned cp)
{
	if (s->threehash == NULL)
		s->threehash = xcalloc(TOKEN_THREE + TOKEN_THREE / 64,
		    sizeof(*s->threehash));
	s->threehash[TOKEN_THREE + cp / 64] |= (uint64_t)1 << cp % 64;
	return s->threehash[cp] = token_char_hash(cp, s->seed);
}

const uint64_t *
scan_three_make(struct scan *s, unsigned g)
{
	uint64_t *t = s->three, bit;
	unsigned c;

	if (t == NULL)
		t = s->three = xcalloc(SCAN_THREE_SIZE, sizeof(*t));
	for (c = 64 * g; c < 64 * g + 64; c++) {
		bit = (uint64_t)1 << c % 64;
		if (!token_isword(c, s->keeppunct))
			t[SCAN_THREE_SEPS + g] |= bit;
		else if (token_fold(c, s->keepcase) == c)
			t[SCAN_THREE_WORDS + g] |= bit;
	}
	t[SCAN_THREE_MADE + g / 64] |= (uint64_t)1 << g % 64;
	return t;
}

#ifdef CPU_BLOCK_SCAN
#ifdef CPU_SSE2_SCAN
#include <emmintrin.h>
#include <immintrin.h>
#endif

#ifdef CPU_SSE2_SCAN
/*
 * Bitmaps of 64 bytes at p: bytes that belong to words, ASCII capitals,
 * and non-ASCII bytes.  Also the 64 bytes with capitals folded, in low,
 * and unless spaced is NULL, the same with separators made spaces.
 */
static inline __attribute__((always_inline)) void
classify64(const unsigned char *p, int keeppunct, int fold, uint64_t *word,
    uint64_t *upper, uint64_t *high, unsigned char low[64],
    unsigned char *spaced)
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
		/* (Non-ASCII bytes are spaces there: see scan_high.) */
		if (spaced != NULL && keeppunct)
			w = _mm_andnot_si128(_mm_cmplt_epi8(v,
			    _mm_setzero_si128()), w);
		if (spaced != NULL)
			_mm_storeu_si128((__m128i *)(spaced + 16 * i),
			    _mm_or_si128(_mm_and_si128(w, v), _mm_andnot_si128(w,
			    _mm_set1_epi8(' '))));
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
 * classify64 with AVX2, 32 bytes a compare: half the instructions, for
 * the x86-64-v3 copies of the scanners (SCAN_LEVELS).  Not always_inline,
 * which the other copy, where it is never called, would not allow: GCC
 * inlines it where the caller has AVX2.
 */
static inline __attribute__((target("avx2"))) void
classify64_avx2(const unsigned char *p, int keeppunct, int fold,
    uint64_t *word, uint64_t *upper, uint64_t *high, unsigned char low[64],
    unsigned char *spaced)
{
	__m256i v, t, w, u;
	uint64_t mw = 0, mu = 0, mh = 0;
	unsigned i;

#pragma GCC unroll 2
	for (i = 0; i < 2; i++) {
		v = _mm256_loadu_si256((const __m256i *)(p + 32 * i));
		/* x in [lo, lo + n) as a signed compare, offset by 0x80. */
		u = _mm256_cmpgt_epi8(_mm256_set1_epi8((char)(0x80 + 26)),
		    _mm256_add_epi8(v, _mm256_set1_epi8(0x80 - 'A')));
		if (keeppunct) {
			t = _mm256_cmpgt_epi8(_mm256_set1_epi8((char)(0x80 +
			    5)), _mm256_add_epi8(v, _mm256_set1_epi8(0x80 - 9)));
			t = _mm256_or_si256(t, _mm256_cmpeq_epi8(v,
			    _mm256_set1_epi8(' ')));
			w = _mm256_andnot_si256(t, _mm256_cmpeq_epi8(v, v));
		} else {
			t = _mm256_cmpgt_epi8(_mm256_set1_epi8((char)(0x80 +
			    10)), _mm256_add_epi8(v, _mm256_set1_epi8(0x80 -
			    '0')));
			w = _mm256_cmpgt_epi8(_mm256_set1_epi8((char)(0x80 +
			    26)), _mm256_add_epi8(_mm256_or_si256(v,
			    _mm256_set1_epi8(0x20)), _mm256_set1_epi8(0x80 -
			    'a')));
			w = _mm256_or_si256(w, t);
		}
		if (fold)
			v = _mm256_or_si256(v, _mm256_and_si256(u,
			    _mm256_set1_epi8(0x20)));
		_mm256_storeu_si256((__m256i *)(low + 32 * i), v);
		if (spaced != NULL && keeppunct)
			w = _mm256_andnot_si256(_mm256_cmpgt_epi8(
			    _mm256_setzero_si256(), v), w);
		if (spaced != NULL)
			_mm256_storeu_si256((__m256i *)(spaced + 32 * i),
			    _mm256_or_si256(_mm256_and_si256(w, v),
			    _mm256_andnot_si256(w, _mm256_set1_epi8(' '))));
		/* The high bits: folding leaves them as they were. */
		mh |= (uint64_t)(uint32_t)_mm256_movemask_epi8(v) << (32 * i);
		mw |= (uint64_t)(uint32_t)_mm256_movemask_epi8(w) << (32 * i);
		mu |= (uint64_t)(uint32_t)_mm256_movemask_epi8(u) << (32 * i);
	}
	*word = mw & ~mh;
	*upper = mu;
	*high = mh;
}

#else
#define ONES	0x0101010101010101ULL

/* 0x80 in each of the 8 bytes of x (all ASCII) in [lo, lo + n). */
static inline uint64_t
swar_in(uint64_t x, unsigned lo, unsigned n)
{
	return (x + ONES * (0x80 - lo)) & ~(x + ONES * (0x80 - lo - n)) &
	    ONES * 0x80;
}

/* The high bits of the 8 bytes of x as 8 bits, byte 0 the lowest. */
static inline uint64_t
swar_bits(uint64_t x)
{
	return ((x >> 7 & ONES) * 0x0102040810204080ULL) >> 56;
}

/*
 * classify64 in 64-bit words: the same tests, 8 bytes at a time.  Unless
 * exact, *high is only nonzero if a byte is non-ASCII, and then the other
 * results are not to be used: a byte of 0x80 or more may carry into the
 * next in swar_in.  Exact, the tests are made on the bytes with their high
 * bit cleared, and no non-ASCII byte is a word byte or capital.
 */
static inline __attribute__((always_inline)) void
classify64_swar(const unsigned char *p, int keeppunct, int fold,
    uint64_t *word, uint64_t *upper, uint64_t *high, unsigned char low[64],
    unsigned char *spaced, int exact)
{
	uint64_t x, t, h, u, w, b, any = 0, mw = 0, mu = 0, mh = 0;
	unsigned i;

	for (i = 0; i < 64; i += 8) {
		memcpy(&x, p + i, sizeof(x));
		x = le64(x);		/* byte 0 the lowest, on any machine */
		h = exact ? x & ONES * 0x80 : 0;
		t = x ^ h;
		if (exact)
			mh |= swar_bits(h) << i;
		else
			any |= x;
		if (keeppunct) {
			u = swar_in(t, 'A', 26);
			w = ~(swar_in(t, 9, 5) | swar_in(t, ' ', 1)) &
			    ONES * 0x80;
		} else {
			/* Letters of either case; capitals lack 0x20. */
			u = swar_in(t | ONES * 0x20, 'a', 26);
			w = swar_in(t, '0', 10) | u;
			u &= ~(t << 2);
		}
		if (exact) {
			u &= ~h;
			w &= ~h;
		}
		if (fold)
			x |= u >> 2;
		if (spaced != NULL) {
			/* Word bytes as they are, the others spaces. */
			b = (w >> 7) * 0xff;
			b = le64((x & b) | (ONES * ' ' & ~b));
			memcpy(spaced + i, &b, sizeof(b));
		}
		x = le64(x);
		memcpy(low + i, &x, sizeof(x));
		mw |= swar_bits(w) << i;
		mu |= swar_bits(u) << i;
	}
	*word = mw;
	*upper = mu;
	*high = exact ? mh : any & ONES * 0x80;
}

static inline __attribute__((always_inline)) void
classify64(const unsigned char *p, int keeppunct, int fold, uint64_t *word,
    uint64_t *upper, uint64_t *high, unsigned char low[64],
    unsigned char *spaced)
{
	classify64_swar(p, keeppunct, fold, word, upper, high, low, spaced, 0);
	/* A block with non-ASCII bytes, rare in most text: again, exactly. */
	if (*high != 0)
		classify64_swar(p, keeppunct, fold, word, upper, high, low,
		    spaced, 1);
}
#endif

/*
 * classify64, and the non-ASCII bytes the scanners leave: not the
 * separators and letters scan_high takes first (letters for the word
 * scanners folded into low, for the character scanners' first bytes in
 * *lead).
 */
static inline __attribute__((always_inline)) void
classify_block(struct scan *s, const unsigned char *p, int keeppunct,
    int fold, int v3, uint64_t *word, uint64_t *upper, uint64_t *high,
    unsigned char low[64], unsigned char *spaced, size_t lim, int *carry,
    uint64_t *lead)
{
#ifdef CPU_SSE2_SCAN
	if (v3)
		classify64_avx2(p, keeppunct, fold, word, upper, high, low,
		    spaced);
	else
#endif
		classify64(p, keeppunct, fold, word, upper, high, low, spaced);
#ifndef CPU_SSE2_SCAN
	(void)v3;
#endif
	if (lead != NULL)
		lead[0] = lead[1] = 0;
	if (*high != 0)
		*high &= ~scan_high(s, p, *high, spaced == NULL ? low : NULL,
		    word, lim, carry, lead);
	else if (carry != NULL)
		*carry = 0;
}

/*
 * The item of a word of len bytes at p, of which at least 8 are readable:
 * xxh_le64_lin of its hash (xxh.h).  Words of up to 8 bytes go through a
 * direct-mapped cache of items: text reuses a small vocabulary, and a hit
 * costs less than XXH3's length dispatch.
 */
static inline __attribute__((always_inline)) uint64_t
word_hash(struct scan_cached *cache, uint64_t seed, const unsigned char *p,
    unsigned len, int keeppunct, uint64_t *missed)
{
	struct scan_cached *c;
	uint64_t key, w;

	if (len > 8) {
		++*missed;
		return xxh_le64_lin(token_hash(p, len, seed));
	}
	memcpy(&w, p, sizeof(w));
	/*
	 * The key: the word's bytes the high ones, zeros below.  A word of
	 * letters and digits has no zero byte, so the zeros tell its
	 * length, and no key is 0 (an empty slot).  With punctuation kept,
	 * any byte can be in a word: a shorter word's length goes in its
	 * low byte, and an 8-byte word whose first byte looks like one is
	 * not cached.
	 */
	key = le64(w) << (-(8 * len) & 63);	/* by 8 * (8 - len) */
	if (keeppunct) {
		if (len == 8 && (key & 0xff) < 8) {
			++*missed;
			return xxh_le64_lin(token_hash(p, len, seed));
		}
		key |= len & 7;
	}
	c = &cache[(key * 0x9E3779B97F4A7C15ULL) >> (64 - SCAN_CACHE_BITS)];
	if (c->key == key)
		return c->hash;
	++*missed;
	c->key = key;
	return c->hash = xxh_le64_lin(token_hash(p, len, seed));
}

/*
 * h[i] = word_hash of the word low[be[2i] .. be[2i + 1]) for i < n: the
 * words of a batch of blocks, looked up in a loop of their own, whose
 * few values stay in registers and whose end is predicted.  Unrolled by
 * four: the loop's own count, compare and two pointers were 4 of the 23
 * instructions of a cached word.
 */
static inline __attribute__((always_inline)) void
look_up_body(struct scan *s, const unsigned char *low, const uint16_t *be,
    uint64_t *h, size_t n)
{
	struct scan_cached *cache = s->cache;
	uint64_t seed = s->seed, missed = 0;
	size_t i;

	if (s->keeppunct) {
#pragma GCC unroll 4
		for (i = 0; i < n; i++)
			h[i] = word_hash(cache, seed, low + be[2 * i],
			    be[2 * i + 1] - be[2 * i], 1, &missed);
	} else {
#pragma GCC unroll 4
		for (i = 0; i < n; i++)
			h[i] = word_hash(cache, seed, low + be[2 * i],
			    be[2 * i + 1] - be[2 * i], 0, &missed);
	}
	s->missed += missed;
}

CPU_LEVELS(look_up, (struct scan *s, const unsigned char *low,
    const uint16_t *be, uint64_t *h, size_t n), (s, low, be, h, n))

/*
 * The items found, hashed, before they are rolled into n-grams in one
 * batch (window.h): h[0 .. n) the window, oldest first, then nq new items.
 * A batch of 512 leaves room for the items of one more block (at most 65
 * characters or 33 words; QBLOCK is a margin above both) and is no more
 * than out holds.
 */
#define QCAP	512
#define QBLOCK	96

struct itemq {
	uint64_t h[SCHEME_NGRAM_MAX + QCAP];
	size_t	 nq;
	uint64_t seen;		/* items in this document before the batch */
};

_Static_assert(QCAP <= WORDHASH_MAX, "a batch of words too small");

/*
 * Start a batch from the shingler's window.  The items are kept as
 * xxh_le64_lin of their hashes (xxh.h), as the character table (s->lin)
 * and the word cache give them.
 */
static void
q_begin(const struct scan *s, struct itemq *q)
{
	unsigned i;

	window_get(s->win, s->pos, s->n, q->h);
	for (i = 0; !s->winlin && i < s->n; i++)
		q->h[i] = xxh_le64_lin(q->h[i]);
	q->nq = 0;
	q->seen = s->seen;
}

/*
 * The n-grams of the m items h[0 .. m), finished (xxh_le64 of the roll,
 * flip the seed's part) as they are rolled, to out: one loop, unrolled
 * for the usual n, which the copies of CPU_LEVELS_AT vectorize (but for
 * x86-64-v3's, which has a loop of its own, grams_avx2).  The items
 * are xxh_le64_lin of their hashes, so the roll is xxh_le64_lin of the
 * roll of the hashes, and only xxh_le64_end is left to do (xxh.h).
 */
static inline __attribute__((always_inline)) void
grams_n(const uint64_t *h, size_t m, unsigned n, uint64_t flip,
    uint64_t *out)
{
	size_t k;

	for (k = 0; k < m; k++)
		out[k] = xxh_le64_end(window_gram(h + k, n) ^ flip);
}

/* CALL(k) for k the constant n, for the usual n (1 to 8); else OTHER. */
#define FOR_USUAL_N(n, CALL, OTHER) switch (n) {			\
	case 1: CALL(1); break;						\
	case 2: CALL(2); break;						\
	case 3: CALL(3); break;						\
	case 4: CALL(4); break;						\
	case 5: CALL(5); break;						\
	case 6: CALL(6); break;						\
	case 7: CALL(7); break;						\
	case 8: CALL(8); break;						\
	default: OTHER;							\
	}

static inline __attribute__((always_inline)) void
grams(const uint64_t *h, size_t m, unsigned n, uint64_t flip, uint64_t *out)
{
#define GRAMS(k) grams_n(h, m, k, flip, out)
	FOR_USUAL_N(n, GRAMS, grams_n(h, m, n, flip, out))
}

#ifdef CPU_X86_VECTOR
static inline __attribute__((target("avx2"), always_inline)) __m256i
rotl_avx2(__m256i x, int r)
{
	return _mm256_or_si256(_mm256_slli_epi64(x, r),
	    _mm256_srli_epi64(x, 64 - r));
}

/*
 * xxh_le64_end of four lanes.  AVX2 has no 64-bit multiply: GCC makes
 * each of the two from three vpmuludq and two shifts.  Here the two cross
 * products, of which only the low halves count, are one vpmulld, and
 * their sum goes to the high half by a shuffle and a blend: one
 * instruction fewer, and three on the multiply and shift ports where
 * there were five; the rotations keep those busy.
 */
static inline __attribute__((target("avx2"), always_inline)) __m256i
end_avx2(__m256i x)
{
	const uint64_t m = 0x9FB21C651E98DF25ULL;	/* xxh_le64_end's */
	const __m256i lo = _mm256_set1_epi64x((long long)(m & 0xffffffff));
	const __m256i swap = _mm256_set1_epi64x((long long)(m << 32 | m >> 32));
	__m256i c;
	unsigned i;

	for (i = 0; i < 2; i++) {
		/* [low of x_lo m_hi, low of x_hi m_lo] in each lane */
		c = _mm256_mullo_epi32(x, swap);
		c = _mm256_add_epi32(c, _mm256_shuffle_epi32(c, 0xb1));
		c = _mm256_blend_epi32(_mm256_setzero_si256(), c, 0xaa);
		x = _mm256_add_epi64(_mm256_mul_epu32(x, lo), c);
		x = _mm256_xor_si256(x, i == 0 ? _mm256_add_epi64(
		    _mm256_srli_epi64(x, 35), _mm256_set1_epi64x(8)) :
		    _mm256_srli_epi64(x, 28));
	}
	return x;
}

/*
 * The n-gram ending at item j as the vector loop below makes it: from the
 * pairs p (step 2), or from the items h (step 1, where p is h).
 */
static inline __attribute__((always_inline)) uint64_t
gram_pairs(const uint64_t *p, const uint64_t *h, size_t j, unsigned n,
    unsigned step)
{
	uint64_t g = p[j];
	unsigned i;

	for (i = step; i + step - 1 < n; i += step)
		g ^= window_rotl(p[j - i], i);
	if (step == 2 && n % 2 == 1)
		g ^= window_rotl(h[j - (n - 1)], n - 1);
	return g;
}

/*
 * grams for x86-64-v3, five n-grams at a time: four in a vector and the
 * fifth in general registers.  The vector loop is bound by its shifts
 * and multiplies; the fifth's rotations and imul take integer units it
 * leaves idle (AMD's are apart from the vector ones; Intel's share ports
 * 0, 1 and 5 with them).  For n of 4 or more, item j and item j - 1
 * rotated by one are XORed into a pair p[j] once, for all the n-grams
 * that have both; an n-gram is then its newest pair, the pairs every
 * other item before it, each rotated by its distance, and for odd n its
 * first item rotated: n / 2 rotations instead of n - 1.  The fifth and
 * the tail are made from the pairs too (gram_pairs): with n - 1
 * rotations, the fifth cost Intel's shared ports more than it gained
 * (CPU model 207, this loop alone at n = 5: 1.66 against 1.26 ns an
 * n-gram; Zen 5 made both at one speed).
 */
static inline __attribute__((target("avx2"), always_inline)) void
grams_avx2_n(const uint64_t *h, size_t m, unsigned n, uint64_t flip,
    uint64_t *out)
{
	const __m256i f = _mm256_set1_epi64x((long long)flip);
	uint64_t pairs[SCHEME_NGRAM_MAX + QCAP];
	const uint64_t *p = h;
	__m256i x;
	size_t k;
	long j;
	unsigned i, step = 1;

	if (n >= 4) {
		/* p[j] from j = 2 - n, the oldest pair an n-gram takes */
		p = pairs + SCHEME_NGRAM_MAX;
		for (j = 2 - (long)n; j + 4 <= (long)m; j += 4)
			_mm256_storeu_si256((__m256i *)(pairs +
			    SCHEME_NGRAM_MAX + j), _mm256_xor_si256(
			    _mm256_loadu_si256((const __m256i *)(h + j)),
			    rotl_avx2(_mm256_loadu_si256((const __m256i *)
			    (h + j - 1)), 1)));
		for (; j < (long)m; j++)
			pairs[SCHEME_NGRAM_MAX + j] = h[j] ^
			    window_rotl(h[j - 1], 1);
		step = 2;
	}
	for (k = 0; k + 5 <= m; k += 5) {
		x = _mm256_xor_si256(f,
		    _mm256_loadu_si256((const __m256i *)(p + k)));
#pragma GCC unroll 8
		for (i = step; i + step - 1 < n; i += step)
			x = _mm256_xor_si256(x, rotl_avx2(_mm256_loadu_si256(
			    (const __m256i *)(p + k - i)), (int)i));
		if (step == 2 && n % 2 == 1)
			x = _mm256_xor_si256(x, rotl_avx2(_mm256_loadu_si256(
			    (const __m256i *)(h + k - (n - 1))), (int)n - 1));
		_mm256_storeu_si256((__m256i *)(out + k), end_avx2(x));
		out[k + 4] = xxh_le64_end(gram_pairs(p, h, k + 4, n, step) ^
		    flip);
	}
	for (; k < m; k++)
		out[k] = xxh_le64_end(gram_pairs(p, h, k, n, step) ^ flip);
}

/*
 * For m of at most QCAP; returns 0, having done nothing, for an n other
 * than the usual, for which the v3 copy's grams, which GCC vectorizes,
 * does as well.  Not inlined where AVX2 is not allowed: called in the v3
 * copy only.
 */
static __attribute__((target("avx2"))) int
grams_avx2(const uint64_t *h, size_t m, unsigned n, uint64_t flip,
    uint64_t *out)
{
#define GRAMS_AVX2(k) grams_avx2_n(h, m, k, flip, out)
	FOR_USUAL_N(n, GRAMS_AVX2, return 0)
	return 1;
}
#endif

/*
 * Roll the batch into n-grams, queued in out finished (the first n - 1
 * items of a document make none), and keep its last n items as the
 * window, with the loop of level (CPU_LEVELS_AT).
 */
static inline __attribute__((always_inline)) void
q_drain_body(unsigned level, struct scan *s, struct itemq *q)
{
	unsigned n = s->n;
	size_t k0 = q->seen + 1 >= n ? 0 : n - 1 - q->seen;

	if (k0 > q->nq)
		k0 = q->nq;
	/* The shingler queues one at a time: out is never left full. */
	if (s->nout + q->nq - k0 >= SCAN_BATCH)
		s->flush(s->flushctx);
#ifdef CPU_X86_VECTOR
	if (level != CPU_LEVEL_V3 || !grams_avx2(q->h + n + k0, q->nq - k0,
	    n, xxh_le64_flip(s->seed), s->out + s->nout))
#else
	(void)level;
#endif
		grams(q->h + n + k0, q->nq - k0, n, xxh_le64_flip(s->seed),
		    s->out + s->nout);
	s->nout += q->nq - k0;
	s->nfin = s->nout;
	q->seen += q->nq;
	memmove(q->h, q->h + q->nq, n * sizeof(q->h[0]));
	q->nq = 0;
}

CPU_LEVELS_AT(q_drain, (struct scan *s, struct itemq *q), (s, q))

/* Hand the window back to the shingler, as items (s->winlin). */
static void
q_end(struct scan *s, struct itemq *q)
{
	q_drain(s, q);
	window_put(&s->roll, &s->pos, s->win, s->n, q->h);
	s->winlin = 1;
	s->seen = q->seen;
}

#ifdef CPU_AVX2_SCAN
#define WORDS_HASH() wordhash_avx2(&w, nq, s->seed, q.h + s->n)
#else
#define WORDS_HASH() (void)0
#endif

/*
 * Word b .. e of low: hashed now, or queued to be hashed in a batch.  The
 * counts are locals, which the compiler keeps in registers.
 */
#define WORD(b, e) (batch ? wordhash_add(&w, nq++, low + (b), (e) - (b), \
	s->seed) : (void)(qh[nq++] = word_hash(s->cache, s->seed, low + (b), \
	(e) - (b), keeppunct, &s->missed)))

/* The words listed (without batch) looked up, in order. */
#define WORDS_LOOK_UP() do {						\
	if (!batch && nq > 0)						\
		look_up(s, low, be, qh, nq);				\
} while (0)

#ifdef CPU_SSE2_SCAN
/*
 * shuf[m]: the places of the bits set in the byte m, in order, one a byte
 * and 0x80 after them.  It is the vpshufb control that moves the bytes
 * those bits choose to the front of 8 (compress_shuf), and the list of
 * the places of words in 8 bytes of a block (list_bits).
 */
static const uint64_t shuf[256] = {
	0x8080808080808080ULL, 0x8080808080808000ULL, 0x8080808080808001ULL,
	0x8080808080800100ULL, 0x8080808080808002ULL, 0x8080808080800200ULL,
	0x8080808080800201ULL, 0x8080808080020100ULL, 0x8080808080808003ULL,
	0x8080808080800300ULL, 0x8080808080800301ULL, 0x8080808080030100ULL,
	0x8080808080800302ULL, 0x8080808080030200ULL, 0x8080808080030201ULL,
	0x8080808003020100ULL, 0x8080808080808004ULL, 0x8080808080800400ULL,
	0x8080808080800401ULL, 0x8080808080040100ULL, 0x8080808080800402ULL,
	0x8080808080040200ULL, 0x8080808080040201ULL, 0x8080808004020100ULL,
	0x8080808080800403ULL, 0x8080808080040300ULL, 0x8080808080040301ULL,
	0x8080808004030100ULL, 0x8080808080040302ULL, 0x8080808004030200ULL,
	0x8080808004030201ULL, 0x8080800403020100ULL, 0x8080808080808005ULL,
	0x8080808080800500ULL, 0x8080808080800501ULL, 0x8080808080050100ULL,
	0x8080808080800502ULL, 0x8080808080050200ULL, 0x8080808080050201ULL,
	0x8080808005020100ULL, 0x8080808080800503ULL, 0x8080808080050300ULL,
	0x8080808080050301ULL, 0x8080808005030100ULL, 0x8080808080050302ULL,
	0x8080808005030200ULL, 0x8080808005030201ULL, 0x8080800503020100ULL,
	0x8080808080800504ULL, 0x8080808080050400ULL, 0x8080808080050401ULL,
	0x8080808005040100ULL, 0x8080808080050402ULL, 0x8080808005040200ULL,
	0x8080808005040201ULL, 0x8080800504020100ULL, 0x8080808080050403ULL,
	0x8080808005040300ULL, 0x8080808005040301ULL, 0x8080800504030100ULL,
	0x8080808005040302ULL, 0x8080800504030200ULL, 0x8080800504030201ULL,
	0x8080050403020100ULL, 0x8080808080808006ULL, 0x8080808080800600ULL,
	0x8080808080800601ULL, 0x8080808080060100ULL, 0x8080808080800602ULL,
	0x8080808080060200ULL, 0x8080808080060201ULL, 0x8080808006020100ULL,
	0x8080808080800603ULL, 0x8080808080060300ULL, 0x8080808080060301ULL,
	0x8080808006030100ULL, 0x8080808080060302ULL, 0x8080808006030200ULL,
	0x8080808006030201ULL, 0x8080800603020100ULL, 0x8080808080800604ULL,
	0x8080808080060400ULL, 0x8080808080060401ULL, 0x8080808006040100ULL,
	0x8080808080060402ULL, 0x8080808006040200ULL, 0x8080808006040201ULL,
	0x8080800604020100ULL, 0x8080808080060403ULL, 0x8080808006040300ULL,
	0x8080808006040301ULL, 0x8080800604030100ULL, 0x8080808006040302ULL,
	0x8080800604030200ULL, 0x8080800604030201ULL, 0x8080060403020100ULL,
	0x8080808080800605ULL, 0x8080808080060500ULL, 0x8080808080060501ULL,
	0x8080808006050100ULL, 0x8080808080060502ULL, 0x8080808006050200ULL,
	0x8080808006050201ULL, 0x8080800605020100ULL, 0x8080808080060503ULL,
	0x8080808006050300ULL, 0x8080808006050301ULL, 0x8080800605030100ULL,
	0x8080808006050302ULL, 0x8080800605030200ULL, 0x8080800605030201ULL,
	0x8080060503020100ULL, 0x8080808080060504ULL, 0x8080808006050400ULL,
	0x8080808006050401ULL, 0x8080800605040100ULL, 0x8080808006050402ULL,
	0x8080800605040200ULL, 0x8080800605040201ULL, 0x8080060504020100ULL,
	0x8080808006050403ULL, 0x8080800605040300ULL, 0x8080800605040301ULL,
	0x8080060504030100ULL, 0x8080800605040302ULL, 0x8080060504030200ULL,
	0x8080060504030201ULL, 0x8006050403020100ULL, 0x8080808080808007ULL,
	0x8080808080800700ULL, 0x8080808080800701ULL, 0x8080808080070100ULL,
	0x8080808080800702ULL, 0x8080808080070200ULL, 0x8080808080070201ULL,
	0x8080808007020100ULL, 0x8080808080800703ULL, 0x8080808080070300ULL,
	0x8080808080070301ULL, 0x8080808007030100ULL, 0x8080808080070302ULL,
	0x8080808007030200ULL, 0x8080808007030201ULL, 0x8080800703020100ULL,
	0x8080808080800704ULL, 0x8080808080070400ULL, 0x8080808080070401ULL,
	0x8080808007040100ULL, 0x8080808080070402ULL, 0x8080808007040200ULL,
	0x8080808007040201ULL, 0x8080800704020100ULL, 0x8080808080070403ULL,
	0x8080808007040300ULL, 0x8080808007040301ULL, 0x8080800704030100ULL,
	0x8080808007040302ULL, 0x8080800704030200ULL, 0x8080800704030201ULL,
	0x8080070403020100ULL, 0x8080808080800705ULL, 0x8080808080070500ULL,
	0x8080808080070501ULL, 0x8080808007050100ULL, 0x8080808080070502ULL,
	0x8080808007050200ULL, 0x8080808007050201ULL, 0x8080800705020100ULL,
	0x8080808080070503ULL, 0x8080808007050300ULL, 0x8080808007050301ULL,
	0x8080800705030100ULL, 0x8080808007050302ULL, 0x8080800705030200ULL,
	0x8080800705030201ULL, 0x8080070503020100ULL, 0x8080808080070504ULL,
	0x8080808007050400ULL, 0x8080808007050401ULL, 0x8080800705040100ULL,
	0x8080808007050402ULL, 0x8080800705040200ULL, 0x8080800705040201ULL,
	0x8080070504020100ULL, 0x8080808007050403ULL, 0x8080800705040300ULL,
	0x8080800705040301ULL, 0x8080070504030100ULL, 0x8080800705040302ULL,
	0x8080070504030200ULL, 0x8080070504030201ULL, 0x8007050403020100ULL,
	0x8080808080800706ULL, 0x8080808080070600ULL, 0x8080808080070601ULL,
	0x8080808007060100ULL, 0x8080808080070602ULL, 0x8080808007060200ULL,
	0x8080808007060201ULL, 0x8080800706020100ULL, 0x8080808080070603ULL,
	0x8080808007060300ULL, 0x8080808007060301ULL, 0x8080800706030100ULL,
	0x8080808007060302ULL, 0x8080800706030200ULL, 0x8080800706030201ULL,
	0x8080070603020100ULL, 0x8080808080070604ULL, 0x8080808007060400ULL,
	0x8080808007060401ULL, 0x8080800706040100ULL, 0x8080808007060402ULL,
	0x8080800706040200ULL, 0x8080800706040201ULL, 0x8080070604020100ULL,
	0x8080808007060403ULL, 0x8080800706040300ULL, 0x8080800706040301ULL,
	0x8080070604030100ULL, 0x8080800706040302ULL, 0x8080070604030200ULL,
	0x8080070604030201ULL, 0x8007060403020100ULL, 0x8080808080070605ULL,
	0x8080808007060500ULL, 0x8080808007060501ULL, 0x8080800706050100ULL,
	0x8080808007060502ULL, 0x8080800706050200ULL, 0x8080800706050201ULL,
	0x8080070605020100ULL, 0x8080808007060503ULL, 0x8080800706050300ULL,
	0x8080800706050301ULL, 0x8080070605030100ULL, 0x8080800706050302ULL,
	0x8080070605030200ULL, 0x8080070605030201ULL, 0x8007060503020100ULL,
	0x8080808007060504ULL, 0x8080800706050400ULL, 0x8080800706050401ULL,
	0x8080070605040100ULL, 0x8080800706050402ULL, 0x8080070605040200ULL,
	0x8080070605040201ULL, 0x8007060504020100ULL, 0x8080800706050403ULL,
	0x8080070605040300ULL, 0x8080070605040301ULL, 0x8007060504030100ULL,
	0x8080070605040302ULL, 0x8007060504030200ULL, 0x8007060504030201ULL,
	0x0706050403020100ULL,
};

/* bits8[m]: how many bits of the byte m are set. */
#define B2(n)	n, n + 1, n + 1, n + 2
#define B4(n)	B2(n), B2(n + 1), B2(n + 1), B2(n + 2)
#define B6(n)	B4(n), B4(n + 1), B4(n + 1), B4(n + 2)
static const unsigned char bits8[256] = { B6(0), B6(1), B6(1), B6(2) };
#undef B2
#undef B4
#undef B6

/*
 * The places of the bits set in t, plus base, to out in order; returns how
 * many.  A byte of t at a time: its places, from shuf, widened to 16 bits
 * and stored whole, the next byte's over those past its count.  out has
 * 8 places to spare.  A store of eight places a byte costs less than a
 * count of trailing zeros, a store and a clear a bit (the portable
 * listing, below), and has no branch on the count.
 */
static inline __attribute__((always_inline)) unsigned
list_bits(uint16_t *out, uint64_t t, unsigned base)
{
	__m128i b = _mm_set1_epi16((short)base), z = _mm_setzero_si128();
	__m128i eight = _mm_set1_epi16(8);
	uint16_t *o = out;
	unsigned k, m;

	/* In a register: GCC would otherwise make base + 8k anew each time. */
	__asm__("" : "+x"(eight));
#pragma GCC unroll 8
	for (k = 0; k < 8; k++) {
		m = (unsigned)(t >> 8 * k) & 0xff;
		_mm_storeu_si128((__m128i *)o, _mm_add_epi16(_mm_unpacklo_epi8(
		    _mm_cvtsi64_si128((long long)shuf[m]), z), b));
		b = _mm_add_epi16(b, eight);
		o += bits8[m];
	}
	return (unsigned)(o - out);
}
#else
/*
 * The lowest set bit of x, and if x is 0 a number not over 64
 * (__builtin_ctzll of 0 is undefined).
 */
static inline unsigned
ctz_or_63(uint64_t x)
{
	return (unsigned)__builtin_ctzll(x | (uint64_t)1 << 63);
}

/*
 * Word k of a block at low + base, the one of the lowest bits left in st
 * and en (none: past the block's words, a place not read), listed to be
 * looked up with the others of its batch of blocks (WORDS_LOOK_UP), and
 * cleared from st and en.
 */
#define LIST_ONE(k, base, st, en) do {					\
	be[2 * (nq + (k))] = (uint16_t)((base) + ctz_or_63(st));	\
	be[2 * (nq + (k)) + 1] = (uint16_t)((base) + 1 +		\
	    ctz_or_63(en));						\
	st &= st - 1;							\
	en &= en - 1;							\
} while (0)
#define LIST_FOUR(k, base, st, en) do {				\
	LIST_ONE((k), base, st, en);					\
	LIST_ONE((k) + 1, base, st, en);				\
	LIST_ONE((k) + 2, base, st, en);				\
	LIST_ONE((k) + 3, base, st, en);				\
} while (0)
#endif

/*
 * The blocks of text kept from the scanner's classification (low) for
 * the words listed: a batch is cut before they run out.
 */
#define LOW_BLOCKS	64

/*
 * The scanner for one setting of the options, which are constants here so
 * that the classification of a block has no branches.  Two blocks are
 * classified at a time, so that a word running from one block into the
 * next is found whole, in low, and only a word longer than a block, or
 * one that reaches the last block before the end or a block of non-ASCII
 * bytes, makes the scanner stop at its start.  With batch, the words are
 * hashed in batches (wordhash.c).  Without, the blocks stay in low, one
 * after another, and their words are listed, then looked up in the cache
 * in one loop when the batch is cut (look_up): per block, their loop
 * ended on a mispredicted branch.
 */
static inline __attribute__((always_inline)) const unsigned char *
scan(struct scan *s, const unsigned char *p, const unsigned char *end,
    const unsigned char **scalar_until, int keeppunct, int fold, int batch,
    int v3)
{
	/*
	 * 8 bytes on either side: word_hash and wordhash_add read 8, zeros
	 * where no block is.  The blocks of a batch of words follow each
	 * other from low.
	 */
	unsigned char buf[8 + 64 * LOW_BLOCKS + 8], *low = buf + 8;
	uint64_t mw, mu, mh, nw, nh, st, en, in = 0, *qh;
	uint16_t bebuf[2 + 2 * (QCAP + 12)], *be = bebuf + 2;
	unsigned b, e, ext, stop, base = 0, c;
	size_t nq = 0;
	struct itemq q;
	struct wordhash w;
	const unsigned char *until = NULL;
	int last = 0, nlast = 0, carry = 0;

	if (end - p < 64)
		return p;
	memset(buf, 0, 8);
	classify_block(s, p, keeppunct, fold, v3, &mw, &mu, &mh, low, NULL,
	    (size_t)(end - p), &carry, NULL);
	if (mh != 0) {
		if (!scan_cut_words(&mw, mh, p, &until)) {
			*scalar_until = until;	/* nothing to do before it */
			return p;
		}
		last = 1;
	}
	q_begin(s, &q);
	qh = q.h + s->n;
	w.nhuge = 0;
	for (;;) {
		/*
		 * Word starts and last bytes, each word one bit of each; a
		 * word that came in from the previous block (in) was done
		 * there.  Walking the two masks by clearing their lowest bits
		 * keeps the loop's dependency chain one cycle long.  The
		 * block is at low + base, the next after it.
		 */
		st = mw & ~((mw << 1) | in);
		en = mw & ~(mw >> 1);
		if (in)
			en &= en - 1;
		nw = 0;
		if (!last && end - p >= 128) {
			classify_block(s, p + 64, keeppunct, fold, v3, &nw, &mu,
			    &nh, low + base + 64, NULL, (size_t)(end - p - 64),
			    &carry, NULL);
			if (nh != 0) {
				(void)scan_cut_words(&nw, nh, p + 64, &until);
				nlast = 1;
			}
		}
		/*
		 * (mw >> 63, whether a word runs to the block's end, follows
		 * the text: tested with & where && would branch on it.)
		 */
		if (last || end - p < 128 ||
		    (mw >> 63 & (uint64_t)(~nw == 0))) {
			/*
			 * The last block here: stop at the start of a word
			 * that goes on past it.  Its words are hashed as
			 * they are found, after those listed: a document of
			 * one or two blocks (--lines) would otherwise end on
			 * two loops, each with its mispredicted end.
			 */
			WORDS_LOOK_UP();
			memset(low + base + 64, 0, 8);
			if (until != NULL)
				*scalar_until = until;
			stop = 64;
			if (mw >> 63) {
				stop = 63 - (unsigned)__builtin_clzll(st);
				st &= ~((uint64_t)1 << stop);
				en &= ~((uint64_t)1 << 63);
			}
			for (; st != 0; st &= st - 1, en &= en - 1) {
				b = (unsigned)__builtin_ctzll(st);
				e = (unsigned)__builtin_ctzll(en) + 1;
				WORD(base + b, base + e);
			}
			p += stop;
			break;
		}
		in = mw >> 63 & nw;
		/*
		 * A word that goes on into the next block ends at 63 in en;
		 * its end moves on by ext there.  Without a branch on in,
		 * which follows the text: bit 63 keeps the count defined
		 * where ~nw is 0 (in is then 0, as is ext); where in is 1,
		 * ~nw is not 0, and bit 63 does not change its count.
		 */
		ext = (unsigned)__builtin_ctzll(~nw | (uint64_t)1 << 63) &
		    (0 - (unsigned)in);
		if (batch) {
			for (; en != 0; st &= st - 1, en &= en - 1) {
				b = (unsigned)__builtin_ctzll(st);
				e = (unsigned)__builtin_ctzll(en) + 1;
				e = e == 64 ? e + ext : e;
				WORD(base + b, base + e);
			}
			memcpy(low, low + 64, 64);
		} else {
#ifdef CPU_SSE2_SCAN
			/*
			 * The places where a word starts and the bytes after
			 * the words alternate: listed in order, they are the
			 * list's starts and ends.  A word that goes on into
			 * the next block (its last byte at 63, shifted out)
			 * ends at 64 + ext, after the others.
			 */
			c = list_bits(be + 2 * nq, st | en << 1, base);
			be[2 * nq + c] = (uint16_t)(base + 64 + ext);
			nq += (c + (unsigned)(mw >> 63)) / 2;
#else
			unsigned k;

			/*
			 * The first 12 words are listed whether or not the
			 * block has them (a word not there is written past
			 * the list's end): a loop over the block's words
			 * would end on a mispredicted branch at most blocks,
			 * as their count varies.  12 or fewer: 94% of the
			 * blocks of kernel text and 93% of the licences in
			 * /usr/share/common-licenses.
			 */
			c = (unsigned)__builtin_popcountll(en);
			LIST_FOUR(0, base, st, en);
			LIST_FOUR(4, base, st, en);
			LIST_FOUR(8, base, st, en);
			for (k = 12; k < c; k++)
				LIST_ONE(k, base, st, en);
			/*
			 * A word that goes on into the next block is the
			 * last listed (if none is, ext is 0).
			 */
			be[2 * (nq + c) - 1] = (uint16_t)(be[2 * (nq + c) - 1] +
			    ext);
			nq += c;
#endif
			base += 64;
		}
		mw = nw;
		last = nlast;
		p += 64;
		if (nq > QCAP - QBLOCK || base == 64 * (LOW_BLOCKS - 2)) {
			if (batch)
				WORDS_HASH();
			WORDS_LOOK_UP();
			q.nq = nq;
			q_drain(s, &q);
			nq = 0;
			if (!batch) {
				memcpy(low, low + base, 64);
				base = 0;
			}
		}
	}
	if (batch)
		WORDS_HASH();
	q.nq = nq;
	q_end(s, &q);
	return p;
}

/*
 * The bytes of in[0 .. 64) whose bits are set in keep, in order, to out,
 * which has 8 bytes to spare; returns how many.  The portable way, then
 * with SSSE3.
 */
static size_t
compress_bytes(const unsigned char *in, uint64_t keep, unsigned char *out)
{
	size_t c = 0;
	unsigned i;

	for (i = 0; i < 64; i++) {
		out[c] = in[i];
		c += keep >> i & 1;
	}
	return c;
}

#ifdef CPU_SSE2_SCAN
/*
 * compress_bytes with SSSE3: each group of 8 compressed in a register and
 * stored whole, the next group over the bytes it did not keep.
 */
static inline __attribute__((always_inline, target("ssse3,popcnt"))) size_t
compress_shuf(const unsigned char *in, uint64_t keep, unsigned char *out)
{
	size_t c = 0;
	unsigned j, m;

	for (j = 0; j < 64; j += 8) {
		m = keep >> j & 0xff;
		_mm_storel_epi64((__m128i *)(out + c), _mm_shuffle_epi8(
		    _mm_loadl_epi64((const __m128i *)(in + j)),
		    _mm_cvtsi64_si128((long long)shuf[m])));
		c += (unsigned)__builtin_popcount(m);
	}
	return c;
}

static __attribute__((target("ssse3,popcnt"))) size_t
compress_ssse3(const unsigned char *in, uint64_t keep, unsigned char *out)
{
	return compress_shuf(in, keep, out);
}

/*
 * The same in the x86-64-v3 copies, inlined there: a call from code that
 * has used 256-bit registers to SSE code pays for the switch between
 * them (it made -c 5 twice as slow).
 */
static inline __attribute__((target("arch=x86-64-v3"))) size_t
compress_v3(const unsigned char *in, uint64_t keep, unsigned char *out)
{
	return compress_shuf(in, keep, out);
}
#endif

/* compress_bytes the fastest way there is. */
static inline __attribute__((always_inline)) size_t
compress(const struct scan *s, const unsigned char *in, uint64_t keep,
    unsigned char *out, int v3)
{
#ifdef CPU_SSE2_SCAN
	if (v3)
		return compress_v3(in, keep, out);
	if (s->ssse3)
		return compress_ssse3(in, keep, out);
#else
	(void)s;
	(void)v3;
#endif
	return compress_bytes(in, keep, out);
}

/*
 * The items of the nc characters queued in qc, as xxh_le64_lin of their
 * hashes (s->lin), to the last nc places of q, which were kept for them.
 * A batch's characters are looked up in one loop, a load, a lookup and a
 * store each.  Block by block, the lookups took each byte out of the
 * compress's register, which cost 7% more on AVX2, or loaded the bytes
 * it had just stored in overlapping pieces, and waited for the stores
 * (that made -c 5 nearly twice as slow); a batch later they are done.
 */
static inline __attribute__((always_inline)) void
q_items(const struct scan *s, struct itemq *q, const unsigned char *qc,
    size_t *nc)
{
	size_t k, n = *nc;
	uint64_t *h = q->h + s->n + q->nq - n;

#pragma GCC unroll 4
	for (k = 0; k < n; k++)
		h[k] = s->lin[qc[k]];
	*nc = 0;
}

/*
 * Character n-grams, 64 bytes at a time: each word byte is an item, and a
 * run of separators is one space item before the next word byte, if a
 * character came before it (as the shingler's byte-at-a-time path does).
 * The items are the block with separators made spaces, compressed to the
 * word bytes and the last separator before each word start, queued as
 * characters and looked up a batch at a time (q_items).
 */
static inline __attribute__((always_inline)) const unsigned char *
cscan(struct scan *s, const unsigned char *p, const unsigned char *end,
    const unsigned char **scalar_until, int keeppunct, int fold, int v3)
{
	/* qc: the characters of the items queued last; 8 bytes to spare. */
	unsigned char low[64], spaced[64], qc[QCAP + 8];
	uint64_t mw, mu, mh, st, lead[2], chars, *qh;
	size_t nc = 0, c;
	int pendsep = s->pendsep, anychar = s->anychar, carry = 0;
	struct itemq q;
	unsigned stop = 64;

	if (end - p < 64) {
		*scalar_until = end;
		return p;
	}
	classify_block(s, p, keeppunct, fold, v3, &mw, &mu, &mh, low, spaced,
	    (size_t)(end - p), &carry, lead);
	/* Return at once if it has no word byte before its first non-ASCII. */
	if (mh != 0 && (mw & scan_cut(mh, p, scalar_until)) == 0)
		return p;
	q_begin(s, &q);
	for (;;) {
		if (mh != 0) {
			stop = (unsigned)__builtin_ctzll(mh);
			mw &= scan_cut(mh, p, scalar_until);
		}
		/* Word bytes after a separator; none before the first. */
		st = mw & ~((mw << 1) | (uint64_t)!pendsep);
		if (!anychar)
			st &= ~(mw & -mw);
		if (q.nq > QCAP - QBLOCK) {
			q_items(s, &q, qc, &nc);
			q_drain(s, &q);
		}
		qh = q.h + s->n + q.nq;
		/* A letter is one item, at its first byte. */
		chars = mw & ~(lead[0] << 1 | lead[1]);
#ifndef CPU_SSE2_SCAN
		if (lead[0] != 0) {
			q_items(s, &q, qc, &nc);
			q.nq += scan_items_two(s, p, spaced, st, chars, lead[0],
			    qh);
		} else
#endif
		{
			/* The space before a word at the start of the block. */
			qc[nc] = ' ';
			nc += st & 1;
			c = compress(s, spaced, chars | st >> 1, qc + nc, v3);
			nc += c;
			q.nq += (st & 1) + c;
			if (lead[0] != 0) {
				q_items(s, &q, qc, &nc);
				scan_items_fix(s, p, st, chars, lead[0], qh);
			}
		}
		anychar |= mw != 0;
		if (stop > 0)
			pendsep = !(mw >> (stop - 1) & 1);
		if (!scan_step(&p, end, stop, carry, scalar_until))
			break;
		classify_block(s, p, keeppunct, fold, v3, &mw, &mu, &mh, low,
		    spaced, (size_t)(end - p), &carry, lead);
	}
	q_items(s, &q, qc, &nc);
	q_end(s, &q);
	s->pendsep = pendsep;
	s->anychar = anychar;
	return p;
}

/*
 * The scanners for the options of s, and for the level v3 of SCAN_LEVEL.
 */
static inline __attribute__((always_inline)) const unsigned char *
chars_by_options(struct scan *s, const unsigned char *p,
    const unsigned char *end, const unsigned char **scalar_until, int v3)
{
	if (s->keeppunct)
		return s->keepcase ? cscan(s, p, end, scalar_until, 1, 0, v3) :
		    cscan(s, p, end, scalar_until, 1, 1, v3);
	return s->keepcase ? cscan(s, p, end, scalar_until, 0, 0, v3) :
	    cscan(s, p, end, scalar_until, 0, 1, v3);
}

/* The word scanner, hashing in batches or not. */
static inline __attribute__((always_inline)) const unsigned char *
scan_by_options(struct scan *s, const unsigned char *p,
    const unsigned char *end, const unsigned char **scalar_until, int batch,
    int v3)
{
	if (s->keeppunct)
		return s->keepcase ? scan(s, p, end, scalar_until, 1, 0,
		    batch, v3) : scan(s, p, end, scalar_until, 1, 1, batch, v3);
	return s->keepcase ? scan(s, p, end, scalar_until, 0, 0, batch, v3) :
	    scan(s, p, end, scalar_until, 0, 1, batch, v3);
}

/*
 * With AVX2 and not AVX-512, words go through the cache while few of the
 * last SCAN_TRY miss it, else in batches (wordhash.c) for the next
 * SCAN_BATCHED (about 7 MB of prose or code), twice as many at each trial
 * that fails in a row, up to 2^(SCAN_BACKOFF - 1) times as many: a text
 * of many distinct words then spends little in trials.  A batch costs
 * more than a cache that hits and less than one that misses.  Few is a
 * quarter, as each 64-bit multiply of the batch is made of three 32-bit
 * ones.  The words tried are many more than the cache's slots, so that
 * its first misses do not decide.  With AVX-512, wordvec.c hashes every
 * word in batches.
 */
#define SCAN_TRY	65536
#define SCAN_BATCHED	((uint64_t)1 << 20)
#define SCAN_BACKOFF	4

static inline __attribute__((always_inline)) const unsigned char *
words_by_options(struct scan *s, const unsigned char *p,
    const unsigned char *end, const unsigned char **scalar_until, int v3)
{
#ifdef CPU_AVX2_SCAN
	uint64_t seen = s->seen, n;

	if (s->avx2 && s->batched > 0) {
		p = scan_by_options(s, p, end, scalar_until, 1, v3);
		n = s->seen - seen;
		s->batched -= n < s->batched ? n : s->batched;
		return p;
	}
	if (s->avx2) {
		p = scan_by_options(s, p, end, scalar_until, 0, v3);
		if ((s->tried += s->seen - seen) >= SCAN_TRY) {
			if (s->missed * 4 > s->tried) {
				if (s->backoff < SCAN_BACKOFF)
					s->backoff++;
				s->batched = SCAN_BATCHED << (s->backoff - 1);
			} else
				s->backoff = 0;
			s->tried = s->missed = 0;
		}
		return p;
	}
#endif
	return scan_by_options(s, p, end, scalar_until, 0, v3);
}

/*
 * SCAN_LEVEL(name): wordscan_name, which runs name_by_options compiled
 * for x86-64-v3 (BMI2's shifts and bit extraction, blocks classified with
 * AVX2) where s->v3 says the processor has it and NEARDUP_NO_AVX2 is not
 * set, and otherwise compiled for any processor.  Not an ifunc, so that
 * the switch reaches these copies too.
 */
#ifdef CPU_LEVEL_COPIES
#define SCAN_LEVEL(name)						\
	static __attribute__((target("arch=x86-64-v3"), noinline))	\
	const unsigned char *						\
	name##_v3(struct scan *s, const unsigned char *p,		\
	    const unsigned char *end, const unsigned char **scalar_until) \
	{								\
		return name##_by_options(s, p, end, scalar_until, 1);	\
	}								\
	const unsigned char *						\
	wordscan_##name(struct scan *s, const unsigned char *p,		\
	    const unsigned char *end, const unsigned char **scalar_until) \
	{								\
		if (s->v3)						\
			return name##_v3(s, p, end, scalar_until);	\
		return name##_by_options(s, p, end, scalar_until, 0);	\
	}
#else
#define SCAN_LEVEL(name)						\
	const unsigned char *						\
	wordscan_##name(struct scan *s, const unsigned char *p,		\
	    const unsigned char *end, const unsigned char **scalar_until) \
	{								\
		return name##_by_options(s, p, end, scalar_until, 0);	\
	}
#endif

SCAN_LEVEL(chars)
SCAN_LEVEL(words)
#else
typedef int wordscan_unused;	/* ISO C wants something here */
#endif
