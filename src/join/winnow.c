/*
 * Shared passages by winnowing.
 *
 * Each document becomes its sequence of words (wordseq.c): the
 * shingler's token hashes with the line of each word.  The hash of the k-gram at word i is
 * XXH3 of the k word hashes from i on, as little-endian bytes.  In every
 * window of w consecutive k-gram hashes the minimum is selected, the
 * rightmost one on ties, and each selected (hash, position) is recorded
 * once: B's fingerprints go into an index, A's are looked up in it as they
 * come.  Since the selection depends only on the window's hashes, a common
 * run of k + w - 1 words or more holds a window whose fingerprint both
 * documents record at corresponding positions.
 *
 * Every A fingerprint found in B seeds a match: the words under the k-gram
 * are compared (a hash collision seeds nothing), then the match is extended
 * backwards and forwards to a maximal common run.  A's fingerprints come in
 * ascending position, so a seed inside a run already found on its diagonal
 * (position in A minus position in B) lies before that run's end: an
 * array indexed by the diagonal, of which there are |A| + |B| - 1, keeps
 * the last end only, and each run is extended once.
 *
 * A hash that B records more than MAXOCC times is dropped from its index:
 * it is boilerplate, and a document that repeats a sentence thousands of
 * times would otherwise pair every copy with every copy, quadratic in time
 * and in output.  A passage made only of such k-grams is not reported; one
 * that merely contains some is still found from its other fingerprints.
 * Dropped as the index is built, such a hash costs a lookup nothing more
 * than any other: a text of one word repeated, whose every k-gram is
 * recorded with one hash, is as quick as any.
 *
 * Memory: 12 bytes a word for each document (hash and the low half of the
 * line number) and 8 for its diagonals (pages of zeros, touched only where
 * runs are found), and for B, while its index is built, 32 bytes a
 * fingerprint and 16 more for the buckets: about 2/(w+1) fingerprints a
 * word of ordinary text, up to one a word in a repetitive one.  Time:
 * linear in the bytes for tokenizing and k-gram hashing (O(k) a word), one
 * lookup a fingerprint of A, and for the at most MAXOCC seeds of each O(k)
 * plus the length of each run found.
 */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "byteorder.h"
#include "shingle.h"
#include "utf8.h"
#include "winnow.h"
#include "wordseq.h"
#include "xmalloc.h"
#include "xxh.h"

#define MAXOCC		64	/* more in B: the hash is not used */
#define MINBUCKETS	256

/* A fingerprint: a selected k-gram hash and its position in words. */
struct fp {
	uint64_t h;
	size_t	 pos;
};

/* The winnowing state of one document. */
struct winnower {
	const uint64_t *wh;	/* word hashes */
	size_t	 nk;		/* k-grams in the document */
	size_t	 k, w;
	uint64_t seed;
	unsigned char *bytes;	/* k-gram as little-endian bytes */
	struct fp *dq;		/* ring: hashes ascending from head */
	size_t	 ring;		/* its size, min(w, nk) */
	size_t	 head, cnt;
	size_t	 next;		/* the k-gram to take next */
	size_t	 last;		/* position recorded last */
};

/*
 * B's fingerprints, bucketed by the top bits of the hash.  Most lookups
 * find nothing: a bitmap of about 8 bits a fingerprint, indexed by the low
 * bits of the hash and small enough to stay in cache, turns nearly all of
 * them away before they reach the buckets.
 */
struct fpindex {
	struct fp *fp;		/* by hash, then position */
	size_t	 n, cap;
	size_t	*start;		/* bucket i is fp[start[i] .. start[i + 1]) */
	unsigned shift;
	uint64_t *filter;
	size_t	 fmask;		/* bits in filter, less one */
};

/* A maximal common run: words as.. in A and bs.. in B. */
struct run {
	size_t	 as, bs, len;
};

struct item {
	struct passage p;
	size_t	 as, bs;
};

/* A line whose start or end offset is wanted. */
struct linereq {
	uint64_t line;
	size_t	*off;		/* or NULL */
	size_t	*end;		/* or NULL */
};

static void
winnower_init(struct winnower *wn, const struct wordseq *d, size_t k, size_t w,
    uint64_t seed)
{
	memset(wn, 0, sizeof(*wn));
	wn->wh = d->h;
	wn->nk = d->n >= k ? d->n - k + 1 : 0;
	wn->k = k;
	wn->w = w;
	wn->seed = seed;
	wn->bytes = xreallocarray(NULL, k, sizeof(uint64_t));
	wn->ring = w < wn->nk ? w : wn->nk > 0 ? wn->nk : 1;
	wn->dq = xreallocarray(NULL, wn->ring, sizeof(*wn->dq));
	wn->last = SIZE_MAX;
}

