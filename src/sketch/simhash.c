/*
 * Simhash accumulation.  The unweighted path counts, per bit, how many
 * features have it set: eight one-byte counters packed in a 64-bit word
 * are advanced together by a table that spreads a byte's bits into bytes,
 * and are flushed into wide counters before they can overflow.  A bit is
 * set when more than half of the features vote for it, which is the sign
 * of the +1/-1 sum.
 *
 * 64-bit fingerprints count faster still, Harley and Seal's way: groups of
 * 16 hashes go through a tree of carry-save adders into bit planes (ones,
 * twos, fours, eights), and only the plane of sixteens that comes out of
 * each group is spread into byte lanes.  Groups of 128 go through the same
 * tree eight hashes abreast, as vectors that AVX-512 adds in one go.  All
 * counting is exact, so the result is the same whichever way a feature
 * was counted.
 */
#include <math.h>
#include <string.h>
#include <xxhash.h>

#include "algo.h"
#include "byteorder.h"
#include "cpu.h"
#include "scheme.h"
#include "similarity.h"
#include "simhash.h"

/*
 * Eight 64-bit words, one vector register under AVX-512, and four, one
 * under AVX2.  The planes of eight lanes and their byte counters take 24
 * AVX2 registers, of the 16 there are, and spilled at every step: without
 * AVX-512 the lanes go four at a time (s->wide is 0).
 */
typedef uint64_t v8 __attribute__((vector_size(64), aligned(8)));
typedef uint64_t v4 __attribute__((vector_size(32), aligned(8)));

/*
 * The helpers that take a vector are always inlined: no call passes one,
 * whatever the compilers note of the ABI without AVX.
 */
#pragma GCC diagnostic ignored "-Wpsabi"

static uint64_t spread[256];

static void
spread_init(void)
{
	unsigned b, j;

	if (spread[255] != 0)
		return;
	for (b = 0; b < 256; b++) {
		uint64_t v = 0;

		for (j = 0; j < 8; j++)
			if (b & (1u << j))
				v |= (uint64_t)1 << (8 * j);
		spread[b] = v;
	}
}

void
simhash_init(struct simhash *s, unsigned bits, uint64_t seed)
{
	memset(s, 0, sizeof(*s));
	s->bits = bits;
	s->seed = seed;
	s->wide = (cpu_usable() & CPU_LEVEL_V4) != 0;
	spread_init();
}

/*
 * Zero n lanes, n a multiple of 8, as stores the compiler can see through:
 * a memset of them became rep stos, whose start costs as much as the
 * rest of a line's simhash (hash --lines).
 */
static inline void
lanes_clear(uint64_t *l, unsigned n)
{
	uint64_t z[8] = { 0 };
	unsigned i;

	for (i = 0; i < n; i += 8)
		memcpy(l + i, z, sizeof(z));
}

void
simhash_reset(struct simhash *s)
{
	if (s->vused) {
		memset(s->vones, 0, sizeof(s->vones));
		memset(s->vtwos, 0, sizeof(s->vtwos));
		memset(s->vfours, 0, sizeof(s->vfours));
		memset(s->veights, 0, sizeof(s->veights));
		memset(s->vbytes, 0, sizeof(s->vbytes));
		s->vpending = 0;
		s->vused = 0;
	}
	if (s->counted) {
		memset(s->count, 0, sizeof(s->count));
		s->counted = 0;
	}
	if (s->wtotal != 0) {
		memset(s->wsum, 0, sizeof(s->wsum));
		s->wtotal = 0;
	}
	lanes_clear(s->lanes, 16);
	lanes_clear(s->lanes16, 8);
	s->pending = s->pending16 = 0;
	s->ones = s->twos = s->fours = s->eights = 0;
	s->nfeat = 0;
}

static void
flush(struct simhash *s)
{
	unsigned w, j, nw = s->bits / 8;

	for (w = 0; w < nw; w++) {
		for (j = 0; j < 8; j++)
			s->count[8 * w + j] += (s->lanes[w] >> (8 * j)) & 0xFF;
		s->lanes[w] = 0;
	}
	s->pending = 0;
	s->counted = 1;
}

static void
flush16(struct simhash *s)
{
	unsigned w, j;

	for (w = 0; w < 8; w++) {
		for (j = 0; j < 8; j++)
			s->count[8 * w + j] +=
			    16 * ((s->lanes16[w] >> (8 * j)) & 0xFF);
		s->lanes16[w] = 0;
	}
	s->pending16 = 0;
	s->counted = 1;
}

/* Add the sixteens held in vbytes to the counts (see simhash.h). */
static void
vflush(struct simhash *s)
{
	unsigned j, l, k;

	for (j = 0; j < 8; j++)
		for (l = 0; l < 8; l++)
			for (k = 0; k < 8; k++)
				s->count[8 * k + j] += 16 *
				    (s->vbytes[j][l] >> (8 * k) & 0xFF);
	memset(s->vbytes, 0, sizeof(s->vbytes));
	s->vpending = 0;
	s->counted = 1;
}

