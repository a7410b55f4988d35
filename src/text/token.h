/*
 * What a token is: the one word rule and the one token hash.
 *
 * Text is UTF-8 decoded (every invalid byte one U+FFFD).  A word is a
 * maximal run of letters and digits (utf8_isalnum), or under --keep-punct
 * of anything but white space (utf8_isspace); its code points are case
 * folded (utf8_fold) unless --keep-case; its hash is XXH3-64, with the
 * scheme's seed, of its normalized UTF-8 bytes.  Character n-grams take
 * the same code points as items, a run of separators between two of them
 * becoming one space, each hashed as its code point in 4 little-endian
 * bytes.
 *
 * The shingler (shingle.c), weight tables (weights.c) and word sequences
 * (wordseq.c) use these definitions; the block scanners (wordscan.c,
 * wordvec.c) and the batch word hash (wordhash.c) are vector forms of the
 * ASCII half of token_classes and of token_hash, checked against them by
 * test_shingle.
 */
#ifndef TOKEN_H
#define TOKEN_H

#include <stddef.h>
#include <stdint.h>

#include "byteorder.h"
#include "utf8.h"
#include "xxh.h"

/* Byte classes (token_classes). */
enum {
	TOKEN_SEP,		/* an ASCII separator */
	TOKEN_WORD,		/* an ASCII word byte that stands as it is */
	TOKEN_UPPER,		/* an ASCII capital, to be folded */
	TOKEN_HIGH		/* not ASCII: decode, then ask token_isword */
};

/* Is code point cp part of a word? */
static inline int
token_isword(uint32_t cp, int keeppunct)
{
	return keeppunct ? !utf8_isspace(cp) : utf8_isalnum(cp);
}

/* Code point cp as a token holds it. */
static inline uint32_t
token_fold(uint32_t cp, int keepcase)
{
	return keepcase ? cp : utf8_fold(cp);
}

/* The hash of a normalized token of len bytes. */
static inline uint64_t
token_hash(const void *tok, size_t len, uint64_t seed)
{
	return xxh_bytes(tok, len, seed);
}

/* The hash of a character item, code point cp: of its 4 bytes, LE. */
static inline uint64_t
token_char_hash(uint32_t cp, uint64_t seed)
{
	uint32_t le = le32(cp);

	return xxh_bytes(&le, sizeof(le), seed);
}

/*
 * The word rule as a table of the 256 byte values (TOKEN_*), for the
 * options: capitals are TOKEN_UPPER unless keepcase.
 */
const unsigned char *token_classes(int keeppunct, int keepcase);

/*
 * Each byte as a token holds it: ASCII capitals folded unless keepcase,
 * everything else as it is.
 */
const unsigned char *token_ascii(int keepcase);

/*
 * The word rule for the code points of one or two bytes in UTF-8 (Latin,
 * Greek, Cyrillic, Armenian, Hebrew, Arabic...), for the options, as a
 * table of TOKEN_TWO: 0 for a separator, else the code point as a token
 * holds it (token_fold; never 0).
 */
#define TOKEN_TWO	0x800
const uint16_t *token_two(int keeppunct, int keepcase);

/* The code points of three bytes in UTF-8 end below this. */
#define TOKEN_THREE	0x10000

#endif
