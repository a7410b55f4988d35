/*
 * Unit tests of src/io/fpline.c and src/sketch/scheme.c: fingerprint lines and
 * scheme strings are formatted and parsed back to the same thing, names
 * are escaped as sha256sum escapes them, and every kind of malformed line
 * is refused with a reason that says what is wrong.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "fpline.h"
#include "scheme.h"
#include "unit.h"

static struct scheme
mkscheme(enum algo algo, unsigned size)
{
	struct scheme sc;

	memset(&sc, 0, sizeof(sc));
	sc.algo = algo;
	sc.size = size;
	sc.ngram = 3;
	return sc;
}

/* Values that a real fingerprint of the scheme could hold. */
static void
fill_values(const struct scheme *sc, uint64_t *v, uint64_t *x)
{
	size_t i, nv = scheme_nvalues(sc), used;

	for (i = 0; i < nv; i++)
		v[i] = splitmix64(x);
	if (sc->algo == ALGO_MINHASH || sc->algo == ALGO_OPH) {
		for (i = 0; i < nv; i++)
			v[i] &= 0xffffffff;
		v[0] = 0;
		v[nv - 1] = 0xffffffff;
	} else if (sc->algo == ALGO_BOTTOMK) {
		/* Ascending, distinct, the last slots unused. */
		used = nv > 3 ? nv - 3 : nv;
		for (i = 0; i < used; i++)
			v[i] = (i + 1) * (UINT64_MAX / (nv + 1)) -
			    (splitmix64(x) % 1000);
		for (; i < nv; i++)
			v[i] = UINT64_MAX;
	}
}

static const char *const names[] = {
	"README",
	"",
	"with space",
	"  two leading spaces",
	"ends in space ",
	"new\nline",
	"back\\slash",
	"carriage\rreturn",
	"\\\n\r\\n\\r",
	"\\",
	"tab\there:colon  two spaces",
	"caf\xc3\xa9/\xff\xfe",
};

static const struct {
	enum algo algo;
	unsigned size;
} algos[] = {
	{ ALGO_SIMHASH, 64 }, { ALGO_SIMHASH, 128 }, { ALGO_MINHASH, 128 },
	{ ALGO_MINHASH, 1 }, { ALGO_OPH, 16 }, { ALGO_BOTTOMK, 128 },
	{ ALGO_BOTTOMK, 1 }, { ALGO_KEY, 3 }, { ALGO_KEY, 4096 },
	{ ALGO_MINHASH, 4096 },
};

static int
has_special(const char *s)
{
	return strpbrk(s, "\\\n\r") != NULL;
}

/*
 * Every algorithm, every name, with and without -z: format, then parse
 * the line without its terminator, and get everything back.
 */
