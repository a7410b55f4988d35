/*
 * UTF-8 decoding and the fixed, locale-free character classes and case
 * folding that neardup's normalization is defined by.
 */
#ifndef UTF8_H
#define UTF8_H

#include <stddef.h>
#include <stdint.h>

#define UTF8_REPLACEMENT 0xFFFDu

/*
 * Decode one code point from s[0..len).  Stores it in *cp and returns the
 * number of bytes used (1 to 4).  An invalid or overlong sequence, a
 * surrogate, or a lead byte without its continuation bytes decodes as
 * U+FFFD and consumes exactly one byte, so every invalid byte becomes one
 * replacement character.  When the bytes so far are a valid but unfinished
 * sequence and more input may follow (!at_end), returns 0: the caller keeps
 * those bytes for the next block.
 */
size_t	utf8_decode(const unsigned char *s, size_t len, int at_end,
	    uint32_t *cp);

/* Encode cp (at most U+10FFFF) into out, returning the byte count. */
static inline size_t
utf8_encode(uint32_t cp, unsigned char out[4])
{
	if (cp < 0x80) {
		out[0] = (unsigned char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (unsigned char)(0xC0 | (cp >> 6));
		out[1] = (unsigned char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (unsigned char)(0xE0 | (cp >> 12));
		out[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
		out[2] = (unsigned char)(0x80 | (cp & 0x3F));
		return 3;
	}
	out[0] = (unsigned char)(0xF0 | (cp >> 18));
	out[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
	out[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
	out[3] = (unsigned char)(0x80 | (cp & 0x3F));
	return 4;
}

/* Simple case folding from a fixed table (no locale). */
uint32_t utf8_fold(uint32_t cp);

/* Is cp a letter or digit (part of a word) under default normalization? */
int	utf8_isalnum(uint32_t cp);

/* Is cp white space (the only separator under --keep-punct)? */
int	utf8_isspace(uint32_t cp);

#endif
