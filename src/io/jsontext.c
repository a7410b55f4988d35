/*
 * Finding and unescaping a JSON Lines record's text without json-c, so
 * that a long text is held once as the line and once unescaped.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "jsontext.h"

#define REPLACEMENT	0xfffd	/* for a lone surrogate, as json-c */

enum want { WANT_NONE, WANT_KEY, WANT_VALUE };

/* The index of the quote that ends the string whose body begins at i. */
static size_t
string_end(const char *s, size_t i, size_t len)
{
	for (; i < len; i++)
		if (s[i] == '\\')
			i++;
		else if (s[i] == '"')
			return i;
	return len;
}

/* Is the key whose body is p, n field?  1, 0, or -1 if unusual. */
static int
key_is(const char *p, size_t n, const char *field)
{
	struct buf k = { NULL, 0, 0 };
	int r;

	/* json-c cuts a key at a \u0000 (it keeps C strings). */
	if (n > 6 * strlen(field))
		return memmem(p, n, "\\u0000", 6) != NULL ? -1 : 0;
	if (jsontext_unescape(p, n, &k) != 0 ||
	    (k.len > 0 && memchr(k.data, '\0', k.len) != NULL))
		r = -1;
	else
		r = k.len == strlen(field) && memcmp(k.data, field, k.len) == 0;
	buf_free(&k);
	return r;
}

int
jsontext_field(const char *line, size_t len, const char *field,
    size_t *start, size_t *end)
{
	enum want want = WANT_NONE;
	size_t i, e;
	int depth = 0, match = 0, found = 0;

	for (i = 0; i < len; i++) {
		switch (line[i]) {
		case '"':
			if ((e = string_end(line, i + 1, len)) == len)
				return 0;
			if (depth == 1 && want == WANT_KEY &&
			    (match = key_is(line + i + 1, e - i - 1, field)) < 0)
				return 0;
			if (depth == 1 && want == WANT_VALUE && match) {
				*start = i + 1;
				*end = e;
				found = 1;
			}
			want = WANT_NONE;
			i = e;
			break;
		case '{':
		case '[':
			want = ++depth == 1 && line[i] == '{' ? WANT_KEY :
			    WANT_NONE;
			break;
		case '}':
		case ']':
			depth--;
			want = WANT_NONE;
			break;
		case ',':
			want = depth == 1 ? WANT_KEY : WANT_NONE;
			break;
		case ':':
			/* A later value of the key is the one kept. */
			if (depth == 1 && match)
				found = 0;
			want = depth == 1 ? WANT_VALUE : WANT_NONE;
			break;
		}
	}
	return found;
}

/* The code unit of four hex digits at p: 0..0xffff, or -1. */
static long
hex4(const char *p)
{
	long u = 0;
	int i, c;

	for (i = 0; i < 4; i++) {
		c = p[i];
		if (c >= '0' && c <= '9')
			c -= '0';
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			c = (c | 0x20) - 'a' + 10;
		else
			return -1;
		u = u << 4 | c;
	}
	return u;
}

/* Append code point u as UTF-8 at q: the byte after it. */
static char *
utf8(char *q, uint32_t u)
{
	if (u < 0x80)
		*q++ = (char)u;
	else if (u < 0x800) {
		*q++ = (char)(0xc0 | u >> 6);
		*q++ = (char)(0x80 | (u & 0x3f));
	} else if (u < 0x10000) {
		*q++ = (char)(0xe0 | u >> 12);
		*q++ = (char)(0x80 | (u >> 6 & 0x3f));
		*q++ = (char)(0x80 | (u & 0x3f));
	} else {
		*q++ = (char)(0xf0 | u >> 18);
		*q++ = (char)(0x80 | (u >> 12 & 0x3f));
		*q++ = (char)(0x80 | (u >> 6 & 0x3f));
		*q++ = (char)(0x80 | (u & 0x3f));
	}
	return q;
}

/*
 * The \uXXXX escape at p[*i] (after its backslash and u) onwards, with a
 * low surrogate after a high one: written at q, *i past it.  NULL if bad.
 */
static char *
unicode(const char *p, size_t n, size_t *i, char *q)
{
	long u, lo;

	if (n - *i < 4 || (u = hex4(p + *i)) < 0)
		return NULL;
	*i += 4;
	while (u >= 0xd800 && u <= 0xdbff) {
		if (n - *i < 6 || p[*i] != '\\' || p[*i + 1] != 'u')
			return utf8(q, REPLACEMENT);
		if ((lo = hex4(p + *i + 2)) < 0)
			return NULL;
		*i += 6;
		if (lo >= 0xdc00 && lo <= 0xdfff)
			return utf8(q, 0x10000 + (uint32_t)((u - 0xd800) << 10 |
			    (lo - 0xdc00)));
		/* Not a pair: the high one alone, then what came next. */
		q = utf8(q, REPLACEMENT);
		u = lo;
	}
	return utf8(q, u >= 0xdc00 && u <= 0xdfff ? REPLACEMENT :
	    (uint32_t)u);
}

int
jsontext_unescape(const char *p, size_t n, struct buf *out)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *c;
	char *q = buf_reserve(out, n);
	size_t i;

	/* The text is never longer than its escaped form. */
	for (i = 0; i < n; i++) {
		if (p[i] == '\0')
			return -1;
		if (p[i] != '\\') {
			*q++ = p[i];
			continue;
		}
		if (++i == n)
			return -1;
		if (p[i] == 'u') {
			i++;
			if ((q = unicode(p, n, &i, q)) == NULL)
				return -1;
			i--;
		} else if ((c = memchr(from, p[i], sizeof(from) - 1)) != NULL)
			*q++ = to[c - from];
		else
			return -1;
	}
	out->len = (size_t)(q - out->data);
	return 0;
}
