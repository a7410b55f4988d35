/*
 * Opening a document or a record file, decompressed: the one place every
 * reader of input goes through.  A file compressed with gzip, bzip2, xz,
 * zstd or lz4, known by its first bytes (not its name), is read through
 * libarchive by a thread of its own that writes the decompressed bytes
 * into a pipe; the caller reads that pipe as it would read the file, so
 * every reader stays a reader of a file descriptor (and digest.c's and
 * shingle.c's mmap and read fast paths stay as they are for a plain
 * file, which is only looked at, never copied).
 *
 * A stream that breaks (corrupt or cut short) ends the pipe early;
 * source_close() then says so, with libarchive's reason.  So that nothing
 * past the break reaches the output, a source of records (delim '\n' or
 * '\0') holds back the bytes after the last delimiter until the stream is
 * known to end well: the record being written when it broke is never
 * read.  A whole document (delim SOURCE_WHOLE) is read to the break, and
 * the caller drops what it made of it when source_close() fails.
 */
#ifndef SOURCE_H
#define SOURCE_H

#include <sys/stat.h>

#include <stddef.h>

#define SOURCE_WHOLE	(-1)	/* delim of a whole document */
#define SOURCE_BROKEN	(-3)	/* source_close: the stream broke */

struct source_feed;

struct source {
	int	 fd;		/* what to read: the file, or the pipe */
	int	 compressed;	/* fd is the pipe of a decompressed stream */
	int	 own;		/* the file is closed by source_close() */
	int	 infd;		/* compressed: the file the pipe is fed from */
	struct source_feed *feed;
	char	*why;		/* SOURCE_BROKEN: libarchive's reason */
	struct stat st;		/* the file's fstat(2), if have_st: taken to
				   look at it, and not asked for again */
	int	 have_st;
};

/*
 * Open path for reading (isstdin: standard input, not opened) and look at
 * its first bytes: a compressed file is decompressed as it is read.  delim
 * is the record delimiter, or SOURCE_WHOLE.  oflags are added to open(2)'s
 * (O_NONBLOCK, say, so that a FIFO does not stop the open).  Returns 0, or
 * an errno value with nothing left open.
 */
int	source_open(struct source *, const char *path, int isstdin, int delim,
	    int oflags);

/*
 * The same for fd, already open (own: source_close() closes it): 0, or an
 * errno value, fd then left as it was.
 */
int	source_fd(struct source *, int fd, int own, int delim);

/*
 * Close what source_open() opened, standard input aside: 0, an errno
 * value when the decompressed stream could not be written, or
 * SOURCE_BROKEN, with s->why saying why (valid until source_free()).
 */
int	source_close(struct source *);

/* Free the reason of a broken stream, after source_close(). */
void	source_free(struct source *);

/*
 * Have libarchive reader a read the compressed formats source_magic()
 * knows, and no other: the one list of them.
 */
struct archive;
void	source_filters(struct archive *a);

/*
 * Once a's first header is read: did a compression filter take the
 * stream?  Not when a stream that begins with a magic is cut short or
 * corrupt within its header; it is then broken, SOURCE_HEADER_WHY.
 */
int	source_decoded(struct archive *a);
#define SOURCE_HEADER_WHY	"truncated or corrupt compression header"

/*
 * What the first n bytes at p say: 1 a compressed stream (gzip, bzip2,
 * xz, zstd, lz4), 0 not, -1 not yet known (more bytes are needed).
 */
int	source_magic(const unsigned char *p, size_t n);

/* Are the n bytes at b enough for the caller of source_peek to decide? */
typedef int source_decided(const unsigned char *b, size_t n);

/*
 * Up to want of the bytes fd will give next, into b, without taking
 * them: a regular file is read with pread(2), a pipe looked at with
 * tee(2), until want bytes are there, or decided() says those there are
 * enough, or the writer is gone.  Returns how many; 0 for what can only
 * be read, not looked at (a terminal, a socket).
 */
size_t	source_peek(int fd, unsigned char *b, size_t want,
	    source_decided *decided);

#endif
