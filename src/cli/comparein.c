/*
 * neardup compare: reading the two sides, two documents (on two cores)
 * or two fingerprint lines.
 */
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "cli.h"
#include "compare.h"
#include "digest.h"
#include "fpline.h"
#include "linein.h"
#include "members.h"
#include "progress.h"
#include "source.h"
#include "thread.h"
#include "xmalloc.h"

/* Open side s's document or archive member (compare.h). */
int
side_open(struct side *s, int archives)
{
	size_t alen;

	if (archives && (alen = members_archive(s->name)) > 0) {
		s->member = 1;
		return members_find(&s->mem, s->name, alen);
	}
	if (strcmp(s->name, "-") == 0)
		s->fd = STDIN_FILENO;
	else if ((s->fd = open(s->name, O_RDONLY | O_NOCTTY | O_CLOEXEC)) ==
	    -1)
		return errno;
	if (fstat(s->fd, &s->st) == -1)
		memset(&s->st, 0, sizeof(s->st));
	else if (S_ISDIR(s->st.st_mode)) {
		close(s->fd);
		return EISDIR;
	}
	return 0;
}

/*
 * Feed a block of a document, at p (which may be text's free space), to
 * d, and to text when keep.  The bytes go to the progress line, or with
 * count (a thread that is not the main one) to *count, which the main
 * thread hands on.
 */
static void
feed_block(struct digest *d, const void *p, size_t n, struct buf *text,
    int keep, _Atomic uint64_t *count)
{
	digest_feed(d, p, n);
	if (keep && p == text->data + text->len)
		text->len += n;
	else if (keep)
		buf_add(text, p, n);
	if (count != NULL)
		atomic_fetch_add(count, (uint64_t)n);
	else
		progress_count(0, (uint64_t)n);
}

/*
 * Read a document: shingles into the set and sketch of d, and into text
 * when --passages wants it.  Returns 0 or an errno value.
 */
static int
read_doc(struct digest *d, int fd, struct buf *text, int keep,
    _Atomic uint64_t *count)
{
	const uint64_t *v;
	ssize_t n;
	int e = 0;

	if (!keep && !progress_on())
		e = digest_fd(d, fd, 0, &v);
	else {
		/* Block by block, for the text or for the progress line. */
		for (;;) {
			n = read(fd, buf_reserve(text, 1 << 16), 1 << 16);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				e = n < 0 ? errno : 0;
				break;
			}
			feed_block(d, text->data + text->len, (size_t)n,
			    text, keep, count);
		}
		if (e == 0)
			(void)digest_end(d);
	}
	return e;
}

/*
 * Read an archive's member as read_doc() reads a file, closing it: 0 or
 * SOURCE_BROKEN with s->why set.
 */
static int
read_member(struct digest *d, struct side *s, int keep,
    _Atomic uint64_t *count)
{
	const void *p;
	size_t n;
	int r;

	while ((r = members_data(&s->mem, &p, &n)) == 1)
		feed_block(d, p, n, &s->text, keep, count);
	if (r == 0)
		(void)digest_end(d);
	else {
		s->why = s->mem.why;
		s->mem.why = NULL;
	}
	members_close(&s->mem);
	return r;
}

/* A side being read, and how the threads reading tell they are done. */
struct reading {
	struct side *s;
	struct digest d;
	int	 keep;		/* the text, for --passages */
	int	 threaded;	/* in a thread: count into read */
	_Atomic uint64_t read;	/* bytes read, for the progress line */
	pthread_mutex_t *mu;
	pthread_cond_t *cv;
	int	*done;		/* threads done, under mu */
};

/*
 * Read the open document of a side into its set and fingerprint, closing
 * it; a read error is left in s->err.
 */
