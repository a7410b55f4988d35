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

int
linein_next(struct linein *li, char **line, size_t *len)
{
	size_t n, scanned = 0;
	int skipping = 0, e;
	char *p;

	for (;;) {
		n = li->len - li->start;
		p = n > scanned ? memchr(li->buf + li->start + scanned,
		    li->delim, n - scanned) : NULL;
		if (p != NULL || (li->eof && (n > 0 || skipping))) {
			if (p == NULL)
				p = li->buf + li->len;
			li->lineno++;
			*line = li->buf + li->start;
			*len = (size_t)(p - *line);
			li->start = p < li->buf + li->len ?
			    (size_t)(p - li->buf) + 1 : li->len;
			if (skipping || *len > li->max)
				return LINEIN_LONG;
			*p = '\0';
			return 1;
		}
		if (li->eof)
			return 0;
		if (n > li->max) {
			/* Too long already: drop it, and look for its end. */
			skipping = 1;
			li->start = li->len = 0;
			n = 0;
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
