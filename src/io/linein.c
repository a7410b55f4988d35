/*
 * Lines of bounded length from a file descriptor.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linein.h"
#include "xmalloc.h"

#define LINEIN_READ	(64 * 1024)	/* least room for a read */

void
linein_init(struct linein *li, int fd, int delim, size_t max)
{
	memset(li, 0, sizeof(*li));
	li->fd = fd;
	li->delim = delim;
	li->max = max;
	li->src.fd = -1;
}

int
linein_open(struct linein *li, const char *path, int isstdin, int delim,
    size_t max)
{
	struct source src;
	int e;

	if ((e = source_open(&src, path, isstdin, delim, 0)) != 0)
		return e;
	linein_init(li, src.fd, delim, max);
	li->src = src;
	return 0;
}

int
linein_close(struct linein *li, char **why)
{
	int e;

	linein_free(li);
	*why = NULL;
	if (li->src.fd < 0)
		return 0;
	e = source_close(&li->src);
	*why = li->src.why;
	li->src.why = NULL;
	return e;
}

/*
 * Move the unread bytes to the front, make room and read: 0, or an errno
 * value, negated.  A byte is always left free for the NUL of a last line
 * without its delimiter.
 */
static int
fill(struct linein *li)
{
	size_t cap;
	ssize_t n;

	if (li->start > 0) {
		memmove(li->buf, li->buf + li->start, li->len - li->start);
		li->len -= li->start;
		li->start = 0;
	}
	if (li->cap - li->len < LINEIN_READ + 1) {
		cap = li->cap ? 2 * li->cap : 2 * LINEIN_READ;
		li->buf = xreallocarray(li->buf, cap, 1);
		li->cap = cap;
	}
	while ((n = read(li->fd, li->buf + li->len, li->cap - li->len - 1)) ==
	    -1)
		if (errno != EINTR)
			return -errno;
	if (n == 0)
		li->eof = 1;
	li->len += (size_t)n;
	return 0;
}

/*
 * Drop the rest of a line said to be too long before its end was read:
 * 1 when it is dropped, 0 at the end of input, or an errno value, negated.
 */
static int
skip_rest(struct linein *li)
{
	size_t n;
	char *p;
	int e;

	for (;;) {
		n = li->len - li->start;
		if (n > 0 && (p = memchr(li->buf + li->start, li->delim, n)) !=
		    NULL) {
			li->start = (size_t)(p - li->buf) + 1;
			li->skip = 0;
			return 1;
		}
		if (li->eof)
			return 0;
		li->start = li->len = 0;
		if ((e = fill(li)) != 0)
			return e;
	}
}

int
linein_next(struct linein *li, char **line, size_t *len)
{
	size_t n, scanned = 0;
	int e;
	char *p;

	if (li->skip && (e = skip_rest(li)) != 1)
		return e;
	for (;;) {
		n = li->len - li->start;
		p = n > scanned ? memchr(li->buf + li->start + scanned,
		    li->delim, n - scanned) : NULL;
		if (p != NULL || (li->eof && n > 0)) {
			if (p == NULL)
				p = li->buf + li->len;
			li->lineno++;
			*line = li->buf + li->start;
			*len = (size_t)(p - *line);
			li->start = p < li->buf + li->len ?
			    (size_t)(p - li->buf) + 1 : li->len;
			if (*len > li->max)
				return LINEIN_LONG;
			*p = '\0';
			return 1;
		}
		if (li->eof)
			return 0;
		if (n > li->max) {
			/*
			 * Too long already: say so now, and drop the rest on
			 * the next call, for a line may have no end at all.
			 */
			li->lineno++;
			*line = li->buf + li->start;
			*len = n;
			li->start = li->len = 0;
			li->skip = 1;
			return LINEIN_LONG;
		}
		scanned = n;
		if ((e = fill(li)) != 0)
			return e;
	}
}

void
linein_free(struct linein *li)
{
	free(li->buf);
	li->buf = NULL;
	li->start = li->len = li->cap = 0;
}
