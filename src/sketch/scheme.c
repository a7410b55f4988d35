/*
 * Scheme strings: formatting, parsing and validation.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "scheme.h"

const char *
scheme_algo_name(enum algo a)
{
	return algo_get(a)->name;
}

int
scheme_algo_lookup(const char *name)
{
	return algo_lookup(name);
}

unsigned
scheme_default_size(enum algo a)
{
	return algo_get(a)->defsize;
}

const char *
scheme_check_size(enum algo a, unsigned size)
{
	return algo_get(a)->check_size(size);
}

size_t
scheme_nvalues(const struct scheme *sc)
{
	const struct algo_desc *a = algo_get(sc->algo);

	/* Asked for every pair cluster compares: no division when k. */
	if (a->per_value == 1)
		return sc->size;
	return a->per_value ? sc->size / a->per_value : 1;
}

size_t
scheme_value_digits(const struct scheme *sc)
{
	return algo_get(sc->algo)->digits;
}

size_t
scheme_format(const struct scheme *sc, char *buf)
{
	int n;

	n = snprintf(buf, SCHEME_MAX, "%s-%s%u-%c%u%s-%c%c-s%" PRIu64,
	    SCHEME_VERSION, algo_get(sc->algo)->name, sc->size,
	    sc->chars ? 'c' : 'w', sc->ngram, sc->multiset ? "m" : "",
	    sc->keepcase ? 'c' : 'f', sc->keeppunct ? 'p' : 's', sc->seed);
	if (sc->weighted)
		n += snprintf(buf + n, SCHEME_MAX - (size_t)n, "-W%016" PRIx64,
		    sc->wdigest);
	return (size_t)n;
}

/* Parse an unsigned decimal at *p (no sign, no leading zero but "0"). */
static int
parse_uint(const char **p, const char *end, uint64_t max, uint64_t *out)
{
	const char *s = *p;
	uint64_t v = 0;

	if (s == end || *s < '0' || *s > '9')
		return -1;
	if (*s == '0' && s + 1 < end && s[1] >= '0' && s[1] <= '9')
		return -1;
	for (; s < end && *s >= '0' && *s <= '9'; s++) {
		if (v > (max - (uint64_t)(*s - '0')) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*p = s;
	*out = v;
	return 0;
}

int
scheme_parse(const char *s, size_t len, struct scheme *sc,
    const char **why)
{
	const char *p = s, *end = s + len;
	uint64_t v;
	const char *name;
	size_t i, n;
	int a;

	memset(sc, 0, sizeof(*sc));
	n = strlen(SCHEME_VERSION);
	if (len < n + 1 || memcmp(p, SCHEME_VERSION, n) != 0 || p[n] != '-') {
		*why = (len > 2 && memcmp(p, "nd", 2) == 0) ?
		    "unsupported fingerprint format version" :
		    "not a fingerprint scheme";
		return -1;
	}
	p += n + 1;
	for (a = -1, i = 0; i < algo_count(); i++) {
		name = algo_get((enum algo)i)->name;
		n = strlen(name);
		if ((size_t)(end - p) > n && memcmp(p, name, n) == 0 &&
		    p[n] >= '0' && p[n] <= '9') {
			a = (int)i;
			p += n;
			break;
		}
	}
	if (a < 0) {
		*why = "unknown algorithm in scheme";
		return -1;
	}
	sc->algo = (enum algo)a;
	if (parse_uint(&p, end, SCHEME_K_MAX, &v) == -1 ||
	    scheme_check_size(sc->algo, (unsigned)v) != NULL) {
		*why = "bad size in scheme";
		return -1;
	}
	sc->size = (unsigned)v;
	if (p == end || *p++ != '-' || p == end || (*p != 'w' && *p != 'c')) {
		*why = "bad shingle kind in scheme";
		return -1;
	}
	sc->chars = *p++ == 'c';
	if (parse_uint(&p, end, SCHEME_NGRAM_MAX, &v) == -1 || v == 0) {
		*why = "bad shingle length in scheme";
		return -1;
	}
	sc->ngram = (unsigned)v;
	if (p < end && *p == 'm') {
		sc->multiset = 1;
		p++;
	}
	if (end - p < 3 || p[0] != '-' || (p[1] != 'f' && p[1] != 'c') ||
	    (p[2] != 's' && p[2] != 'p')) {
		*why = "bad normalization in scheme";
		return -1;
	}
	sc->keepcase = p[1] == 'c';
	sc->keeppunct = p[2] == 'p';
	p += 3;
	if (end - p < 3 || p[0] != '-' || p[1] != 's') {
		*why = "bad seed in scheme";
		return -1;
	}
	p += 2;
	if (parse_uint(&p, end, INT64_MAX, &sc->seed) == -1) {
		*why = "bad seed in scheme";
		return -1;
	}
	if (p < end) {
		if (end - p != 18 || p[0] != '-' || p[1] != 'W') {
			*why = "trailing garbage in scheme";
			return -1;
		}
		for (v = 0, p += 2; p < end; p++) {
			if (*p >= '0' && *p <= '9')
				v = v << 4 | (uint64_t)(*p - '0');
			else if (*p >= 'a' && *p <= 'f')
				v = v << 4 | (uint64_t)(*p - 'a' + 10);
			else {
				*why = "bad weights digest in scheme";
				return -1;
			}
		}
		if (!(algo_get(sc->algo)->flags & ALGO_WEIGHTS) || sc->chars) {
			*why = "weights in a scheme that has none";
			return -1;
		}
		sc->weighted = 1;
		sc->wdigest = v;
	}
	return 0;
}

int
scheme_equal(const struct scheme *a, const struct scheme *b)
{
	return a->algo == b->algo && a->size == b->size &&
	    a->ngram == b->ngram && a->chars == b->chars &&
	    a->multiset == b->multiset && a->keepcase == b->keepcase &&
	    a->keeppunct == b->keeppunct && a->seed == b->seed &&
	    a->weighted == b->weighted && a->wdigest == b->wdigest;
}
