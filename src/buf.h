/*
 * A growable byte buffer: output lines are built here, then written whole.
 */
#ifndef BUF_H
#define BUF_H

#include <stddef.h>

struct buf {
	char	*data;
	size_t	 len;
	size_t	 cap;
};

/* Make room for n more bytes and return a pointer to them. */
char	*buf_reserve(struct buf *, size_t n);

/* Append n bytes. */
void	 buf_add(struct buf *, const void *, size_t n);

/* Append one byte. */
void	 buf_addc(struct buf *, int c);

/* Forget the contents, keep the memory. */
void	 buf_clear(struct buf *);

/* Release the memory. */
void	 buf_free(struct buf *);

#endif
