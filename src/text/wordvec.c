/*
 * The block scanners with AVX-512 (see wordvec.h).  They find the items
 * of each 64-byte block as the SSE2 scanners in wordscan.c do, but
 * handle them in phases over a queue of a few hundred, each phase a loop
 * of eight items at a time with no branch on the data:
 *
 *   1. words are cut out of their block into 8-byte lanes, with their
 *      lengths, and those of over 8 bytes listed; characters are laid out
 *      as items and their hashes looked up;
 *   2. the words are hashed: XXH3's 1-to-3 and 4-to-8 byte mixes as one,
 *      with constants chosen by lane; the listed ones gathered and hashed
 *      as XXH3's 9 to 16 bytes (xxh_bytes for the rare longer ones);
 *   3. the n-gram window is rolled as a prefix scan: the rolled XOR of
 *      window.h, R_i = rotl(R_i-1, 1) ^ t_i ^ rotl(t_i-n, n), is linear,
 *      so eight of them take three shift-rotate-XOR steps; the n-grams
 *      are finished there too.
 *
 * The word scanner has two copies: one for processors with VBMI and
 * VBMI2, which cut the words with byte compresses and permutes, and one
 * for the AVX-512 of Skylake and Cascade Lake servers, which finds where
 * the words start and end with bit extractions and cuts them as 8-byte
 * lanes shifted together.  The character scanner needs VBMI2.
 *
 * The results are the same as the SSE2 scanners', bit for bit
 * (test_shingle checks both against a reference, hash.bats compares them).
 */
#include <string.h>

#include "cpu.h"
#include "token.h"
#include "window.h"
#include "wordvec.h"
#include "xxh.h"

#ifdef CPU_AVX512_SCAN
#include <immintrin.h>

/*
 * Compiled for the AVX-512 of x86-64-v4 with BMI2, and where VBMI and
 * VBMI2 are needed for those too (T512V).  The VBMI helpers are inline
 * but not always_inline: GCC and clang refuse an always_inline function
 * with more extensions than its caller even where the call is dead code,
 * as it is in the word scanner's copy for processors without them.
 */
#define T512 __attribute__((target("avx512f,avx512bw,avx512dq," \
	"avx512vl,bmi,bmi2,lzcnt,popcnt")))
#define T512V __attribute__((target("avx512f,avx512bw,avx512dq," \
	"avx512vl,avx512vbmi,avx512vbmi2,bmi,bmi2,lzcnt,popcnt")))
#define INLINE512 static inline T512 __attribute__((always_inline))
#define INLINE512V static inline T512V __attribute__((always_inline))
#define VBMI_HELPER static inline T512V

#define WQ_MAX	512	/* words queued before they are hashed and rolled */
#define WQ_SLACK 64	/* room for a block's whole vector stores */
#define WQ_PATCH 64	/* blocks with letters of two bytes queued */

/* roll finds room in an emptied out for a full queue and a vector more. */
_Static_assert(WQ_MAX + WQ_SLACK + 8 <= SCAN_BATCH, "out too small");

/*
 * The queue.  The hashes of the words, at wq_hash(q), are preceded by the
 * window's n newest item hashes (oldest first, zeros at the start of a
 * document), which the roll of the first queued words reads.
 */
struct wordq {
	uint64_t word[WQ_MAX + WQ_SLACK];	/* up to 8 bytes of each */
	uint64_t h[SCHEME_NGRAM_MAX + WQ_MAX + WQ_SLACK];
	unsigned char len[WQ_MAX + WQ_SLACK];
	unsigned char start[WQ_MAX + WQ_SLACK];	/* in the word's block */
	/* The words of over 8 bytes: where they queue, and their blocks. */
	uint32_t longi[WQ_MAX + WQ_SLACK];
	const unsigned char *longp[WQ_MAX + WQ_SLACK];
	unsigned char longlen[WQ_MAX + WQ_SLACK];
	/*
	 * Blocks with letters of two bytes (scan_high), as they are hashed,
	 * each with the block after it: the long words of such a block are
	 * hashed from here, not from the text.
	 */
	unsigned char patch[WQ_PATCH][128];
	unsigned npatch;
	unsigned nq;		/* words queued */
	unsigned nlong;
	uint64_t roll;		/* the rolled XOR of the newest item */
	uint64_t seen;		/* items in the document before the queue */
};

static inline uint64_t *
wq_hash(struct wordq *q)
{
	return q->h + SCHEME_NGRAM_MAX;
}

/* The bytes 0, 1, ..., 63 plus add. */
INLINE512 __m512i
iota8(char add)
{
	return _mm512_add_epi8(_mm512_set_epi64(
	    0x3f3e3d3c3b3a3938LL, 0x3736353433323130LL,
	    0x2f2e2d2c2b2a2928LL, 0x2726252423222120LL,
	    0x1f1e1d1c1b1a1918LL, 0x1716151413121110LL,
	    0x0f0e0d0c0b0a0908LL, 0x0706050403020100LL),
	    _mm512_set1_epi8(add));
}

/*
 * The 64 bytes at p, with capitals folded when fold; *word gets the bitmap
 * of word bytes, *high that of the non-ASCII bytes the scanners leave
 * (not those scan_high takes first).  The same classes as classify64 in
 * wordscan.c.  Letters of more than one byte are taken too, as scan_high
 * says, lim, carry and lead being its: for the character scanner (lead
 * not NULL) without a change to the block; for the word scanner, folded
 * in it, and then *patched says whether that changed a byte.
 */
