/*
 * Unit tests of src/text/shingle.c: the shingle hashes of known texts computed
 * by the definition in shingle.c's header comment, independence from how
 * the text is cut into blocks, normalization (case, punctuation), short,
 * empty and invalid input, and tokens longer than the token buffer.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "cpu.h"
#include "scheme.h"
#include "shingle.h"
#include "token.h"
#include "unit.h"
#include "utf8.h"
#include "wordhash.h"
#include "wordvec.h"
#include "xxh.h"

#define F_KEEPCASE	1
#define F_KEEPPUNCT	2
#define F_MULTISET	4

/* The hashes a shingler handed to its sink, in order. */
struct coll {
	uint64_t *h;
	size_t	 n, cap;
	int	 gotweights;
};

static void
coll_sink(void *ctx, const uint64_t *h, const double *w, size_t n)
{
	struct coll *c = ctx;

	if (w != NULL)
		c->gotweights = 1;
	if (c->n + n > c->cap) {
		while (c->n + n > c->cap)
			c->cap = c->cap ? 2 * c->cap : 64;
		if ((c->h = realloc(c->h, c->cap * sizeof(*c->h))) == NULL)
			abort();
	}
	memcpy(c->h + c->n, h, n * sizeof(*h));
	c->n += n;
}

static void
coll_free(struct coll *c)
{
	free(c->h);
	memset(c, 0, sizeof(*c));
}

static struct scheme
mkscheme(int chars, unsigned n, int flags, uint64_t seed)
{
	struct scheme sc;

	memset(&sc, 0, sizeof(sc));
	sc.algo = ALGO_SIMHASH;
	sc.size = 64;
	sc.chars = chars;
	sc.ngram = n;
	sc.keepcase = (flags & F_KEEPCASE) != 0;
	sc.keeppunct = (flags & F_KEEPPUNCT) != 0;
	sc.multiset = (flags & F_MULTISET) != 0;
	sc.seed = seed;
	return sc;
}

/*
 * The paths each test runs, vec 0 to NPATHS - 1: the portable scanners
 * alone, with AVX2, with AVX-512 but neither VBMI2 nor gathers (as on
 * the processors that lack VBMI2, whose gathers are slow), and all the
 * processor has, with gathers for lookups and then without, whether or
 * not they are fast here; and their names.  cpu_all() gives back all
 * there is.
 */
#define NPATHS	5

static void
cpu_path(int vec)
{
	cpu_disable(vec == 0 ? CPU_AVX512F | CPU_AVX2 : vec == 1 ? CPU_AVX512F :
	    vec == 2 ? CPU_AVX512_TEXT : 0);
	cpu_gathers(vec == 3 ? 1 : vec == 2 || vec == 4 ? 0 : -1);
}

static void
cpu_all(void)
{
	cpu_disable(0);
	cpu_gathers(-1);
}

static const char *
path_name(int vec)
{
	return vec == 0 ? "portable" : vec == 1 ? "no AVX-512" :
	    vec == 2 ? "no VBMI2" : vec == 3 ? "all, gathers" :
	    "all, no gathers";
}

/*
 * Shingle one document of len bytes, fed in blocks of block bytes (0: one
 * block), into c (emptied first).
 */
static void
shingle_doc(const struct scheme *sc, const void *text, size_t len,
    size_t block, struct coll *c)
{
	struct shingler sh;
	const unsigned char *p = text;
	size_t off, m;

	c->n = 0;
	c->gotweights = 0;
	shingle_init(&sh, sc, NULL, coll_sink, c);
	if (block == 0)
		shingle_feed(&sh, p, len);
	else
		for (off = 0; off < len; off += m) {
			m = len - off < block ? len - off : block;
			shingle_feed(&sh, p + off, m);
		}
	shingle_end(&sh);
	shingle_free(&sh);
}

static int
coll_equal(const struct coll *a, const struct coll *b)
{
	return a->n == b->n &&
	    (a->n == 0 || memcmp(a->h, b->h, a->n * sizeof(*a->h)) == 0);
}

/* Number of distinct values in c. */
static size_t
coll_distinct(const struct coll *c)
{
	size_t i, j, d = 0;

	for (i = 0; i < c->n; i++) {
		for (j = 0; j < i; j++)
			if (c->h[j] == c->h[i])
				break;
		d += j == i;
	}
	return d;
}

/* Do texts a and b give the same shingles under scheme sc? */
static int
same_shingles(const struct scheme *sc, const char *a, const char *b)
{
	struct coll ca = { 0 }, cb = { 0 };
	int eq;

	shingle_doc(sc, a, strlen(a), 0, &ca);
	shingle_doc(sc, b, strlen(b), 0, &cb);
	eq = ca.n > 0 && coll_equal(&ca, &cb);
	coll_free(&ca);
	coll_free(&cb);
	return eq;
}

