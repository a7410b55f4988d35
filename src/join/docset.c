/*
 * Exact shingle sets of documents (see docset.h).
 *
 * The shingles go from the shingler into a shset, which drops repeats as
 * they come; its table is then read out.  The table places each hash at
 * its top bits, so it is read out nearly in order, and an insertion sort
 * finishes the order in about linear time (only the few that wrapped
 * round the end of the table travel far).
 */
#include <stdlib.h>
#include <string.h>

#include "docset.h"
#include "xmalloc.h"

#define READSIZE	(256 * 1024)

static void
to_set(void *ctx, const uint64_t *h, const double *w, size_t n)
{
	struct docreader *r = ctx;

	(void)w;
	shset_add(&r->set, h, n);
}

void
docreader_init(struct docreader *r, const struct scheme *sc)
{
	memset(r, 0, sizeof(*r));
	shset_init(&r->set);
	shingle_init(&r->sh, sc, NULL, to_set, r);
}

/* Move the set gathered in r into ds, sorted, and empty r's. */
static void
take(struct docreader *r, struct docset *ds)
{
	const struct shset *s = &r->set;
	size_t i, j, n = 0;
	uint64_t h;

	ds->h = xreallocarray(NULL, s->n ? s->n : 1, sizeof(*ds->h));
	if (s->has_zero)
		ds->h[n++] = 0;
	for (i = 0; i < s->cap; i++)
		if (s->slot[i] != 0)
			ds->h[n++] = s->slot[i];
	for (i = 1; i < n; i++) {
		h = ds->h[i];
		for (j = i; j > 0 && ds->h[j - 1] > h; j--)
			ds->h[j] = ds->h[j - 1];
		ds->h[j] = h;
	}
	ds->n = n;
	shset_free(&r->set);
}

int
docreader_fd(struct docreader *r, int fd, struct docset *ds)
{
	int e;

	memset(ds, 0, sizeof(*ds));
	if (r->rbuf == NULL)
		r->rbuf = xmalloc(READSIZE);
	if ((e = shingle_fd(&r->sh, fd, r->rbuf, READSIZE, 0)) != 0) {
		shingle_end(&r->sh);
		shset_free(&r->set);
		return e;
	}
	shingle_end(&r->sh);
	take(r, ds);
	return 0;
}

void
docreader_mem(struct docreader *r, const void *p, size_t len,
    struct docset *ds)
{
	shingle_feed(&r->sh, p, len);
	shingle_end(&r->sh);
	take(r, ds);
}

void
docreader_free(struct docreader *r)
{
	shingle_free(&r->sh);
	shset_free(&r->set);
	free(r->rbuf);
	r->rbuf = NULL;
}

size_t
docset_shared(const struct docset *a, const struct docset *b)
{
	const uint64_t *p = a->h, *pe = a->h + a->n;
	const uint64_t *q = b->h, *qe = b->h + b->n;
	size_t shared = 0;

	while (p < pe && q < qe) {
		if (*p == *q) {
			shared++;
			p++;
			q++;
		} else if (*p < *q)
			p++;
		else
			q++;
	}
	return shared;
}

double
docset_jaccard(const struct docset *a, const struct docset *b)
{
	size_t shared;

	if (a->n == 0 && b->n == 0)
		return 1;
	shared = docset_shared(a, b);
	return (double)shared / (double)(a->n + b->n - shared);
}

int
docset_reaches(size_t shared, size_t na, size_t nb, double t)
{
	size_t u = na + nb - shared;

	if (u == 0)
		return 1;
	/*
	 * shared / u >= t, as the quotient printed would be compared: the
	 * division is correctly rounded, so a pair at exactly t (8 of 10 at
	 * 0.8) passes, as it does where similarities are compared.
	 */
	return (double)shared / (double)u >= t;
}

void
docset_free(struct docset *ds)
{
	free(ds->h);
	memset(ds, 0, sizeof(*ds));
}