INLINE512 __m512i
classify(struct scan *s, const unsigned char *p, int keeppunct,
    int fold, uint64_t *word, uint64_t *high, size_t lim, int *carry,
    int *patched, uint64_t *lead)
{
	unsigned char b[64 + 8];
	uint64_t w0;
	__m512i v = _mm512_loadu_si512(p);
	__mmask64 u, w, h;

	u = _mm512_cmplt_epu8_mask(_mm512_sub_epi8(v, _mm512_set1_epi8('A')),
	    _mm512_set1_epi8(26));
	h = _mm512_movepi8_mask(v);
	if (keeppunct)
		w = ~(_mm512_cmplt_epu8_mask(_mm512_sub_epi8(v,
		    _mm512_set1_epi8(9)), _mm512_set1_epi8(5)) |
		    _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(' ')));
	else
		w = _mm512_cmplt_epu8_mask(_mm512_sub_epi8(v,
		    _mm512_set1_epi8('0')), _mm512_set1_epi8(10)) |
		    _mm512_cmplt_epu8_mask(_mm512_sub_epi8(_mm512_or_si512(v,
		    _mm512_set1_epi8(0x20)), _mm512_set1_epi8('a')),
		    _mm512_set1_epi8(26));
	if (fold)
		v = _mm512_mask_add_epi8(v, u, v, _mm512_set1_epi8(0x20));
	*word = w0 = w & ~h;
	*high = 0;
	if (h == 0)
		*carry = 0;
	if (lead != NULL) {
		lead[0] = lead[1] = 0;
		if (h != 0)
			*high = h & ~scan_high(s, p, h, NULL, word, lim, carry,
			    lead);
		return v;
	}
	*patched = 0;
	if (h != 0) {
		_mm512_storeu_si512(b, v);
		*high = h & ~scan_high(s, p, h, b, word, lim, carry, NULL);
		/* (Those of three bytes stand as they are.) */
		if (*word != w0 && _mm512_cmpneq_epi8_mask(v,
		    _mm512_loadu_si512(b)) != 0) {
			v = _mm512_loadu_si512(b);
			*patched = 1;
		}
	}
	return v;
}

/*
 * The places of the bits set in m, in order, in the bytes of a vector,
 * zeros past them: with VBMI2, the bytes 0 to 63 compressed; without, a
 * bit of every place at a time, as bit b of the i-th place is bit i of
 * bit[b], the places with bit b set, extracted where m has its bits
 * (pext).
 */
VBMI_HELPER __m512i
places_vbmi(uint64_t m)
{
	return _mm512_maskz_compress_epi8(m, iota8(0));
}

INLINE512 __m512i
places(uint64_t m, int vbmi)
{
	static const uint64_t bit[6] = {
		0xaaaaaaaaaaaaaaaaULL, 0xccccccccccccccccULL,
		0xf0f0f0f0f0f0f0f0ULL, 0xff00ff00ff00ff00ULL,
		0xffff0000ffff0000ULL, 0xffffffff00000000ULL,
	};
	__m512i r = _mm512_setzero_si512();
	unsigned b;

	if (vbmi)
		return places_vbmi(m);
#pragma GCC unroll 6
	for (b = 0; b < 6; b++)
		r = _mm512_mask_add_epi8(r, _pext_u64(bit[b], m), r,
		    _mm512_set1_epi8((char)(1 << b)));
	return r;
}

/*
 * Words g to g + 7, whose starts are the bytes g to g + 7 of sv, from the
 * 128 bytes lo and hi: lane i gets bytes start .. start + 7 of word g + i
 * (past byte 127, any).  With VBMI, byte by byte; without, as the two
 * 8-byte lanes the word's 8 bytes span, shifted together.
 */
VBMI_HELPER __m512i
cut_vbmi(__m512i lo, __m512i hi, __m512i sv, unsigned g)
{
	/* Byte j of lane i: j, and the lane, i. */
	const __m512i j8 = _mm512_set1_epi64(0x0706050403020100LL);
	const __m512i lane = _mm512_set_epi64(
	    0x0707070707070707LL, 0x0606060606060606LL,
	    0x0505050505050505LL, 0x0404040404040404LL,
	    0x0303030303030303LL, 0x0202020202020202LL,
	    0x0101010101010101LL, 0x0000000000000000LL);
	__m512i bi = _mm512_add_epi8(lane, _mm512_set1_epi8((char)g));

	return _mm512_permutex2var_epi8(lo, _mm512_add_epi8(
	    _mm512_permutexvar_epi8(bi, sv), j8), hi);
}

INLINE512 __m512i
cut(__m512i lo, __m512i hi, __m512i sv, unsigned g, int vbmi)
{
	__m512i at, sh;

	if (vbmi)
		return cut_vbmi(lo, hi, sv, g);
	at = _mm512_cvtepu8_epi64(_mm512_castsi512_si128(
	    _mm512_permutexvar_epi64(_mm512_set1_epi64(g / 8), sv)));
	sh = _mm512_slli_epi64(_mm512_and_si512(at, _mm512_set1_epi64(7)), 3);
	at = _mm512_srli_epi64(at, 3);
	return _mm512_or_si512(_mm512_srlv_epi64(_mm512_permutex2var_epi64(lo,
	    at, hi), sh), _mm512_sllv_epi64(_mm512_permutex2var_epi64(lo,
	    _mm512_add_epi64(at, _mm512_set1_epi64(1)), hi),
	    _mm512_sub_epi64(_mm512_set1_epi64(64), sh)));
}

/*
 * Queue the words of the block lo (followed by hi), which are the bytes at
 * p with capitals folded, after the nq queued: those whose last byte is a
 * bit of en, starting at the bits of st in order, and, when xend is not 0,
 * one more that starts at the next bit of st and ends before byte xend of
 * lo and hi.  Words of over 8 bytes are listed (*nlong of them so far),
 * to be hashed from p.  Returns the number queued now.
 */