static void
put_le64(unsigned char *p, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t
rotl64(uint64_t x, unsigned r)
{
	r %= 64;
	return r ? (x << r) | (x >> (64 - r)) : x;
}

/*
 * By the definition: the n-gram of item hashes t[0..n) is XXH3 of the 8
 * LE bytes of rotl(t_1, n-1) ^ rotl(t_2, n-2) ^ ... ^ t_n.
 */
static uint64_t
def_ngram(const uint64_t *t, size_t n, uint64_t seed)
{
	unsigned char b[8];
	uint64_t x = 0;
	size_t i;

	for (i = 0; i < n; i++)
		x ^= rotl64(t[i], (unsigned)(n - 1 - i));
	put_le64(b, x);
	return XXH3_64bits_withSeed(b, 8, seed);
}

/* By the definition: a character's hash is XXH3 of its 4 LE bytes. */
static uint64_t
def_char(uint32_t cp, uint64_t seed)
{
	unsigned char b[4];

	b[0] = (unsigned char)cp;
	b[1] = (unsigned char)(cp >> 8);
	b[2] = (unsigned char)(cp >> 16);
	b[3] = (unsigned char)(cp >> 24);
	return XXH3_64bits_withSeed(b, 4, seed);
}

/* The character n-gram of all the code points of utf8. */
static uint64_t
def_chars(const char *utf8, uint64_t seed)
{
	const unsigned char *s = (const unsigned char *)utf8;
	uint64_t t[SCHEME_NGRAM_MAX];
	size_t len = strlen(utf8), pos = 0, n = 0;
	uint32_t cp;

	while (pos < len && n < SCHEME_NGRAM_MAX) {
		pos += utf8_decode(s + pos, len - pos, 1, &cp);
		t[n++] = def_char(cp, seed);
	}
	return def_ngram(t, n, seed);
}

/* The word n-gram of the n (normalized) words w. */
static uint64_t
def_words(const char *const *w, size_t n, uint64_t seed)
{
	uint64_t t[SCHEME_NGRAM_MAX];
	size_t i;

	for (i = 0; i < n; i++)
		t[i] = XXH3_64bits_withSeed(w[i], strlen(w[i]), seed);
	return def_ngram(t, n, seed);
}

/* A word 1-gram whose word hash is th. */
static uint64_t
def_word1(uint64_t th, uint64_t seed)
{
	return def_ngram(&th, 1, seed);
}

/* By the definition: the i-th occurrence of h under --multiset. */
static uint64_t
def_label(uint64_t h, uint64_t i, uint64_t seed)
{
	unsigned char b[16];

	put_le64(b, h);
	put_le64(b + 8, i);
	return XXH3_64bits_withSeed(b, 16, seed);
}

static void
test_riskiq_chars(void)
{
	static const char *const want[] = {
		"sam", "amp", "mpl", "ple", "le ", "e d", " do", "doc", "ocu",
		"cum", "ume", "men", "ent",
	};
	static const uint64_t seeds[] = { 0, 42, INT64_MAX };
	struct coll c = { 0 };
	struct scheme sc;
	size_t i, s;

	for (s = 0; s < 3; s++) {
		sc = mkscheme(1, 3, 0, seeds[s]);
		shingle_doc(&sc, "sample document", 15, 0, &c);
		if (!CHECK(c.n == 13, "seed %llu: %zu shingles, want 13",
		    (unsigned long long)seeds[s], c.n))
			continue;
		for (i = 0; i < 13; i++)
			CHECK(c.h[i] == def_chars(want[i], seeds[s]),
			    "seed %llu: shingle %zu is not \"%s\"",
			    (unsigned long long)seeds[s], i, want[i]);
		CHECK(!c.gotweights, "weights given without a weight table");
	}
	coll_free(&c);
}

static void
test_broder_words(void)
{
	static const char text[] = "a rose is a rose is a rose";
	static const char *const w[] = {
		"a", "rose", "is", "a", "rose", "is", "a", "rose",
	};
	struct coll c = { 0 };
	struct scheme sc;
	uint64_t want[5];
	size_t i;

	for (i = 0; i < 5; i++)
		want[i] = def_words(w + i, 4, 0);
	sc = mkscheme(0, 4, 0, 0);
	shingle_doc(&sc, text, strlen(text), 0, &c);
	if (CHECK(c.n == 5, "set: %zu shingles, want 5", c.n)) {
		for (i = 0; i < 5; i++)
			CHECK(c.h[i] == want[i], "set: shingle %zu differs "
			    "from the definition", i);
		CHECK(coll_distinct(&c) == 3, "set: %zu distinct, want 3",
		    coll_distinct(&c));
	}
	sc = mkscheme(0, 4, F_MULTISET, 0);
	shingle_doc(&sc, text, strlen(text), 0, &c);
	if (CHECK(c.n == 5, "multiset: %zu shingles, want 5", c.n)) {
		CHECK(coll_distinct(&c) == 5, "multiset: %zu distinct, "
		    "want 5", coll_distinct(&c));
		for (i = 0; i < 3; i++)
			CHECK(c.h[i] == want[i], "multiset: first occurrence "
			    "%zu is not the plain shingle", i);
		CHECK(c.h[3] == def_label(want[0], 2, 0),
		    "multiset: 2nd \"a rose is a\" is not labelled 2");
		CHECK(c.h[4] == def_label(want[1], 2, 0),
		    "multiset: 2nd \"rose is a rose\" is not labelled 2");
	}
	coll_free(&c);
}

/* A text with every kind of thing that can be cut by a block boundary. */
static const char mixed[] =
    "Ελληνικά café naïve — ÉCOLE, Москва!  a\xc2\xa0" "b don't "
    "\xf0\x9f\x98\x80 emoji x\xffy \xc0\x80 z\x80 tab\there "
    "Ελληνικά café naïve end \xe2\x82";

static void
test_blocks(void)
{
	static const struct {
		int	 chars;
		unsigned n;
		int	 flags;
	} sch[] = {
		{ 0, 1, 0 }, { 0, 3, 0 }, { 0, 2, F_KEEPPUNCT },
		{ 0, 3, F_KEEPCASE | F_MULTISET }, { 1, 1, 0 }, { 1, 3, 0 },
		{ 1, 5, F_KEEPPUNCT | F_KEEPCASE }, { 1, 4, F_MULTISET },
	};
	struct coll whole = { 0 }, parts = { 0 };
	struct scheme sc;
	size_t i, b, len = sizeof(mixed) - 1;

	for (i = 0; i < sizeof(sch) / sizeof(sch[0]); i++) {
		sc = mkscheme(sch[i].chars, sch[i].n, sch[i].flags, 7);
		shingle_doc(&sc, mixed, len, 0, &whole);
		CHECK(whole.n > 10, "scheme %zu: only %zu shingles", i,
		    whole.n);
		for (b = 1; b <= 17; b++) {
			shingle_doc(&sc, mixed, len, b, &parts);
			CHECK(coll_equal(&whole, &parts), "scheme %zu (%s%u "
			    "flags %d): blocks of %zu bytes give %zu "
			    "shingles, one block %zu, or the hashes differ",
			    i, sch[i].chars ? "c" : "w", sch[i].n,
			    sch[i].flags, b, parts.n, whole.n);
		}
	}
	coll_free(&whole);
	coll_free(&parts);
}

static void
test_case_folding(void)
{
	static const char *const pairs[][2] = {
		{ "HELLO World", "hello world" },
		{ "ΑΘΗΝΑ ΟΔΟΣ", "αθηνα οδοσ" },
		{ "ΟΔΟΣ ΟΔΟΣ", "οδος οδος" },		/* final sigma */
		{ "Άλφα Ώρα Ϊ", "άλφα ώρα ϊ" },
		{ "МОСКВА ЁЖ Ѣ", "москва ёж ѣ" },
		{ "ÉCOLE ÀÖØÞ", "école àöøþ" },
		{ "ŁÓDŹ ŒUVRE Ÿ", "łódź œuvre ÿ" },
	};
	struct coll c = { 0 };
	struct scheme sc;
	const char *w[1] = { "hello" };
	size_t i, k;

	for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		for (k = 0; k < 3; k++) {
			sc = k == 0 ? mkscheme(0, 1, 0, 0) : k == 1 ?
			    mkscheme(0, 2, 0, 0) : mkscheme(1, 3, 0, 0);
			CHECK(same_shingles(&sc, pairs[i][0], pairs[i][1]),
			    "\"%s\" and \"%s\" differ (%s%u)", pairs[i][0],
			    pairs[i][1], sc.chars ? "c" : "w", sc.ngram);
		}
	}
	/* The folded word is hashed as its lowercase UTF-8 bytes. */
	sc = mkscheme(0, 1, 0, 0);
	shingle_doc(&sc, "HeLLo", 5, 0, &c);
	CHECK(c.n == 1 && c.h[0] == def_words(w, 1, 0),
	    "\"HeLLo\" is not hashed as \"hello\"");
	w[0] = "école";
	shingle_doc(&sc, "ÉCOLE", strlen("ÉCOLE"), 0, &c);
	CHECK(c.n == 1 && c.h[0] == def_words(w, 1, 0),
	    "\"ÉCOLE\" is not hashed as \"école\"");
	sc = mkscheme(1, 3, 0, 0);
	shingle_doc(&sc, "ΣΑΣ", strlen("ΣΑΣ"), 0, &c);
	CHECK(c.n == 1 && c.h[0] == def_chars("σασ", 0),
	    "\"ΣΑΣ\" is not hashed as \"σασ\"");
	coll_free(&c);
}

static void
test_keep_case(void)
{
	struct coll c = { 0 };
	struct scheme sc;
	const char *w[2] = { "Hello", "World" };

	sc = mkscheme(0, 2, F_KEEPCASE, 0);
	CHECK(!same_shingles(&sc, "HELLO World", "hello world"),
	    "--keep-case -w2: \"HELLO World\" == \"hello world\"");
	CHECK(!same_shingles(&sc, "ΑΘΗΝΑ", "αθηνα"),
	    "--keep-case: Greek folded");
	CHECK(same_shingles(&sc, "Hello, World!", "Hello World"),
	    "--keep-case: punctuation no longer separates");
	shingle_doc(&sc, "Hello World", 11, 0, &c);
	CHECK(c.n == 1 && c.h[0] == def_words(w, 2, 0),
	    "--keep-case: \"Hello World\" not hashed as is");
	sc = mkscheme(1, 3, F_KEEPCASE, 0);
	CHECK(!same_shingles(&sc, "HELLO", "hello"),
	    "--keep-case -c3: \"HELLO\" == \"hello\"");
	shingle_doc(&sc, "ÉtÉ", strlen("ÉtÉ"), 0, &c);
	CHECK(c.n == 1 && c.h[0] == def_chars("ÉtÉ", 0),
	    "--keep-case -c3: \"ÉtÉ\" not hashed as is");
	coll_free(&c);
}

static void
test_punct_boundaries(void)
{
	static const char *const same[][2] = {
		{ "hello, world!", "hello world" },
		{ "  ...hello...world...  ", "hello world" },
		{ "don't", "don t" },
		{ "a\xe2\x80\x94" "b", "a b" },		/* em dash */
		{ "x\xc3\x97y", "x y" },		/* multiplication sign */
		{ "a\xc2\xa0" "b", "a b" },		/* no-break space */
		{ "a\xc2\xab" "b\xc2\xbb", "a b" },	/* guillemets */
		{ "a\xe3\x80\x81" "b", "a b" },		/* ideographic comma */
		{ "a_b-c/d", "a b c d" },
		{ "a\tb\nc\r\nd", "a b c d" },
	};
	static const char *const notsame[][2] = {
		{ "ab", "a b" },
		{ "\xc2\xaa" "b", "b" },		/* ª is a letter */
		{ "a\xef\xbf\xbd" "b", "a b" },		/* U+FFFD is a letter */
	};
	struct coll c = { 0 };
	struct scheme sc;
	size_t i, k;

	for (i = 0; i < sizeof(same) / sizeof(same[0]); i++)
		for (k = 0; k < 3; k++) {
			sc = k == 0 ? mkscheme(0, 1, 0, 0) : k == 1 ?
			    mkscheme(0, 2, 0, 0) : mkscheme(1, 3, 0, 0);
			CHECK(same_shingles(&sc, same[i][0], same[i][1]),
			    "\"%s\" and \"%s\" differ (%s%u)", same[i][0],
			    same[i][1], sc.chars ? "c" : "w", sc.ngram);
		}
	for (i = 0; i < sizeof(notsame) / sizeof(notsame[0]); i++) {
		sc = mkscheme(0, 1, 0, 0);
		CHECK(!same_shingles(&sc, notsame[i][0], notsame[i][1]),
		    "\"%s\" and \"%s\" should differ", notsame[i][0],
		    notsame[i][1]);
	}
	/* A run of boundaries is one space; none leading or trailing. */
	sc = mkscheme(1, 3, 0, 0);
	shingle_doc(&sc, " ,a;; -b. ", 10, 0, &c);
	CHECK(c.n == 1 && c.h[0] == def_chars("a b", 0),
	    "\" ,a;; -b. \" -c3: %zu shingles, want one \"a b\"", c.n);
	coll_free(&c);
}

