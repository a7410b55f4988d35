/*
 * MinHash: k independent hash functions, or one permutation with
 * densification.
 *
 * The k functions are Dietzfelbinger's multiply-add-shift, which is
 * strongly universal from 32-bit keys to 32-bit values:
 * h_i(x) = ((a_i * x + b_i) mod 2^64) >> 32, with a_i and b_i drawn from
 * XXH3 of (i, seed).  The key is the low half of the shingle's XXH3 hash.
 * a_i * x is split as (a_lo * x) + (a_hi * x) << 32 so that the loop is
 * 32x32-bit multiplies the compiler can vectorize.
 */
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "algo.h"
#include "byteorder.h"
#include "cpu.h"
#include "minhash.h"
#include "scheme.h"
#include "similarity.h"
#include "xmalloc.h"

#ifdef CPU_X86_VECTOR
#include <immintrin.h>
#endif

/* Domain tags, so that no two derived hashes share their input. */
#define TAG_PARAM	0x6d68706172616d31ULL
#define TAG_DENSE	0x6d6864656e736531ULL
#define NPROBE		64	/* densification probes kept per bin */
#define SEEN_BITS	12	/* k-hash: shingles remembered, 48 KiB */
#define CHUNK		1024	/* k-hash: shingles filtered at a time */

static uint64_t
derive(uint64_t tag, uint64_t a, uint64_t b, uint64_t seed)
{
	uint64_t in[3] = { le64(tag), le64(a), le64(b) };

	return XXH3_64bits_withSeed(in, sizeof(in), seed);
}

/* The t-th bin (t >= 1) that empty bin j borrows from, if filled. */
static unsigned
probe(const struct minhash *m, unsigned j, unsigned t)
{
	return (unsigned)(((derive(TAG_DENSE, j, t, m->seed) >> 32) * m->k) >>
	    32);
}

void
minhash_init(struct minhash *m, unsigned k, int oph, uint64_t seed)
{
	unsigned i;
	uint64_t a;

	memset(m, 0, sizeof(*m));
	m->k = k;
	m->oph = oph;
	m->seed = seed;
	m->mins = xreallocarray(NULL, k, sizeof(*m->mins));
	if (oph) {
		m->filled = xmalloc(k);
		/* Short documents leave most bins empty: probe from a table. */
		m->probe = xreallocarray(NULL, (size_t)k * NPROBE,
		    sizeof(*m->probe));
		for (i = 0; i < k; i++)
			for (a = 0; a < NPROBE; a++)
				m->probe[(size_t)i * NPROBE + a] = probe(m, i,
				    (unsigned)a + 1);
	} else {
		m->seen = xcalloc((size_t)1 << SEEN_BITS, sizeof(*m->seen));
		m->seengen = xcalloc((size_t)1 << SEEN_BITS,
		    sizeof(*m->seengen));
		m->alo = xreallocarray(NULL, k, sizeof(*m->alo));
		m->ahi = xreallocarray(NULL, k, sizeof(*m->ahi));
		m->b = xreallocarray(NULL, k, sizeof(*m->b));
		for (i = 0; i < k; i++) {
			a = derive(TAG_PARAM, i, 0, seed);
			m->alo[i] = (uint32_t)a;
			m->ahi[i] = (uint32_t)(a >> 32);
			m->b[i] = derive(TAG_PARAM, i, 1, seed);
		}
		/* Per group of eight: b of the even lanes, then the odd. */
		m->bpack = xreallocarray(NULL, k, sizeof(*m->bpack));
		for (i = 0; i < (k & ~7u); i++)
			m->bpack[i] = m->b[(i & ~7u) + 2 * (i & 3) + ((i & 4) != 0)];
		if (cpu_usable() & CPU_AVX2)
			m->avx2 = cpu_usable() & CPU_AVX512F ? 2 : 1;
	}
	minhash_reset(m);
}

void
minhash_reset(struct minhash *m)
{
	memset(m->mins, 0xFF, m->k * sizeof(*m->mins));
	if (m->oph)
		memset(m->filled, 0, m->k);
	else if (++m->gen == 0) {
		/* Generations come round: forget them all. */
		memset(m->seengen, 0, ((size_t)1 << SEEN_BITS) *
		    sizeof(*m->seengen));
		m->gen = 1;
	}
}