static void
winnower_free(struct winnower *wn)
{
	free(wn->bytes);
	free(wn->dq);
	wn->bytes = NULL;
	wn->dq = NULL;
}

static uint64_t
kgram_hash(struct winnower *wn, size_t i)
{
	uint64_t le;
	size_t j;

	for (j = 0; j < wn->k; j++) {
		le = le64(wn->wh[i + j]);
		memcpy(wn->bytes + j * sizeof(le), &le, sizeof(le));
	}
	return xxh_bytes(wn->bytes, wn->k * sizeof(le), wn->seed);
}

/*
 * The next fingerprint into *f; returns 0 at the end.  The ring holds the
 * candidates for the minimum of the window with hashes strictly ascending:
 * a new hash removes every candidate not below it, so that the front is
 * the rightmost minimum.  A document of fewer than w k-grams has one
 * window, all of them.
 */
static int
winnower_next(struct winnower *wn, struct fp *f)
{
	struct fp *front;
	uint64_t h;
	size_t i;

	while (wn->next < wn->nk) {
		i = wn->next++;
		h = kgram_hash(wn, i);
		if (wn->cnt > 0 && wn->dq[wn->head].pos + wn->w <= i) {
			wn->head = (wn->head + 1) % wn->ring;
			wn->cnt--;
		}
		while (wn->cnt > 0 &&
		    wn->dq[(wn->head + wn->cnt - 1) % wn->ring].h >= h)
			wn->cnt--;
		wn->dq[(wn->head + wn->cnt) % wn->ring].h = h;
		wn->dq[(wn->head + wn->cnt) % wn->ring].pos = i;
		wn->cnt++;
		if (i + 1 < wn->w && i + 1 < wn->nk)
			continue;
		front = &wn->dq[wn->head];
		if (front->pos != wn->last) {
			wn->last = front->pos;
			*f = *front;
			return 1;
		}
	}
	return 0;
}

static int
fp_cmp(const void *x, const void *y)
{
	const struct fp *a = x, *b = y;

	if (a->h != b->h)
		return a->h < b->h ? -1 : 1;
	return (a->pos > b->pos) - (a->pos < b->pos);
}

/*
 * Drop from the sorted index every hash recorded more than MAXOCC times,
 * moving the others down and the bucket starts with them, in one pass.
 * Such a hash is never used, and left in it would cost each lookup of it
 * a walk over all its copies: time quadratic in a repetitive text, where
 * every word is recorded with one and the same hash.
 */
static void
index_drop_common(struct fpindex *ix, size_t nb)
{
	size_t b, i, j, os, oe, n = 0;

	os = ix->start[0];
	for (b = 0; b < nb; b++) {
		oe = ix->start[b + 1];
		ix->start[b] = n;
		for (i = os; i < oe; i = j) {
			for (j = i + 1; j < oe && ix->fp[j].h == ix->fp[i].h;
			    j++)
				continue;
			if (j - i > MAXOCC)
				continue;
			memmove(ix->fp + n, ix->fp + i,
			    (j - i) * sizeof(*ix->fp));
			n += j - i;
		}
		os = oe;
	}
	ix->start[nb] = n;
	ix->n = n;
}

/*
 * Index the fingerprints of d: a counting sort on the top bits of the
 * hash (at least as many buckets as fingerprints), then each bucket sorted.
 */
static void
index_build(struct fpindex *ix, const struct wordseq *d, size_t k, size_t w,
    uint64_t seed)
{
	struct winnower wn;
	struct fp f, *sorted;
	size_t nb, fbits, b, i;
	unsigned bits;

	memset(ix, 0, sizeof(*ix));
	winnower_init(&wn, d, k, w, seed);
	while (winnower_next(&wn, &f)) {
		if (ix->n == ix->cap) {
			ix->cap = ix->cap ? ix->cap * 2 : 1024;
			ix->fp = xreallocarray(ix->fp, ix->cap,
			    sizeof(*ix->fp));
		}
		ix->fp[ix->n++] = f;
	}
	winnower_free(&wn);

	for (nb = MINBUCKETS, bits = 8; nb < ix->n && bits < 63; bits++)
		nb *= 2;
	ix->shift = 64 - bits;
	ix->start = xcalloc(nb + 1, sizeof(*ix->start));
	for (i = 0; i < ix->n; i++)
		ix->start[(ix->fp[i].h >> ix->shift) + 1]++;
	for (b = 0; b < nb; b++)
		ix->start[b + 1] += ix->start[b];
	sorted = xreallocarray(NULL, ix->n ? ix->n : 1, sizeof(*sorted));
	for (i = 0; i < ix->n; i++)
		sorted[ix->start[ix->fp[i].h >> ix->shift]++] = ix->fp[i];
	/* Each start[b] is now the end of bucket b: shift them back. */
	memmove(ix->start + 1, ix->start, nb * sizeof(*ix->start));
	ix->start[0] = 0;
	free(ix->fp);
	ix->fp = sorted;
	for (b = 0; b < nb; b++)
		if (ix->start[b + 1] - ix->start[b] > 1)
			qsort(ix->fp + ix->start[b],
			    ix->start[b + 1] - ix->start[b], sizeof(*ix->fp),
			    fp_cmp);
	index_drop_common(ix, nb);

	for (fbits = 64 * MINBUCKETS; fbits < 8 * ix->n &&
	    fbits < SIZE_MAX / 16; fbits *= 2)
		continue;
	ix->fmask = fbits - 1;
	ix->filter = xcalloc(fbits / 64, sizeof(*ix->filter));
	for (i = 0; i < ix->n; i++)
		ix->filter[(ix->fp[i].h & ix->fmask) / 64] |=
		    (uint64_t)1 << (ix->fp[i].h & 63);
}

