/*
 * A growable byte buffer: output lines are built here, then written whole.
 */
#ifndef BUF_H
#define BUF_H

#include <stddef.h>
#include <stdint.h>

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

/* Append the decimal digits of v, as printf's %ju would. */
void	 buf_add_u64(struct buf *, uint64_t v);

/*
 * Append s with backslash, newline and carriage return escaped as \\, \n
 * and \r, and tab as \t too if tab (names in fingerprint and band lines).
 */
void	 buf_add_escaped(struct buf *, const char *s, size_t len, int tab);

/*
 * Append s with those escapes undone; returns 0, or -1 with *why on an
 * unknown escape or a lone backslash at the end.
 */
int	 buf_add_unescaped(struct buf *, const char *s, size_t len, int tab,
	    const char **why);

/* Forget the contents, keep the memory. */
void	 buf_clear(struct buf *);

/* Release the memory. */
void	 buf_free(struct buf *);

#endif
