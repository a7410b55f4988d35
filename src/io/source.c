/*
 * Documents and record files, decompressed (see source.h).
 *
 * Why a pipe fed by a thread, not a read callback: every reader of input
 * (shingle_fd, recreader, linein) takes a file descriptor, and the plain
 * file keeps its mmap and read paths untouched; only a compressed file
 * pays for the pipe, and its decompression then runs beside the hashing
 * on another core, which a callback would not give.
 */
#include <sys/stat.h>

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bgjob.h"
#include "fdio.h"
#include "record.h"
#include "source.h"
#include "xmalloc.h"

#define MAGIC_MAX	10		/* the longest magic: bzip2's */
#define MAGIC_LEVEL	0xff		/* in a magic: any of '1' to '9' */
#define FEED_READ	(256 * 1024)	/* decompressed bytes per write */
#define ARCHIVE_BLOCK	(128 * 1024)	/* compressed bytes per read */
#define PIPE_SIZE	(1024 * 1024)	/* asked of the pipe, if allowed */

/*
 * The compressed formats read, by the bytes a stream of each begins with.
 * bzip2's "BZh" is text: its level and the magic of its first block (or
 * of its end, for an empty stream) are asked for too, so that a text that
 * begins "BZh" is read as text.
 */
static const struct magic {
	unsigned char b[MAGIC_MAX];
	size_t	 len;
} magics[] = {
	{ { 0x1f, 0x8b }, 2 },				/* gzip */
	{ { 'B', 'Z', 'h', MAGIC_LEVEL, '1', 'A', 'Y', '&', 'S', 'Y' }, 10 },
	{ { 'B', 'Z', 'h', MAGIC_LEVEL, 0x17, 'r', 'E', '8', 'P', 0x90 }, 10 },
	{ { 0xfd, '7', 'z', 'X', 'Z', 0x00 }, 6 },	/* xz */
	{ { 0x28, 0xb5, 0x2f, 0xfd }, 4 },		/* zstd */
	{ { 0x04, 0x22, 0x4d, 0x18 }, 4 },		/* lz4 frame */
};

/* The decompressing thread and what it shares with the reader. */
struct source_feed {
	struct bgjob *bg;
	struct bgjob_task task;
	struct archive *a;
	int	 wfd;		/* the pipe's write end */
	int	 delim;
	int	 errnum;	/* the pipe could not be written */
	char	*why;		/* the stream broke: libarchive's reason */
};

int
source_magic(const unsigned char *p, size_t n)
{
	size_t i, j, m;
	int more = 0;

	for (i = 0; i < sizeof(magics) / sizeof(magics[0]); i++) {
		m = n < magics[i].len ? n : magics[i].len;
		for (j = 0; j < m; j++)
			if (magics[i].b[j] == MAGIC_LEVEL ? p[j] < '1' ||
			    p[j] > '9' : p[j] != magics[i].b[j])
				break;
		if (j < m)
			continue;
		if (m == magics[i].len)
			return 1;
		more = 1;
	}
	return more ? -1 : 0;
}

/*
 * The first bytes of a pipe, without taking them: tee(2) copies them into
 * a pipe of our own.  The writer may not have written enough of them yet,
 * so they are looked at again until decided() says they are enough, or
 * want bytes are there, or the writer has gone.
 */
static size_t
peek_pipe(int fd, unsigned char *b, size_t want, source_decided *decided)
{
	const struct timespec ms = { 0, 1000000 };
	struct pollfd pfd;
	ssize_t n = 0;
	int p[2];

	if (pipe2(p, O_CLOEXEC | O_NONBLOCK) == -1)
		return 0;
	for (;;) {
		pfd.fd = fd;
		pfd.events = POLLIN;
		if (poll(&pfd, 1, -1) == -1 && errno != EINTR)
			break;
		if ((n = tee(fd, p[1], want, 0)) <= 0) {
			if (n == -1 && errno == EINTR)
				continue;
			n = 0;
			break;		/* the end, or not a pipe after all */
		}
		if ((n = read(p[0], b, (size_t)n)) <= 0) {
			n = 0;
			break;
		}
		if ((size_t)n == want || decided(b, (size_t)n) ||
		    (pfd.revents & POLLHUP))
			break;
		nanosleep(&ms, NULL);
	}
	close(p[0]);
	close(p[1]);
	return (size_t)n;
}