/*
 * The fingerprints of hash h: fp[*lo .. *hi), at most MAXOCC of them, the
 * others having been dropped.
 */
static void
index_find(const struct fpindex *ix, uint64_t h, size_t *lo, size_t *hi)
{
	size_t b = (size_t)(h >> ix->shift), l, r, mid;

	if ((ix->filter[(h & ix->fmask) / 64] &
	    ((uint64_t)1 << (h & 63))) == 0) {
		*lo = *hi = 0;
		return;
	}
	l = ix->start[b];
	r = ix->start[b + 1];
	while (l < r) {
		mid = l + (r - l) / 2;
		if (ix->fp[mid].h < h)
			l = mid + 1;
		else
			r = mid;
	}
	*lo = l;
	for (r = l; r < ix->start[b + 1] && ix->fp[r].h == h; r++)
		continue;
	*hi = r;
}

static void
index_free(struct fpindex *ix)
{
	free(ix->fp);
	free(ix->start);
	free(ix->filter);
	memset(ix, 0, sizeof(*ix));
}

static int
item_cmp(const void *x, const void *y)
{
	const struct item *a = x, *b = y;

	if (a->p.words != b->p.words)
		return a->p.words > b->p.words ? -1 : 1;
	if (a->p.a_first != b->p.a_first)
		return a->p.a_first < b->p.a_first ? -1 : 1;
	if (a->p.b_first != b->p.b_first)
		return a->p.b_first < b->p.b_first ? -1 : 1;
	if (a->as != b->as)
		return a->as < b->as ? -1 : 1;
	return (a->bs > b->bs) - (a->bs < b->bs);
}

static int
linereq_cmp(const void *x, const void *y)
{
	const struct linereq *a = x, *b = y;

	return (a->line > b->line) - (a->line < b->line);
}

/*
 * Fill in the byte offsets of the lines asked for, in one pass over the
 * text: each line is searched for its newline at most twice.
 */
static void
line_offsets(const char *text, size_t len, struct linereq *r, size_t n)
{
	const char *nl;
	uint64_t cur = 1;
	size_t i, start = 0, eol = SIZE_MAX;

	qsort(r, n, sizeof(*r), linereq_cmp);
	for (i = 0; i < n; i++) {
		while (cur < r[i].line) {
			if ((nl = memchr(text + start, '\n', len - start)) ==
			    NULL)
				break;	/* not reached: words are on lines */
			start = (size_t)(nl - text) + 1;
			eol = SIZE_MAX;
			cur++;
		}
		if (r[i].off != NULL)
			*r[i].off = start;
		if (r[i].end != NULL) {
			if (eol == SIZE_MAX) {
				nl = memchr(text + start, '\n', len - start);
				eol = nl != NULL ? (size_t)(nl - text) : len;
			}
			*r[i].end = eol;
		}
	}
}

