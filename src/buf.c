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
