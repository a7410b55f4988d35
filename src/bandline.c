/*
 * Band lines (see bandline.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "bandline.h"

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

int
bandline_parse(const char *line, size_t len, int zero, size_t *keylen,
    struct buf *name, const char **why)
{
	const char *tab = memchr(line, '\t', len), *end = line + len;

	if (tab == NULL || tab == line) {
		*why = "expected BANDKEY<TAB>NAME";
		return -1;
	}
	if (memchr(line, '/', (size_t)(tab - line)) == NULL ||
	    memchr(line, ':', (size_t)(tab - line)) == NULL) {
		*why = "not a band key";
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
