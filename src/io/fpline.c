/*
 * Fingerprint line formatting and parsing.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fpline.h"
#include "xmalloc.h"

static const char hexdigits[] = "0123456789abcdef";

/* A byte of v is zero: the exact test, with no false alarm. */
static inline uint64_t
has_zero(uint64_t v)
{
	const uint64_t ones = 0x0101010101010101ULL;

	return (v - ones) & ~v & ones << 7;
}

/* The name has a byte to escape: eight bytes at a time, then the rest. */
static int
needs_escape(const char *name, size_t len)
{
	const uint64_t ones = 0x0101010101010101ULL;
	uint64_t x, hit = 0;
	size_t i;

	for (i = 0; i + 8 <= len; i += 8) {
		memcpy(&x, name + i, sizeof(x));
		hit |= has_zero(x ^ ones * '\\') | has_zero(x ^ ones * '\n') |
		    has_zero(x ^ ones * '\r');
	}
	if (hit != 0)
		return 1;
	for (; i < len; i++)
		if (name[i] == '\\' || name[i] == '\n' || name[i] == '\r')
			return 1;
	return 0;
}

/* Append name to out, escaped if escape. */
static void
put_name(struct buf *out, const char *name, size_t len, int escape)
{
	if (escape)
		buf_add_escaped(out, name, len, 0);
	else
		buf_add(out, name, len);
}

int
fpline_escape_name(struct buf *out, const char *name, size_t len, int zero)
{
	int escape = !zero && needs_escape(name, len);

	put_name(out, name, len, escape);
	return escape;
}

void
fpline_head_init(struct fpline_head *h, const struct scheme *sc)
{
	h->len = scheme_format(sc, h->text);
	h->nv = scheme_nvalues(sc);
	h->digits = scheme_value_digits(sc);
}

void
fpline_put(struct buf *out, const struct fpline_head *h, const uint64_t *v,
    const char *name, size_t namelen, int zero)
{
	size_t i, j, digits = h->digits;
	int escape = !zero && needs_escape(name, namelen);
	char *p;

	if (escape)
		buf_addc(out, '\\');
	buf_add(out, h->text, h->len);
	buf_addc(out, ':');
	p = buf_reserve(out, h->nv * digits);
	for (i = 0; i < h->nv; i++)
		for (j = 0; j < digits; j++)
			*p++ = hexdigits[(v[i] >> (4 * (digits - 1 - j))) & 0xF];
	out->len += h->nv * digits;
	buf_add(out, "  ", 2);
	put_name(out, name, namelen, escape);
	buf_addc(out, zero ? '\0' : '\n');
}

void
fpline_format(struct buf *out, const struct scheme *sc, const uint64_t *v,
    const char *name, size_t namelen, int zero)
{
	struct fpline_head h;

	fpline_head_init(&h, sc);
	fpline_put(out, &h, v, name, namelen, zero);
}

/*
 * Hex digit values, -1 for other bytes: parsing is mostly this.  Lower
 * case only, as fpline_format() writes them: "AB" read as equal to "ab"
 * would be different to cluster --sorted and sort(1), which compare the
 * text, so upper case is refused everywhere, here and in band keys.
 */
static const signed char hextab[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
	['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
};

static inline int
hexval(int c)
{
	return hextab[(unsigned char)c] - 1;
}

int
fpline_parse(const char *line, size_t len, int zero, struct fpline *fp,
    const char **why)
{
	const char *end = line + len, *colon, *hex, *sep;
	const char *(*check)(const uint64_t *, size_t);
	size_t nv, digits, i, j;
	int escaped = 0, d;
	uint64_t v;

	if (!zero && len > 0 && line[0] == '\\') {
		escaped = 1;
		line++;
	}
	if ((colon = memchr(line, ':', (size_t)(end - line))) == NULL) {
		*why = "no ':' after the scheme";
		return -1;
	}
	if (scheme_parse(line, (size_t)(colon - line), &fp->sc, why) == -1)
		return -1;
	hex = colon + 1;
	nv = scheme_nvalues(&fp->sc);
	digits = scheme_value_digits(&fp->sc);
	for (sep = hex; sep < end && hexval((unsigned char)*sep) >= 0; sep++)
		;
	if ((size_t)(sep - hex) > nv * digits) {
		*why = "fingerprint too long for its scheme";
		return -1;
	}
	if ((size_t)(sep - hex) < nv * digits) {
		*why = sep == end || *sep == ' ' || *sep == '\t' ?
		    "fingerprint too short for its scheme" :
		    *sep >= 'A' && *sep <= 'F' ? FPLINE_UPPER_WHY :
		    "bad hex digit in fingerprint";
		return -1;
	}
	if (end - sep < 2 || sep[0] != ' ' || sep[1] != ' ') {
		*why = "expected two spaces before the name";
		return -1;
	}
	if (fp->vcap < nv) {
		fp->v = xreallocarray(fp->v, nv, sizeof(*fp->v));
		fp->vcap = nv;
	}
	for (i = 0; i < nv; i++) {
		for (v = 0, j = 0; j < digits; j++) {
			if ((d = hexval((unsigned char)hex[i * digits + j])) < 0) {
				*why = "bad hex digit in fingerprint";
				return -1;
			}
			v = v << 4 | (uint64_t)d;
		}
		fp->v[i] = v;
	}
	check = algo_get(fp->sc.algo)->check_values;
	if (check != NULL && (*why = check(fp->v, nv)) != NULL)
		return -1;
	fp->nv = nv;
	buf_clear(&fp->name);
	line = sep + 2;
	if (escaped) {
		if (buf_add_unescaped(&fp->name, line, (size_t)(end - line),
		    0, why) == -1)
			return -1;
	} else
		buf_add(&fp->name, line, (size_t)(end - line));
	/* Names are C strings: a NUL would cut one short. */
	if (fp->name.len > 0 && memchr(fp->name.data, '\0', fp->name.len) !=
	    NULL) {
		*why = "NUL byte in name";
		return -1;
	}
	buf_addc(&fp->name, '\0');
	fp->name.len--;
	return 0;
}

void
fpline_free(struct fpline *fp)
{
	free(fp->v);
	fp->v = NULL;
	fp->vcap = 0;
	buf_free(&fp->name);
}

int
fpline_holds_line(const struct fpline *fp)
{
	struct fpline next = { 0 };
	const char *nl = memchr(fp->name.data, '\n', fp->name.len), *end, *why;
	int r = 0;

	if (nl != NULL) {
		end = memchr(nl + 1, '\n',
		    (size_t)(fp->name.data + fp->name.len - nl - 1));
		if (end == NULL)
			end = fp->name.data + fp->name.len;
		r = fpline_parse(nl + 1, (size_t)(end - nl - 1), 0, &next,
		    &why) == 0;
		fpline_free(&next);
	}
	return r;
}