static void
test_roundtrip(void)
{
	static uint64_t v[SCHEME_K_MAX];
	struct fpline fp;
	struct buf out = { 0 };
	struct scheme sc;
	const char *why, *name;
	size_t a, n, digits, linelen;
	uint64_t x = 1;
	int zero, ok;

	memset(&fp, 0, sizeof(fp));
	for (a = 0; a < sizeof(algos) / sizeof(algos[0]); a++) {
		sc = mkscheme(algos[a].algo, algos[a].size);
		sc.seed = a * 1000;
		sc.chars = a % 2;
		sc.multiset = a % 3 == 0;
		fill_values(&sc, v, &x);
		digits = scheme_value_digits(&sc);
		for (n = 0; n < sizeof(names) / sizeof(names[0]); n++) {
			name = names[n];
			for (zero = 0; zero <= 1; zero++) {
				buf_clear(&out);
				fpline_format(&out, &sc, v, name, strlen(name),
				    zero);
				linelen = out.len;
				if (!CHECK(linelen > 0 && out.data[linelen - 1]
				    == (zero ? '\0' : '\n'), "%s%u name %zu "
				    "-z %d: bad terminator",
				    scheme_algo_name(sc.algo), sc.size, n,
				    zero))
					continue;
				CHECK((out.data[0] == '\\') == (!zero &&
				    has_special(name)), "%s%u name %zu -z %d: "
				    "leading backslash wrong",
				    scheme_algo_name(sc.algo), sc.size, n,
				    zero);
				CHECK(zero || memchr(out.data, '\n',
				    linelen - 1) == NULL, "name %zu: newline "
				    "inside the line", n);
				why = NULL;
				ok = fpline_parse(out.data, linelen - 1, zero,
				    &fp, &why) == 0;
				if (!CHECK(ok, "%s%u name %zu -z %d: parse "
				    "failed: %s", scheme_algo_name(sc.algo),
				    sc.size, n, zero, why ? why : "(no why)"))
					continue;
				CHECK(scheme_equal(&fp.sc, &sc), "%s%u name "
				    "%zu: scheme differs",
				    scheme_algo_name(sc.algo), sc.size, n);
				CHECK(fp.nv == scheme_nvalues(&sc) &&
				    memcmp(fp.v, v, fp.nv * sizeof(v[0])) == 0,
				    "%s%u name %zu: values differ (%zu values, "
				    "%zu digits)", scheme_algo_name(sc.algo),
				    sc.size, n, fp.nv, digits);
				CHECK(fp.name.len == strlen(name) &&
				    memcmp(fp.name.data, name, fp.name.len) ==
				    0 && fp.name.data[fp.name.len] == '\0',
				    "%s%u name %zu -z %d: name comes back "
				    "different", scheme_algo_name(sc.algo),
				    sc.size, n, zero);
			}
		}
	}
	fpline_free(&fp);
	buf_free(&out);
}

/* The exact bytes of a few lines. */
static void
test_format_exact(void)
{
	static const struct {
		enum algo algo;
		unsigned size;
		uint64_t v[2];
		const char *name;
		int	 zero;
		const char *want;
		size_t	 wantlen;
	} t[] = {
		{ ALGO_SIMHASH, 64, { 0x9c0f3b2a6d1e4f70ULL }, "README", 0,
		    "nd1-simhash64-w3-fs-s0:9c0f3b2a6d1e4f70  README\n", 0 },
		{ ALGO_SIMHASH, 128, { 0x1ULL, 0xabcdefULL }, "x", 0,
		    "nd1-simhash128-w3-fs-s0:"
		    "000000000000000100000000"
		    "00abcdef  x\n", 0 },
		{ ALGO_KEY, 3, { 0 }, "a\nb\\c\rd", 0,
		    "\\nd1-key3-w3-fs-s0:0000000000000000  a\\nb\\\\c\\rd\n",
		    0 },
		{ ALGO_KEY, 3, { UINT64_MAX }, "a\nb", 1,
		    "nd1-key3-w3-fs-s0:ffffffffffffffff  a\nb\0", 40 },
		{ ALGO_MINHASH, 2, { 0xdeadbeef, 0x1 }, "m", 0,
		    "nd1-minhash2-w3-fs-s0:deadbeef00000001  m\n", 0 },
		{ ALGO_BOTTOMK, 2, { 0x10, UINT64_MAX }, "b", 0,
		    "nd1-bottomk2-w3-fs-s0:0000000000000010"
		    "ffffffffffffffff  b\n", 0 },
	};
	struct buf out = { 0 };
	struct scheme sc;
	size_t i, wl;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		sc = mkscheme(t[i].algo, t[i].size);
		buf_clear(&out);
		fpline_format(&out, &sc, t[i].v, t[i].name,
		    strlen(t[i].name), t[i].zero);
		wl = t[i].wantlen ? t[i].wantlen : strlen(t[i].want);
		CHECK(out.len == wl && memcmp(out.data, t[i].want, wl) == 0,
		    "line %zu: got \"%.*s\", want \"%s\"", i, (int)out.len,
		    out.data, t[i].want);
	}
	buf_clear(&out);
	CHECK(fpline_escape_name(&out, "a\\b", 3, 0) == 1 && out.len == 4 &&
	    memcmp(out.data, "a\\\\b", 4) == 0, "escape \"a\\b\"");
	buf_clear(&out);
	CHECK(fpline_escape_name(&out, "a\\b", 3, 1) == 0 && out.len == 3 &&
	    memcmp(out.data, "a\\b", 3) == 0, "escape \"a\\b\" with -z");
	buf_clear(&out);
	CHECK(fpline_escape_name(&out, "plain", 5, 0) == 0 && out.len == 5,
	    "escape \"plain\"");
	buf_free(&out);
}