static void *
read_side(void *arg)
{
	struct reading *rd = arg;
	struct side *s = rd->s;

	int e;

	/*
	 * Whether it is compressed is known only from its first bytes, which
	 * a pipe may be slow to give: not asked before both are open.
	 */
	if (s->member)
		s->err = read_member(&rd->d, s, rd->keep,
		    rd->threaded ? &rd->read : NULL);
	else if ((s->err = source_fd(&s->src, s->fd, s->fd != STDIN_FILENO,
	    SOURCE_WHOLE)) != 0) {
		if (s->fd != STDIN_FILENO)
			close(s->fd);
	} else {
		s->err = read_doc(&rd->d, s->src.fd, &s->text, rd->keep,
		    rd->threaded ? &rd->read : NULL);
		if ((e = source_close(&s->src)) != 0 && s->err == 0) {
			s->err = e;
			s->why = s->src.why;
		}
	}
	s->fp.nv = scheme_nvalues(&rd->d.sc);
	s->fp.v = xreallocarray(NULL, s->fp.nv, sizeof(*s->fp.v));
	memcpy(s->fp.v, rd->d.sk.out, s->fp.nv * sizeof(*s->fp.v));
	if (rd->threaded) {
		pthread_mutex_lock(rd->mu);
		++*rd->done;
		pthread_cond_signal(rd->cv);
		pthread_mutex_unlock(rd->mu);
	}
	return NULL;
}

/*
 * Read both documents, at once on two cores: most of the time goes to
 * each one's set of shingles.  The main thread waits, handing on to the
 * progress line what the two have read, as the line is counted on this
 * thread alone.  In turn when the two are one open file (reading it twice
 * at once would split its bytes between them) or there is one core.  The
 * digests are set up here, before any thread starts: the shingler's
 * tables are made once, by the first.
 */
void
sides_read(struct side *s, const struct scheme *sc,
    const struct weights *wt, int keep)
{
	pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
	pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
	struct reading rd[2];
	struct timespec ts;
	struct thread th[2];
	uint64_t shown = 0, now;
	int i, done = 0, nth = 1;

	for (i = 0; i < 2; i++) {
		memset(&rd[i], 0, sizeof(rd[i]));
		rd[i].s = &s[i];
		rd[i].keep = keep;
		rd[i].mu = &mu;
		rd[i].cv = &cv;
		rd[i].done = &done;
		atomic_init(&rd[i].read, 0);
		shset_init(&s[i].set);
		digest_init(&rd[i].d, sc, wt, &s[i].set);
	}
	if (sysconf(_SC_NPROCESSORS_ONLN) > 1 &&
	    (s[0].st.st_dev != s[1].st.st_dev ||
	    s[0].st.st_ino != s[1].st.st_ino)) {
		rd[0].threaded = rd[1].threaded = 1;
		if (thread_start(&th[0], read_side, &rd[0]) != 0)
			rd[0].threaded = rd[1].threaded = 0;
		else if (thread_start(&th[1], read_side, &rd[1]) != 0)
			(void)read_side(&rd[1]);	/* here, as a thread */
		else
			nth = 2;
	}
	if (!rd[0].threaded) {
		for (i = 0; i < 2; i++) {
			(void)read_side(&rd[i]);
			progress_count(1, 0);
		}
	} else {
		pthread_mutex_lock(&mu);
		while (done < 2) {
			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_nsec += 50 * 1000000L;
			if (ts.tv_nsec >= 1000000000L) {
				ts.tv_sec++;
				ts.tv_nsec -= 1000000000L;
			}
			(void)pthread_cond_timedwait(&cv, &mu, &ts);
			now = atomic_load(&rd[0].read) +
			    atomic_load(&rd[1].read);
			progress_count(0, now - shown);
			shown = now;
		}
		pthread_mutex_unlock(&mu);
		thread_join(&th[0]);
		if (nth == 2)
			thread_join(&th[1]);
		progress_count(2, 0);
	}
	for (i = 0; i < 2; i++)
		digest_free(&rd[i].d);
}

/*
 * The next fingerprint line of li, read from file, parsed into out.  Exits
 * 2 on a read error, a malformed or too long line, no line, or with -z a
 * name that holds the lines after it.
 */
