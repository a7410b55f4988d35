/*
 * Band lines (see bandline.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "bandline.h"
#include "fpline.h"

void
bandline_format(struct buf *out, const struct scheme *sc,
    const struct lsh *l, const uint64_t *v, const char *name,
    size_t namelen, int zero)
{
	char sch[SCHEME_MAX], key[64];
	size_t slen = scheme_format(sc, sch);
	unsigned band;
	int n;

	for (band = 0; band < l->b; band++) {
		buf_add(out, sch, slen);
		n = snprintf(key, sizeof(key), "/%ux%u/%u:%016" PRIx64 "\t",
		    l->b, l->r, band, lsh_band_key(l, v, band, sc->seed));
		buf_add(out, key, (size_t)n);
		if (zero)
			buf_add(out, name, namelen);
		else
			buf_add_escaped(out, name, namelen, 1);
		buf_addc(out, zero ? '\0' : '\n');
	}
}

/*
 * A decimal number without a sign or a leading zero, from *p to the byte
 * stop; *p moves past it.  Returns -1 if there is none, or it is larger
 * than max.
 */
static long long
number(const char **p, const char *end, char stop, long long max)
{
	const char *q = *p;
	long long v = 0;

	if (q == end || *q < '0' || *q > '9' || (*q == '0' && q + 1 < end &&
	    q[1] != stop))
		return -1;
	for (; q < end && *q >= '0' && *q <= '9'; q++)
		if ((v = v * 10 + (*q - '0')) > max)
			return -1;
	if (q == end || *q != stop)
		return -1;
	*p = q + 1;
	return v;
}

/*
 * Is key[0..len) "SCHEME/BxR/I:HEX" as bandline_format() writes it?  The
 * layout "SCHEME/BxR/" is parsed only when it is not the one in *seen,
 * which then becomes it: the lines of one input share theirs.
 */
static int
band_key(const char *key, size_t len, struct bandline_seen *seen,
    const char **why)
{
	const char *end = key + len, *slash = memchr(key, '/', len), *p, *bad;
	struct scheme sc;
	long long b, r, i;
	size_t k, lay;

	*why = "not a band key (SCHEME/BxR/I:HEX)";
	if (slash == NULL)
		return -1;
	p = memchr(slash + 1, '/', (size_t)(end - slash - 1));
	if (p == NULL || (lay = (size_t)(p + 1 - key)) > BANDLINE_LAYOUT_MAX)
		return -1;
	if (seen != NULL && seen->len == lay &&
	    memcmp(seen->layout, key, lay) == 0) {
		b = seen->b;
		p = key + lay;
	} else {
		if (scheme_parse(key, (size_t)(slash - key), &sc, &bad) == -1)
			return -1;
		if (algo_get(sc.algo)->cand != CAND_BANDS) {
			*why = "not a band key: bands are of minhash and oph "
			    "schemes";
			return -1;
		}
		p = slash + 1;
		if ((b = number(&p, end, 'x', sc.size)) < 1 ||
		    (r = number(&p, end, '/', sc.size)) < 1)
			return -1;
		if (b * r > sc.size) {
			*why = "not a band key: more rows than the scheme's "
			    "values";
			return -1;
		}
		if (seen != NULL) {
			memcpy(seen->layout, key, lay);
			seen->len = lay;
			seen->b = (unsigned)b;
		}
	}
	if ((i = number(&p, end, ':', b)) < 0)
		return -1;
	if (i >= b) {
		*why = "not a band key: band number out of range";
		return -1;
	}
	if (end - p != 16)
		return -1;
	for (k = 0; k < 16; k++)
		if (!((p[k] >= '0' && p[k] <= '9') || (p[k] >= 'a' &&
		    p[k] <= 'f'))) {
			if (p[k] >= 'A' && p[k] <= 'F')
				*why = "not a band key: " FPLINE_UPPER_WHY;
			return -1;
		}
	return 0;
}

int
bandline_parse(const char *line, size_t len, int zero,
    struct bandline_seen *seen, size_t *keylen, struct buf *name,
    const char **why)
{
	const char *tab = memchr(line, '\t', len), *end = line + len;

	if (tab == NULL || tab == line) {
		*why = "expected BANDKEY<TAB>NAME";
		return -1;
	}
	if (band_key(line, (size_t)(tab - line), seen, why) == -1)
		return -1;
	if (!zero && memchr(tab + 1, '\t', (size_t)(end - tab - 1)) != NULL) {
		*why = "a tab in the name (written \\t in band lines)";
		return -1;
	}
	*keylen = (size_t)(tab - line);
	buf_clear(name);
	if (zero)
		buf_add(name, tab + 1, (size_t)(end - tab - 1));
	else if (buf_add_unescaped(name, tab + 1, (size_t)(end - tab - 1), 1,
	    why) == -1)
		return -1;
	if (name->len > 0 && memchr(name->data, '\0', name->len) != NULL) {
		*why = "NUL byte in name";
		return -1;
	}
	buf_addc(name, '\0');
	name->len--;
	return 0;
}

int
bandline_holds_line(const struct buf *name)
{
	struct bandline_seen seen = { 0 };
	struct buf rest = { 0 };
	const char *nl = memchr(name->data, '\n', name->len), *end, *why;
	size_t keylen;
	int r = 0;

	if (nl != NULL) {
		end = memchr(nl + 1, '\n',
		    (size_t)(name->data + name->len - nl - 1));
		if (end == NULL)
			end = name->data + name->len;
		r = bandline_parse(nl + 1, (size_t)(end - nl - 1), 0, &seen,
		    &keylen, &rest, &why) == 0;
		buf_free(&rest);
	}
	return r;
}