static void
test_keep_punct(void)
{
	struct coll c = { 0 };
	struct scheme sc;
	const char *w[2] = { "hello,", "world!" };

	sc = mkscheme(0, 2, F_KEEPPUNCT, 0);
	shingle_doc(&sc, "Hello, World!", 13, 0, &c);
	CHECK(c.n == 1 && c.h[0] == def_words(w, 2, 0),
	    "--keep-punct -w2: \"Hello, World!\" is not hello, world!");
	CHECK(!same_shingles(&sc, "hello, world!", "hello world"),
	    "--keep-punct: punctuation still separates words");
	CHECK(same_shingles(&sc, "a\xc2\xa0" "b", "a b"),
	    "--keep-punct: no-break space does not separate");
	CHECK(same_shingles(&sc, "a\xe3\x80\x80" "b", "a b"),
	    "--keep-punct: ideographic space does not separate");
	CHECK(same_shingles(&sc, " a \t\n\v\f\r b ", "a b"),
	    "--keep-punct: ASCII white space does not separate");
	CHECK(!same_shingles(&sc, "a\xe2\x80\x94" "b", "a b"),
	    "--keep-punct: em dash separates words");
	sc = mkscheme(1, 3, F_KEEPPUNCT, 0);
	shingle_doc(&sc, "A,b", 3, 0, &c);
	CHECK(c.n == 1 && c.h[0] == def_chars("a,b", 0),
	    "--keep-punct -c3: \"A,b\" is not \"a,b\"");
	shingle_doc(&sc, "  a  ,b  ", 9, 0, &c);
	CHECK(c.n == 2 && c.h[0] == def_chars("a ,", 0) &&
	    c.h[1] == def_chars(" ,b", 0),
	    "--keep-punct -c3: \"  a  ,b  \" is not \"a ,\", \" ,b\"");
	coll_free(&c);
}

static void
test_short_doc(void)
{
	struct coll c = { 0 };
	struct scheme sc;
	const char *w2[2] = { "hello", "world" }, *w1[1] = { "one" };

	sc = mkscheme(1, 5, 0, 3);
	shingle_doc(&sc, "Hi", 2, 0, &c);
	CHECK(c.n == 1 && c.h[0] == def_chars("hi", 3),
	    "\"Hi\" -c5: %zu shingles, want one \"hi\"", c.n);
	shingle_doc(&sc, "hi yo", 5, 0, &c);
	CHECK(c.n == 1 && c.h[0] == def_chars("hi yo", 3),
	    "\"hi yo\" -c5: %zu shingles, want one \"hi yo\"", c.n);
	sc = mkscheme(1, 3, 0, 3);
	shingle_doc(&sc, "abc", 3, 0, &c);
	CHECK(c.n == 1 && c.h[0] == def_chars("abc", 3),
	    "\"abc\" -c3: %zu shingles, want one \"abc\"", c.n);
	sc = mkscheme(0, 3, 0, 3);
	shingle_doc(&sc, "Hello, world.", 13, 0, &c);
	CHECK(c.n == 1 && c.h[0] == def_words(w2, 2, 3),
	    "\"Hello, world.\" -w3: %zu shingles, want one", c.n);
	shingle_doc(&sc, "  one  ", 7, 0, &c);
	CHECK(c.n == 1 && c.h[0] == def_words(w1, 1, 3),
	    "\"one\" -w3: %zu shingles, want one", c.n);
	sc = mkscheme(0, 64, F_MULTISET, 3);
	shingle_doc(&sc, "hello world", 11, 0, &c);
	CHECK(c.n == 1 && c.h[0] == def_words(w2, 2, 3),
	    "\"hello world\" -w64 --multiset: %zu shingles, want one", c.n);
	coll_free(&c);
}

static void
test_empty_doc(void)
{
	static const char *const docs[] = {
		"", " ", "   ,,, !!! -- ", "\n\n\t", "\xe2\x80\x94\xc2\xa0",
	};
	struct coll c = { 0 };
	struct scheme sc;
	size_t i, k;

	for (i = 0; i < sizeof(docs) / sizeof(docs[0]); i++)
		for (k = 0; k < 4; k++) {
			sc = mkscheme(k & 1, k < 2 ? 3 : 1, 0, 0);
			shingle_doc(&sc, docs[i], strlen(docs[i]), 0, &c);
			CHECK(c.n == 0, "doc %zu (%s%u): %zu shingles, want 0",
			    i, sc.chars ? "c" : "w", sc.ngram, c.n);
		}
	sc = mkscheme(0, 1, F_KEEPPUNCT, 0);
	shingle_doc(&sc, " \t\r\n\xc2\xa0\xe3\x80\x80", 9, 0, &c);
	CHECK(c.n == 0, "--keep-punct white space: %zu shingles", c.n);
	shingle_doc(&sc, " ,", 2, 0, &c);
	CHECK(c.n == 1, "--keep-punct \",\": %zu shingles, want 1", c.n);
	coll_free(&c);
}

/*
 * The text a decoder at the end of input sees: every invalid byte
 * replaced by U+FFFD.
 */
static char *
sanitize(const unsigned char *s, size_t len, size_t *outlen)
{
	char *out;
	size_t pos = 0, n = 0, r;
	uint32_t cp;

	if ((out = malloc(3 * len + 1)) == NULL)
		abort();
	while (pos < len) {
		r = utf8_decode(s + pos, len - pos, 1, &cp);
		pos += r;
		n += utf8_encode(cp, (unsigned char *)out + n);
	}
	*outlen = n;
	return out;
}

static void
test_invalid_utf8(void)
{
	static const char *const t[][2] = {
		{ "ab\xff" "cd", "ab\xef\xbf\xbd" "cd" },
		{ "ab\xc0\x80" "cd", "ab\xef\xbf\xbd\xef\xbf\xbd" "cd" },
		{ "ab\xe2\x82", "ab\xef\xbf\xbd\xef\xbf\xbd" },
		{ "ab\x80" "cd", "ab\xef\xbf\xbd" "cd" },
		{ "x \xe2\x82 y", "x \xef\xbf\xbd\xef\xbf\xbd y" },
		{ "\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" },
	};
	struct coll a = { 0 }, b = { 0 };
	struct scheme sc;
	size_t i, k, blk;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		for (k = 0; k < 3; k++) {
			sc = k == 0 ? mkscheme(0, 1, 0, 0) : k == 1 ?
			    mkscheme(1, 3, 0, 0) : mkscheme(1, 1, F_KEEPPUNCT,
			    0);
			shingle_doc(&sc, t[i][1], strlen(t[i][1]), 0, &b);
			for (blk = 0; blk <= 4; blk++) {
				shingle_doc(&sc, t[i][0], strlen(t[i][0]),
				    blk, &a);
				CHECK(a.n > 0 && coll_equal(&a, &b),
				    "invalid text %zu (%s%u, blocks of %zu): "
				    "not the same as with U+FFFD", i,
				    sc.chars ? "c" : "w", sc.ngram, blk);
			}
		}
	coll_free(&a);
	coll_free(&b);
}

/* Random bytes: any block size, same result as the sanitized text. */
static void
test_random_bytes(void)
{
	static const size_t blocks[] = { 0, 1, 2, 3, 5, 7, 64 };
	unsigned char buf[2048];
	struct coll want = { 0 }, got = { 0 };
	struct scheme sc;
	uint64_t x = 99;
	size_t t, i, k, b, slen;
	char *clean;

	for (t = 0; t < 24; t++) {
		for (i = 0; i < sizeof(buf); i++) {
			/* Mostly high bytes, some ASCII letters and spaces. */
			uint64_t r = splitmix64(&x);

			buf[i] = (r & 3) == 0 ? (unsigned char)"ab  "[r >> 8 &
			    3] : (unsigned char)(0x80 | (r >> 16 & 0x7F));
			if ((r & 0xF0) == 0)
				buf[i] = (unsigned char)(0xC0 | (r >> 24 &
				    0x3F));
		}
		clean = sanitize(buf, sizeof(buf), &slen);
		for (k = 0; k < 4; k++) {
			sc = mkscheme(k & 1, k & 2 ? 3 : 2, k == 3 ?
			    F_KEEPPUNCT : 0, t);
			shingle_doc(&sc, clean, slen, 0, &want);
			for (b = 0; b < sizeof(blocks) / sizeof(blocks[0]);
			    b++) {
				shingle_doc(&sc, buf, sizeof(buf), blocks[b],
				    &got);
				CHECK(coll_equal(&want, &got), "random bytes "
				    "%zu, scheme %zu, blocks of %zu: %zu "
				    "shingles, sanitized text %zu, or the "
				    "hashes differ", t, k, blocks[b], got.n,
				    want.n);
			}
		}
		free(clean);
	}
	coll_free(&want);
	coll_free(&got);
}

static void
test_long_token(void)
{
	static const size_t lens[] = {
		255, 256, 257, 511, 512, 513, 10000,
	};
	static const size_t blocks[] = { 0, 1, 7, 255, 256, 257, 1000 };
	const char *words[3] = { "pre", NULL, "post" };
	struct coll c = { 0 };
	struct scheme sc;
	uint64_t th, want;
	size_t i, b, n;
	char *tok, *up, *doc;
	unsigned char *ut;

	if ((tok = malloc(20010)) == NULL || (up = malloc(20010)) == NULL ||
	    (doc = malloc(20020)) == NULL)
		abort();
	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		for (n = 0; n < lens[i]; n++) {
			tok[n] = (char)('a' + n % 26);
			up[n] = (char)('A' + n % 26);
		}
		tok[n] = up[n] = '\0';
		th = XXH3_64bits_withSeed(tok, lens[i], 5);
		CHECK(shingle_token_hash(tok, lens[i], 5) == th,
		    "shingle_token_hash is not XXH3 of the token");
		want = def_word1(th, 5);
		sc = mkscheme(0, 1, 0, 5);
		for (b = 0; b < sizeof(blocks) / sizeof(blocks[0]); b++) {
			shingle_doc(&sc, up, lens[i], blocks[b], &c);
			CHECK(c.n == 1 && c.h[0] == want, "token of %zu "
			    "letters in blocks of %zu: %zu shingles, or not "
			    "the token's hash", lens[i], blocks[b], c.n);
		}
		/* In the middle of a 3-gram. */
		words[1] = tok;
		snprintf(doc, 20020, "PRE %s post", up);
		sc = mkscheme(0, 3, 0, 5);
		for (b = 0; b < sizeof(blocks) / sizeof(blocks[0]); b++) {
			shingle_doc(&sc, doc, strlen(doc), blocks[b], &c);
			CHECK(c.n == 1 && c.h[0] == def_words(words, 3, 5),
			    "\"pre TOKEN(%zu) post\" -w3 in blocks of %zu: "
			    "wrong", lens[i], blocks[b]);
		}
	}
	/* Multibyte letters across the token buffer's edge: 3333 x "É". */
	ut = (unsigned char *)tok;
	for (n = 0; n < 3333; n++) {
		memcpy(up + 2 * n, "\xc3\x89", 2);
		memcpy(ut + 2 * n, "\xc3\xa9", 2);
	}
	want = def_word1(XXH3_64bits_withSeed(ut, 6666, 0), 0);
	sc = mkscheme(0, 1, 0, 0);
	for (b = 1; b <= 7; b++) {
		shingle_doc(&sc, up, 6666, b, &c);
		CHECK(c.n == 1 && c.h[0] == want, "3333 x \"É\" in blocks of "
		    "%zu: %zu shingles, or not the hash of 3333 x \"é\"", b,
		    c.n);
	}
	free(tok);
	free(up);
	free(doc);
	coll_free(&c);
}

