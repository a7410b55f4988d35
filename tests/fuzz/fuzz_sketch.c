/*
 * Fuzz target: every sketch (simhash 64 and 128, minhash, one permutation
 * hashing, bottom-k, key), the digests built on them, the estimators and
 * the fingerprint and band lines of the results.
 *
 * The input is six option bytes and a body:
 *   byte 0  bits 0-2: algorithm (mod 5); bit 7: the body is raw 64-bit
 *           shingle hashes rather than a document
 *   byte 1-2  the size: 64 or 128 bits for simhash, else mostly up to 64,
 *           sometimes up to 1024, seldom up to SCHEME_K_MAX (1024 for
 *           one permutation hashing, see get_opts)
 *   byte 3  bits 0-2: n - 1; bit 3: characters; bit 4: --multiset;
 *           bit 5: --keep-case; bit 6: --keep-punct
 *   byte 4  the seed (255: the largest)
 *   byte 5  where to cut into blocks, and the LSH bands
 * Whatever the blocks, the fingerprint is the same; a digest used again
 * gives the same; the AVX2 and the plain minhash loops agree; raw hashes
 * give what a plain reference computes for simhash, bottom-k and key; a
 * fingerprint compared with itself is similar; the lines written for it
 * parse back.
 */
#include <math.h>
#include <string.h>
#include <xxhash.h>

#include "bandline.h"
#include "bottomk.h"
#include "buf.h"
#include "byteorder.h"
#include "digest.h"
#include "fpline.h"
#include "fuzz.h"
#include "lsh.h"
#include "minhash.h"
#include "scheme.h"
#include "shset.h"
#include "similarity.h"
#include "sketch.h"
#include "xmalloc.h"

struct opts {
	struct scheme sc;
	int	 raw;
	uint64_t split;
};

static void
get_opts(struct fuzz_in *in, struct opts *o)
{
	unsigned b0, b1, b2, b3, b4;

	b0 = fuzz_byte(in);
	b1 = fuzz_byte(in);
	b2 = fuzz_byte(in);
	b3 = fuzz_byte(in);
	b4 = fuzz_byte(in);
	o->split = fuzz_byte(in);
	memset(&o->sc, 0, sizeof(o->sc));
	o->sc.algo = (enum algo)((b0 & 7) % 5);
	o->raw = (b0 >> 7) & 1;
	if (o->sc.algo == ALGO_SIMHASH)
		o->sc.size = (b1 & 1) ? 128 : 64;
	else if (b1 < 0xC0)
		o->sc.size = (b1 & 0x3F) + 1;
	else if (b1 < 0xFF)
		o->sc.size = ((b1 & 0x3F) << 4 | (b2 & 0xF)) + 1;
	else
		o->sc.size = (b2 << 4 | b2 >> 4) + 1;
	/*
	 * Densifying k bins of which f are filled takes about k * k / f
	 * probes: seconds for a short text and k = 4096 under the
	 * sanitizers.  The code is the same from k = 1024 on.
	 */
	if (o->sc.algo == ALGO_OPH && o->sc.size > 1024)
		o->sc.size = 1024;
	o->sc.ngram = (b3 & 7) + 1;
	o->sc.chars = (b3 >> 3) & 1;
	o->sc.multiset = (b3 >> 4) & 1;
	o->sc.keepcase = (b3 >> 5) & 1;
	o->sc.keeppunct = (b3 >> 6) & 1;
	o->sc.seed = b4 == 255 ? INT64_MAX : b4;
	FUZZ_CHECK(scheme_check_size(o->sc.algo, o->sc.size) == NULL);
}

static uint64_t *
copy(const uint64_t *v, size_t n)
{
	uint64_t *c = xreallocarray(NULL, n, sizeof(*c));

	memcpy(c, v, n * sizeof(*c));
	return c;
}

static void
same(const uint64_t *a, const uint64_t *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		FUZZ_CHECK(a[i] == b[i]);
}