/*
 * A shingle met before in the document cannot lower any minimum: the k
 * functions are skipped for those found in a small table of the shingles
 * met lately (a fifth of word 3-grams in kernel text).  Copies the others
 * of h[0..n) to out, returns their number.
 */
static size_t
fresh(struct minhash *m, const uint64_t *h, size_t n, uint64_t *out)
{
	size_t i, j, nout = 0;
	uint64_t x;

	for (j = 0; j < n; j++) {
		x = h[j];
		i = (size_t)((x * 0x9E3779B97F4A7C15ULL) >> (64 - SEEN_BITS));
		out[nout] = x;
		nout += m->seen[i] != x || m->seengen[i] != m->gen;
		m->seen[i] = x;
		m->seengen[i] = m->gen;
	}
	return nout;
}

static void
add_khash(struct minhash *m, const uint64_t *h, size_t n, unsigned from)
{
	const uint32_t *alo = m->alo, *ahi = m->ahi;
	const uint64_t *b = m->b;
	uint32_t *mins = m->mins, x, v;
	unsigned i, k = m->k;
	size_t j;

	for (j = 0; j < n; j++) {
		x = (uint32_t)h[j];
		for (i = from; i < k; i++) {
			v = (uint32_t)(((uint64_t)alo[i] * x + b[i]) >> 32) +
			    ahi[i] * x;
			mins[i] = v < mins[i] ? v : mins[i];
		}
	}
}

#ifdef CPU_X86_VECTOR

/*
 * The same functions, eight at a time.  For each group of eight the
 * constants and minima stay in registers while every shingle of the batch
 * goes by.  a_lo * x is a 32x32 -> 64-bit product in even and odd lanes
 * (vpmuludq), b is added in 64 bits, and the high halves are blended back
 * into eight 32-bit lanes; a_hi * x needs only its low half (vpmulld).
 */
__attribute__((target("avx2"))) static void
add_khash_avx2(struct minhash *m, const uint64_t *h, size_t n, unsigned from)
{
	__m256i alo, aodd, ahi, be, bo, mins, x, pe, po, v;
	unsigned g, groups = m->k / 8;
	size_t j;

	for (g = from / 8; g < groups; g++) {
		alo = _mm256_loadu_si256((const __m256i *)(m->alo + 8 * g));
		aodd = _mm256_srli_epi64(alo, 32);
		ahi = _mm256_loadu_si256((const __m256i *)(m->ahi + 8 * g));
		be = _mm256_loadu_si256((const __m256i *)(m->bpack + 8 * g));
		bo = _mm256_loadu_si256((const __m256i *)(m->bpack + 8 * g + 4));
		mins = _mm256_loadu_si256((const __m256i *)(m->mins + 8 * g));
		for (j = 0; j < n; j++) {
			x = _mm256_set1_epi32((int)(uint32_t)h[j]);
			pe = _mm256_add_epi64(_mm256_mul_epu32(alo, x), be);
			po = _mm256_add_epi64(_mm256_mul_epu32(aodd, x), bo);
			v = _mm256_blend_epi32(_mm256_srli_epi64(pe, 32), po,
			    0xAA);
			v = _mm256_add_epi32(v, _mm256_mullo_epi32(ahi, x));
			mins = _mm256_min_epu32(mins, v);
		}
		_mm256_storeu_si256((__m256i *)(m->mins + 8 * g), mins);
	}
	add_khash(m, h, n, groups * 8);
}

/*
 * The same, sixteen at a time, for AVX-512: the even and odd lanes of a
 * group take b from the 64-bit lanes of two vectors.
 */