INLINE512 unsigned
enqueue(struct wordq *q, unsigned nq, unsigned *nlong, __m512i lo,
    __m512i hi, uint64_t st, uint64_t en, unsigned xend,
    const unsigned char *p, int vbmi)
{
	__m512i sv, lv;
	unsigned g, k = (unsigned)__builtin_popcountll(en), x = xend != 0;
	uint64_t lm;

	sv = places(st, vbmi);
	lv = _mm512_add_epi8(places(en, vbmi), _mm512_set1_epi8(1));
	lv = _mm512_mask_set1_epi8(lv, (uint64_t)x << k, (char)xend);
	k += x;
	lv = _mm512_sub_epi8(lv, sv);	/* the ends less the starts */
	_mm512_storeu_si512(q->len + nq, lv);
	/* Most blocks have 16 words or fewer: those are cut unconditionally. */
	for (g = 0; g < 16 || g < k; g += 8)
		_mm512_storeu_si512(q->word + nq + g, cut(lo, hi, sv, g, vbmi));
	/*
	 * Words of over 8 bytes (at most 7 in a block) are listed without
	 * a branch: more than half the blocks have one.
	 */
	_mm512_storeu_si512(q->start + nq, sv);
	lm = _mm512_cmpgt_epu8_mask(lv, _mm512_set1_epi8(8)) &
	    (((uint64_t)1 << k) - 1);
	_mm512_storeu_si512(q->longp + *nlong,
	    _mm512_set1_epi64((long long)(uintptr_t)p));
	_mm256_storeu_si256((__m256i *)(q->longi + *nlong),
	    _mm256_add_epi32(_mm256_cvtepu8_epi32(_mm512_castsi512_si128(
	    places(lm, vbmi))), _mm256_set1_epi32((int)nq)));
	*nlong += (unsigned)__builtin_popcountll(lm);
	return nq + k;
}

/*
 * For each length of word, 1 to 8 (8 as 0): which bytes of the word make
 * the input of XXH3's mix, as vpshufb indexes (in s->vctl), and what the
 * input is XORed with (s->vkey).  Words of 1 to 3 bytes: the last, the
 * length, the first and the middle one; of 4 to 8: the last four, then
 * the first four.
 */
void
wordvec_init(struct scan *s)
{
	uint64_t *ctl = s->vctl, *key = s->vkey, seed = s->seed;
	uint64_t flip13, flip48;
	unsigned len, j;
	unsigned char b[8];

	flip13 = (uint64_t)(XXH_readLE32(XXH3_kSecret) ^
	    XXH_readLE32(XXH3_kSecret + 4)) + seed;
	flip48 = (XXH_readLE64(XXH3_kSecret + 8) ^
	    XXH_readLE64(XXH3_kSecret + 16)) -
	    (seed ^ (uint64_t)XXH_swap32((uint32_t)seed) << 32);
	for (len = 1; len <= 8; len++) {
		if (len < 4) {
			memset(b, 0x80, sizeof(b));	/* zero */
			b[0] = (unsigned char)(len - 1);
			b[2] = 0;
			b[3] = (unsigned char)(len >> 1);
			key[len & 7] = (uint64_t)len << 8 ^ flip13;
		} else {
			for (j = 0; j < 4; j++) {
				b[j] = (unsigned char)(len - 4 + j);
				b[4 + j] = (unsigned char)j;
			}
			key[len & 7] = flip48;
		}
		memcpy(&ctl[len & 7], b, sizeof(b));
	}
}

/*
 * XXH3-64 of the words of 1 to 8 bytes in w, of lengths len: with the
 * tables ctl and key of wordvec_init, the mix of 1 to 3 bytes (XXH64's
 * avalanche) and that of 4 to 8 (rrmxmx) as one, their constants chosen
 * by lane.
 */
INLINE512 __m512i
xxh_short(__m512i w, __m512i len, __m512i ctl, __m512i key)
{
	/* vpshufb indexes within 16 bytes: odd lanes are the upper 8. */
	const __m512i odd = _mm512_set_epi64(0x0808080808080808LL, 0,
	    0x0808080808080808LL, 0, 0x0808080808080808LL, 0,
	    0x0808080808080808LL, 0);
	const __m512i m = _mm512_set1_epi64((long long)0x9FB21C651E98DF25ULL);
	__mmask8 k = _mm512_cmplt_epu64_mask(len, _mm512_set1_epi64(4));
	__m512i x;

	x = _mm512_xor_si512(_mm512_shuffle_epi8(w, _mm512_or_si512(
	    _mm512_permutexvar_epi64(len, ctl), odd)),
	    _mm512_permutexvar_epi64(len, key));
	/* x ^= x >> 33, or x ^= rotl(x, 49) ^ rotl(x, 24) */
	x = _mm512_xor_si512(_mm512_maskz_rol_epi64((__mmask8)~k, x, 24),
	    _mm512_ternarylogic_epi64(x, _mm512_rolv_epi64(x,
	    _mm512_mask_blend_epi64(k, _mm512_set1_epi64(49),
	    _mm512_set1_epi64(31))), _mm512_mask_blend_epi64(k,
	    _mm512_set1_epi64(-1), _mm512_set1_epi64(0x7fffffff)), 0x78));
	x = _mm512_mullo_epi64(x, _mm512_mask_blend_epi64(k, m,
	    _mm512_set1_epi64((long long)XXH_PRIME64_2)));
	/* x ^= x >> 29, or x ^= (x >> 35) + len */
	x = _mm512_xor_si512(x, _mm512_add_epi64(_mm512_srlv_epi64(x,
	    _mm512_mask_blend_epi64(k, _mm512_set1_epi64(35),
	    _mm512_set1_epi64(29))), _mm512_maskz_mov_epi64((__mmask8)~k,
	    len)));
	x = _mm512_mullo_epi64(x, _mm512_mask_blend_epi64(k, m,
	    _mm512_set1_epi64((long long)XXH_PRIME64_3)));
	/* x ^= x >> 32, or x ^= x >> 28 */
	return _mm512_xor_si512(x, _mm512_srlv_epi64(x,
	    _mm512_mask_blend_epi64(k, _mm512_set1_epi64(28),
	    _mm512_set1_epi64(32))));
}

/* xxh_le64_end (xxh.h) of eight values. */
INLINE512 __m512i
xxh_le64x8_end(__m512i x)
{
	const __m512i m = _mm512_set1_epi64((long long)0x9FB21C651E98DF25ULL);

	x = _mm512_mullo_epi64(x, m);
	x = _mm512_xor_si512(x, _mm512_add_epi64(_mm512_srli_epi64(x, 35),
	    _mm512_set1_epi64(8)));
	x = _mm512_mullo_epi64(x, m);
	return _mm512_xor_si512(x, _mm512_srli_epi64(x, 28));
}

