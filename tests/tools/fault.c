/*
 * Fault injection for tests/hostile.bats, loaded with LD_PRELOAD: open(2)
 * of one file fails, or read(2) of it fails after some bytes, as a bad
 * disk or a file without permission would make them (tests run as root,
 * who may read anything).  Only the calls neardup makes itself are seen,
 * not those inside the C library.
 *
 *   FAULT_PATH   the file, as neardup names it to open(2); "-" for
 *                standard input (reads only)
 *   FAULT_OPEN   errno value for open(2) of it, for example 13 (EACCES)
 *   FAULT_READ   errno value for read(2) of it, for example 5 (EIO) ...
 *   FAULT_AFTER  ... once this many bytes have been read (default 0)
 *
 * Build: cc -shared -fPIC -o fault.so tests/tools/fault.c -ldl
 * (dlsym(3) results are stored through a void ** as POSIX suggests.)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

static int faultfd = -1;	/* the file's descriptor while it is open */
static long long nread;		/* bytes read from it so far */

static int
is_fault_path(const char *path)
{
	const char *p = getenv("FAULT_PATH");

	return p != NULL && path != NULL && strcmp(p, path) == 0;
}

static int
env_errno(const char *name)
{
	const char *v = getenv(name);

	return v != NULL ? atoi(v) : 0;
}

int
open(const char *path, int flags, ...)
{
	static int (*real)(const char *, int, ...);
	mode_t mode = 0;
	va_list ap;
	int fd, e;

	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "open");
	if (flags & O_CREAT) {
		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	if (is_fault_path(path) && (e = env_errno("FAULT_OPEN")) != 0) {
		errno = e;
		return -1;
	}
	fd = real(path, flags, mode);
	if (fd != -1 && is_fault_path(path)) {
		faultfd = fd;
		nread = 0;
	}
	return fd;
}

int
close(int fd)
{
	static int (*real)(int);

	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "close");
	if (fd == faultfd)
		faultfd = -1;
	return real(fd);
}

ssize_t
read(int fd, void *buf, size_t n)
{
	static ssize_t (*real)(int, void *, size_t);
	long long after;
	ssize_t r;
	int e;

	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "read");
	if ((fd != faultfd && !(fd == 0 && is_fault_path("-"))) ||
	    (e = env_errno("FAULT_READ")) == 0)
		return real(fd, buf, n);
	after = getenv("FAULT_AFTER") ? atoll(getenv("FAULT_AFTER")) : 0;
	if (nread >= after) {
		errno = e;
		return -1;
	}
	if ((long long)n > after - nread)
		n = (size_t)(after - nread);
	if ((r = real(fd, buf, n)) > 0)
		nread += r;
	return r;
}
