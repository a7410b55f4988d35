/*
 * Fuzz target: UTF-8 decoding, the tokenizer and the shingler.
 *
 * The input is two option bytes and a document:
 *   byte 0  bits 0-5: n - 1; bit 6: character n-grams; bit 7: --multiset
 *   byte 1  bit 0: --keep-case; bit 1: --keep-punct; bits 2-7: seed and
 *           where the document is cut into blocks
 * The shingles must be those of a plain reference written from the
 * definition in src/text/shingle.c (decode, normalize, hash the items, XOR
 * their rotations, XXH3 of that), however the document is cut into
 * blocks, when the shingler is used again, and through the byte-at-a-time
 * path that weighted shingling takes instead of the block scanner.
 */
#include <string.h>
#include <xxhash.h>

#include "buf.h"
#include "byteorder.h"
#include "fuzz.h"
#include "scheme.h"
#include "shingle.h"
#include "utf8.h"
#include "weights.h"
#include "xmalloc.h"

/* Shingle hashes (and weights) in the order the sink got them. */
struct seq {
	uint64_t *h;
	double	*w;
	size_t	 n, cap;
	int	 weighted;
};

static void
seq_add(struct seq *s, uint64_t h, double w)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 256;
		s->h = xreallocarray(s->h, s->cap, sizeof(*s->h));
		s->w = xreallocarray(s->w, s->cap, sizeof(*s->w));
	}
	s->h[s->n] = h;
	s->w[s->n++] = w;
}

static void
sink(void *ctx, const uint64_t *h, const double *w, size_t n)
{
	struct seq *s = ctx;
	size_t i;

	FUZZ_CHECK(n > 0 && n <= SHINGLE_BATCH);
	FUZZ_CHECK((w != NULL) == s->weighted);
	for (i = 0; i < n; i++)
		seq_add(s, h[i], w != NULL ? w[i] : 1);
}

static void
seq_free(struct seq *s)
{
	free(s->h);
	free(s->w);
	memset(s, 0, sizeof(*s));
}

static uint64_t
rotl(uint64_t x, unsigned r)
{
	return (x << (r & 63)) | (x >> (-r & 63));
}

static uint64_t
hash_le64(uint64_t x, uint64_t seed)
{
	uint64_t le = le64(x);

	return XXH3_64bits_withSeed(&le, sizeof(le), seed);
}

static uint64_t
char_hash(uint32_t cp, uint64_t seed)
{
	uint32_t le = le32(cp);

	return XXH3_64bits_withSeed(&le, sizeof(le), seed);
}

/* Occurrences of h so far in a document, for --multiset (linear probing). */
struct counts {
	uint64_t *key;
	uint32_t *n;
	size_t	 cap;
};

static uint32_t
count(struct counts *c, uint64_t h)
{
	size_t i;

	for (i = (size_t)(h * 0x9E3779B97F4A7C15ULL) & (c->cap - 1);
	    c->n[i] != 0; i = (i + 1) & (c->cap - 1))
		if (c->key[i] == h)
			return ++c->n[i];
	c->key[i] = h;
	return c->n[i] = 1;
}

/* The shingles of doc by the definition, one code point at a time. */
static void
reference(const struct scheme *sc, const unsigned char *doc, size_t len,
    struct seq *out)
{
	struct seq items = { 0 };
	struct counts cnt;
	struct buf tok = { 0 };
	unsigned char u[4];
	uint64_t x, in[2];
	uint32_t cp, occ;
	size_t i, j, r, m, n = sc->ngram;
	int sep, pendsep = 0, any = 0;

	for (i = 0; i < len; i += r) {
		r = utf8_decode(doc + i, len - i, 1, &cp);
		sep = sc->keeppunct ? utf8_isspace(cp) : !utf8_isalnum(cp);
		if (sep) {
			if (sc->chars)
				pendsep = 1;
			else if (tok.len > 0) {
				seq_add(&items, XXH3_64bits_withSeed(tok.data,
				    tok.len, sc->seed), 1);
				buf_clear(&tok);
			}
			continue;
		}
		if (!sc->keepcase)
			cp = utf8_fold(cp);
		if (sc->chars) {
			if (pendsep && any)
				seq_add(&items, char_hash(' ', sc->seed), 1);
			pendsep = 0;
			any = 1;
			seq_add(&items, char_hash(cp, sc->seed), 1);
		} else
			buf_add(&tok, u, utf8_encode(cp, u));
	}
	if (tok.len > 0)
		seq_add(&items, XXH3_64bits_withSeed(tok.data, tok.len,
		    sc->seed), 1);
	buf_free(&tok);

	/* n-grams; fewer than n items make one shingle of them all. */
	m = items.n < n ? items.n : n;
	for (i = m; i <= items.n && m > 0; i++) {
		for (x = 0, j = 0; j < m; j++)
			x ^= rotl(items.h[i - m + j], (unsigned)(m - 1 - j));
		seq_add(out, hash_le64(x, sc->seed), 1);
	}
	seq_free(&items);

