/*
 * Batching records.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record.h"
#include "xmalloc.h"

void
recreader_init(struct recreader *r, int fd, int delim)
{
	memset(r, 0, sizeof(*r));
	r->fd = fd;
	r->delim = delim;
	r->next = 1;
	(void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
}

static size_t
count(const char *p, size_t len, int c)
{
	const char *end = p + len;
	size_t n = 0;

	while (p < end && (p = memchr(p, c, (size_t)(end - p))) != NULL) {
		n++;
		p++;
	}
	return n;
}

int
recreader_next(struct recreader *r, char **data, size_t *len,
    uint64_t *first)
{
	size_t cut = 0, scanned = 0;
	char *last;
	ssize_t n;

	for (;;) {
		if (r->len >= RECORD_BATCH || r->eof) {
			last = scanned < r->len ? memrchr(r->buf + scanned,
			    r->delim, r->len - scanned) : NULL;
			if (last != NULL)
				cut = (size_t)(last - r->buf) + 1;
			else if (r->eof)
				cut = r->len;
			scanned = r->len;
			if (cut > 0)
				break;
			if (r->eof)
				return 0;
		}
		if (r->cap - r->len < RECORD_BATCH) {
			r->cap = r->cap ? r->cap * 2 : 2 * RECORD_BATCH;
			r->buf = xreallocarray(r->buf, r->cap, 1);
		}
		n = read(r->fd, r->buf + r->len, r->cap - r->len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			r->eof = 1;
		r->len += (size_t)n;
	}
	*data = xmalloc(cut);
	memcpy(*data, r->buf, cut);
	*len = cut;
	*first = r->next;
	r->next += count(*data, cut, r->delim) +
	    ((*data)[cut - 1] != (char)r->delim);
	memmove(r->buf, r->buf + cut, r->len - cut);
	r->len -= cut;
	return 1;
}

void
recreader_free(struct recreader *r)
{
	free(r->buf);
	r->buf = NULL;
}
