/*
 * Growable byte buffers.
 */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "xmalloc.h"

char *
buf_reserve(struct buf *b, size_t n)
{
	size_t cap;

	if (b->cap - b->len < n) {
		cap = b->cap ? b->cap : 256;
		while (cap - b->len < n)
			cap *= 2;
		b->data = xreallocarray(b->data, cap, 1);
		b->cap = cap;
	}
	return b->data + b->len;
}

void
buf_add(struct buf *b, const void *p, size_t n)
{
	if (n == 0)
		return;
	memcpy(buf_reserve(b, n), p, n);
	b->len += n;
}

void
buf_addc(struct buf *b, int c)
{
	*buf_reserve(b, 1) = (char)c;
	b->len++;
}

void
buf_add_u64(struct buf *b, uint64_t v)
{
	char d[20], *p = d + sizeof(d);

	do
		*--p = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	buf_add(b, p, (size_t)(d + sizeof(d) - p));
}

void
buf_clear(struct buf *b)
{
	b->len = 0;
}

void
buf_free(struct buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

void
buf_add_escaped(struct buf *b, const char *s, size_t len, int tab)
{
	size_t i;

	for (i = 0; i < len; i++) {
		switch (s[i]) {
		case '\\':
			buf_add(b, "\\\\", 2);
			break;
		case '\n':
			buf_add(b, "\\n", 2);
			break;
		case '\r':
			buf_add(b, "\\r", 2);
			break;
		case '\t':
			if (tab) {
				buf_add(b, "\\t", 2);
				break;
			}
			/* FALLTHROUGH */
		default:
			buf_addc(b, s[i]);
		}
	}
}

int
buf_add_unescaped(struct buf *b, const char *s, size_t len, int tab,
    const char **why)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (s[i] != '\\') {
			buf_addc(b, s[i]);
			continue;
		}
		if (++i == len) {
			*why = "name ends in a lone backslash";
			return -1;
		}
		if (s[i] == '\\')
			buf_addc(b, '\\');
		else if (s[i] == 'n')
			buf_addc(b, '\n');
		else if (s[i] == 'r')
			buf_addc(b, '\r');
		else if (s[i] == 't' && tab)
			buf_addc(b, '\t');
		else {
			*why = "unknown escape in name";
			return -1;
		}
	}
	return 0;
}