/*
 * A line (no terminator) must be refused with a why containing want (any
 * why if want is NULL).
 */
#define expect_error(line, zero, want) \
	expect_error_at(__LINE__, line, zero, want)

static void
expect_error_at(int at, const char *line, int zero, const char *want)
{
	struct fpline fp;
	const char *why = NULL;
	int r;

	memset(&fp, 0, sizeof(fp));
	r = fpline_parse(line, strlen(line), zero, &fp, &why);
	if (CHECK(r == -1, "(line %d) accepted \"%s\"", at, line))
		CHECK(why != NULL && (want == NULL || strstr(why, want) !=
		    NULL), "(line %d) \"%s\": why is \"%s\", want one "
		    "about \"%s\"", at, line, why ? why : "(null)",
		    want ? want : "anything");
	fpline_free(&fp);
}

static void
test_parse_errors(void)
{
	expect_error("no colon here at all", 0, "':'");
	expect_error("", 0, "':'");
	expect_error("nd1-simhash64-w3-fs-s0 9c0f3b2a6d1e4f70  README", 0,
	    "':'");
	expect_error("nd1-md5sum64-w3-fs-s0:9c0f3b2a6d1e4f70  README", 0,
	    "unknown algorithm");
	expect_error("nd1-sim64-w3-fs-s0:9c0f3b2a6d1e4f70  README", 0,
	    "unknown algorithm");
	expect_error("nd9-simhash64-w3-fs-s0:9c0f3b2a6d1e4f70  README", 0,
	    "version");
	expect_error("nd2-simhash64-w3-fs-s0:9c0f3b2a6d1e4f70  README", 0,
	    "version");
	expect_error("sha256-simhash64-w3-fs-s0:9c0f3b2a6d1e4f70  README", 0,
	    "scheme");
	/* Wrong hex length. */
	expect_error("nd1-simhash64-w3-fs-s0:9c0f3b2a  x", 0, "short");
	expect_error("nd1-simhash64-w3-fs-s0:9c0f3b2a6d1e4f701  README", 0,
	    "long");
	expect_error("nd1-simhash64-w3-fs-s0:9c0f3b2a6d1e4f709c0f3b2a6d1e4f70"
	    "  README", 0, "long");
	expect_error("nd1-minhash2-w3-fs-s0:deadbeef000000001  m", 0, "long");
	expect_error("nd1-simhash64-w3-fs-s0:", 0, "short");
	/* Bad hex digits. */
	expect_error("nd1-simhash64-w3-fs-s0:9c0f3b2a6d1e4g70  README", 0,
	    "hex digit");
	expect_error("nd1-simhash64-w3-fs-s0:9c0f3b2a 6d1e4f70  README", 0,
	    NULL);
	expect_error("nd1-simhash64-w3-fs-s0:-c0f3b2a6d1e4f70  README", 0,
	    "hex digit");
	/* The separator. */
	expect_error("nd1-simhash64-w3-fs-s0:9c0f3b2a6d1e4f70 README", 0,
	    "two spaces");
	expect_error("nd1-simhash64-w3-fs-s0:9c0f3b2a6d1e4f70\tREADME", 0,
	    "two spaces");
	expect_error("nd1-simhash64-w3-fs-s0:9c0f3b2a6d1e4f70_ README", 0,
	    "two spaces");
	/* Bottom-k values must ascend (unused slots last). */
	expect_error("nd1-bottomk2-w3-fs-s0:0000000000000002"
	    "0000000000000001  b", 0, "ascending");
	expect_error("nd1-bottomk2-w3-fs-s0:0000000000000002"
	    "0000000000000002  b", 0, "ascending");
	expect_error("nd1-bottomk3-w3-fs-s0:0000000000000002"
	    "ffffffffffffffff0000000000000003  b", 0, "ascending");
	/* Escapes in names. */
	expect_error("\\nd1-key3-w3-fs-s0:0000000000000000  a\\tb", 0,
	    "escape");
	expect_error("\\nd1-key3-w3-fs-s0:0000000000000000  a\\", 0,
	    "backslash");
	expect_error("\\nd1-key3-w3-fs-s0:0000000000000000  a\\N", 0,
	    "escape");
	/* Scheme fields. */
	expect_error("nd1-simhash63-w3-fs-s0:9c0f3b2a6d1e4f70  README", 0,
	    "size");
	expect_error("nd1-simhash256-w3-fs-s0:9c0f3b2a6d1e4f70  README", 0,
	    "size");
	expect_error("nd1-minhash0-w3-fs-s0:  m", 0, "size");
	expect_error("nd1-minhash4097-w3-fs-s0:00000000  m", 0, "size");
	expect_error("nd1-key3-w3-fs-s9223372036854775808:0000000000000000  k",
	    0, "seed");
	expect_error("nd1-key3-w3-fs-s99999999999999999999:0000000000000000  "
	    "k", 0, "seed");
	expect_error("nd1-key3-w3-fs-s:0000000000000000  k", 0, "seed");
	expect_error("nd1-key3-w3-fs-s-1:0000000000000000  k", 0, "seed");
	expect_error("nd1-key3-w3-fs-s0x:0000000000000000  k", 0,
	    "trailing garbage");
	expect_error("nd1-key3-w3-fs-s0-:0000000000000000  k", 0,
	    "trailing garbage");
	expect_error("nd1-key3-w3-fs-s0-x-y:0000000000000000  k", 0,
	    "trailing garbage");
	expect_error("nd1-key3-w0-fs-s0:0000000000000000  k", 0,
	    "shingle length");
	expect_error("nd1-key3-w65-fs-s0:0000000000000000  k", 0,
	    "shingle length");
	expect_error("nd1-key3-x3-fs-s0:0000000000000000  k", 0,
	    "shingle kind");
	expect_error("nd1-key3-w3-xs-s0:0000000000000000  k", 0,
	    "normalization");
	expect_error("nd1-key3-w3-fs-s0-W0123456789abcdef:0000000000000000  "
	    "k", 0, "weights");
	expect_error("nd1-simhash64-c3-fs-s0-W0123456789abcdef:"
	    "9c0f3b2a6d1e4f70  k", 0, "weights");
	expect_error("nd1-simhash64-w3-fs-s0-W0123456789ABCDEF:"
	    "9c0f3b2a6d1e4f70  k", 0, "digest");
}

