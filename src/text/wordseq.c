/*
 * Documents as word sequences (see wordseq.h).  Line numbers are stored
 * as their low 32 bits per word, with the rare changes of the high half
 * listed apart.
 */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "token.h"
#include "utf8.h"
#include "wordseq.h"
#include "xmalloc.h"

static void
add(struct wordseq *d, uint64_t h, uint64_t line)
{
	uint64_t hi = line >> 32, cur = d->nhi ? d->hi[d->nhi - 1].hi : 0;

	if (d->n == d->cap) {
		d->cap = d->cap ? d->cap * 2 : 1024;
		d->h = xreallocarray(d->h, d->cap, sizeof(*d->h));
		d->lo = xreallocarray(d->lo, d->cap, sizeof(*d->lo));
	}
	if (hi != cur) {
		if (d->nhi == d->hicap) {
			d->hicap = d->hicap ? d->hicap * 2 : 4;
			d->hi = xreallocarray(d->hi, d->hicap, sizeof(*d->hi));
		}
		d->hi[d->nhi].from = d->n;
		d->hi[d->nhi].hi = hi;
		d->nhi++;
	}
	d->h[d->n] = h;
	d->lo[d->n] = (uint32_t)line;
	d->n++;
}

uint64_t
wordseq_line(const struct wordseq *d, size_t i)
{
	size_t lo = 0, hi = d->nhi, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (d->hi[mid].from <= i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (lo > 0 ? d->hi[lo - 1].hi << 32 : 0) | d->lo[i];
}

void
wordseq_free(struct wordseq *d)
{
	free(d->h);
	free(d->lo);
	free(d->hi);
	memset(d, 0, sizeof(*d));
}

static void
end_word(struct wordseq *d, struct buf *tok, uint64_t line, uint64_t seed)
{
	add(d, token_hash(tok->data, tok->len, seed), line);
	buf_clear(tok);
}

void
wordseq_read(struct wordseq *d, const char *text, size_t len, int keepcase,
    int keeppunct, uint64_t seed)
{
	const unsigned char *p, *end, *s;
	const unsigned char *cls = token_classes(keeppunct, keepcase);
	const unsigned char *fold = token_ascii(keepcase);
	unsigned char u[4];
	struct buf tok = { 0 };
	uint64_t line = 1, wline = 0;
	uint32_t cp;
	size_t i, n;
	char *q;

	if (len == 0)
		return;
	p = (const unsigned char *)text;
	end = p + len;
	while (p < end) {
		if (*p < 0x80) {
			if (cls[*p] == TOKEN_SEP) {
				if (*p++ == '\n')
					line++;
				if (tok.len > 0)
					end_word(d, &tok, wline, seed);
				continue;
			}
			if (tok.len == 0)
				wline = line;
			for (s = p; p < end && (cls[*p] == TOKEN_WORD ||
			    cls[*p] == TOKEN_UPPER); p++)
				continue;
			n = (size_t)(p - s);
			q = buf_reserve(&tok, n);
			for (i = 0; i < n; i++)
				q[i] = (char)fold[s[i]];
			tok.len += n;
			continue;
		}
		p += utf8_decode(p, (size_t)(end - p), 1, &cp);
		if (!token_isword(cp, keeppunct)) {
			if (tok.len > 0)
				end_word(d, &tok, wline, seed);
			continue;
		}
		if (tok.len == 0)
			wline = line;
		cp = token_fold(cp, keepcase);
		buf_add(&tok, u, utf8_encode(cp, u));
	}
	if (tok.len > 0)
		end_word(d, &tok, wline, seed);
	buf_free(&tok);
	if (d->n > 0 && d->n < d->cap) {
		d->h = xreallocarray(d->h, d->n, sizeof(*d->h));
		d->lo = xreallocarray(d->lo, d->n, sizeof(*d->lo));
		d->cap = d->n;
	}
}