/* xxh_le64_many of eight values: XXH3 of their 8 bytes (flip: vkey[4]). */
INLINE512 __m512i
xxh_le64x8(__m512i x, __m512i flip)
{
	x = _mm512_xor_si512(_mm512_rol_epi64(x, 32), flip);
	return xxh_le64x8_end(_mm512_ternarylogic_epi64(x,
	    _mm512_rol_epi64(x, 49), _mm512_rol_epi64(x, 24), 0x96));
}

/*
 * The word of len bytes (9 to 127) at p, with capitals folded when fold,
 * into w.
 */
INLINE512 void
fold_long(unsigned char w[128], const unsigned char *p, unsigned len,
    int fold)
{
	__m512i v;
	__mmask64 u;
	unsigned i;

	for (i = 0; i < len; i += 64) {
		v = _mm512_maskz_loadu_epi8(len - i >= 64 ? ~(__mmask64)0 :
		    ((__mmask64)1 << (len - i)) - 1, p + i);
		if (fold) {
			u = _mm512_cmplt_epu8_mask(_mm512_sub_epi8(v,
			    _mm512_set1_epi8('A')), _mm512_set1_epi8(26));
			v = _mm512_mask_add_epi8(v, u, v,
			    _mm512_set1_epi8(0x20));
		}
		_mm512_storeu_si512(w + i, v);
	}
}

/* The eight n-grams x, finished, to out (lin: see roll). */
INLINE512 void
roll_out(uint64_t *out, __m512i x, __m512i flip, int lin)
{
	_mm512_storeu_si512(out, lin ? xxh_le64x8_end(_mm512_xor_si512(x,
	    flip)) : xxh_le64x8(x, flip));
}

/*
 * The rolls of the items h[0 .. m), eight at a time, for an n of 1 to 3
 * (a constant here), each from its items: the XOR of rotl(h[i - j], j)
 * for j < n (window_gram), to out, finished; the last eight to *last.
 */
INLINE512 void
roll_few(const uint64_t *h, unsigned m, unsigned n, __m512i flip, int lin,
    uint64_t *out, __m512i *last)
{
	__m512i x;
	unsigned i;

	for (i = 0; i < m; i += 8) {
		x = _mm512_loadu_si512(h + i);
		if (n == 2)
			x = _mm512_xor_si512(x, _mm512_rol_epi64(
			    _mm512_loadu_si512(h + i - 1), 1));
		if (n == 3)
			x = _mm512_ternarylogic_epi64(x, _mm512_rol_epi64(
			    _mm512_loadu_si512(h + i - 1), 1),
			    _mm512_rol_epi64(_mm512_loadu_si512(h + i - 2),
			    2), 0x96);
		*last = x;
		roll_out(out + i, x, flip, lin);
	}
}

/* The lanes of a, each taken j items back (from prev past the first). */
#define BACK(a, prev, j)	_mm512_alignr_epi64(a, prev, 8 - (j))

/*
 * The rolls of the items h[0 .. m), eight at a time, for an n of 4 to 8
 * (a constant here), to out, finished.  Each item is first paired with the
 * one before it, a_i = t_i ^ rotl(t_i-1, 1), and the n-gram is then the
 * XOR of rotl(a_i-j, j) for even j < n - 1, and with n odd of
 * rotl(t_i-n+1, n - 1): n / 2 + 1 rotations for eight n-grams where the
 * direct way takes n - 1 (on 512-bit vectors, rotations share a port
 * with the finish's multiplies).  The pairs of the eight before are
 * carried; at the start, they are made from the window's n items.
 */
INLINE512 void
roll_pairs(const uint64_t *h, unsigned m, unsigned n, __m512i flip, int lin,
    uint64_t *out, __m512i *last)
{
	/* The pairs of the window's items, in the lanes past 9 - n. */
	const __mmask8 win = (__mmask8)(0xff << (10 - n) & 0xff);
	__m512i prev, a, x;
	unsigned i;

	prev = _mm512_xor_si512(_mm512_maskz_loadu_epi64(win, h - 8),
	    _mm512_rol_epi64(_mm512_maskz_loadu_epi64(win, h - 9), 1));
	for (i = 0; i < m; i += 8) {
		a = _mm512_xor_si512(_mm512_loadu_si512(h + i),
		    _mm512_rol_epi64(_mm512_loadu_si512(h + i - 1), 1));
		x = _mm512_xor_si512(a, _mm512_rol_epi64(BACK(a, prev, 2), 2));
		if (n >= 6)
			x = _mm512_xor_si512(x, _mm512_rol_epi64(BACK(a, prev,
			    4), 4));
		if (n == 8)
			x = _mm512_xor_si512(x, _mm512_rol_epi64(BACK(a, prev,
			    6), 6));
		/* (n is a constant only once inlined: a count vector.) */
		if (n & 1)
			x = _mm512_xor_si512(x, _mm512_rolv_epi64(
			    _mm512_loadu_si512(h + i - n + 1),
			    _mm512_set1_epi64(n - 1)));
		prev = a;
		*last = x;
		roll_out(out + i, x, flip, lin);
	}
}

/*
 * The rolls for an n past 8, from the roll before: R_i = rotl(R_i-1, 1)
 * ^ d_i, with d_i = t_i ^ rotl(t_i-n, n), is the XOR of rotl(d_j, i - j)
 * over the lanes j <= i, made in three steps, and of the R before the
 * eight (roll), rotated in.
 */
