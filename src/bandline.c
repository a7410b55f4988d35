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
	size_t slen = scheme_format(sc, sch), i;
	unsigned band;
	int n;

	for (band = 0; band < l->b; band++) {
		buf_add(out, sch, slen);
		n = snprintf(key, sizeof(key), "/%ux%u/%u:%016" PRIx64 "\t",
		    l->b, l->r, band, lsh_band_key(l, v, band, sc->seed));
		buf_add(out, key, (size_t)n);
		for (i = 0; i < namelen; i++) {
			switch (zero ? 0 : name[i]) {
			case '\\':
				buf_add(out, "\\\\", 2);
				break;
			case '\t':
				buf_add(out, "\\t", 2);
				break;
			case '\n':
				buf_add(out, "\\n", 2);
				break;
			case '\r':
				buf_add(out, "\\r", 2);
				break;
			default:
				buf_addc(out, name[i]);
			}
		}
		buf_addc(out, zero ? '\0' : '\n');
	}
}

int
bandline_parse(const char *line, size_t len, int zero, size_t *keylen,
    struct buf *name, const char **why)
{
	const char *tab = memchr(line, '\t', len), *p, *end = line + len;

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
	for (p = tab + 1; p < end; p++) {
		if (zero || *p != '\\') {
			buf_addc(name, *p);
			continue;
		}
		if (++p == end) {
			*why = "name ends in a lone backslash";
			return -1;
		}
		switch (*p) {
		case '\\':
			buf_addc(name, '\\');
			break;
		case 't':
			buf_addc(name, '\t');
			break;
		case 'n':
			buf_addc(name, '\n');
			break;
		case 'r':
			buf_addc(name, '\r');
			break;
		default:
			*why = "unknown escape in name";
			return -1;
		}
	}
	buf_addc(name, '\0');
	name->len--;
	return 0;
}