static int
parse_str(const char *line, int zero, struct fpline *fp, const char **why)
{
	return fpline_parse(line, strlen(line), zero, fp, why);
}

/*
 * A fingerprint too short for its scheme, followed by a name long enough
 * that the parser's fixed-width reading runs into it: the reason must
 * still be that the fingerprint is short, not "two spaces" missing or the
 * fingerprint "too long".
 */
static void
test_parse_short_hex(void)
{
	expect_error("nd1-simhash64-w3-fs-s0:9c0f3b2a6d1e4f7  x", 0, "short");
	expect_error("nd1-minhash2-w3-fs-s0:deadbeef0000000  m", 0, "short");
	expect_error("nd1-simhash64-w3-fs-s0:9c0f3b2a  README.txt", 0,
	    "short");
	expect_error("nd1-simhash64-w3-fs-s0:9c0f3b2a  deadbeefcafe", 0,
	    "short");
}

/* A valid line with a name that itself looks like a line parses. */
static void
test_parse_odd_names(void)
{
	static const char line[] =
	    "nd1-simhash64-w3-fs-s0:9c0f3b2a6d1e4f70    x:y  z";
	struct fpline fp;
	const char *why = NULL;

	memset(&fp, 0, sizeof(fp));
	if (CHECK(fpline_parse(line, strlen(line), 0, &fp, &why) == 0,
	    "parse failed: %s", why ? why : "?"))
		CHECK(strcmp(fp.name.data, "  x:y  z") == 0, "name is \"%s\"",
		    fp.name.data);
	/* Without the leading backslash, backslashes are literal. */
	if (CHECK(parse_str("nd1-key3-w3-fs-s0:0000000000000000  a\\nb", 0,
	    &fp, &why) == 0, "literal backslash: %s", why ? why : "?"))
		CHECK(strcmp(fp.name.data, "a\\nb") == 0, "literal backslash "
		    "name is \"%s\"", fp.name.data);
	/* With -z a leading backslash is part of nothing: not escaped. */
	CHECK(parse_str("\\nd1-key3-w3-fs-s0:0000000000000000  a", 1, &fp,
	    &why) == -1, "-z: a leading backslash was taken as escape");
	/* The parser reuses its memory across lines of growing size. */
	if (CHECK(parse_str("nd1-minhash1-w3-fs-s0:0000000a  n", 0, &fp,
	    &why) == 0, "minhash1: %s", why ? why : "?"))
		CHECK(fp.nv == 1 && fp.v[0] == 10, "minhash1 value");
	fpline_free(&fp);
}