INLINE512 void
roll_far(const uint64_t *h, unsigned m, unsigned n, uint64_t roll,
    __m512i flip, int lin, uint64_t *out, __m512i *last)
{
	const __m512i zero = _mm512_setzero_si512();
	const __m512i rot = _mm512_set_epi64(8, 7, 6, 5, 4, 3, 2, 1);
	const __m512i nv = _mm512_set1_epi64(n);
	__m512i x, carry = _mm512_set1_epi64((long long)roll);
	unsigned i;

	for (i = 0; i < m; i += 8) {
		x = _mm512_xor_si512(_mm512_loadu_si512(h + i),
		    _mm512_rolv_epi64(_mm512_loadu_si512(h + i - n), nv));
		x = _mm512_xor_si512(x, _mm512_rol_epi64(
		    _mm512_alignr_epi64(x, zero, 7), 1));
		x = _mm512_xor_si512(x, _mm512_rol_epi64(
		    _mm512_alignr_epi64(x, zero, 6), 2));
		x = _mm512_xor_si512(x, _mm512_rol_epi64(
		    _mm512_alignr_epi64(x, zero, 4), 4));
		x = _mm512_xor_si512(x, _mm512_rolv_epi64(carry, rot));
		carry = _mm512_permutexvar_epi64(_mm512_set1_epi64(7), x);
		*last = x;
		roll_out(out + i, x, flip, lin);
	}
}

/*
 * Roll the window over the queued items and queue the n-grams in out,
 * finished (as shingle.c's finish would), after handing out to the flush
 * if it has no room for them and a vector more.  The caller sees to it
 * that all in out before them are finished.  The items are hashes, or with
 * lin xxh_le64_lin of them (xxh.h), which leaves the n-grams only
 * xxh_le64_end to do.  Each n has its own loop, for n up to 8 with the
 * rotations as constants: the rolls are made from the items, directly up
 * to 3 and by pairs from 4; past 8, from the roll before, in a constant
 * 15 operations for eight.  Every way makes the window's roll R as well
 * (window.h), so q->roll is right whichever made it.
 */
INLINE512 void
roll(struct scan *s, struct wordq *q, int lin)
{
	const __m512i flip = _mm512_set1_epi64((long long)(lin ?
	    xxh_le64_flip(s->seed) : s->vkey[4]));
	unsigned i, nq = q->nq, n = s->n;
	uint64_t *h = wq_hash(q), *out;
	__m512i last = _mm512_setzero_si512();

	if (nq == 0)
		return;
	if (s->nout + nq + 8 > SCAN_BATCH)
		s->flush(s->flushctx);
	out = s->out + s->nout;
	switch (n) {
	case 1: roll_few(h, nq, 1, flip, lin, out, &last); break;
	case 2: roll_few(h, nq, 2, flip, lin, out, &last); break;
	case 3: roll_few(h, nq, 3, flip, lin, out, &last); break;
	case 4: roll_pairs(h, nq, 4, flip, lin, out, &last); break;
	case 5: roll_pairs(h, nq, 5, flip, lin, out, &last); break;
	case 6: roll_pairs(h, nq, 6, flip, lin, out, &last); break;
	case 7: roll_pairs(h, nq, 7, flip, lin, out, &last); break;
	case 8: roll_pairs(h, nq, 8, flip, lin, out, &last); break;
	default:
		roll_far(h, nq, n, q->roll, flip, lin, out, &last);
	}
	_mm512_storeu_si512(q->word, last);
	q->roll = q->word[(nq - 1) & 7];
	/* The first n - 1 items of a document make no n-gram. */
	i = q->seen + 1 >= n ? 0 : (unsigned)(n - 1 - q->seen);
	if (i > nq)
		i = nq;
	if (i > 0)
		memmove(out, out + i, (nq - i) * sizeof(*out));
	s->nout += nq - i;
	s->nfin = s->nout;
	q->seen += nq;
	memmove(h - n, h + nq - n, n * sizeof(*h));
	q->nq = 0;
}

/*
 * XXH3-64 of words of 9 to 16 bytes, given their first 8 bytes and their
 * last 8 (folded), with the seed's parts flip1 and flip2.  The 64x64-bit
 * product XXH3 folds is made of four 32x32-bit ones.
 */
INLINE512 __m512i
xxh_9to16(__m512i first, __m512i last, __m512i len, __m512i flip1,
    __m512i flip2)
{
	const __m512i m32 = _mm512_set1_epi64(0xffffffffLL);
	const __m512i bswap = _mm512_set_epi64(0x08090a0b0c0d0e0fLL,
	    0x0001020304050607LL, 0x08090a0b0c0d0e0fLL, 0x0001020304050607LL,
	    0x08090a0b0c0d0e0fLL, 0x0001020304050607LL, 0x08090a0b0c0d0e0fLL,
	    0x0001020304050607LL);
	__m512i a, b, a1, b1, p00, p01, p10, mid, lo, hi, x;

	a = _mm512_xor_si512(first, flip1);
	b = _mm512_xor_si512(last, flip2);
	a1 = _mm512_srli_epi64(a, 32);
	b1 = _mm512_srli_epi64(b, 32);
	p00 = _mm512_mul_epu32(a, b);
	p01 = _mm512_mul_epu32(a, b1);
	p10 = _mm512_mul_epu32(a1, b);
	/* The middle column, whose carry goes into the high half. */
	mid = _mm512_add_epi64(_mm512_add_epi64(_mm512_srli_epi64(p00, 32),
	    _mm512_and_si512(p01, m32)), _mm512_and_si512(p10, m32));
	lo = _mm512_ternarylogic_epi64(p00, m32, _mm512_slli_epi64(mid, 32),
	    0xea);		/* (p00 & m32) | mid << 32 */
	hi = _mm512_add_epi64(_mm512_add_epi64(_mm512_mul_epu32(a1, b1),
	    _mm512_srli_epi64(p01, 32)), _mm512_add_epi64(
	    _mm512_srli_epi64(p10, 32), _mm512_srli_epi64(mid, 32)));
	x = _mm512_add_epi64(_mm512_add_epi64(len,
	    _mm512_shuffle_epi8(a, bswap)), _mm512_add_epi64(b,
	    _mm512_xor_si512(lo, hi)));
	/* XXH3's avalanche */
	x = _mm512_xor_si512(x, _mm512_srli_epi64(x, 37));
	x = _mm512_mullo_epi64(x, _mm512_set1_epi64(0x165667919E3779F9LL));
	return _mm512_xor_si512(x, _mm512_srli_epi64(x, 32));
}