/* What every fingerprint of the scheme must look like. */
static void
check_values(const struct scheme *sc, const uint64_t *v)
{
	size_t i, nv = scheme_nvalues(sc);

	switch (sc->algo) {
	case ALGO_MINHASH:
	case ALGO_OPH:
		for (i = 0; i < nv; i++)
			FUZZ_CHECK(v[i] <= UINT32_MAX);
		break;
	case ALGO_BOTTOMK:
		/* Ascending; the empty slots, at the end, are the largest. */
		for (i = 1; i < nv; i++)
			FUZZ_CHECK(v[i] > v[i - 1] || v[i] == BOTTOMK_EMPTY);
		break;
	default:
		break;
	}
}

/* Compared with itself, a fingerprint is as similar as can be. */
static void
check_self(const struct scheme *sc, const uint64_t *v)
{
	struct estimate e;

	similarity_estimate(sc, v, v, &e);
	switch (sc->algo) {
	case ALGO_MINHASH:
	case ALGO_OPH:
		FUZZ_CHECK(e.jaccard == 1);
		break;
	case ALGO_BOTTOMK:
		FUZZ_CHECK(e.jaccard == 1 && e.cont_ab == 1 && e.cont_ba == 1);
		break;
	case ALGO_SIMHASH:
		FUZZ_CHECK(e.distance == 0 && e.bits == sc->size);
		FUZZ_CHECK(e.cosine == 1);
		break;
	case ALGO_KEY:
		FUZZ_CHECK(e.equal);
		break;
	}
	FUZZ_CHECK(e.similarity == 1);
}

/* Estimates between two fingerprints: figures in [0, 1], symmetric. */
static void
check_pair(const struct scheme *sc, const uint64_t *a, const uint64_t *b)
{
	struct estimate ab, ba;

	similarity_estimate(sc, a, b, &ab);
	similarity_estimate(sc, b, a, &ba);
	FUZZ_CHECK(ab.have == ba.have);
	FUZZ_CHECK(ab.jaccard >= 0 && ab.jaccard <= 1);
	FUZZ_CHECK(ab.jaccard == ba.jaccard);
	FUZZ_CHECK(ab.cont_ab >= 0 && ab.cont_ab <= 1);
	FUZZ_CHECK(ab.cont_ba >= 0 && ab.cont_ba <= 1);
	FUZZ_CHECK(ab.cont_ab == ba.cont_ba && ab.cont_ba == ba.cont_ab);
	FUZZ_CHECK(ab.distance == ba.distance && ab.distance <= sc->size);
	FUZZ_CHECK(ab.equal == ba.equal);
	FUZZ_CHECK(!isnan(ab.similarity) && ab.similarity >= -1 &&
	    ab.similarity <= 1);
}

/* The fingerprint line and the band lines of v parse back to v. */
static void
check_lines(const struct scheme *sc, const uint64_t *v, const char *name,
    size_t namelen, unsigned bands)
{
	struct fpline fp = { 0 };
	struct buf out = { 0 }, bname = { 0 };
	struct bandline_seen seen = { 0 };
	char sch[SCHEME_MAX], key[128];
	const char *why, *p, *eol, *end;
	size_t nv = scheme_nvalues(sc), keylen, slen;
	struct lsh l;
	unsigned i;
	int n, zero;

	slen = scheme_format(sc, sch);
	for (zero = 0; zero <= 1; zero++) {
		buf_clear(&out);
		fpline_format(&out, sc, v, name, namelen, zero);
		FUZZ_CHECK(fpline_parse(out.data, out.len - 1, zero, &fp,
		    &why) == 0);
		FUZZ_CHECK(scheme_equal(&fp.sc, sc) && fp.nv == nv);
		same(fp.v, v, nv);
		FUZZ_CHECK(fp.name.len == namelen &&
		    memcmp(fp.name.data, name, namelen) == 0);
	}
	if (sc->algo != ALGO_MINHASH && sc->algo != ALGO_OPH)
		goto done;

	/* Bands of r rows, b of them, b * r <= k. */
	l.r = 1 + bands % (sc->size < 80 ? sc->size : 80);
	l.b = 1 + (bands >> 3) % (sc->size / l.r);
	FUZZ_CHECK(l.b * l.r <= sc->size);
	for (zero = 0; zero <= 1; zero++) {
		buf_clear(&out);
		bandline_format(&out, sc, &l, v, name, namelen, zero);
		end = out.data + out.len;
		for (i = 0, p = out.data; p < end; p = eol + 1, i++) {
			eol = memchr(p, zero ? '\0' : '\n', (size_t)(end - p));
			FUZZ_CHECK(eol != NULL && i < l.b);
			FUZZ_CHECK(bandline_parse(p, (size_t)(eol - p), zero,
			    &seen, &keylen, &bname, &why) == 0);
			FUZZ_CHECK(bname.len == namelen &&
			    memcmp(bname.data, name, namelen) == 0);
			n = snprintf(key, sizeof(key), "%s/%ux%u/%u:%016llx",
			    sch, l.b, l.r, i, (unsigned long long)
			    lsh_band_key(&l, v, i, sc->seed));
			FUZZ_CHECK(n > 0 && (size_t)n == keylen &&
			    (size_t)n > slen);
			FUZZ_CHECK(memcmp(p, key, keylen) == 0);
		}
		FUZZ_CHECK(i == l.b);
	}
done:
	buf_free(&bname);
	buf_free(&out);
	fpline_free(&fp);
}