/* Every field of a scheme goes through format and parse unchanged. */
static void
test_scheme_roundtrip(void)
{
	static const unsigned sizes[][3] = {
		[ALGO_SIMHASH] = { 64, 128, 64 },
		[ALGO_MINHASH] = { 1, 128, 4096 },
		[ALGO_BOTTOMK] = { 1, 100, 4096 },
		[ALGO_OPH] = { 1, 128, 4096 },
		[ALGO_KEY] = { 1, 3, 4096 },
	};
	static const unsigned ngrams[] = { 1, 3, 64 };
	static const uint64_t seeds[] = { 0, 1, 42, INT64_MAX };
	char buf[SCHEME_MAX];
	struct scheme sc, back;
	const char *why;
	size_t len, n = 0;
	unsigned a, s, g, f, e, w;

	for (a = ALGO_SIMHASH; a <= ALGO_KEY; a++)
	for (s = 0; s < 3; s++)
	for (g = 0; g < 3; g++)
	for (f = 0; f < 16; f++)
	for (e = 0; e < 4; e++)
	for (w = 0; w < 2; w++) {
		memset(&sc, 0, sizeof(sc));
		sc.algo = (enum algo)a;
		sc.size = sizes[a][s];
		sc.ngram = ngrams[g];
		sc.chars = f & 1;
		sc.multiset = (f >> 1) & 1;
		sc.keepcase = (f >> 2) & 1;
		sc.keeppunct = (f >> 3) & 1;
		sc.seed = seeds[e];
		if (w) {
			if (a != ALGO_SIMHASH || sc.chars)
				continue;
			sc.weighted = 1;
			sc.wdigest = seeds[e] * 0x9E3779B97F4A7C15ULL;
		}
		len = scheme_format(&sc, buf);
		n++;
		if (!CHECK(len == strlen(buf) && len < SCHEME_MAX,
		    "scheme_format length %zu for \"%s\"", len, buf))
			continue;
		why = NULL;
		if (!CHECK(scheme_parse(buf, len, &back, &why) == 0,
		    "\"%s\" does not parse: %s", buf, why ? why : "?"))
			continue;
		CHECK(scheme_equal(&sc, &back), "\"%s\" parses to another "
		    "scheme", buf);
		CHECK(scheme_check_size(sc.algo, sc.size) == NULL,
		    "size %u of %s refused", sc.size, scheme_algo_name(sc.algo));
	}
	CHECK(n > 500, "only %zu schemes tried", n);
}