/*
 * source_peek on fd, whose fstat(2) is st and whose offset is off (-1:
 * not known, lseek(2) asks).
 */
static size_t
peek_at(int fd, const struct stat *st, off_t off, unsigned char *b,
    size_t want, source_decided *decided)
{
	ssize_t n;

	if (S_ISFIFO(st->st_mode))
		return peek_pipe(fd, b, want, decided);
	if (!S_ISREG(st->st_mode) ||
	    (off == -1 && (off = lseek(fd, 0, SEEK_CUR)) == -1))
		return 0;
	while ((n = pread(fd, b, want, off)) == -1 && errno == EINTR)
		continue;
	return n > 0 ? (size_t)n : 0;
}

size_t
source_peek(int fd, unsigned char *b, size_t want, source_decided *decided)
{
	struct stat st;

	if (fstat(fd, &st) == -1)
		return 0;
	return peek_at(fd, &st, -1, b, want, decided);
}

/* Are the n bytes at b enough to tell a compressed stream? */
static int
magic_decided(const unsigned char *b, size_t n)
{
	return source_magic(b, n) >= 0;
}

/*
 * Is what fd, at offset off (-1: not known), will give next compressed?
 * Nothing is taken from it; its fstat(2) is kept in s.
 */
static int
compressed(struct source *s, int fd, off_t off)
{
	unsigned char b[MAGIC_MAX];
	size_t n;

	if (fstat(fd, &s->st) == -1)
		return 0;
	s->have_st = 1;
	n = peek_at(fd, &s->st, off, b, sizeof(b), magic_decided);
	return n > 0 && source_magic(b, n) == 1;
}

/*
 * How many of the len bytes at p to write now: up to the last delimiter
 * of a record file, so that a record is written only when whole.  A
 * record grown past RECORD_MAX is written all the same: the reader skips
 * it as too long in any case, and the holding stays bounded.
 */
static size_t
ready(const struct source_feed *f, const char *p, size_t len)
{
	const char *d;

	if (f->delim == SOURCE_WHOLE || len > RECORD_MAX)
		return len;
	d = memrchr(p, f->delim, len);
	return d == NULL ? 0 : (size_t)(d + 1 - p);
}

void
source_filters(struct archive *a)
{
	archive_read_support_filter_gzip(a);
	archive_read_support_filter_bzip2(a);
	archive_read_support_filter_xz(a);
	archive_read_support_filter_zstd(a);
	archive_read_support_filter_lz4(a);
}

int
source_decoded(struct archive *a)
{
	/* Filter 0 reads the file; one above it decompresses. */
	return archive_filter_count(a) > 1;
}

/* libarchive's reason for a's failure, malloc'd. */
static char *
reason(struct archive *a)
{
	const char *s = archive_error_string(a);

	return xstrdup(s != NULL ? s : "cannot decompress");
}

/* The thread: decompress into the pipe, then close it. */
static void
feed(void *arg)
{
	struct source_feed *f = arg;
	struct archive_entry *e;
	size_t held = 0, cap = 2 * FEED_READ, out;
	sigset_t pipe_sig;
	char *buf;
	ssize_t n;

	/* A reader that stops early must give EPIPE here, not SIGPIPE. */
	sigemptyset(&pipe_sig);
	sigaddset(&pipe_sig, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_sig, NULL);
	buf = xmalloc(cap);
	n = archive_read_next_header(f->a, &e);
	n = n == ARCHIVE_EOF ? 0 : n < ARCHIVE_WARN ? -1 : 1;
	if (n >= 0 && !source_decoded(f->a)) {
		n = 0;
		f->why = xstrdup(SOURCE_HEADER_WHY);
	}
	while (n > 0) {
		if (cap - held < FEED_READ) {
			cap *= 2;
			buf = xreallocarray(buf, cap, 1);
		}
		if ((n = archive_read_data(f->a, buf + held, FEED_READ)) <= 0)
			break;
		held += (size_t)n;
		out = ready(f, buf, held);
		if ((f->errnum = fdio_write(f->wfd, buf, out)) != 0)
			break;
		memmove(buf, buf + out, held - out);
		held -= out;
	}
	if (n < 0)
		f->why = reason(f->a);
	else if (n == 0 && f->errnum == 0 && f->why == NULL)
		f->errnum = fdio_write(f->wfd, buf, held);
	if (f->errnum == EPIPE)
		f->errnum = 0;		/* the reader wanted no more */
	free(buf);
	close(f->wfd);
}