	if (!sc->multiset || out->n == 0)
		return;
	for (cnt.cap = 16; cnt.cap < 2 * out->n; cnt.cap *= 2)
		;
	cnt.key = xcalloc(cnt.cap, sizeof(*cnt.key));
	cnt.n = xcalloc(cnt.cap, sizeof(*cnt.n));
	for (i = 0; i < out->n; i++) {
		if ((occ = count(&cnt, out->h[i])) > 1) {
			in[0] = le64(out->h[i]);
			in[1] = le64(occ);
			out->h[i] = XXH3_64bits_withSeed(in, sizeof(in),
			    sc->seed);
		}
	}
	free(cnt.key);
	free(cnt.n);
}

/* Decoding each code point of doc, and its classes and folding. */
static void
check_utf8(const unsigned char *doc, size_t len)
{
	unsigned char u[4];
	uint32_t cp, cp0, f;
	size_t i, r, r0;

	for (i = 0; i < len; i += r) {
		r = utf8_decode(doc + i, len - i, 1, &cp);
		FUZZ_CHECK(r >= 1 && r <= 4 && r <= len - i);
		FUZZ_CHECK(cp <= 0x10FFFF && (cp < 0xD800 || cp > 0xDFFF));
		if (cp == UTF8_REPLACEMENT && r == 1)
			FUZZ_CHECK(doc[i] >= 0x80);
		else {
			/* Only the shortest form decodes. */
			FUZZ_CHECK(utf8_encode(cp, u) == r);
			FUZZ_CHECK(memcmp(u, doc + i, r) == 0);
		}
		r0 = utf8_decode(doc + i, len - i, 0, &cp0);
		if (r0 == 0)
			FUZZ_CHECK(r == 1 && cp == UTF8_REPLACEMENT &&
			    len - i < 4);
		else
			FUZZ_CHECK(r0 == r && cp0 == cp);

		f = utf8_fold(cp);
		FUZZ_CHECK(f <= 0x10FFFF && (f < 0xD800 || f > 0xDFFF));
		FUZZ_CHECK(utf8_fold(f) == f);
		FUZZ_CHECK(utf8_isalnum(f) == utf8_isalnum(cp));
		FUZZ_CHECK(utf8_isspace(f) == utf8_isspace(cp));
		if (utf8_isspace(cp))
			FUZZ_CHECK(!utf8_isalnum(cp));
	}
}

/* Feed doc to sh in blocks cut by the generator seeded with split. */
static void
feed(struct shingler *sh, const unsigned char *doc, size_t len,
    uint64_t split)
{
	size_t n;

	while (len > 0) {
		n = fuzz_block(&split, len);
		shingle_feed(sh, doc, n);
		doc += n;
		len -= n;
	}
	shingle_end(sh);
}

static void
same(const struct seq *a, const struct seq *b)
{
	size_t i;

	FUZZ_CHECK(a->n == b->n);
	for (i = 0; i < a->n; i++)
		FUZZ_CHECK(a->h[i] == b->h[i] && a->w[i] == b->w[i]);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	struct seq ref = { 0 }, got = { 0 };
	struct shingler sh;
	struct scheme sc;
	struct weights wt;
	unsigned char used = 0;
	uint64_t key = 0;
	double val = 0;
	unsigned b0, b1;

	b0 = fuzz_byte(&in);
	b1 = fuzz_byte(&in);
	memset(&sc, 0, sizeof(sc));
	sc.algo = ALGO_SIMHASH;
	sc.size = 64;
	sc.ngram = (b0 & 63) + 1;
	sc.chars = (b0 >> 6) & 1;
	sc.multiset = (b0 >> 7) & 1;
	sc.keepcase = b1 & 1;
	sc.keeppunct = (b1 >> 1) & 1;
	sc.seed = (b1 >> 2) == 63 ? INT64_MAX : b1 >> 4;

	check_utf8(in.p, in.n);
	reference(&sc, in.p, in.n, &ref);

	/* Whole, then in blocks by the same shingler, then in other blocks. */
	shingle_init(&sh, &sc, NULL, sink, &got);
	shingle_feed(&sh, in.p, in.n);
	shingle_end(&sh);
	same(&ref, &got);
	got.n = 0;
	feed(&sh, in.p, in.n, b1);
	same(&ref, &got);
	got.n = 0;
	feed(&sh, in.p, in.n, ~(uint64_t)b1 * 31 + size);
	same(&ref, &got);
	shingle_free(&sh);

	/*
	 * Weighted word shingles go byte by byte, past the block scanner:
	 * with an empty table (every token weighs 1) the shingles are the
	 * same and each weighs 1.
	 */
	if (!sc.chars) {
		memset(&wt, 0, sizeof(wt));
		wt.key = &key;
		wt.val = &val;
		wt.used = &used;
		wt.cap = 1;
		got.n = 0;
		got.weighted = 1;
		shingle_init(&sh, &sc, &wt, sink, &got);
		feed(&sh, in.p, in.n, b0);
		same(&ref, &got);
		shingle_free(&sh);
	}
	seq_free(&got);
	seq_free(&ref);
	return 0;
}
