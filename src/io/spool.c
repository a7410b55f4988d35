/*
 * Texts set aside in an unlinked temporary file (see spool.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fdio.h"
#include "spool.h"
#include "xmalloc.h"

#define SPOOL_BUF	(1 << 20)	/* bytes gathered before a write */

struct spool {
	int	 fd;
	uint64_t *off;		/* text i is off[i] .. off[i + 1] */
	size_t	 n, cap;
	struct buf pending;	/* the last texts, not yet written */
};

struct spool *
spool_new(void)
{
	const char *dir = getenv("TMPDIR");
	struct spool *sp;
	char *path;
	int e;

	if (dir == NULL || *dir == '\0')
		dir = "/tmp";
	if (asprintf(&path, "%s/neardup.XXXXXX", dir) == -1)
		return NULL;
	sp = xcalloc(1, sizeof(*sp));
	if ((sp->fd = mkstemp(path)) == -1) {
		e = errno;
		free(path);
		free(sp);
		errno = e;
		return NULL;
	}
	(void)unlink(path);
	free(path);
	sp->cap = 1024;
	sp->off = xreallocarray(NULL, sp->cap, sizeof(*sp->off));
	sp->off[0] = 0;
	return sp;
}

int
spool_add(struct spool *sp, const void *text, size_t len)
{
	int e;

	if (sp->n + 1 == sp->cap) {
		sp->cap *= 2;
		sp->off = xreallocarray(sp->off, sp->cap, sizeof(*sp->off));
	}
	if (sp->pending.len + len > SPOOL_BUF && sp->pending.len > 0) {
		if ((e = fdio_write(sp->fd, sp->pending.data,
		    sp->pending.len)) != 0)
			return e;
		buf_clear(&sp->pending);
	}
	/* A long text goes straight to the file, not through the buffer. */
	if (len > SPOOL_BUF) {
		if ((e = fdio_write(sp->fd, text, len)) != 0)
			return e;
	} else
		buf_add(&sp->pending, text, len);
	sp->off[sp->n + 1] = sp->off[sp->n] + len;
	sp->n++;
	return 0;
}

int
spool_seal(struct spool *sp)
{
	int e;

	e = fdio_write(sp->fd, sp->pending.data, sp->pending.len);
	buf_free(&sp->pending);
	return e;
}

size_t
spool_count(const struct spool *sp)
{
	return sp->n;
}

size_t
spool_len(const struct spool *sp, size_t i)
{
	return (size_t)(sp->off[i + 1] - sp->off[i]);
}

int
spool_read(const struct spool *sp, size_t i, struct buf *b)
{
	size_t len = spool_len(sp, i), got = 0;
	ssize_t r;
	char *p;

	buf_clear(b);
	p = buf_reserve(b, len + 1);
	while (got < len) {
		r = pread(sp->fd, p + got, len - got,
		    (off_t)(sp->off[i] + got));
		if (r == -1 && errno == EINTR)
			continue;
		if (r == -1)
			return errno;
		if (r == 0)
			return EIO;	/* the file was cut short */
		got += (size_t)r;
	}
	b->len = len;
	return 0;
}

void
spool_free(struct spool *sp)
{
	if (sp == NULL)
		return;
	close(sp->fd);
	free(sp->off);
	buf_free(&sp->pending);
	free(sp);
}