/*
 * A carry-save adder, of integers or vectors: the sum bits of a + b + c
 * in l, the carries in h.
 */
#define CSA(h, l, a, b, c) do {						\
	__typeof__(a) u_ = (a) ^ (b), c_ = (c);				\
	(h) = ((a) & (b)) | (u_ & c_);					\
	(l) = u_ ^ c_;							\
} while (0)

/*
 * Add the 8 values d[] of type T (a word, or a vector of lanes) to the
 * planes ones and twos; the plane of fours that comes out goes to fours,
 * and the eights out of those to eights.  Seven adders.
 */
#define ADD8(T, ones, twos, fours, d, eights) do {			\
	T twos_a_, twos_b_, fours_a_, fours_b_;				\
									\
	CSA(twos_a_, ones, ones, (d)[0], (d)[1]);			\
	CSA(twos_b_, ones, ones, (d)[2], (d)[3]);			\
	CSA(fours_a_, twos, twos, twos_a_, twos_b_);			\
	CSA(twos_a_, ones, ones, (d)[4], (d)[5]);			\
	CSA(twos_b_, ones, ones, (d)[6], (d)[7]);			\
	CSA(fours_b_, twos, twos, twos_a_, twos_b_);			\
	CSA(eights, fours, fours, fours_a_, fours_b_);			\
} while (0)

/*
 * Add the 16 values d[] of type T to the planes ones, twos, fours and
 * eights; the plane of sixteens goes to sixteens.  Fifteen adders, a
 * Harley-Seal tree: two of eight and one for their eights.
 */
#define ADD16(T, ones, twos, fours, eights, d, sixteens) do {		\
	T eights_a_, eights_b_;						\
									\
	ADD8(T, ones, twos, fours, (d), eights_a_);			\
	ADD8(T, ones, twos, fours, (d) + 8, eights_b_);			\
	CSA(sixteens, eights, eights, eights_a_, eights_b_);		\
} while (0)

/* Add 16 hashes to the planes; returns the plane of sixteens. */
static inline uint64_t
add16(struct simhash *s, const uint64_t *d)
{
	uint64_t sixteens;

	ADD16(uint64_t, s->ones, s->twos, s->fours, s->eights, d, sixteens);
	return sixteens;
}

/* Feature bits: bit i of word i/64, low word first. */
static void
expand(const struct simhash *s, uint64_t h, uint64_t x[2])
{
	XXH128_hash_t t;
	uint64_t le;

	x[0] = h;
	x[1] = 0;
	if (s->bits == 128) {
		le = le64(h);
		t = XXH3_128bits_withSeed(&le, sizeof(le), s->seed);
		x[0] = t.low64;
		x[1] = t.high64;
	}
}

/* Count the bits of x in the byte counters lanes, each as 1 << k. */
static inline void
lanes_add_shl(uint64_t *lanes, uint64_t x, unsigned k)
{
	lanes[0] += spread[x & 0xFF] << k;
	lanes[1] += spread[(x >> 8) & 0xFF] << k;
	lanes[2] += spread[(x >> 16) & 0xFF] << k;
	lanes[3] += spread[(x >> 24) & 0xFF] << k;
	lanes[4] += spread[(x >> 32) & 0xFF] << k;
	lanes[5] += spread[(x >> 40) & 0xFF] << k;
	lanes[6] += spread[(x >> 48) & 0xFF] << k;
	lanes[7] += spread[x >> 56] << k;
}

static inline void
lanes_add(uint64_t *lanes, uint64_t x)
{
	lanes_add_shl(lanes, x, 0);
}

/*
 * Count the carry-save planes ones, twos, fours and eights in lanes: 15 at
 * most a byte.
 */
static inline void
lanes_add_planes(uint64_t *lanes, uint64_t ones, uint64_t twos,
    uint64_t fours, uint64_t eights)
{
	lanes_add_shl(lanes, ones, 0);
	lanes_add_shl(lanes, twos, 1);
	lanes_add_shl(lanes, fours, 2);
	lanes_add_shl(lanes, eights, 3);
}

/*
 * The adders and bit counts for a pass over the lanes of the vector type
 * T, from lane g of the eight: add128_T() adds 128 hashes to the planes
 * p (lane i counts hashes i, i + 8, ...) and gives their plane of
 * sixteens; count_bits_T() counts its bits in the byte counters vb (see
 * vbytes in simhash.h), bit j of each byte of each word shifted down to
 * the byte's low bit, three vector operations for each j where
 * lanes_add() takes eight table lookups a word; pass_T() runs r groups of
 * 128 hashes from h through them, the planes and counters held in
 * registers.  Each vector of hashes is loaded by itself, the loop
 * unrolled: a loop copying them all first made the compiler keep the
 * copy in memory.
 */