__attribute__((target("avx512f"))) static void
add_khash_avx512(struct minhash *m, const uint64_t *h, size_t n)
{
	__m512i alo, aodd, ahi, be, bo, mins, x, pe, po, v;
	unsigned g, groups = m->k / 16;
	const uint64_t *b;
	size_t j;

	for (g = 0; g < groups; g++) {
		b = m->b + 16 * g;
		alo = _mm512_loadu_si512(m->alo + 16 * g);
		aodd = _mm512_srli_epi64(alo, 32);
		ahi = _mm512_loadu_si512(m->ahi + 16 * g);
		be = _mm512_set_epi64((long long)b[14], (long long)b[12],
		    (long long)b[10], (long long)b[8], (long long)b[6],
		    (long long)b[4], (long long)b[2], (long long)b[0]);
		bo = _mm512_set_epi64((long long)b[15], (long long)b[13],
		    (long long)b[11], (long long)b[9], (long long)b[7],
		    (long long)b[5], (long long)b[3], (long long)b[1]);
		mins = _mm512_loadu_si512(m->mins + 16 * g);
		for (j = 0; j < n; j++) {
			x = _mm512_set1_epi32((int)(uint32_t)h[j]);
			pe = _mm512_add_epi64(_mm512_mul_epu32(alo, x), be);
			po = _mm512_add_epi64(_mm512_mul_epu32(aodd, x), bo);
			/* The even lanes' high halves, down (vpshufd). */
			v = _mm512_mask_shuffle_epi32(po, 0x5555, pe,
			    _MM_PERM_CDAB);
			v = _mm512_add_epi32(v, _mm512_mullo_epi32(ahi, x));
			mins = _mm512_min_epu32(mins, v);
		}
		_mm512_storeu_si512(m->mins + 16 * g, mins);
	}
	add_khash_avx2(m, h, n, groups * 16);	/* a group of 8 left? */
}
#endif

/* Below this many values, add_oph looks at each. */
#define OPH_SKIP_MIN	64
#define OPH_BLOCK	32	/* values held against the highest at once */

/* The bin of value h, and what it holds of it, with the <= that adds. */
static inline void
oph_put(struct minhash *m, uint64_t h)
{
	uint32_t bin = (uint32_t)(((h >> 32) * m->k) >> 32), v = (uint32_t)h;

	/*
	 * A bin is marked filled only when its minimum is (re)written: <=,
	 * so that a first value of 0xffffffff, the empty minimum, marks it
	 * too.  A long document rarely lowers a minimum, and then does no
	 * store at all.
	 */
	if (v <= m->mins[bin]) {
		m->mins[bin] = v;
		m->filled[bin] = 1;
	}
}

/*
 * A value above every bin's minimum changes none, and a long document's
 * minima soon lie low: so OPH_BLOCK values at a time are first held against
 * the highest minimum, in a check that compiles to a few vector
 * operations, and looked at one by one only if one of them is not above
 * it.  The minima only fall meanwhile, so the highest stays a bound.
 */
static CPU_CLONES void
add_oph(struct minhash *m, const uint64_t *h, size_t n)
{
	uint32_t ceil = 0;
	size_t i, j;
	unsigned any;

	if (n < OPH_SKIP_MIN) {
		for (j = 0; j < n; j++)
			oph_put(m, h[j]);
		return;
	}
	for (i = 0; i < m->k; i++)
		ceil = m->mins[i] > ceil ? m->mins[i] : ceil;
	for (j = 0; j + OPH_BLOCK <= n; j += OPH_BLOCK) {
		for (i = any = 0; i < OPH_BLOCK; i++)
			any |= (uint32_t)h[j + i] <= ceil;
		if (any)
			for (i = 0; i < OPH_BLOCK; i++)
				oph_put(m, h[j + i]);
	}
	for (; j < n; j++)
		oph_put(m, h[j]);
}

/* The k functions of the n shingles h, for each minimum. */
static void
add_khashes(struct minhash *m, const uint64_t *h, size_t n)
{
#ifdef CPU_X86_VECTOR
	if (m->avx2 == 2 && m->k >= 16)
		add_khash_avx512(m, h, n);
	else if (m->avx2)
		add_khash_avx2(m, h, n, 0);
	else
#endif
		add_khash(m, h, n, 0);
}