static void
read_fpline(struct linein *li, const char *file, struct fpline *out)
{
	int zero = li->delim == '\0';
	const char *why;
	char *line;
	size_t len;
	int n;

	if ((n = linein_next(li, &line, &len)) < 0)
		errc(EXIT_TROUBLE, -n, "%s", cli_vis(file));
	if (n == 0 && li->lineno == 0)
		errx(EXIT_TROUBLE, "%s: no fingerprint line", cli_vis(file));
	if (n == 0)
		errx(EXIT_TROUBLE, "%s: expected a second fingerprint line "
		    "after line %" PRIu64, cli_vis(file), li->lineno);
	if (n == LINEIN_LONG)
		errx(EXIT_TROUBLE, "%s:%" PRIu64 ": line longer than %d bytes",
		    cli_vis(file), li->lineno, RECORD_MAX);
	if (fpline_parse(line, len, zero, out, &why) == -1)
		errx(EXIT_TROUBLE, "%s:%" PRIu64 ": %s", cli_vis(file),
		    li->lineno, why);
	if (zero && fpline_holds_line(out))
		cli_not_z(file, li->lineno);
}

/* Open file ("-": standard input) for li, or exit 2; zero: -z. */
static void
open_fplines(const char *file, struct linein *li, int zero)
{
	int e;

	if ((e = linein_open(li, file, strcmp(file, "-") == 0,
	    zero ? '\0' : '\n', RECORD_MAX)) != 0)
		errc(EXIT_TROUBLE, e, "%s", cli_vis(file));
}

/* Close file's li, or exit 2 if it could not be read to its end. */
static void
close_fplines(const char *file, struct linein *li)
{
	char *why;
	int e;

	if ((e = linein_close(li, &why)) != 0) {
		cli_warn_input(file, e, why);
		exit(EXIT_TROUBLE);
	}
}

/*
 * An operand that is itself a fingerprint, "SCHEME:HEX" with or without
 * "  NAME"; a nameless one is named by itself.  It is no file (access(2)
 * said errnum): if it is no fingerprint either, both are said.
 */
static void
parse_literal(const char *op, int errnum, struct fpline *fp)
{
	struct buf line = { 0 };
	const char *why;

	buf_add(&line, op, strlen(op));
	if (strstr(op, "  ") == NULL) {
		buf_add(&line, "  ", 2);
		buf_add(&line, op, strlen(op));
	}
	if (fpline_parse(line.data, line.len, 0, fp, &why) == -1)
		errx(EXIT_TROUBLE, "%s: %s, and not a fingerprint line: %s",
		    cli_vis(op), strerror(errnum), why);
	buf_free(&line);
}

/* -F: fingerprints from two operands, or two lines of one. */
void
sides_load_fps(struct side *s, int nops, char **ops, int zero)
{
	struct linein li;
	int i;

	if (nops == 1) {
		open_fplines(ops[0], &li, zero);
		read_fpline(&li, ops[0], &s[0].fp);
		read_fpline(&li, ops[0], &s[1].fp);
		close_fplines(ops[0], &li);
	} else {
		for (i = 0; i < 2; i++) {
			/* An operand that is a fingerprint line itself. */
			if (strcmp(ops[i], "-") != 0 && access(ops[i], F_OK) ==
			    -1 && strchr(ops[i], ':') != NULL) {
				parse_literal(ops[i], errno, &s[i].fp);
				continue;
			}
			open_fplines(ops[i], &li, zero);
			read_fpline(&li, ops[i], &s[i].fp);
			close_fplines(ops[i], &li);
		}
	}
	if (!scheme_equal(&s[0].fp.sc, &s[1].fp.sc)) {
		char a[SCHEME_MAX], b[SCHEME_MAX];

		scheme_format(&s[0].fp.sc, a);
		scheme_format(&s[1].fp.sc, b);
		errx(EXIT_TROUBLE, "fingerprints of different schemes cannot "
		    "be compared: %s and %s", a, b);
	}
	for (i = 0; i < 2; i++)
		s[i].name = s[i].fp.name.len > 0 ? s[i].fp.name.data :
		    ops[nops == 1 ? 0 : i];
}