/* Turn the runs into passages, sorted, with their lines and offsets. */
static struct passage *
make_passages(const struct run *runs, size_t n, const struct wordseq *da,
    const char *a, size_t alen, const struct wordseq *db, const char *b,
    size_t blen)
{
	struct item *it;
	struct linereq *ra, *rb;
	struct passage *out;
	size_t i;

	it = xreallocarray(NULL, n, sizeof(*it));
	for (i = 0; i < n; i++) {
		memset(&it[i], 0, sizeof(it[i]));
		it[i].as = runs[i].as;
		it[i].bs = runs[i].bs;
		it[i].p.words = runs[i].len;
		it[i].p.a_first = (size_t)wordseq_line(da, runs[i].as);
		it[i].p.a_last = (size_t)wordseq_line(da,
		    runs[i].as + runs[i].len - 1);
		it[i].p.b_first = (size_t)wordseq_line(db, runs[i].bs);
		it[i].p.b_last = (size_t)wordseq_line(db,
		    runs[i].bs + runs[i].len - 1);
	}
	qsort(it, n, sizeof(*it), item_cmp);

	ra = xreallocarray(NULL, n, 2 * sizeof(*ra));
	rb = xreallocarray(NULL, n, 2 * sizeof(*rb));
	for (i = 0; i < n; i++) {
		ra[2 * i].line = it[i].p.a_first;
		ra[2 * i].off = &it[i].p.a_off;
		ra[2 * i].end = NULL;
		ra[2 * i + 1].line = it[i].p.a_last;
		ra[2 * i + 1].off = NULL;
		ra[2 * i + 1].end = &it[i].p.a_end;
		rb[2 * i].line = it[i].p.b_first;
		rb[2 * i].off = &it[i].p.b_off;
		rb[2 * i].end = NULL;
		rb[2 * i + 1].line = it[i].p.b_last;
		rb[2 * i + 1].off = NULL;
		rb[2 * i + 1].end = &it[i].p.b_end;
	}
	line_offsets(a, alen, ra, 2 * n);
	line_offsets(b, blen, rb, 2 * n);
	free(ra);
	free(rb);

	out = xreallocarray(NULL, n, sizeof(*out));
	for (i = 0; i < n; i++)
		out[i] = it[i].p;
	free(it);
	return out;
}

void
winnow_opts_default(struct winnow_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->k = WINNOW_K;
	o->w = WINNOW_W;
	o->minwords = WINNOW_K + WINNOW_W - 1;
}

size_t
winnow_passages(const char *a, size_t alen, const char *b, size_t blen,
    const struct winnow_opts *o, struct passage **out)
{
	struct wordseq da = { 0 }, db = { 0 };
	struct fpindex ix;
	struct winnower wn;
	size_t *diagend;
	struct run *runs = NULL;
	struct fp f;
	size_t k, w, minwords, nruns = 0, runcap = 0;
	size_t lo, hi, j, p, q, s, t, e, u;
	size_t d;

	k = o->k > 0 ? o->k : 1;
	w = o->w > 0 ? o->w : 1;
	minwords = o->minwords > 0 ? o->minwords : k + w - 1;
	*out = NULL;

	wordseq_read(&da, a, alen, o->keepcase, o->keeppunct, o->seed);
	wordseq_read(&db, b, blen, o->keepcase, o->keeppunct, o->seed);
	if (da.n < k || db.n < k) {
		wordseq_free(&da);
		wordseq_free(&db);
		return 0;
	}
	index_build(&ix, &db, k, w, o->seed);
	diagend = xcalloc(da.n + db.n, sizeof(*diagend));

	winnower_init(&wn, &da, k, w, o->seed);
	while (winnower_next(&wn, &f)) {
		index_find(&ix, f.h, &lo, &hi);
		for (j = lo; j < hi; j++) {
			p = f.pos;
			q = ix.fp[j].pos;
			d = p + db.n - q;
			if (diagend[d] > p)
				continue;	/* inside a run found */
			if (memcmp(da.h + p, db.h + q, k * sizeof(*da.h)) != 0)
				continue;	/* a k-gram hash collision */
			for (s = p, t = q; s > 0 && t > 0 &&
			    da.h[s - 1] == db.h[t - 1]; s--, t--)
				continue;
			for (e = p + k, u = q + k; e < da.n && u < db.n &&
			    da.h[e] == db.h[u]; e++, u++)
				continue;
			diagend[d] = e;
			if (e - s < minwords)
				continue;
			if (nruns == runcap) {
				runcap = runcap ? runcap * 2 : 64;
				runs = xreallocarray(runs, runcap,
				    sizeof(*runs));
			}
			runs[nruns].as = s;
			runs[nruns].bs = t;
			runs[nruns].len = e - s;
			nruns++;
		}
	}
	winnower_free(&wn);
	index_free(&ix);
	free(diagend);

	if (nruns > 0)
		*out = make_passages(runs, nruns, &da, a, alen, &db, b, blen);
	free(runs);
	wordseq_free(&da);
	wordseq_free(&db);
	return nruns;
}

size_t
winnow_words(const char *text, size_t len, const struct winnow_opts *o,
    uint64_t **hash, size_t **line)
{
	struct wordseq d = { 0 };
	size_t i, n;

	wordseq_read(&d, text, len, o->keepcase, o->keeppunct, o->seed);
	n = d.n;
	if (line != NULL) {
		*line = NULL;
		if (n > 0) {
			*line = xreallocarray(NULL, n, sizeof(**line));
			for (i = 0; i < n; i++)
				(*line)[i] = (size_t)wordseq_line(&d, i);
		}
	}
	*hash = d.h;
	d.h = NULL;
	wordseq_free(&d);
	return n;
}