/* Digest doc in blocks; the values are copied out. */
static uint64_t *
digest_doc(struct digest *d, const uint8_t *doc, size_t len, uint64_t split)
{
	size_t n, nv = scheme_nvalues(&d->sc);

	while (len > 0) {
		n = fuzz_block(&split, len);
		digest_feed(d, doc, n);
		doc += n;
		len -= n;
	}
	return copy(digest_end(d), nv);
}

static void
text(const struct opts *o, const uint8_t *doc, size_t len)
{
	const struct scheme *sc = &o->sc;
	struct digest d, d2;
	struct shset sa, sb;
	struct similarity sim;
	uint64_t *v, *v2, *a, *b;
	size_t nv = scheme_nvalues(sc), half = len / 2;
	const uint8_t *name;

	/* Whole; again in blocks; by a second digest in other blocks. */
	digest_init(&d, sc, NULL, NULL);
	digest_feed(&d, doc, len);
	v = copy(digest_end(&d), nv);
	check_values(sc, v);
	v2 = digest_doc(&d, doc, len, o->split);
	same(v, v2, nv);
	free(v2);
	digest_init(&d2, sc, NULL, NULL);
	if (sc->algo == ALGO_MINHASH)
		((struct minhash *)d2.sk.state)->avx2 =
		    !((struct minhash *)d.sk.state)->avx2;
	v2 = digest_doc(&d2, doc, len, ~o->split);
	same(v, v2, nv);
	free(v2);
	digest_free(&d2);
	check_self(sc, v);
	/* Named by its first bytes (names are C strings). */
	name = memchr(doc, '\0', len < 40 ? len : 40);
	check_lines(sc, v, (const char *)doc, name != NULL ?
	    (size_t)(name - doc) : len < 40 ? len : 40, (unsigned)o->split);

	/* The two halves, with their exact figures. */
	shset_init(&sa);
	shset_init(&sb);
	digest_init(&d2, sc, NULL, &sa);
	a = digest_doc(&d2, doc, half, o->split);
	digest_free(&d2);
	digest_init(&d2, sc, NULL, &sb);
	b = digest_doc(&d2, doc + half, len - half, o->split);
	digest_free(&d2);
	check_values(sc, a);
	check_values(sc, b);
	check_pair(sc, a, b);
	similarity_exact(&sa, &sb, &sim);
	FUZZ_CHECK(sim.shared <= sim.size_a && sim.shared <= sim.size_b);
	FUZZ_CHECK(sim.jaccard >= 0 && sim.jaccard <= 1);
	FUZZ_CHECK(sim.cont_ab >= 0 && sim.cont_ab <= 1);
	FUZZ_CHECK(sim.cont_ba >= 0 && sim.cont_ba <= 1);
	shset_free(&sa);
	shset_free(&sb);
	free(a);
	free(b);
	free(v);
	digest_free(&d);
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The fingerprint of raw hashes h[0..n) by the definitions. */
static void
reference(const struct scheme *sc, const uint64_t *h, const double *w,
    size_t n, uint64_t *out)
{
	uint64_t *s, x[2], le, word[2] = { 0, 0 };
	double wsum[128] = { 0 }, wtotal = 0;
	size_t i, j, u, k = sc->size;
	XXH128_hash_t t;
	unsigned bit;

	switch (sc->algo) {
	case ALGO_SIMHASH:
		for (i = 0; i < n; i++) {
			x[0] = h[i];
			x[1] = 0;
			if (sc->size == 128) {
				le = le64(h[i]);
				t = XXH3_128bits_withSeed(&le, sizeof(le),
				    sc->seed);
				x[0] = t.low64;
				x[1] = t.high64;
			}
			for (bit = 0; bit < sc->size; bit++)
				if ((x[bit / 64] >> (bit % 64)) & 1)
					wsum[bit] += w[i];
			wtotal += w[i];
		}
		for (bit = 0; bit < sc->size; bit++)
			if (2 * wsum[bit] > wtotal)
				word[bit / 64] |= (uint64_t)1 << (bit % 64);
		out[0] = sc->size == 128 ? word[1] : word[0];
		out[1] = word[0];
		break;
	case ALGO_BOTTOMK:
	case ALGO_KEY:
		s = copy(h, n);
		qsort(s, n, sizeof(*s), cmp_u64);
		for (i = 0, u = 0; i < n; i++)
			if (u == 0 || s[i] != s[u - 1])
				s[u++] = s[i];
		if (sc->algo == ALGO_KEY) {
			for (out[0] = 0, j = 0; j < u && j < k; j++)
				out[0] ^= s[j];
		} else
			for (j = 0; j < k; j++)
				out[j] = j < u ? s[j] : BOTTOMK_EMPTY;
		free(s);
		break;
	default:
		break;
	}
}

static void
raw(const struct opts *o, const uint8_t *body, size_t len)
{
	const struct scheme *sc = &o->sc;
	struct sketch s1, s2, s3;
	uint64_t *h, *v, split = o->split, want[SCHEME_K_MAX];
	double *w, *ones;
	size_t i, n = len / 8, nv = scheme_nvalues(sc), m;

	h = xreallocarray(NULL, n ? n : 1, sizeof(*h));
	w = xreallocarray(NULL, n ? n : 1, sizeof(*w));
	ones = xreallocarray(NULL, n ? n : 1, sizeof(*ones));
	for (i = 0; i < n; i++) {
		memcpy(&h[i], body + 8 * i, 8);
		h[i] = le64toh(h[i]);
		w[i] = (double)(body[8 * i] & 15) / 4;
		ones[i] = 1;
	}

	/* At once, in blocks, one at a time. */
	sketch_init(&s1, sc);
	sketch_init(&s2, sc);
	sketch_init(&s3, sc);
	if (sc->algo == ALGO_MINHASH)
		((struct minhash *)s3.state)->avx2 =
		    !((struct minhash *)s1.state)->avx2;
	sketch_add(&s1, h, NULL, n);
	for (i = 0; i < n; i += m) {
		m = fuzz_block(&split, n - i);
		sketch_add(&s2, h + i, NULL, m);
	}
	for (i = 0; i < n; i++)
		sketch_add(&s3, h + i, NULL, 1);
	v = copy(sketch_final(&s1), nv);
	same(v, sketch_final(&s2), nv);
	same(v, sketch_final(&s3), nv);
	check_values(sc, v);
	check_self(sc, v);

	/* Used again after a reset, the other way round. */
	sketch_reset(&s1);
	for (i = n; i > 0; i--)
		sketch_add(&s1, h + i - 1, NULL, 1);
	same(v, sketch_final(&s1), nv);

	if (sc->algo != ALGO_MINHASH && sc->algo != ALGO_OPH) {
		reference(sc, h, ones, n, want);
		same(v, want, nv);
	}
	if (sc->algo == ALGO_SIMHASH) {
		/* Weights of 1 are no weights; others as the reference. */
		sketch_reset(&s2);
		sketch_add(&s2, h, ones, n);
		same(v, sketch_final(&s2), nv);
		sketch_reset(&s2);
		sketch_add(&s2, h, w, n);
		reference(sc, h, w, n, want);
		same(sketch_final(&s2), want, nv);
	}
	sketch_free(&s1);
	sketch_free(&s2);
	sketch_free(&s3);
	free(v);
	free(h);
	free(w);
	free(ones);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	struct opts o;

	get_opts(&in, &o);
	if (o.raw)
		raw(&o, in.p, in.n);
	else
		text(&o, in.p, in.n);
	return 0;
}