/*
 * More distinct shingles than the occurrence table's first size, each
 * seen three times: labels 1, 2, 3 in order, whatever the block size.
 */
static void
test_multiset_many(void)
{
	struct coll c = { 0 }, again = { 0 };
	struct scheme sc;
	char *doc, *p;
	size_t i, r, nw = 3000;
	int ok = 1;

	if ((doc = malloc(nw * 3 * 8)) == NULL)
		abort();
	for (p = doc, r = 0; r < 3; r++)
		for (i = 0; i < nw; i++)
			p += sprintf(p, "w%zu ", i);
	sc = mkscheme(0, 1, F_MULTISET, 11);
	shingle_doc(&sc, doc, (size_t)(p - doc), 0, &c);
	if (CHECK(c.n == 3 * nw, "%zu shingles, want %zu", c.n, 3 * nw)) {
		for (i = 0; i < nw && ok; i++)
			ok = CHECK(c.h[nw + i] == def_label(c.h[i], 2, 11) &&
			    c.h[2 * nw + i] == def_label(c.h[i], 3, 11),
			    "occurrences of w%zu are not labelled 2 and 3", i);
		shingle_doc(&sc, doc, (size_t)(p - doc), 13, &again);
		CHECK(coll_equal(&c, &again), "blocks of 13 differ");
	}
	free(doc);
	coll_free(&c);
	coll_free(&again);
}

/* shingle_token_hash is XXH3-64 with the seed, at every length class. */
static void
test_token_hash(void)
{
	static const uint64_t seeds[] = { 0, 1, 0x123456789ULL, INT64_MAX };
	unsigned char buf[300];
	uint64_t x = 5;
	size_t i, len, bad = 0;

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char)splitmix64(&x);
	for (i = 0; i < 4; i++)
		for (len = 0; len <= sizeof(buf); len++)
			if (shingle_token_hash(buf, len, seeds[i]) !=
			    XXH3_64bits_withSeed(buf, len, seeds[i]) &&
			    bad++ < 3)
				CHECK(0, "shingle_token_hash(%zu bytes, seed "
				    "%llu) is not XXH3_64bits_withSeed", len,
				    (unsigned long long)seeds[i]);
}

/*
 * The batch word hashes of AVX2 and of AVX-512 (wordhash.c), where the
 * processor has them: every length from 1 to 40 bytes (the three mixes
 * and the words hashed one by one) and many to 255, in batches of every
 * size from 1 to 70 words (the lengths are read 8 at a time, the hashes
 * made 8 at a time), with seeds that exercise the halves of the 64-bit
 * arithmetic, against the library.
 */
#ifdef CPU_AVX2_SCAN
static void
check_wordhash(void (*hash)(struct wordhash *, size_t, uint64_t,
    uint64_t *), const char *name)
{
	static const uint64_t seeds[] = { 0, 1, 0x123456789ULL, INT64_MAX,
	    0xfedcba9876543210ULL };
	unsigned char text[8 + 70 * 255 + 8];
	uint64_t x = 11, h[70];
	const unsigned char *at[70];
	unsigned lens[70];
	struct wordhash *w;
	size_t i, n, k, bad = 0;

	if ((w = malloc(sizeof(*w))) == NULL)
		abort();
	for (i = 0; i < sizeof(text); i++)
		text[i] = (unsigned char)splitmix64(&x);
	for (k = 0; k < 400 && bad < 3; k++) {
		n = 1 + k % 70;
		w->nhuge = 0;
		for (i = 0; i < n; i++) {
			lens[i] = 1 + (unsigned)((k * 7 + i * 13) % (k % 2 ? 40 : 255));
			at[i] = text + 8 + 255 * i;
			wordhash_add(w, i, at[i], lens[i], seeds[k % 5]);
		}
		hash(w, n, seeds[k % 5], h);
		for (i = 0; i < n; i++)
			if (h[i] != xxh_le64_lin(XXH3_64bits_withSeed(at[i],
			    lens[i], seeds[k % 5])) && bad++ < 3)
				CHECK(0, "%s: word %zu of %zu (%u bytes, seed "
				    "%llu) is not XXH3_64bits_withSeed, mixed "
				    "by xxh_le64_lin", name,
				    i, n, lens[i],
				    (unsigned long long)seeds[k % 5]);
	}
	free(w);
}
#endif

static void
test_wordhash(void)
{
#ifdef CPU_AVX2_SCAN
	if (cpu_usable() & CPU_AVX2)
		check_wordhash(wordhash_avx2, "wordhash_avx2");
#endif
}

/*
 * A reference shingler written straight from the definitions: decode the
 * whole text, cut it into words or characters, hash every n-gram anew.
 */
static void
ref_shingles(const struct scheme *sc, const unsigned char *text,
    size_t len, struct coll *c)
{
	unsigned char *tok, u[4];
	uint64_t *t, *seenh, h;
	uint32_t cp, *cnt;
	size_t pos = 0, nt = 0, toklen = 0, i, j, m, nseen = 0;
	int boundary, pendsep = 0, any = 0;

	c->n = 0;
	if ((tok = malloc(4 * len + 1)) == NULL ||
	    (t = malloc((2 * len + 1) * sizeof(*t))) == NULL ||
	    (seenh = malloc((2 * len + 1) * sizeof(*seenh))) == NULL ||
	    (cnt = malloc((2 * len + 1) * sizeof(*cnt))) == NULL)
		abort();
	for (;;) {
		if (pos < len) {
			pos += utf8_decode(text + pos, len - pos, 1, &cp);
			boundary = sc->keeppunct ? utf8_isspace(cp) :
			    !utf8_isalnum(cp);
			if (!boundary && !sc->keepcase)
				cp = utf8_fold(cp);
		} else
			boundary = 1;
		if (sc->chars && boundary)
			pendsep = 1;
		else if (sc->chars) {
			if (pendsep && any)
				t[nt++] = def_char(' ', sc->seed);
			pendsep = 0;
			any = 1;
			t[nt++] = def_char(cp, sc->seed);
		} else if (boundary) {
			if (toklen > 0)
				t[nt++] = XXH3_64bits_withSeed(tok, toklen,
				    sc->seed);
			toklen = 0;
		} else {
			m = utf8_encode(cp, u);
			memcpy(tok + toklen, u, m);
			toklen += m;
		}
		if (pos >= len && boundary)
			break;
	}
	m = nt < sc->ngram ? nt : sc->ngram;
	for (i = 0; nt > 0 && i + m <= nt; i++) {
		h = def_ngram(t + i, m, sc->seed);
		if (sc->multiset) {
			for (j = 0; j < nseen && seenh[j] != h; j++)
				;
			if (j == nseen) {
				seenh[nseen] = h;
				cnt[nseen++] = 0;
			}
			if (++cnt[j] > 1)
				h = def_label(h, cnt[j], sc->seed);
		}
		coll_sink(c, &h, NULL, 1);
	}
	free(tok);
	free(t);
	free(seenh);
	free(cnt);
}

