/*
 * Whole-document digests: the shingler's sink is the sketch.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

int
digest_fd(struct digest *d, int fd, const uint64_t **values)
{
	ssize_t n;

	if (d->rbuf == NULL)
		d->rbuf = xmalloc(DIGEST_READSIZE);
	(void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	for (;;) {
		n = read(fd, d->rbuf, DIGEST_READSIZE);
		if (n == 0)
			break;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			n = errno;
			shingle_end(&d->sh);
			sketch_reset(&d->sk);
			return (int)n;
		}
		shingle_feed(&d->sh, d->rbuf, (size_t)n);
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
