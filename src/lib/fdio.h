/*
 * Writing to a file descriptor whole, through short writes and signals:
 * the one loop the decompression feed, the spool and the progress line
 * share.
 */
#ifndef FDIO_H
#define FDIO_H

#include <stddef.h>

/* Write all len bytes of p to fd: 0, or an errno value (EPIPE: no reader). */
int	fdio_write(int fd, const void *p, size_t len);

#endif
