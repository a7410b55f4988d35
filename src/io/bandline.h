/*
 * Band lines, "BANDKEY<TAB>NAME": one per LSH band of a document, so that
 * any shuffle that groups equal keys (sort, MapReduce) brings candidate
 * near-duplicates together.  BANDKEY is "SCHEME/BxR/I:HEX": the scheme,
 * the band layout, the band's number and its 64-bit key, so keys of
 * different schemes or layouts never meet.  The name is escaped as in TSV
 * (\\, \t, \n, \r), or raw in NUL-terminated (-z) lines.
 */
#ifndef BANDLINE_H
#define BANDLINE_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "lsh.h"
#include "scheme.h"

/* Append the b band lines of fingerprint values v to out. */
void	bandline_format(struct buf *out, const struct scheme *,
	    const struct lsh *, const uint64_t *v, const char *name,
	    size_t namelen, int zero);

/* The longest layout "SCHEME/BxR/" of a band key. */
#define BANDLINE_LAYOUT_MAX	(SCHEME_MAX + 24)

/* The layout of the last band key parsed, and its number of bands. */
struct bandline_seen {
	char	 layout[BANDLINE_LAYOUT_MAX];
	size_t	 len;
	unsigned b;
};

/*
 * Split a band line (without its terminator): the key is line[0 .. *keylen),
 * the unescaped name goes to name.  Returns 0, or -1 with *why.  The key
 * must be one bandline_format() writes: a minhash or oph scheme, B x R no
 * more than its values, I below B, 16 lowercase hexadecimal digits.  With
 * seen (zeroed at first), a layout met on the line before is not parsed
 * again.
 */
int	bandline_parse(const char *line, size_t len, int zero,
	    struct bandline_seen *seen, size_t *keylen, struct buf *name,
	    const char **why);

/*
 * Does name (read with -z) go on, after a newline, with a band line?
 * Then lines written without -z were read as one record (fpline.h).
 */
int	bandline_holds_line(const struct buf *name);

#endif
