/*
 * Writing to a file descriptor whole (see fdio.h).
 */
#include <errno.h>
#include <unistd.h>

#include "fdio.h"

int
fdio_write(int fd, const void *p, size_t len)
{
	const char *s = p;
	ssize_t n;

	while (len > 0) {
		if ((n = write(fd, s, len)) == -1) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		s += n;
		len -= (size_t)n;
	}
	return 0;
}