/*
 * The 8 bytes at each of the addresses p (in the lanes of k): gathered, or
 * loaded one at a time where gathers are slow (s->gather).
 */
INLINE512 __m512i
gather8(const struct scan *s, __m512i p, __mmask8 k, int fold)
{
	__m512i v;

	if (s->gather)
		v = _mm512_mask_i64gather_epi64(_mm512_setzero_si512(), k, p,
		    (const void *)0, 1);
	else {
		uint64_t at[8], b[8] = { 0 };
		unsigned i;

		_mm512_storeu_si512(at, p);
		for (i = 0; i < 8; i++)
			if (k >> i & 1)
				memcpy(&b[i], (const void *)(uintptr_t)at[i],
				    sizeof(b[i]));
		v = _mm512_loadu_si512(b);
	}
	if (fold)
		v = _mm512_mask_add_epi8(v, _mm512_cmplt_epu8_mask(
		    _mm512_sub_epi8(v, _mm512_set1_epi8('A')),
		    _mm512_set1_epi8(26)), v, _mm512_set1_epi8(0x20));
	return v;
}

/*
 * Hash the words of over 8 bytes, eight at a time (as XXH3 of 9 to 16
 * bytes; xxh_bytes for the rare longer ones).
 */
INLINE512 void
hash_long(struct scan *s, struct wordq *q, int fold)
{
	const __m512i flip1 = _mm512_set1_epi64((long long)
	    ((XXH_readLE64(XXH3_kSecret + 24) ^ XXH_readLE64(XXH3_kSecret +
	    32)) + s->seed));
	const __m512i flip2 = _mm512_set1_epi64((long long)
	    ((XXH_readLE64(XXH3_kSecret + 40) ^ XXH_readLE64(XXH3_kSecret +
	    48)) - s->seed));
	unsigned char w[128];
	unsigned i, j, nlong = q->nlong;
	uint64_t *h = wq_hash(q);
	__m512i p, len;
	__m256i at;
	__mmask8 k, big;

	for (i = 0; i < nlong; i++) {
		j = q->longi[i];
		q->longp[i] += q->start[j];	/* the word itself */
		q->longlen[i] = q->len[j];
	}
	for (i = 0; i < nlong; i += 8) {
		k = nlong - i >= 8 ? 0xff : (__mmask8)((1u << (nlong - i)) - 1);
		at = _mm256_loadu_si256((const __m256i *)(q->longi + i));
		p = _mm512_loadu_si512(q->longp + i);
		len = _mm512_cvtepu8_epi64(_mm_loadl_epi64(
		    (const __m128i *)(q->longlen + i)));
		_mm512_mask_i32scatter_epi64(h, k, at, xxh_9to16(gather8(s, p,
		    k, fold), gather8(s, _mm512_sub_epi64(_mm512_add_epi64(p,
		    len), _mm512_set1_epi64(8)), k, fold), len, flip1, flip2),
		    8);
		big = _mm512_mask_cmpgt_epu64_mask(k, len,
		    _mm512_set1_epi64(16));
		for (; big != 0; big &= (__mmask8)(big - 1)) {
			j = i + (unsigned)__builtin_ctz(big);
			fold_long(w, q->longp[j], q->longlen[j], fold);
			h[q->longi[j]] = token_hash(w, q->longlen[j], s->seed);
		}
	}
	q->nlong = 0;
}

static T512 void
roll_words(struct scan *s, struct wordq *q)
{
	roll(s, q, 0);
}

static T512 void
roll_chars(struct scan *s, struct wordq *q)
{
	roll(s, q, 1);
}

/* Hash the queued words, then roll. */
static T512 void
drain(struct scan *s, struct wordq *q, int fold)
{
	const __m512i ctl = _mm512_loadu_si512(s->vctl);
	const __m512i key = _mm512_loadu_si512(s->vkey);
	unsigned i;

	for (i = 0; i < q->nq; i += 8)
		_mm512_storeu_si512(wq_hash(q) + i, xxh_short(
		    _mm512_loadu_si512(q->word + i),
		    _mm512_cvtepu8_epi64(_mm_loadl_epi64(
		    (const __m128i *)(q->len + i))), ctl, key));
	hash_long(s, q, fold);
	q->npatch = 0;
	roll_words(s, q);
}

/*
 * Take over the shingler's window, as the history of the queue: hashes,
 * or with lin xxh_le64_lin of them, the roll too (as the last scanner
 * may have left them: s->winlin).  (This and wq_end are
 * compiled for AVX-512 too: they are called with the block in a zmm
 * register and no vzeroupper, and in SSE code that made each call cost
 * what the scanner takes over hundreds of bytes; text with an accent
 * every few hundred bytes hashed 1.4 times slower.)
 */
static T512 void
wq_begin(struct scan *s, struct wordq *q, int lin)
{
	unsigned i, n = s->n;
	uint64_t *h = wq_hash(q) - n;

	if (!lin)
		scan_window_plain(s);
	window_get(s->win, s->pos, n, h);
	for (i = 0; lin && !s->winlin && i < n; i++)
		h[i] = xxh_le64_lin(h[i]);
	q->roll = lin && !s->winlin ? xxh_le64_lin(s->roll) : s->roll;
	q->seen = s->seen;
	q->nq = q->nlong = q->npatch = 0;
}

/*
 * Hand the window back, once the queue is empty, as the queue has it
 * (lin as at wq_begin, and then s->winlin).
 */
static T512 void
wq_end(struct scan *s, struct wordq *q, int lin)
{
	unsigned i, n = s->n;
	uint64_t *h = wq_hash(q) - n;

	for (i = 0; i < n; i++)
		s->win[i] = window_rotl(h[i], n);
	s->pos = 0;
	s->roll = q->roll;
	s->winlin = lin;
	s->seen = q->seen;
}

