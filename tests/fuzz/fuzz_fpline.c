/*
 * Fuzz target: the readers of neardup's own lines.  The input is one line
 * (without its terminator) given to fpline_parse, bandline_parse and
 * scheme_parse, in the newline and the NUL-terminated (-z) forms.  What
 * parses must format back into a line that parses to the same thing, and
 * a scheme string must format back to the very bytes it was parsed from
 * (there is one spelling of each scheme).
 */
#include <string.h>

#include "bandline.h"
#include "buf.h"
#include "fpline.h"
#include "fuzz.h"
#include "scheme.h"

static void
check_fpline(const char *line, size_t len, int zero)
{
	struct fpline fp = { 0 }, again = { 0 };
	struct buf out = { 0 };
	char sch[SCHEME_MAX];
	const char *why, *s, *colon;
	size_t slen, i;

	if (fpline_parse(line, len, zero, &fp, &why) == -1) {
		FUZZ_CHECK(why != NULL);
		fpline_free(&fp);
		return;
	}
	FUZZ_CHECK(fp.nv == scheme_nvalues(&fp.sc));
	FUZZ_CHECK(fp.name.data != NULL && fp.name.data[fp.name.len] == '\0');
	FUZZ_CHECK(scheme_check_size(fp.sc.algo, fp.sc.size) == NULL);
	if (fp.sc.algo == ALGO_MINHASH || fp.sc.algo == ALGO_OPH)
		for (i = 0; i < fp.nv; i++)
			FUZZ_CHECK(fp.v[i] <= UINT32_MAX);

	/* The scheme is spelled one way only. */
	s = line + (!zero && len > 0 && line[0] == '\\');
	colon = memchr(s, ':', len - (size_t)(s - line));
	FUZZ_CHECK(colon != NULL);
	slen = scheme_format(&fp.sc, sch);
	FUZZ_CHECK(slen < SCHEME_MAX && slen == (size_t)(colon - s));
	FUZZ_CHECK(memcmp(sch, s, slen) == 0);

	/* Format it back, without the terminator, and parse that. */
	fpline_format(&out, &fp.sc, fp.v, fp.name.data, fp.name.len, zero);
	FUZZ_CHECK(out.len > 0 && out.data[out.len - 1] == (zero ? '\0' : '\n'));
	FUZZ_CHECK(fpline_parse(out.data, out.len - 1, zero, &again,
	    &why) == 0);
	FUZZ_CHECK(scheme_equal(&fp.sc, &again.sc));
	FUZZ_CHECK(again.nv == fp.nv);
	FUZZ_CHECK(memcmp(again.v, fp.v, fp.nv * sizeof(*fp.v)) == 0);
	FUZZ_CHECK(again.name.len == fp.name.len);
	FUZZ_CHECK(memcmp(again.name.data, fp.name.data, fp.name.len) == 0);
	/* A newline-terminated line has no raw newline in it. */
	if (!zero)
		FUZZ_CHECK(memchr(out.data, '\n', out.len - 1) == NULL);

	/* Parsing into a used fpline gives the same again. */
	FUZZ_CHECK(fpline_parse(line, len, zero, &again, &why) == 0);
	FUZZ_CHECK(again.nv == fp.nv && again.name.len == fp.name.len);
	FUZZ_CHECK(memcmp(again.v, fp.v, fp.nv * sizeof(*fp.v)) == 0);
	buf_free(&out);
	fpline_free(&again);
	fpline_free(&fp);
}

static void
check_bandline(const char *line, size_t len, int zero)
{
	struct buf name = { 0 }, out = { 0 }, again = { 0 };
	const char *why;
	size_t keylen, keylen2;

	static struct bandline_seen seen;	/* from the inputs before */
	int r;

	r = bandline_parse(line, len, zero, NULL, &keylen, &name, &why);
	/* A layout remembered from an earlier line changes no answer. */
	FUZZ_CHECK(bandline_parse(line, len, zero, &seen, &keylen2, &again,
	    &why) == r);
	buf_clear(&again);
	if (r == -1) {
		FUZZ_CHECK(why != NULL);
		buf_free(&name);
		buf_free(&again);
		return;
	}
	FUZZ_CHECK(keylen2 == keylen);
	FUZZ_CHECK(keylen > 0 && keylen < len && line[keylen] == '\t');
	FUZZ_CHECK(memchr(line, '\t', keylen) == NULL);
	FUZZ_CHECK(name.data != NULL && name.data[name.len] == '\0');

	/* The line as bandline_format would write it parses the same. */
	buf_add(&out, line, keylen);
	buf_addc(&out, '\t');
	if (zero)
		buf_add(&out, name.data, name.len);
	else {
		/* The escaped name has no tab or newline left in it. */
		buf_add_escaped(&out, name.data, name.len, 1);
		FUZZ_CHECK(memchr(out.data + keylen + 1, '\t',
		    out.len - keylen - 1) == NULL);
		FUZZ_CHECK(memchr(out.data + keylen + 1, '\n',
		    out.len - keylen - 1) == NULL);
	}
	FUZZ_CHECK(bandline_parse(out.data, out.len, zero, NULL, &keylen2,
	    &again, &why) == 0);
	FUZZ_CHECK(keylen2 == keylen);
	FUZZ_CHECK(again.len == name.len);
	FUZZ_CHECK(memcmp(again.data, name.data, name.len) == 0);
	buf_free(&again);
	buf_free(&out);
	buf_free(&name);
}

static void
check_scheme(const char *s, size_t len)
{
	struct scheme sc, again;
	char sch[SCHEME_MAX];
	const char *why;
	size_t n;

	if (scheme_parse(s, len, &sc, &why) == -1) {
		FUZZ_CHECK(why != NULL);
		return;
	}
	FUZZ_CHECK(scheme_check_size(sc.algo, sc.size) == NULL);
	FUZZ_CHECK(sc.ngram >= 1 && sc.ngram <= SCHEME_NGRAM_MAX);
	n = scheme_format(&sc, sch);
	FUZZ_CHECK(n == len && memcmp(sch, s, len) == 0);
	FUZZ_CHECK(scheme_parse(sch, n, &again, &why) == 0);
	FUZZ_CHECK(scheme_equal(&sc, &again));
	FUZZ_CHECK(scheme_algo_lookup(scheme_algo_name(sc.algo)) ==
	    (int)sc.algo);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *line = (const char *)data;
	const char *colon;
	int zero;

	for (zero = 0; zero <= 1; zero++) {
		check_fpline(line, size, zero);
		check_bandline(line, size, zero);
	}
	check_scheme(line, size);
	if ((colon = memchr(line, ':', size)) != NULL)
		check_scheme(line, (size_t)(colon - line));
	return 0;
}