void
minhash_add(struct minhash *m, const uint64_t *h, size_t n)
{
	uint64_t buf[CHUNK];
	size_t off, c;

	if (m->oph) {
		add_oph(m, h, n);
		return;
	}
	for (off = 0; off < n; off += c) {
		c = n - off < CHUNK ? n - off : CHUNK;
		add_khashes(m, buf, fresh(m, h + off, c, buf));
	}
}

void
minhash_add_distinct(struct minhash *m, const uint64_t *h, size_t n)
{
	if (m->oph)
		add_oph(m, h, n);
	else
		add_khashes(m, h, n);
}

/*
 * Optimal densification: an empty bin j takes the value of the first
 * filled bin in its own pseudo-random probe sequence hash(j, 1),
 * hash(j, 2), ...  Two documents probe in the same order, so an empty bin
 * matches with the same probability as a filled one.
 */
static void
densify(struct minhash *m)
{
	unsigned j, t, nb, any = 0;

	for (j = 0; j < m->k; j++)
		any |= m->filled[j];
	if (!any)
		return;
	for (j = 0; j < m->k; j++) {
		if (m->filled[j])
			continue;
		for (t = 1;; t++) {
			nb = t <= NPROBE ? m->probe[(size_t)j * NPROBE + t - 1] :
			    probe(m, j, t);
			if (m->filled[nb])
				break;
		}
		m->mins[j] = m->mins[nb];
	}
}

void
minhash_final(struct minhash *m, uint64_t *out)
{
	unsigned i;

	if (m->oph)
		densify(m);
	for (i = 0; i < m->k; i++)
		out[i] = m->mins[i];
}

void
minhash_free(struct minhash *m)
{
	free(m->mins);
	free(m->alo);
	free(m->ahi);
	free(m->b);
	free(m->bpack);
	free(m->seen);
	free(m->seengen);
	free(m->filled);
	free(m->probe);
	memset(m, 0, sizeof(*m));
}

double
minhash_jaccard(const uint64_t *a, const uint64_t *b, size_t k)
{
	size_t i, eq = 0;

	for (i = 0; i < k; i++)
		eq += a[i] == b[i];
	return k ? (double)eq / (double)k : 1.0;
}

/*
 * The descriptors (algo.h) of minhash (k hash functions) and oph (one
 * permutation): k 32-bit values, found by LSH bands.
 */

static void
algo_init(void *st, const struct scheme *sc)
{
	minhash_init(st, sc->size, sc->algo == ALGO_OPH, sc->seed);
}

static void
algo_reset(void *st)
{
	minhash_reset(st);
}

static void
algo_add(void *st, const uint64_t *h, const double *w, size_t n)
{
	(void)w;
	minhash_add(st, h, n);
}

static void
algo_final(void *st, uint64_t *out)
{
	minhash_final(st, out);
}

static void
algo_free(void *st)
{
	minhash_free(st);
}

static double
algo_similarity(const struct scheme *sc, const uint64_t *a,
    const uint64_t *b, size_t nv)
{
	(void)sc;
	return minhash_jaccard(a, b, nv);
}

static void
algo_estimate(const struct scheme *sc, const uint64_t *a, const uint64_t *b,
    size_t nv, struct estimate *e)
{
	(void)sc;
	e->have = EST_JACCARD;
	e->jaccard = minhash_jaccard(a, b, nv);
	e->similarity = e->jaccard;
}

/* minhash and oph differ in how the k values are drawn, not in use. */
#define MINHASH_ROW(nm) {					\
	.name = nm,						\
	.defsize = 128,						\
	.check_size = algo_check_k,				\
	.per_value = 1,						\
	.digits = 8,						\
	.flags = ALGO_RESEMBLANCE,				\
	.cand = CAND_BANDS,					\
	.statesize = sizeof(struct minhash),			\
	.init = algo_init,					\
	.reset = algo_reset,					\
	.add = algo_add,					\
	.final = algo_final,					\
	.free = algo_free,					\
	.similarity = algo_similarity,				\
	.estimate = algo_estimate,				\
}

const struct algo_desc minhash_algo = MINHASH_ROW("minhash");
const struct algo_desc oph_algo = MINHASH_ROW("oph");