static void
test_scheme_exact(void)
{
	static const struct {
		struct scheme sc;
		const char *want;
	} t[] = {
		{ { ALGO_SIMHASH, 64, 3, 0, 0, 0, 0, 0, 0, 0 },
		    "nd1-simhash64-w3-fs-s0" },
		{ { ALGO_MINHASH, 128, 5, 1, 1, 1, 1, 42, 0, 0 },
		    "nd1-minhash128-c5m-cp-s42" },
		{ { ALGO_SIMHASH, 128, 2, 0, 1, 0, 0, 7, 1,
		    0x0123456789abcdefULL },
		    "nd1-simhash128-w2m-fs-s7-W0123456789abcdef" },
		{ { ALGO_KEY, 3, 64, 0, 0, 1, 0, INT64_MAX, 0, 0 },
		    "nd1-key3-w64-cs-s9223372036854775807" },
		{ { ALGO_OPH, 4096, 1, 1, 0, 0, 1, 0, 0, 0 },
		    "nd1-oph4096-c1-fp-s0" },
		{ { ALGO_BOTTOMK, 1, 9, 0, 0, 0, 0, 0, 1, 0 },
		    "nd1-bottomk1-w9-fs-s0-W0000000000000000" },
	};
	char buf[SCHEME_MAX];
	struct scheme back;
	const char *why = NULL;
	size_t i, len;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		len = scheme_format(&t[i].sc, buf);
		CHECK(len == strlen(t[i].want) && strcmp(buf, t[i].want) == 0,
		    "scheme %zu: \"%s\", want \"%s\"", i, buf, t[i].want);
		if (t[i].sc.weighted && t[i].sc.algo != ALGO_SIMHASH) {
			CHECK(scheme_parse(buf, len, &back, &why) == -1,
			    "\"%s\": weights accepted on %s", buf,
			    scheme_algo_name(t[i].sc.algo));
			continue;
		}
		CHECK(scheme_parse(t[i].want, strlen(t[i].want), &back,
		    &why) == 0 && scheme_equal(&back, &t[i].sc),
		    "\"%s\" does not parse back", t[i].want);
	}
	/* Leading zeros would give two spellings of one scheme. */
	CHECK(scheme_parse("nd1-simhash064-w3-fs-s0", 23, &back, &why) == -1,
	    "size with a leading zero accepted");
	CHECK(scheme_parse("nd1-simhash64-w03-fs-s0", 23, &back, &why) == -1,
	    "n-gram with a leading zero accepted");
	CHECK(scheme_parse("nd1-simhash64-w3-fs-s01", 23, &back, &why) == -1,
	    "seed with a leading zero accepted");
	/* The length bounds the parse: a prefix is not a scheme. */
	CHECK(scheme_parse("nd1-simhash64-w3-fs-s0", 20, &back, &why) == -1,
	    "truncated scheme accepted");
	CHECK(scheme_algo_lookup("oph") == ALGO_OPH &&
	    scheme_algo_lookup("simhash") == ALGO_SIMHASH &&
	    scheme_algo_lookup("sim") == -1, "scheme_algo_lookup");
}

/*
 * A name is escaped when it has a backslash, a newline or a carriage
 * return anywhere (the test reads eight bytes at a time, then the rest),
 * and not for the bytes next to them in value, or high ones.
 */
static void
test_escape_every_place(void)
{
	static const unsigned char bad[] = { '\\', '\n', '\r' };
	static const unsigned char near[] = { '\\' - 1, '\\' + 1, '\n' - 1,
	    '\n' + 1, '\r' - 1, '\r' + 1, 0x80 | '\\', 0x80 | '\n', 0xff,
	    0 };
	struct buf out = { 0 };
	char name[40];
	size_t len, at, k;

	for (len = 1; len <= sizeof(name); len++) {
		for (at = 0; at < len; at++) {
			for (k = 0; k < sizeof(near); k++) {
				memset(name, 'a', len);
				name[at] = (char)near[k];
				buf_clear(&out);
				if (!CHECK(fpline_escape_name(&out, name, len,
				    0) == 0, "byte %#x at %zu of %zu escaped",
				    near[k], at, len))
					goto out;
			}
			for (k = 0; k < sizeof(bad); k++) {
				memset(name, 'a', len);
				name[at] = (char)bad[k];
				buf_clear(&out);
				if (!CHECK(fpline_escape_name(&out, name, len,
				    0) == 1, "byte %#x at %zu of %zu not "
				    "escaped", bad[k], at, len))
					goto out;
			}
		}
	}
out:
	buf_free(&out);
}

int
main(void)
{
	RUN(test_roundtrip);
	RUN(test_format_exact);
	RUN(test_escape_every_place);
	RUN(test_parse_errors);
	RUN(test_parse_short_hex);
	RUN(test_parse_odd_names);
	RUN(test_scheme_roundtrip);
	RUN(test_scheme_exact);
	return unit_status();
}
