/*
 * Shared passages of two documents, found by winnowing (Schleimer,
 * Wilkerson and Aiken, "Winnowing: local algorithms for document
 * fingerprinting", SIGMOD 2003): the engine of "compare --passages".
 *
 * Both documents are cut into words exactly as the shingler cuts them; the
 * k-grams of word hashes are winnowed to fingerprints, fingerprints that
 * the two documents share seed matches, and each seed is extended word by
 * word to a maximal common run.  Any common run of at least k + w - 1
 * words is found; shorter ones may be, but never one shorter than k.
 */
#ifndef WINNOW_H
#define WINNOW_H

#include <stddef.h>
#include <stdint.h>

#define WINNOW_K	5	/* default words per k-gram */
#define WINNOW_W	4	/* default window, in k-grams */

struct winnow_opts {
	int	 keepcase, keeppunct;	/* normalization, as the shingler's */
	uint64_t seed;
	unsigned k;		/* words per k-gram (default 5) */
	unsigned w;		/* winnowing window in k-grams (default 4) */
	unsigned minwords;	/* report runs of at least this many words;
				   default k + w - 1 */
};

/*
 * A shared run of words.  Byte ranges cover whole lines: a_off is the
 * start of line a_first, a_end is just after the text of line a_last,
 * before its newline.
 */
struct passage {
	size_t	 words;			/* length of the shared run, in words */
	size_t	 a_first, a_last;	/* 1-based lines in A of its first and
					   last word */
	size_t	 b_first, b_last;	/* same in B */
	size_t	 a_off, a_end;		/* byte range in A of whole lines
					   a_first..a_last */
	size_t	 b_off, b_end;		/* same in B */
};

/*
 * Default options: default normalization, seed 0, k 5, w 4 and minwords
 * k + w - 1.  A caller that changes k or w sets minwords again (or to 0,
 * which winnow_passages reads as k + w - 1).
 */
void	winnow_opts_default(struct winnow_opts *);

/*
 * Shared passages of a[0..alen) and b[0..blen), longest first (ties: by
 * a_first, then b_first).  Returns the count; *out is malloc'd (caller
 * frees), NULL when the count is 0.  A k or w of 0 counts as 1.  Lines end
 * at '\n' only.  Passages made only of k-grams that B repeats very often
 * (boilerplate) are not reported: see winnow.c.
 */
size_t	winnow_passages(const char *a, size_t alen, const char *b, size_t blen,
	    const struct winnow_opts *, struct passage **out);

/*
 * The words of text[0..len) as winnow_passages sees them: the hash of each
 * into *hash and, unless line is NULL, its 1-based line number into *line
 * (both malloc'd, NULL when there are no words).  Returns the number of
 * words.  The hashes are the shingler's token hashes.
 */
size_t	winnow_words(const char *text, size_t len, const struct winnow_opts *,
	    uint64_t **hash, size_t **line);

#endif