/*
 * Where the long words of the block at p are to be hashed from: p, or if
 * it or the block after it has letters of two bytes (patched), a copy of
 * the two as the scanner holds them, lo and hi.
 */
INLINE512 const unsigned char *
text(struct wordq *q, __m512i lo, __m512i hi, int patched,
    const unsigned char *p)
{
	unsigned char *t;

	if (!patched)
		return p;
	t = q->patch[q->npatch++];
	_mm512_storeu_si512(t, lo);
	_mm512_storeu_si512(t + 64, hi);
	return t;
}

/*
 * The scanner for one setting of the options; the structure, and where it
 * stops, are those of scan in wordscan.c.  The inner loop calls nothing,
 * so that its constants stay in registers.  The queue is drained when it
 * is full.
 */
INLINE512 const unsigned char *
scan(struct scan *s, struct wordq *q, const unsigned char *p,
    const unsigned char *end, const unsigned char **scalar_until,
    int keeppunct, int fold, int vbmi)
{
	uint64_t mw, mh, nw, nh, st, en, in = 0;
	unsigned b, nq = 0, nlong = 0;
	__m512i lo, hi = _mm512_setzero_si512();
	const unsigned char *until = NULL;
	int last = 0, nlast = 0, carry = 0, lpatch, hpatch = 0;

	if (end - p < 64)
		return p;
	lo = classify(s, p, keeppunct, fold, &mw, &mh, (size_t)(end - p),
	    &carry, &lpatch, NULL);
	if (mh != 0) {
		if (!scan_cut_words(&mw, mh, p, &until)) {
			*scalar_until = until;	/* nothing to do before it */
			return p;
		}
		last = 1;
	}
	wq_begin(s, q, 0);
	for (;;) {
		st = mw & ~((mw << 1) | in);
		en = mw & ~(mw >> 1);
		en &= en - in;		/* without a branch: in is 0 or 1 */
		nw = 0;
		hpatch = 0;
		if (!last && end - p >= 128) {
			hi = classify(s, p + 64, keeppunct, fold, &nw, &nh,
			    (size_t)(end - p - 64), &carry, &hpatch, NULL);
			if (nh != 0) {
				(void)scan_cut_words(&nw, nh, p + 64, &until);
				nlast = 1;
			}
		}
		/* & where && would branch on mw >> 63 (wordscan.c) */
		if (last || end - p < 128 ||
		    (mw >> 63 & (uint64_t)(~nw == 0)))
			break;
		in = mw >> 63 & nw;
		en &= ~(in << 63);
		nq = enqueue(q, nq, &nlong, lo, hi, st, en,
		    (64 + (unsigned)_tzcnt_u64(~nw)) & (unsigned)-in,
		    text(q, lo, hi, lpatch | hpatch, p), vbmi);
		lo = hi;
		mw = nw;
		last = nlast;
		lpatch = hpatch;
		p += 64;
		if (nq > WQ_MAX - WQ_SLACK || q->npatch == WQ_PATCH) {
			q->nq = nq;
			q->nlong = nlong;
			drain(s, q, fold);
			nq = nlong = 0;
		}
	}
	/* The last block here: stop at the start of a word going on past. */
	if (until != NULL)
		*scalar_until = until;
	b = 64;
	if (mw >> 63) {
		b = 63 - (unsigned)__builtin_clzll(st);
		st &= ~((uint64_t)1 << b);
		en &= ~((uint64_t)1 << 63);
	}
	q->nq = enqueue(q, nq, &nlong, lo, hi, st, en, 0,
	    text(q, lo, hi, lpatch | hpatch, p), vbmi);
	q->nlong = nlong;
	drain(s, q, fold);
	wq_end(s, q, 0);
	return p + b;
}

/*
 * The items of a block of characters l (see cscan in wordscan.c): the
 * bytes interleaved with spaces, ' ' c0 ' ' c1 ..., in two vectors, and the
 * ones wanted (a space before each word start in st, each character in
 * mw) compressed out into item, which needs 64 bytes of room past them.
 * Returns their number.
 */
INLINE512V unsigned
items(__m512i l, uint64_t st, uint64_t mw, unsigned char *item)
{
#define E(j)	((j) & 1 ? (j) / 2 : 64)	/* l[j / 2], or a space */
#define E8(j)	E(j), E(j + 1), E(j + 2), E(j + 3), E(j + 4), E(j + 5), \
		E(j + 6), E(j + 7)
	static const unsigned char inter[64] = {
		E8(0), E8(8), E8(16), E8(24), E8(32), E8(40), E8(48), E8(56),
	};
#undef E8
#undef E
	const uint64_t even = 0x5555555555555555ULL;
	__m512i sp, idx, lo, hi;
	uint64_t mlo, mhi;
	unsigned n;

	sp = _mm512_set1_epi8(' ');
	idx = _mm512_loadu_si512(inter);
	lo = _mm512_permutex2var_epi8(l, idx, sp);
	/* The second half: 32 more into l for the odd bytes. */
	hi = _mm512_permutex2var_epi8(l, _mm512_add_epi8(idx,
	    _mm512_set1_epi16(0x2000)), sp);
	mlo = _pdep_u64(st, even) | _pdep_u64(mw, ~even);
	mhi = _pdep_u64(st >> 32, even) | _pdep_u64(mw >> 32, ~even);
	n = (unsigned)__builtin_popcountll(mlo);
	_mm512_storeu_si512(item, _mm512_maskz_compress_epi8(mlo, lo));
	_mm512_storeu_si512(item + n, _mm512_maskz_compress_epi8(mhi, hi));
	return n + (unsigned)__builtin_popcountll(mhi);
}

/*
 * The items item[0 .. k) looked up (xxh_le64_lin of their hashes, s->lin)
 * to out: eight at a time with a gather, or one at a time where gathers
 * are slow (s->gather).  A letter of more than one byte, which
 * scan_items_fix puts right after, looks up its first byte's low bits.
 */
