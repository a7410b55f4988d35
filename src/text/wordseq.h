/*
 * A document as the sequence of its words: each word normalized as the
 * shingler normalizes it (UTF-8 decoded with every invalid byte one
 * U+FFFD; a word a maximal run of letters and digits, or of non-space
 * under --keep-punct; case folded unless --keep-case), hashed as the
 * shingler hashes it, with the 1-based number of the line it starts on.
 * Memory: 12 bytes a word.
 */
#ifndef WORDSEQ_H
#define WORDSEQ_H

#include <stddef.h>
#include <stdint.h>

/* From word index from on, line numbers have high half hi. */
struct wordseq_linehi {
	size_t	 from;
	uint64_t hi;
};

/* A document as its words. */
struct wordseq {
	uint64_t *h;		/* word hashes */
	uint32_t *lo;		/* low half of each word's line number */
	struct wordseq_linehi *hi;	/* where the high half changes (rarely) */
	size_t	 n, cap;
	size_t	 nhi, hicap;
};

/* Read text[0..len) into d (which must be zeroed or freed). */
void	wordseq_read(struct wordseq *d, const char *text, size_t len,
	    int keepcase, int keeppunct, uint64_t seed);

/* The 1-based line number of word i. */
uint64_t wordseq_line(const struct wordseq *, size_t i);

void	wordseq_free(struct wordseq *);

#endif
