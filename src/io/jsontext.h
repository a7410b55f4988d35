/*
 * The one long string of a JSON Lines record, read without the JSON
 * parser: json-c builds a string in its own buffer, then copies it into
 * the string object, so that a record of 100 MB would be held three
 * times.  Here the record's text field is found by a lexical scan and
 * unescaped straight into a buffer of the caller's, as json-c would
 * unescape it; the parser still checks the rest of the line.  Anything
 * out of the ordinary (a byte json-c refuses, a key with \u0000 in it)
 * makes these functions decline, and the caller parses the whole line.
 */
#ifndef JSONTEXT_H
#define JSONTEXT_H

#include <stddef.h>

struct buf;

/*
 * Find the string value of key field in the object that the line is (the
 * last one, as json-c keeps the last of equal keys): 1 with the bytes
 * between its quotes at [*start, *end) of line, or 0.
 */
int	jsontext_field(const char *line, size_t len, const char *field,
	    size_t *start, size_t *end);

/*
 * Append the n bytes of a JSON string's body at p to out, unescaped into
 * UTF-8 as json-c does (a lone surrogate is U+FFFD): 0, or -1 if json-c
 * would refuse it (a bad escape, a NUL byte).
 */
int	jsontext_unescape(const char *p, size_t n, struct buf *out);

#endif