INLINE512 void
look_up(const struct scan *s, const unsigned char *item, unsigned k,
    uint64_t *out)
{
	unsigned g;

	if (!s->gather) {
#pragma GCC unroll 4
		for (g = 0; g < k; g++)
			out[g] = s->lin[item[g] & 127];
		return;
	}
	/* (Past the k items, any index of the table will do.) */
	for (g = 0; g < k; g += 8)
		_mm512_storeu_si512(out + g, _mm512_i64gather_epi64(
		    _mm512_and_si512(_mm512_cvtepu8_epi64(_mm_loadl_epi64(
		    (const __m128i *)(item + g))), _mm512_set1_epi64(127)),
		    (const void *)s->lin, 8));
}

/*
 * Character n-grams (see cscan in wordscan.c, which this follows): the
 * items of each block, queued as characters in item, looked up a batch
 * at a time (look_up), then rolled as words are.  Looked up block by
 * block, from the bytes just compressed into item, -c 5 took 29% more
 * without gathers and 9% more with them.
 */
INLINE512V const unsigned char *
cscan(struct scan *s, struct wordq *q, const unsigned char *p,
    const unsigned char *end, const unsigned char **scalar_until,
    int keeppunct, int fold)
{
	/* The characters of the items queued last, and room for items(). */
	unsigned char item[WQ_MAX + 128];
	uint64_t mw, mh, st, lead[2], chars;
	unsigned k, nq = 0, nc = 0, stop = 64;
	int pendsep = s->pendsep, anychar = s->anychar, carry = 0;
	__m512i lo;

	if (end - p < 64) {
		*scalar_until = end;
		return p;
	}
	lo = classify(s, p, keeppunct, fold, &mw, &mh, (size_t)(end - p),
	    &carry, NULL, lead);
	/* Return at once if it has no word byte before its first non-ASCII. */
	if (mh != 0 && (mw & scan_cut(mh, p, scalar_until)) == 0)
		return p;
	wq_begin(s, q, 1);
	for (;;) {
		if (mh != 0) {
			stop = (unsigned)__builtin_ctzll(mh);
			mw &= scan_cut(mh, p, scalar_until);
		}
		/* Word bytes after a separator; none before the first. */
		st = mw & ~((mw << 1) | (uint64_t)!pendsep);
		if (!anychar)
			st &= ~(mw & -mw);
		/* A letter is one item, at its first byte. */
		chars = mw & ~(lead[0] << 1 | lead[1]);
		k = items(lo, st, chars, item + nc);
		nc += k;
		if (lead[0] != 0) {
			look_up(s, item, nc, wq_hash(q) + nq + k - nc);
			nc = 0;
			scan_items_fix(s, p, st, chars, lead[0],
			    wq_hash(q) + nq);
		}
		nq += k;
		anychar |= mw != 0;
		if (stop > 0)
			pendsep = !(mw >> (stop - 1) & 1);
		if (nq > WQ_MAX - WQ_SLACK - 16) {
			look_up(s, item, nc, wq_hash(q) + nq - nc);
			nc = 0;
			q->nq = nq;
			roll_chars(s, q);
			nq = 0;
		}
		if (!scan_step(&p, end, stop, carry, scalar_until))
			break;
		lo = classify(s, p, keeppunct, fold, &mw, &mh, (size_t)(end - p),
		    &carry, NULL, lead);
	}
	look_up(s, item, nc, wq_hash(q) + nq - nc);
	q->nq = nq;
	roll_chars(s, q);
	wq_end(s, q, 1);
	s->pendsep = pendsep;
	s->anychar = anychar;
	return p;
}

/*
 * The scanner f for the options of s, whose settings are constants in each
 * of its four copies.
 */
#define BY_OPTIONS(f, s, q, p, end, su) ((s)->keeppunct ?		\
	((s)->keepcase ? f(s, q, p, end, su, 1, 0) :			\
	    f(s, q, p, end, su, 1, 1)) :				\
	((s)->keepcase ? f(s, q, p, end, su, 0, 0) :			\
	    f(s, q, p, end, su, 0, 1)))

/* The word scanner with VBMI and VBMI2, and without. */
INLINE512V const unsigned char *
scan_vbmi(struct scan *s, struct wordq *q, const unsigned char *p,
    const unsigned char *end, const unsigned char **scalar_until,
    int keeppunct, int fold)
{
	return scan(s, q, p, end, scalar_until, keeppunct, fold, 1);
}

INLINE512 const unsigned char *
scan_bw(struct scan *s, struct wordq *q, const unsigned char *p,
    const unsigned char *end, const unsigned char **scalar_until,
    int keeppunct, int fold)
{
	return scan(s, q, p, end, scalar_until, keeppunct, fold, 0);
}

static T512V const unsigned char *
words_vbmi(struct scan *s, const unsigned char *p, const unsigned char *end,
    const unsigned char **scalar_until)
{
	struct wordq q;

	return BY_OPTIONS(scan_vbmi, s, &q, p, end, scalar_until);
}

static T512 const unsigned char *
words_bw(struct scan *s, const unsigned char *p, const unsigned char *end,
    const unsigned char **scalar_until)
{
	struct wordq q;

	return BY_OPTIONS(scan_bw, s, &q, p, end, scalar_until);
}

const unsigned char *
wordvec_words(struct scan *s, const unsigned char *p,
    const unsigned char *end, const unsigned char **scalar_until)
{
	return s->avx512 == 2 ? words_vbmi(s, p, end, scalar_until) :
	    words_bw(s, p, end, scalar_until);
}

T512V const unsigned char *
wordvec_chars(struct scan *s, const unsigned char *p,
    const unsigned char *end, const unsigned char **scalar_until)
{
	struct wordq q;

	return BY_OPTIONS(cscan, s, &q, p, end, scalar_until);
}
#else
typedef int wordvec_unused;	/* ISO C wants something here */
#endif