/* Append a random piece of text to p; returns its length. */
static size_t
random_piece(uint64_t *x, char *p, int ascii)
{
	static const char *const high[] = {
		"\xc3\xa9", "\xc3\x89", "\xd0\x96", "\xd0\xb6", "\xe2\x80\x94",
		"\xc2\xa0", "\xf0\x9f\x98\x80", "\xff", "\xe3\x80\x80",
		"\xce\xa3", "\xc2\xaa",
	};
	static const char punct[] = " \t\n,.;:!?'\"()-_/\\@[]{}`~#$%^&*+=<>|";
	uint64_t r = splitmix64(x);
	size_t n, i;

	switch (r % 16) {
	case 0: case 1: case 2: case 3: case 4:		/* a lower-case word */
		n = 1 + (r >> 8) % 12;
		for (i = 0; i < n; i++)
			p[i] = (char)('a' + splitmix64(x) % 26);
		break;
	case 5: case 6:					/* mixed case, digits */
		n = 1 + (r >> 8) % 10;
		for (i = 0; i < n; i++) {
			r = splitmix64(x);
			p[i] = (char)(r % 3 == 0 ? 'A' + r / 3 % 26 :
			    r % 3 == 1 ? 'a' + r / 3 % 26 : '0' + r / 3 % 10);
		}
		break;
	case 7:						/* a long word */
		n = 9 + (r >> 8) % 330;
		for (i = 0; i < n; i++)
			p[i] = (char)((r >> 20 & 1 ? 'A' : 'a') +
			    splitmix64(x) % 26);
		break;
	case 8: case 9: case 10: case 11:		/* one space */
		n = 1;
		p[0] = ' ';
		break;
	case 12: case 13:				/* punctuation */
		n = 1 + (r >> 8) % 4;
		for (i = 0; i < n; i++)
			p[i] = punct[splitmix64(x) % (sizeof(punct) - 1)];
		break;
	default:
		if (ascii) {
			n = 1;
			p[0] = '\n';
			break;
		}
		i = (size_t)((r >> 8) % (sizeof(high) / sizeof(high[0])));
		n = strlen(high[i]);
		memcpy(p, high[i], n);
	}
	return n;
}

/*
 * Random texts, all-ASCII (the 64-byte scanner's ground) and mixed, under
 * every normalization, fed whole, in blocks and from unaligned addresses,
 * with neither AVX-512 nor AVX2 (and SSSE3), without AVX-512, and with
 * all: always what the reference shingler computes from the definitions.
 */
static void
test_reference(void)
{
	static const size_t blocks[] = { 0, 1, 3, 17, 40, 63, 64, 65, 200 };
	/*
	 * The AVX-512 roll has a loop for 1 to 3, one by pairs for 4 to 8
	 * and one for 9 and up.
	 */
	static const unsigned ngrams[] = { 1, 3, 7, 64, 2, 8, 9, 4, 5, 6 };
	const size_t nn = sizeof(ngrams) / sizeof(ngrams[0]);
	struct coll want = { 0 }, got = { 0 };
	struct scheme sc;
	uint64_t x = 2024;
	char *buf, *text;
	size_t t, len, k, b, target, fails = 0;
	int flags, vec;

	if ((buf = malloc(16384)) == NULL)
		abort();
	for (t = 0; t < 60 && fails < 5; t++) {
		/* Some long enough for the AVX-512 queue to fill. */
		target = (size_t)(splitmix64(&x) %
		    (t % 4 == 3 ? 15000 : 3000));
		text = buf + t % 16;		/* vary the alignment */
		for (len = 0; len < target; )
			len += random_piece(&x, text + len, t % 2 == 0);
		for (k = 0; k < 2 * nn && fails < 5; k++) {
			flags = (int)(k & 7);
			sc = mkscheme(k >= nn, ngrams[k % nn], flags, t);
			ref_shingles(&sc, (const unsigned char *)text, len,
			    &want);
			for (vec = 0; vec < NPATHS; vec++) {
				cpu_path(vec);
				for (b = 0; b < sizeof(blocks) /
				    sizeof(blocks[0]); b++) {
					shingle_doc(&sc, text, len, blocks[b],
					    &got);
					if (!CHECK(coll_equal(&want, &got),
					    "text %zu (%s, %zu bytes), -%c%u "
					    "flags %d, blocks of %zu, %s: %zu "
					    "shingles, reference %zu, or "
					    "hashes differ", t, t % 2 ?
					    "mixed" : "ASCII", len, sc.chars ?
					    'c' : 'w', sc.ngram, flags,
					    blocks[b], path_name(vec), got.n,
					    want.n))
						fails++;
				}
			}
		}
	}
	free(buf);
	coll_free(&want);
	coll_free(&got);
}

/*
 * With --keep-punct any byte but white space is part of a word, a zero
 * byte or a control byte too: words that differ only by such bytes at
 * their start or end ("a", "\0a", "a\0", "\1\2a") are different words,
 * and no word cache may take one for another.  Long enough for the
 * 64-byte scanners, each path, against the reference.
 */
static void
test_control_words(void)
{
#define W(s)	{ s, sizeof(s) - 1 }
	static const struct {
		const char *s;
		size_t	 n;
	} words[] = {
		W("a"), W("\0a"), W("a\0"), W("\1\2a"), W("\2a"), W("\7abcdefg"),
		W("abcdefg\7"), W("\7xyzuvwt"), W("xyzuvwt"),
		W("\0\0\0\0\0\0\0\0"), W("\0"), W("\0\0"), W("12345678"),
		W("\1" "2345678"), W("ab"), W("\0ab"), W("\5"), W("\6\6"),
	};
#undef W
	struct coll want = { 0 }, got = { 0 };
	struct scheme sc;
	uint64_t x = 77;
	char text[6000];
	size_t len = 0, k;
	int vec;

	while (len < sizeof(text) - 16) {
		k = (size_t)(splitmix64(&x) % (sizeof(words) /
		    sizeof(words[0])));
		memcpy(text + len, words[k].s, words[k].n);
		len += words[k].n;
		text[len++] = splitmix64(&x) % 4 == 0 ? '\n' : ' ';
	}
	for (k = 0; k < 4; k++) {
		sc = mkscheme(0, 1 + (unsigned)k % 3, F_KEEPPUNCT |
		    (k == 3 ? F_KEEPCASE : 0), k);
		ref_shingles(&sc, (const unsigned char *)text, len, &want);
		for (vec = 0; vec < NPATHS; vec++) {
			cpu_path(vec);
			shingle_doc(&sc, text, len, 0, &got);
			CHECK(coll_equal(&want, &got), "--keep-punct -w%u, "
			    "words with control bytes, %s: %zu shingles, "
			    "reference %zu, or hashes differ", sc.ngram,
			    path_name(vec), got.n, want.n);
		}
	}
	cpu_all();
	coll_free(&want);
	coll_free(&got);
}

/*
 * Words few and far apart, and words that end on a block's last byte or
 * run into the next block: the word scanner lists a batch of blocks'
 * words before it looks them up, and cuts the batch when its text is
 * full as well as when its words are; the text must then be kept right.
 * Every path, whole and in pieces, against the reference.
 */
static void
test_sparse_words(void)
{
	static const size_t blocks[] = { 0, 100, 4096 };
	struct coll want = { 0 }, got = { 0 };
	struct scheme sc;
	uint64_t x = 4242, r;
	char *text;
	size_t len = 0, size = 40000, n, w, i, b, k;
	int vec;

	if ((text = malloc(size)) == NULL)
		abort();
	while (len < size - 400) {
		r = splitmix64(&x);
		/*
		 * A word of 1 to 9 bytes or 1 to 40, after a gap of 1 to 200
		 * bytes or one that makes it end on one of the last three
		 * bytes of a block.
		 */
		w = 1 + (size_t)((r >> 24) % ((r >> 40) % 4 == 0 ? 40 : 9));
		n = 1 + (r >> 8) % 200;
		if (r % 3 == 0)
			n = 1 + (128 - (len + w + (r >> 8) % 3) % 64);
		for (i = 0; i < n; i++)
			text[len++] = (r >> 16) % 5 == 0 ? '\n' : ' ';
		for (i = 0; i < w; i++)
			text[len++] = (char)('a' + (splitmix64(&x) % 26));
	}
	for (k = 0; k < 6; k++) {
		sc = mkscheme(0, 1 + (unsigned)(k % 3) * 2, k < 3 ? 0 :
		    F_KEEPPUNCT, k);
		ref_shingles(&sc, (const unsigned char *)text, len, &want);
		for (vec = 0; vec < NPATHS; vec++) {
			cpu_path(vec);
			for (b = 0; b < sizeof(blocks) / sizeof(blocks[0]);
			    b++) {
				shingle_doc(&sc, text, len, blocks[b], &got);
				CHECK(coll_equal(&want, &got), "sparse words, "
				    "-w%u, flags %d, blocks of %zu, %s: %zu "
				    "shingles, reference %zu, or hashes "
				    "differ", sc.ngram, k < 3 ? 0 :
				    F_KEEPPUNCT, blocks[b], path_name(vec),
				    got.n, want.n);
			}
		}
	}
	cpu_all();
	free(text);
	coll_free(&want);
	coll_free(&got);
}

/*
 * One shingler, many documents: nothing of one document (a pending
 * token, a partial UTF-8 sequence, the window, the multiset counts)
 * leaks into the next.
 */
static void
test_reuse(void)
{
	static const char *const first[] = {
		"abc def gh", "abc def \xe2\x82", "x \xf0\x9f", "one two, ",
		"gh gh gh",
	};
	static const char second[] = "gh ij kl gh";
	struct coll alone = { 0 }, c = { 0 };
	struct shingler sh;
	struct scheme sc;
	size_t i, k;

	for (k = 0; k < 3; k++) {
		sc = k == 0 ? mkscheme(0, 2, F_MULTISET, 0) : k == 1 ?
		    mkscheme(1, 3, F_MULTISET, 0) : mkscheme(0, 1, 0, 0);
		shingle_doc(&sc, second, strlen(second), 0, &alone);
		for (i = 0; i < sizeof(first) / sizeof(first[0]); i++) {
			shingle_init(&sh, &sc, NULL, coll_sink, &c);
			shingle_feed(&sh, first[i], strlen(first[i]));
			shingle_end(&sh);
			c.n = 0;
			shingle_feed(&sh, second, strlen(second));
			shingle_end(&sh);
			CHECK(coll_equal(&alone, &c), "scheme %zu: \"%s\" "
			    "changes the next document", k, first[i]);
			shingle_free(&sh);
		}
	}
	coll_free(&alone);
	coll_free(&c);
}