#define LANE_PASS(T)							\
static inline __attribute__((always_inline)) void			\
add128_##T(T *p, const uint64_t *h, T *out)				\
{									\
	T ones = p[0], twos = p[1], fours = p[2], eights = p[3];	\
	T d[16];							\
	unsigned i;							\
									\
	_Pragma("GCC unroll 16")					\
	for (i = 0; i < 16; i++)					\
		memcpy(&d[i], h + 8 * i, sizeof(d[i]));			\
	ADD16(T, ones, twos, fours, eights, d, *out);			\
	p[0] = ones;							\
	p[1] = twos;							\
	p[2] = fours;							\
	p[3] = eights;							\
}									\
									\
static inline __attribute__((always_inline)) void			\
count_bits_##T(T *vb, T six)						\
{									\
	unsigned j;							\
									\
	_Pragma("GCC unroll 8")						\
	for (j = 0; j < 8; j++)						\
		vb[j] += six >> j & 0x0101010101010101ULL;		\
}									\
									\
static inline __attribute__((always_inline)) void			\
pass_##T(struct simhash *s, const uint64_t *h, size_t r, unsigned g)	\
{									\
	uint64_t *plane[4] = { s->vones, s->vtwos, s->vfours,		\
	    s->veights };						\
	T p[4], six, vb[8];						\
	size_t q;							\
	unsigned k;							\
									\
	for (k = 0; k < 4; k++)						\
		memcpy(&p[k], plane[k] + g, sizeof(p[k]));		\
	for (k = 0; k < 8; k++)						\
		memcpy(&vb[k], s->vbytes[k] + g, sizeof(vb[k]));	\
	for (q = 0; q < r; q++) {					\
		add128_##T(p, h + 128 * q + g, &six);			\
		count_bits_##T(vb, six);				\
	}								\
	for (k = 0; k < 4; k++)						\
		memcpy(plane[k] + g, &p[k], sizeof(p[k]));		\
	for (k = 0; k < 8; k++)						\
		memcpy(s->vbytes[k] + g, &vb[k], sizeof(vb[k]));	\
}

LANE_PASS(v8)
LANE_PASS(v4)

static inline __attribute__((always_inline)) void
add_levels_body(struct simhash *s, const uint64_t *h, size_t n)
{
	uint64_t x[2];
	size_t i = 0, r;

	if (s->bits == 64) {
		for (; i + 128 <= n; i += 128 * r) {
			/* The groups vbytes can take before a flush. */
			r = (n - i) / 128;
			if (r > 255 - s->vpending)
				r = 255 - s->vpending;
			s->vused = 1;
			if (s->wide)
				pass_v8(s, h + i, r, 0);
			else {
				pass_v4(s, h + i, r, 0);
				pass_v4(s, h + i, r, 4);
			}
			if ((s->vpending += (unsigned)r) == 255)
				vflush(s);
		}
	}
	if (s->bits == 64) {
		for (; i + 16 <= n; i += 16) {
			lanes_add(s->lanes16, add16(s, h + i));
			if (++s->pending16 == 255)
				flush16(s);
		}
	}
	for (; i < n; i++) {
		if (s->bits == 64)
			lanes_add(s->lanes, h[i]);
		else {
			expand(s, h[i], x);
			lanes_add(s->lanes, x[0]);
			lanes_add(s->lanes + 8, x[1]);
		}
		if (++s->pending == 255)
			flush(s);
	}
	s->nfeat += n;
}

CPU_LEVELS(add_levels, (struct simhash *s, const uint64_t *h, size_t n),
    (s, h, n))

void
simhash_add(struct simhash *s, const uint64_t *h, size_t n)
{
	add_levels(s, h, n);
}

void
simhash_add_weighted(struct simhash *s, const uint64_t *h, const double *w,
    size_t n)
{
	uint64_t x[2];
	unsigned b;
	size_t i;

	for (i = 0; i < n; i++) {
		expand(s, h[i], x);
		for (b = 0; b < s->bits; b++)
			if ((x[b / 64] >> (b % 64)) & 1)
				s->wsum[b] += w[i];
		s->wtotal += w[i];
	}
}

/*
 * simhash_final of a 64-bit simhash of fewer than 255 features, none in
 * groups of 128 (a line, say): no byte counter was ever emptied, and
 * every count fits one, so they are all added up in the byte counters
 * and each compared with half the features eight at a time.
 */