/*
 * A reader of the compressed formats of magics[] on fd, or NULL with the
 * reason in *why.
 */
static struct archive *
reader_new(int fd, char **why)
{
	struct archive *a;

	if ((a = archive_read_new()) == NULL) {
		*why = xstrdup(strerror(ENOMEM));
		return NULL;
	}
	source_filters(a);
	archive_read_support_format_raw(a);
	/* Raw wants a byte: a compressed empty text is the empty format. */
	archive_read_support_format_empty(a);
	if (archive_read_open_fd(a, fd, ARCHIVE_BLOCK) == ARCHIVE_OK)
		return a;
	*why = reason(a);
	archive_read_free(a);
	return NULL;
}

/*
 * Start decompressing fd into a pipe; s->fd becomes its read end.  A
 * stream libarchive cannot even begin to read ends the pipe at once, as
 * broken.
 */
static int
start_feed(struct source *s, int fd, int delim)
{
	struct source_feed *f;
	int p[2];

	if (pipe2(p, O_CLOEXEC) == -1)
		return errno;
	(void)fcntl(p[1], F_SETPIPE_SZ, PIPE_SIZE);
	f = xcalloc(1, sizeof(*f));
	f->wfd = p[1];
	f->delim = delim;
	if ((f->a = reader_new(fd, &f->why)) == NULL)
		close(p[1]);
	else {
		f->bg = bgjob_new();
		f->task.fn = feed;
		f->task.arg = f;
		bgjob_start(f->bg, &f->task);
	}
	s->feed = f;
	s->compressed = 1;
	s->fd = p[0];
	return 0;
}

/* source_fd of fd at offset off (-1: not known). */
static int
source_fd_at(struct source *s, int fd, int own, int delim, off_t off)
{
	int e;

	memset(s, 0, sizeof(*s));
	s->fd = fd;
	s->own = own;
	if (!compressed(s, fd, off))
		return 0;
	if ((e = start_feed(s, fd, delim)) != 0)
		s->fd = fd;
	else
		s->infd = fd;
	return e;
}

int
source_fd(struct source *s, int fd, int own, int delim)
{
	return source_fd_at(s, fd, own, delim, -1);
}

int
source_open(struct source *s, const char *path, int isstdin, int delim,
    int oflags)
{
	int fd, e;

	if (isstdin)
		return source_fd(s, STDIN_FILENO, 0, delim);
	if ((fd = open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC | oflags)) == -1)
		return errno;
	/* Just opened: at offset 0, which needs no lseek(2) to know. */
	if ((e = source_fd_at(s, fd, 1, delim, 0)) != 0)
		close(fd);
	return e;
}

int
source_close(struct source *s)
{
	struct source_feed *f = s->feed;
	int e = 0;

	if (f != NULL) {
		/* The thread stops at its next write if the reader stopped. */
		close(s->fd);
		s->fd = s->infd;
		if (f->bg != NULL) {
			bgjob_wait(f->bg, &f->task);
			bgjob_free(f->bg);
			archive_read_free(f->a);
		}
		e = f->why != NULL ? SOURCE_BROKEN : f->errnum;
		s->why = f->why;
		free(f);
		s->feed = NULL;
	}
	if (s->own && s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	return e;
}

void
source_free(struct source *s)
{
	free(s->why);
	s->why = NULL;
}