/*
 * With AVX2 and without AVX-512, the word scanner looks words up in its
 * cache and, once too many of the words tried have missed it, hashes them
 * in batches (wordscan_words).  A text of random words, long enough for
 * the switch (its sh.ws.batched and backoff are then set), then of a few
 * words repeated, fed in blocks: what the reference shingler computes,
 * before and after the switch, under each normalization.
 */
static void
test_word_modes(void)
{
	static const char *const common[] = { "the", "of", "a", "kernel",
	    "struct", "int", "return", "if", "x", "buffer_head", "NULL" };
	struct coll want = { 0 }, got = { 0 };
	struct shingler sh;
	struct scheme sc;
	uint64_t x = 77;
	size_t len = 0, cap = 1200000, i, k, off, m;
	unsigned j, wl;
	char *text;
	int flags;

#ifndef CPU_AVX2_SCAN
	return;
#endif
	if ((cpu_usable() & CPU_AVX2) == 0)
		return;
	if ((text = malloc(cap)) == NULL)
		abort();
	for (i = 0; i < 90000; i++) {
		wl = (unsigned)(splitmix64(&x) % 12) + 1;
		if (i % 97 == 0)
			wl = 20;
		for (j = 0; j < wl; j++)
			text[len++] = (char)('a' + splitmix64(&x) % 26);
		text[len++] = i % 13 == 0 ? '\n' : ' ';
	}
	for (i = 0; i < 30000; i++) {
		k = (size_t)(splitmix64(&x) % (sizeof(common) /
		    sizeof(common[0])));
		memcpy(text + len, common[k], strlen(common[k]));
		len += strlen(common[k]);
		text[len++] = ' ';
	}
	cpu_disable(CPU_AVX512F);
	for (flags = 0; flags < 4; flags++) {
		sc = mkscheme(0, flags % 2 ? 1 : 3, flags, 5);
		ref_shingles(&sc, (const unsigned char *)text, len, &want);
		got.n = 0;
		shingle_init(&sh, &sc, NULL, coll_sink, &got);
		for (off = 0; off < len; off += m) {
			m = len - off < 65536 ? len - off : 65536;
			shingle_feed(&sh, text + off, m);
		}
		CHECK(sh.ws.batched > 0 && sh.ws.backoff == 1, "flags %d: the "
		    "word scanner never switched to batches", flags);
		shingle_end(&sh);
		shingle_free(&sh);
		CHECK(coll_equal(&want, &got), "flags %d, -w%u: %zu shingles, "
		    "reference %zu, or hashes differ, with the cache and then "
		    "the batches", flags, sc.ngram, got.n, want.n);
	}
	cpu_all();
	free(text);
	coll_free(&want);
	coll_free(&got);
}

/*
 * The scanner of scheme sc (words or characters) on path vec over text[0
 * .. len): where it stopped (*stop) and to where it left the text to the
 * byte-at-a-time path (*until, text if nowhere).  Returns whether the
 * shingler, scanners and all, gives what the reference does there (in
 * got and want).
 */
static int
scanner_run(const struct scheme *sc, int vec, const unsigned char *text,
    size_t len, const unsigned char **stop, const unsigned char **until,
    struct coll *want, struct coll *got)
{
	struct shingler sh;

	cpu_path(vec);
	shingle_init(&sh, sc, NULL, coll_sink, &(struct coll){ 0 });
	*until = text;
	*stop = (sc->chars ? blockscan_chars : blockscan_words)(&sh.ws, text,
	    text + len, until);
	shingle_free(&sh);
	ref_shingles(sc, text, len, want);
	shingle_doc(sc, text, len, 0, got);
	return coll_equal(want, got);
}

/*
 * The block scanners go on to a block's first non-ASCII byte they do not
 * take, and leave to the byte-at-a-time path only what runs from there to
 * past the block's last non-ASCII byte (scan_cut): the words before it
 * are theirs, the word it is in is not.  Words of "abcd " from the start,
 * two bytes no scanner takes at "at" and "at" + 8 (the first in a word if
 * inword), each scanner: C0 80, a NUL in two bytes, which UTF-8 forbids.
 */
static void
test_scan_cut(void)
{
	static const struct {
		size_t	 at;
		int	 inword;
		size_t	 words, chars;	/* where they stop */
	} cases[] = {
		{ 45, 0, 45, 45 },	/* first block: the accent starts a word */
		{ 47, 1, 45, 47 },	/* ... or ends one */
		{ 102, 1, 100, 102 },	/* the second block */
		{ 105, 0, 105, 105 },
		{ 12, 1, 10, 12 },
		{ 0, 0, 0, 0 },		/* nothing before it */
	};
	unsigned char text[320];
	const unsigned char *p, *until;
	struct shingler sh;
	struct scheme sc;
	size_t i, j;
	int vec, chars;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		for (vec = 0; vec < NPATHS; vec++)
			for (chars = 0; chars < 2; chars++) {
				for (j = 0; j < sizeof(text); j++)
					text[j] = j % 5 == 4 ? ' ' : 'a' + j % 5;
				for (j = cases[i].at; j < cases[i].at + 16;
				    j += 8)
					memcpy(text + j, "\xc0\x80", 2);
				CHECK(cases[i].inword == (cases[i].at % 5 != 0),
				    "case %zu is wrong", i);
				cpu_path(vec);
				sc = mkscheme(chars, 3, 0, 1);
				shingle_init(&sh, &sc, NULL, coll_sink,
				    &(struct coll){ 0 });
				until = text;
				p = (chars ? blockscan_chars : blockscan_words)(&sh.ws,
				    text, text + sizeof(text), &until);
				CHECK(p - text == (ptrdiff_t)(chars ?
				    cases[i].chars : cases[i].words) &&
				    until - text == (ptrdiff_t)(cases[i].at + 10),
				    "accent at %zu, %s, %s: stopped at %td, the "
				    "slow way to %td", cases[i].at, chars ?
				    "characters" : "words", path_name(vec),
				    p - text, until - text);
				shingle_free(&sh);
			}
	cpu_all();
}

/*
 * The separators that scan_high knows, a quote, a no-break space and an
 * ellipsis in the first block, do not stop the scanners: they go on to
 * the NUL in two bytes (see test_scan_cut) in the second.
 */
static void
test_scan_high(void)
{
	unsigned char text[320];
	const unsigned char *p, *until;
	struct shingler sh;
	struct scheme sc;
	size_t j, words, chars, slow;
	int vec;

	for (j = 0; j < sizeof(text); j++)
		text[j] = j % 5 == 4 ? ' ' : 'a' + j % 5;
	memcpy(text + 20, "\xe2\x80\x99", 3);	/* ’d */
	memcpy(text + 31, "\xc2\xa0", 2);		/* a d */
	memcpy(text + 41, "\xe2\x80\xa6", 3);	/* a… */
	memcpy(text + 102, "\xc0\x80", 2);		/* ab, NUL */
	words = 100, chars = 102, slow = 104;
	for (vec = 0; vec < 2 * NPATHS; vec++) {
		cpu_path(vec / 2);
		sc = mkscheme(vec % 2, 3, 0, 1);
		shingle_init(&sh, &sc, NULL, coll_sink, &(struct coll){ 0 });
		until = text;
		p = (vec % 2 ? blockscan_chars : blockscan_words)(&sh.ws, text,
		    text + sizeof(text), &until);
		CHECK(p - text == (ptrdiff_t)(vec % 2 ? chars : words) &&
		    until - text == (ptrdiff_t)slow, "%s, %s: stopped at %td, "
		    "the slow way to %td", vec % 2 ? "characters" : "words",
		    path_name(vec / 2), p - text, until - text);
		shingle_free(&sh);
	}
	cpu_all();
}

/*
 * The word scanners take the letters of two bytes (scan_high): words of
 * Cyrillic capitals and small letters, "abЖж " over and over, do not
 * stop them, not even where a letter lies across two blocks (from byte
 * 0, the capital, whose fold changes its second byte, at bytes 191 and
 * 192; from byte 1, the capital at 128 and 129 and a small letter at 256
 * and 257): they go on to the last block (its last byte from byte 0), and
 * shingle as the reference does, with capitals folded or kept, each
 * scanner; so do long words of them.  The character scanners, below.
 */
