/*
 * Whole-document digests: the shingler's sink is the sketch.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "digest.h"
#include "shset.h"
#include "xmalloc.h"

static void
to_sketch(void *ctx, const uint64_t *h, const double *w, size_t n)
{
	struct digest *d = ctx;

	sketch_add(&d->sk, h, w, n);
	if (d->set != NULL)
		shset_add(d->set, h, n);
}

void
digest_init(struct digest *d, const struct scheme *sc,
    const struct weights *wt, struct shset *set)
{
	memset(d, 0, sizeof(*d));
	d->sc = *sc;
	d->set = set;
	sketch_init(&d->sk, sc);
	shingle_init(&d->sh, sc, wt, to_sketch, d);
}

void
digest_feed(struct digest *d, const void *p, size_t len)
{
	shingle_feed(&d->sh, p, len);
}

const uint64_t *
digest_end(struct digest *d)
{
	const uint64_t *v;

	shingle_end(&d->sh);
	v = sketch_final(&d->sk);
	sketch_reset(&d->sk);
	return v;
}

/* Give up the document being digested. */
static void
abandon(struct digest *d)
{
	shingle_end(&d->sh);
	sketch_reset(&d->sk);
}

int
digest_fd(struct digest *d, int fd, int skipbin, const uint64_t **values)
{
	int e;

	if (d->rbuf == NULL)
		d->rbuf = xmalloc(DIGEST_READSIZE);
	if ((e = shingle_fd(&d->sh, fd, d->rbuf, DIGEST_READSIZE, skipbin ?
	    DIGEST_PROBE : 0)) != 0) {
		abandon(d);
		return e == SHINGLE_BINARY ? DIGEST_BINARY : e;
	}
	*values = digest_end(d);
	return 0;
}

void
digest_free(struct digest *d)
{
	shingle_free(&d->sh);
	sketch_free(&d->sk);
	free(d->rbuf);
	d->rbuf = NULL;
}