static uint64_t
final_short(struct simhash *s)
{
	const uint64_t ones = 0x0101010101010101ULL, high = ones << 7;
	uint64_t x, ge, t = s->nfeat / 2 + 1, word = 0;
	unsigned w;

	lanes_add_planes(s->lanes, s->ones, s->twos, s->fours, s->eights);
	for (w = 0; w < 8; w++) {
		/* Sixteens below 16 a byte: shifted, they stay in it. */
		x = s->lanes[w] + (s->lanes16[w] << 4);
		/* The bytes of at least t (t <= 128), as their high bits. */
		ge = (((x | high) - t * ones) | x) & high;
		/* Those eight bits, byte j as bit j. */
		word |= ((ge >> 7) * 0x0102040810204080ULL >> 56) << (8 * w);
	}
	return word;
}

void
simhash_final(struct simhash *s, uint64_t *out)
{
	uint64_t word[2] = { 0, 0 }, v;
	unsigned b, l, w, planes;

	if (s->bits == 64 && !s->vused && s->nfeat > 0 && s->nfeat < 255) {
		out[0] = final_short(s);
		return;
	}
	/*
	 * No feature, or none of weight: no bit has a vote (a line of
	 * punctuation, say).  Nothing need be added up, nor then cleared.
	 */
	if (s->nfeat == 0 && s->wtotal == 0 && !s->vused) {
		out[0] = 0;
		if (s->bits == 128)
			out[1] = 0;
		return;
	}
	/*
	 * The planes' bits go through the byte counters, with the features
	 * counted there: 15 at most a byte for the planes of single hashes,
	 * 120 for those of the eight lanes, which only a document of 128
	 * hashes or more has used.  Short documents (lines) skip most of
	 * this, and flush their counters once.
	 */
	if (s->bits == 64) {
		planes = s->vused ? 135 : 15;
		if (s->pending > 255 - planes)
			flush(s);
		if (s->pending16 > 0)
			flush16(s);
		lanes_add_planes(s->lanes, s->ones, s->twos, s->fours,
		    s->eights);
		if (s->vused) {
			vflush(s);
			for (l = 0; l < 8; l++)
				lanes_add_planes(s->lanes, s->vones[l],
				    s->vtwos[l], s->vfours[l], s->veights[l]);
		}
	}
	flush(s);
	/*
	 * A bit is set by more than half the votes: no branch on it, and a
	 * word made in a register.
	 */
	for (w = 0; w < s->bits / 64; w++) {
		v = 0;
		if (s->nfeat > 0)
			for (b = 0; b < 64; b++)
				v |= (uint64_t)(2 * s->count[64 * w + b] >
				    s->nfeat) << b;
		else
			for (b = 0; b < 64; b++)
				v |= (uint64_t)(2 * s->wsum[64 * w + b] >
				    s->wtotal) << b;
		word[w] = v;
	}
	if (s->bits == 64)
		out[0] = word[0];
	else {
		out[0] = word[1];
		out[1] = word[0];
	}
}

unsigned
simhash_distance(const uint64_t *a, const uint64_t *b, size_t nv)
{
	unsigned d = 0;
	size_t i;

	for (i = 0; i < nv; i++)
		d += (unsigned)__builtin_popcountll(a[i] ^ b[i]);
	return d;
}

/* The descriptor (algo.h): 64 or 128 bits, near by Hamming distance. */

static const char *
check_size(unsigned size)
{
	return size == 64 || size == 128 ? NULL :
	    "simhash size must be 64 or 128";
}

static void
algo_init(void *st, const struct scheme *sc)
{
	simhash_init(st, sc->size, sc->seed);
}

static void
algo_reset(void *st)
{
	simhash_reset(st);
}

static void
algo_add(void *st, const uint64_t *h, const double *w, size_t n)
{
	if (w != NULL)
		simhash_add_weighted(st, h, w, n);
	else
		simhash_add(st, h, n);
}

static void
algo_final(void *st, uint64_t *out)
{
	simhash_final(st, out);
}

/* The cosine of the angle that the distance stands for. */
static double
algo_similarity(const struct scheme *sc, const uint64_t *a,
    const uint64_t *b, size_t nv)
{
	return cos(M_PI * simhash_distance(a, b, nv) / sc->size);
}

static void
algo_estimate(const struct scheme *sc, const uint64_t *a, const uint64_t *b,
    size_t nv, struct estimate *e)
{
	e->have = EST_DISTANCE;
	e->bits = sc->size;
	e->distance = simhash_distance(a, b, nv);
	e->cosine = cos(M_PI * e->distance / e->bits);
	e->similarity = e->cosine;
}

const struct algo_desc simhash_algo = {
	.name = "simhash",
	.defsize = 64,
	.check_size = check_size,
	.per_value = 64,
	.digits = 16,
	.flags = ALGO_WEIGHTS,
	.cand = CAND_HAMMING,
	.statesize = sizeof(struct simhash),
	.init = algo_init,
	.reset = algo_reset,
	.add = algo_add,
	.final = algo_final,
	.similarity = algo_similarity,
	.estimate = algo_estimate,
};