static void
test_scan_twos(void)
{
	struct coll want = { 0 }, got = { 0 };
	unsigned char text[321];
	const unsigned char *p, *until;
	struct shingler sh;
	struct scheme sc;
	size_t j, from;
	int vec, keepcase, ok;

	for (j = 0; j < sizeof(text); j++)
		text[j] = (unsigned char)"ab\xd0\x96\xd0\xb6 "[j % 7];
	memset(text + sizeof(text) - 7, ' ', 7);
	for (from = 0; from < 2; from++)
		for (keepcase = 0; keepcase < 2; keepcase++)
			for (vec = 0; vec < NPATHS; vec++) {
				sc = mkscheme(0, 2, keepcase ? F_KEEPCASE : 0,
				    3);
				ok = scanner_run(&sc, vec, text + from,
				    sizeof(text) - from, &p, &until, &want,
				    &got);
				CHECK(p == text + sizeof(text) - (from == 0) &&
				    until == text + from, "from %zu, %s: "
				    "stopped at %td, the slow way to %td", from,
				    path_name(vec), p - text, until - text);
				CHECK(ok, "from %zu, %s%s: %zu shingles, "
				    "reference %zu, or hashes differ", from,
				    path_name(vec), keepcase ? ", --keep-case" :
				    "", got.n, want.n);
			}
	/*
	 * The character scanners take the letters too, each one item
	 * (scan_items_fix, scan_items_two), across blocks too.
	 */
	for (from = 0; from < 2; from++)
		for (vec = 0; vec < NPATHS; vec++) {
			sc = mkscheme(1, 3, 0, 3);
			ok = scanner_run(&sc, vec, text + from,
			    sizeof(text) - from, &p, &until, &want, &got);
			CHECK(p == text + sizeof(text) - (from == 0) &&
			    until == text + sizeof(text), "characters "
			    "from %zu, %s: stopped at %td, the slow way to %td",
			    from, path_name(vec), p - text, until - text);
			CHECK(ok, "characters from %zu, %s: %zu shingles, "
			    "reference %zu, or hashes differ", from,
			    path_name(vec), got.n, want.n);
		}
	/*
	 * A capital I with a dot, which folds to one byte, 'i': the word
	 * scanners leave its word, the character scanners take it.
	 */
	for (j = 0; j < sizeof(text); j++)
		text[j] = j % 5 == 4 ? ' ' : 'a' + j % 5;
	memcpy(text + 46, "\xc4\xb0", 2);
	for (vec = 0; vec < NPATHS; vec++) {
		cpu_path(vec);
		sc = mkscheme(0, 3, 0, 3);
		shingle_init(&sh, &sc, NULL, coll_sink, &(struct coll){ 0 });
		until = text;
		p = blockscan_words(&sh.ws, text, text + sizeof(text), &until);
		CHECK(p == text + 45, "words, a capital I with a dot, %s: "
		    "stopped at %td", path_name(vec), p - text);
		shingle_free(&sh);
		sc = mkscheme(1, 3, 0, 3);
		shingle_init(&sh, &sc, NULL, coll_sink, &(struct coll){ 0 });
		until = text;
		p = blockscan_chars(&sh.ws, text, text + sizeof(text), &until);
		CHECK(p == text + 320, "characters, a capital I with a dot, "
		    "%s: stopped at %td", path_name(vec), p - text);
		shingle_free(&sh);
		for (j = 0; j < 2; j++) {
			sc = mkscheme((int)j, 3, 0, 3);
			ref_shingles(&sc, text, sizeof(text), &want);
			shingle_doc(&sc, text, sizeof(text), 0, &got);
			CHECK(coll_equal(&want, &got), "%s, a capital I with a "
			    "dot, %s: %zu shingles, reference %zu, or hashes "
			    "differ", j ? "characters" : "words",
			    path_name(vec), got.n, want.n);
		}
	}
	/*
	 * Long words with capitals of two bytes, which the AVX-512 scanner
	 * hashes from the folded block, not the text: 11 bytes (and Ё,
	 * whose fold ё changes its first byte too), and 20.
	 */
	for (j = 0; j < sizeof(text); j++)
		text[j] = (unsigned char)("\xd0\x96\xd0\xb6" "abcde\xd0\x81 "
		    "\xd0\x96\xd0\x96\xd0\x96\xd0\x96\xd0\x96\xd0\x96\xd0\x96"
		    "\xd0\x96\xd0\x96\xd0\x96 ")[j % 33];
	for (vec = 0; vec < NPATHS; vec++)
		for (from = 0; from < 2; from++) {
			cpu_path(vec);
			sc = mkscheme(0, 1, 0, 3);
			ref_shingles(&sc, text + from, sizeof(text) - from,
			    &want);
			shingle_doc(&sc, text + from, sizeof(text) - from, 0,
			    &got);
			CHECK(coll_equal(&want, &got), "long words, from %zu, "
			    "%s: %zu shingles, reference %zu, or hashes differ",
			    from, path_name(vec), got.n, want.n);
		}
	/*
	 * A letter across the end of the only block: the word scanners
	 * stop before its word, the character scanners after it, neither
	 * between its bytes, which the byte-at-a-time path would take for
	 * two broken characters.
	 */
	memset(text, 'a', 70);
	memcpy(text + 63, "\xd0\x96", 2);
	memcpy(text + 20, " ", 1);
	for (vec = 0; vec < NPATHS; vec++)
		for (j = 0; j < 2; j++) {
			cpu_path(vec);
			sc = mkscheme((int)j, 3, 0, 3);
			shingle_init(&sh, &sc, NULL, coll_sink,
			    &(struct coll){ 0 });
			until = text;
			p = (j ? blockscan_chars : blockscan_words)(&sh.ws, text,
			    text + 70, &until);
			CHECK(p == text + (j ? 65 : 21), "%s, %s: stopped at "
			    "%td, a letter at 63", j ? "characters" : "words",
			    path_name(vec), p - text);
			shingle_free(&sh);
			ref_shingles(&sc, text, 70, &want);
			shingle_doc(&sc, text, 70, 0, &got);
			CHECK(coll_equal(&want, &got), "%s, a letter across a "
			    "block's end, %s: %zu shingles, reference %zu, or "
			    "hashes differ", j ? "characters" : "words",
			    path_name(vec), got.n, want.n);
		}
	/*
	 * A no-break space across the end of the only block: the scanners
	 * stop before it, not between its bytes.
	 */
	memset(text, 'a', 70);
	memcpy(text + 63, "\xc2\xa0", 2);
	memcpy(text + 20, " ", 1);
	for (vec = 0; vec < NPATHS; vec++) {
		cpu_path(vec);
		sc = mkscheme(0, 1, 0, 3);
		shingle_init(&sh, &sc, NULL, coll_sink, &(struct coll){ 0 });
		until = text;
		p = blockscan_words(&sh.ws, text, text + 70, &until);
		CHECK(p <= text + 63, "%s: stopped at %td, in a no-break space",
		    path_name(vec), p - text);
		shingle_free(&sh);
		ref_shingles(&sc, text, 70, &want);
		shingle_doc(&sc, text, 70, 0, &got);
		CHECK(coll_equal(&want, &got), "a no-break space across a "
		    "block's end, %s: %zu shingles, reference %zu, or hashes "
		    "differ", path_name(vec), got.n, want.n);
	}
	cpu_all();
	coll_free(&want);
	coll_free(&got);
}

/*
 * The code points of two bytes in UTF-8 take a table (token_two) and the
 * characters' item hashes a cache: the table says what token_isword and
 * token_fold say of each, and a text of every such code point and of
 * U+2000 to U+207F (separators, mostly), each between ASCII letters, a space or
 * another of them, then a word of them longer than the token buffer,
 * shingles as the reference does, words and characters, under each
 * option, fed whole and a byte at a time (a sequence cut in two).
 */
static void
test_two_bytes(void)
{
	struct coll want = { 0 }, got = { 0 };
	struct scheme sc;
	const uint16_t *two;
	unsigned char *text;
	size_t len = 0, b;
	uint32_t cp;
	int flags, chars, bad = 0;

	for (flags = 0; flags < 4; flags++) {
		two = token_two(flags & F_KEEPPUNCT, flags & F_KEEPCASE);
		for (cp = 0; cp < TOKEN_TWO; cp++)
			bad += two[cp] != (token_isword(cp, flags &
			    F_KEEPPUNCT) ? token_fold(cp, flags &
			    F_KEEPCASE) : 0);
	}
	CHECK(bad == 0, "token_two disagrees with the word rule %d times",
	    bad);
	if ((text = malloc(8 * (TOKEN_TWO + 0x80 + SHINGLE_TOKMAX))) == NULL)
		abort();
	for (cp = 0x80; cp < TOKEN_TWO + 0x80; cp++) {
		/* And U+2000 to U+207F, which scan_high looks up too. */
		len += utf8_encode(cp < TOKEN_TWO ? cp : cp - TOKEN_TWO +
		    0x2000, text + len);
		text[len++] = " aZ\xc3"[cp % 4];
		if (cp % 4 == 3)
			text[len++] = 0x89;	/* É */
	}
	/* Words longer than the token buffer (SHINGLE_TOKMAX), odd and even. */
	for (cp = 0; cp < 2 * SHINGLE_TOKMAX + 2; cp++)
		len += utf8_encode(cp == 0 || cp == SHINGLE_TOKMAX ? ' ' :
		    cp == 1 ? 'x' : 0x436, text + len);
	for (flags = 0; flags < 4; flags++)
		for (chars = 0; chars < 2; chars++) {
			sc = mkscheme(chars, 3, flags, 9);
			ref_shingles(&sc, text, len, &want);
			for (b = 0; b < 2; b++) {
				shingle_doc(&sc, text, len, b, &got);
				CHECK(coll_equal(&want, &got), "flags %d, %s, "
				    "blocks of %zu: %zu shingles, reference "
				    "%zu, or hashes differ", flags, chars ?
				    "characters" : "words", b, got.n, want.n);
			}
		}
	free(text);
	coll_free(&want);
	coll_free(&got);
}

/*
 * The code points of three bytes in UTF-8 take bitmaps, made as they are
 * met (scan_three_class): they say what token_isword and token_fold say
 * of each.  The word and character scanners take the letters that stand
 * as they are (CJK, say) and the separators within a block, on every
 * path, and a letter across two blocks at any place (periods of 9 and 20
 * bytes against blocks of 64): a text of them goes no byte the slow way,
 * and shingles as the reference does.  Then a text of every such code
 * point, of an overlong sequence and a surrogate, each between ASCII
 * letters, a space or another of them, and words of them longer than
 * the token buffer, at each offset (put_run), under each option,
 * words and characters, fed whole and a byte at a time.
 */
static void
test_three_bytes(void)
{
	struct coll want = { 0 }, got = { 0 };
	unsigned char *text;
	const unsigned char *p, *until;
	struct shingler sh;
	struct scheme sc;
	size_t len = 0, j, from, blk;
	uint32_t cp;
	int flags, chars, vec, bad = 0, w, k, ok;

	for (flags = 0; flags < 4; flags++) {
		sc = mkscheme(0, 2, flags, 3);
		shingle_init(&sh, &sc, NULL, coll_sink, &(struct coll){ 0 });
		/* Out of order, as text has them. */
		for (j = 0; j < TOKEN_THREE - TOKEN_TWO; j++) {
			cp = TOKEN_TWO + (uint32_t)(j * 40503 %
			    (TOKEN_THREE - TOKEN_TWO));
			if (cp >= 0xD800 && cp <= 0xDFFF)
				continue;
			k = scan_three_class(&sh.ws, cp);
			w = token_isword(cp, flags & F_KEEPPUNCT);
			bad += k != (!w ? SCAN_SEP : token_fold(cp, flags &
			    F_KEEPCASE) == cp ? SCAN_LETTER : 0);
		}
		shingle_free(&sh);
	}
	CHECK(bad == 0, "scan_three_class disagrees with the word rule %d "
	    "times", bad);
	if ((text = malloc(8 * TOKEN_THREE)) == NULL)
		abort();
	/* "ab" 中文 "。" or " ", nine bytes, for 330 bytes. */
	for (j = 0; j < 330; j++)
		text[j] = (unsigned char)("ab\xe4\xb8\xad\xe6\x96\x87 "
		    "ab\xe4\xb8\xad\xe6\x96\x87\xe3\x80\x82")[j % 20];
	memset(text + 250, ' ', 80);	/* no 。 across blocks */
	for (from = 0; from < 3; from++)
		for (flags = 0; flags < 4; flags++)
			for (chars = 0; chars < 2; chars++)
				for (vec = 0; vec < NPATHS; vec++) {
					sc = mkscheme(chars, 2 + chars, flags,
					    3);
					ok = scanner_run(&sc, vec, text + from,
					    330 - from, &p, &until, &want, &got);
					/* (Character scanners: to the end.) */
					CHECK(p >= text + 330 - 64 && until ==
					    (chars ? text + 330 : text + from),
					    "from %zu, flags %d, %s, %s: "
					    "stopped at %td, the slow way to "
					    "%td", from, flags, chars ?
					    "characters" : "words",
					    path_name(vec), p - text,
					    until - text);
					CHECK(ok, "from %zu, flags %d, %s, %s: "
					    "%zu shingles, reference %zu, or "
					    "hashes differ", from, flags, chars ?
					    "characters" : "words",
					    path_name(vec), got.n, want.n);
				}
	cpu_all();
	for (cp = TOKEN_TWO; cp < TOKEN_THREE; cp++) {
		if (cp >= 0xD800 && cp <= 0xDFFF)
			continue;
		len += utf8_encode(cp, text + len);
		text[len++] = " aZ\xe4"[cp % 4];
		if (cp % 4 == 3) {
			text[len++] = 0xb8;	/* 中 */
			text[len++] = 0xad;
		}
		if (cp % 1000 == 0) {
			/* An overlong sequence, then a surrogate. */
			memcpy(text + len, "\xe0\x80\xaf \xed\xa0\x80", 7);
			len += 7;
		}
	}
	/* Words longer than the token buffer, at three offsets each. */
	for (j = 0; j < 3; j++) {
		text[len++] = ' ';
		for (cp = 0; cp < j; cp++)
			text[len++] = 'x';
		for (cp = 0; cp < SHINGLE_TOKMAX; cp++)
			len += utf8_encode(cp % 7 ? 0x4E2D : 0xFF0C, text + len);
	}
	for (flags = 0; flags < 4; flags++)
		for (chars = 0; chars < 2; chars++) {
			sc = mkscheme(chars, 3, flags, 9);
			ref_shingles(&sc, text, len, &want);
			for (vec = 0; vec < NPATHS; vec++) {
				cpu_path(vec);
				for (blk = 0; blk < 2; blk++) {
					shingle_doc(&sc, text, len, blk, &got);
					CHECK(coll_equal(&want, &got), "flags "
					    "%d, %s, %s, blocks of %zu: %zu "
					    "shingles, reference %zu, or hashes "
					    "differ", flags, chars ? "characters"
					    : "words", path_name(vec), blk,
					    got.n, want.n);
				}
			}
		}
	cpu_all();
	free(text);
	coll_free(&want);
	coll_free(&got);
}

/*
 * The switches reach the loops compiled per level (CPU_LEVELS) and the
 * scanners' copies (wordscan.c): without AVX-512 no x86-64-v4 copy runs,
 * and without AVX2 no v3 or v4 copy.
 */
static void
test_cpu_levels(void)
{
	struct scheme sc = mkscheme(1, 5, 0, 1);
	struct shingler sh;
	struct coll c = { 0 };

	cpu_disable(CPU_AVX512F);
	CHECK((cpu_usable() & (CPU_LEVEL_V4 | CPU_AVX512_TEXT |
	    CPU_AVX512_WORDS)) == 0,
	    "NEARDUP_NO_AVX512 leaves AVX-512 code on");
	cpu_disable(CPU_AVX2);
	CHECK((cpu_usable() & (CPU_LEVEL_V3 | CPU_LEVEL_V4)) == 0,
	    "NEARDUP_NO_AVX2 leaves the x86-64-v3 or v4 loops on");
	shingle_init(&sh, &sc, NULL, coll_sink, &c);
	CHECK(sh.ws.v3 == 0, "NEARDUP_NO_AVX2 leaves the scanners' x86-64-v3 "
	    "copies on");
	shingle_free(&sh);
	/* Without VBMI2: the AVX-512 word scanner alone, where there is one. */
	cpu_disable(CPU_AVX512_TEXT);
	shingle_init(&sh, &sc, NULL, coll_sink, &c);
	CHECK(sh.ws.avx512 == ((cpu_usable() & CPU_AVX512_WORDS) != 0),
	    "NEARDUP_NO_VBMI2: the AVX-512 scanners are %d", sh.ws.avx512);
	shingle_free(&sh);
	/* NEARDUP_GATHER, either way, and gathers only with AVX-512. */
	cpu_all();
	cpu_gathers(0);
	shingle_init(&sh, &sc, NULL, coll_sink, &c);
	CHECK(sh.ws.gather == 0, "NEARDUP_GATHER=0 leaves gathers on");
	shingle_free(&sh);
	cpu_gathers(1);
	shingle_init(&sh, &sc, NULL, coll_sink, &c);
	CHECK(sh.ws.gather == ((cpu_usable() & CPU_AVX512F) != 0),
	    "NEARDUP_GATHER=1: gathers %d", sh.ws.gather);
	shingle_free(&sh);
	cpu_disable(CPU_AVX512F);
	CHECK((cpu_usable() & CPU_GATHER) == 0,
	    "NEARDUP_GATHER=1 turns gathers on without AVX-512");
	cpu_all();
	coll_free(&c);
	/* The kernel's reports: the seven wordings of Linux's bugs.c. */
	CHECK(cpu_gds_fast("Not affected\n"), "not affected: slow gathers");
	CHECK(cpu_gds_fast("Vulnerable\n"), "mitigation off: slow gathers");
	CHECK(!cpu_gds_fast("Mitigation: Microcode\n"),
	    "mitigated: fast gathers");
	CHECK(!cpu_gds_fast("Mitigation: Microcode (locked)\n"),
	    "mitigated and locked: fast gathers");
	CHECK(cpu_gds_fast("Vulnerable: No microcode\n"),
	    "no microcode for the mitigation: slow gathers");
	CHECK(!cpu_gds_fast("Unknown: Dependent on hypervisor status\n"),
	    "a guest that cannot tell: fast gathers");
	CHECK(!cpu_gds_fast("Mitigation: AVX disabled, no microcode\n"),
	    "AVX disabled: fast gathers");
	CHECK(!cpu_gds_fast("Not affected, maybe\n") && !cpu_gds_fast(""),
	    "an unknown report: fast gathers");
	CHECK(!cpu_gds_fast(NULL), "no report: fast gathers");
}

int
main(void)
{
	RUN(test_riskiq_chars);
	RUN(test_broder_words);
	RUN(test_blocks);
	RUN(test_case_folding);
	RUN(test_keep_case);
	RUN(test_punct_boundaries);
	RUN(test_keep_punct);
	RUN(test_short_doc);
	RUN(test_empty_doc);
	RUN(test_invalid_utf8);
	RUN(test_random_bytes);
	RUN(test_long_token);
	RUN(test_multiset_many);
	RUN(test_reuse);
	RUN(test_token_hash);
	RUN(test_wordhash);
	RUN(test_cpu_levels);
	RUN(test_reference);
	RUN(test_control_words);
	RUN(test_sparse_words);
	RUN(test_word_modes);
	RUN(test_scan_cut);
	RUN(test_scan_high);
	RUN(test_scan_twos);
	RUN(test_two_bytes);
	RUN(test_three_bytes);
	return unit_status();
}
