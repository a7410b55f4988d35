/*
 * neardup compare: how similar two documents are, exactly and as the
 * scheme's sketches estimate it; or how similar two fingerprint lines say
 * their documents are (-F).
 */
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "cli.h"
#include "digest.h"
#include "fpline.h"
#include "linein.h"
#include "members.h"
#include "progress.h"
#include "record.h"
#include "report.h"
#include "shset.h"
#include "similarity.h"
#include "source.h"
#include "thread.h"
#include "winnow.h"
#include "xmalloc.h"


static int compare_exec(const struct cmd *, int, char **);

const struct cmd cmd_compare = {
	"compare", "how similar two documents (or two fingerprints) are",
	"compare [-Fhqz] [-a algo] [-c n | -w n] [-k size] [-s seed] "
	"[-t threshold]\n"
	"\t[--archives] [--color=when] [--containment] [--format=text|tsv|json] "
	"[--header]\n"
	"\t[--keep-case] [--keep-punct] [--multiset] [--passages]\n"
	"\t[--progress | --no-progress] [--weights=file] a [b]",
	compare_exec
};

/* One side of the comparison. */
struct side {
	const char *name;	/* as given, or the fingerprint line's name */
	struct shset set;
	struct buf text;	/* the document, kept for --passages */
	struct fpline fp;	/* the fingerprint (values in fp.v) */
	int	 fd;		/* the document, open until read */
	struct source src;	/* what is read of fd: decompressed */
	struct members mem;	/* or the archive member it names */
	int	 member;	/* mem, not fd, is the document */
	struct stat st;		/* of fd (zeroed if fstat failed) */
	int	 err;		/* errno value of reading it, or 0 */
	char	*why;		/* err SOURCE_BROKEN: the reason */
};

struct result {
	struct scheme sc;
	int	 exact;		/* documents were read: sim is valid */
	struct similarity sim;
	struct estimate est;
	double	 score;		/* what the threshold applies to */
	double	 threshold;
	const char *targ;	/* the threshold as written */
	struct passage *pass;
	size_t	 npass;
};

/*
 * Open side s's document: its descriptor in s->fd, or with archives, when
 * its name is ARCHIVE//PATH, the archive's member in s->mem.  Returns 0,
 * an errno value, or for a member MEMBERS_NONE or SOURCE_BROKEN.
 */
static int
open_doc(struct side *s, int archives)
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
static void
read_sides(struct side *s, const struct scheme *sc,
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
static void
load_fingerprints(struct side *s, int nops, char **ops, int zero)
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

/*
 * The threshold in the tsv and json formats: six decimals, or as many as
 * it takes to read back as itself, so that no figure printed below it
 * reads as equal to it.
 */
static void
threshold(struct report *rp, double t)
{
	char s[32];
	int prec;

	snprintf(s, sizeof(s), "%.6f", t);
	if (strtod(s, NULL) != t)
		for (prec = 7; prec <= 17; prec++) {
			snprintf(s, sizeof(s), "%.*f", prec, t);
			if (strtod(s, NULL) == t)
				break;
		}
	report_cell_raw(rp, "threshold", s);
}

/* The figures of r, exact and estimated, as cells of a row. */
static void
figures(struct report *rp, const struct result *r)
{
	const struct estimate *e = &r->est;
	int d = (e->have & EST_DISTANCE) != 0;

	report_cell_figure(rp, "jaccard", r->exact, r->sim.jaccard);
	report_cell_figure(rp, "containment_a_in_b", r->exact,
	    r->sim.cont_ab);
	report_cell_figure(rp, "containment_b_in_a", r->exact,
	    r->sim.cont_ba);
	if (r->exact) {
		report_cell_count(rp, "shared", r->sim.shared);
		report_cell_count(rp, "size_a", r->sim.size_a);
		report_cell_count(rp, "size_b", r->sim.size_b);
	} else {
		report_cell_word(rp, "shared", NULL);
		report_cell_word(rp, "size_a", NULL);
		report_cell_word(rp, "size_b", NULL);
	}
	report_cell_figure(rp, "est_jaccard", e->have & EST_JACCARD,
	    e->jaccard);
	report_cell_figure(rp, "est_containment_a_in_b",
	    e->have & EST_CONTAIN, e->cont_ab);
	report_cell_figure(rp, "est_containment_b_in_a",
	    e->have & EST_CONTAIN, e->cont_ba);
	if (d) {
		report_cell_count(rp, "distance", e->distance);
		report_cell_count(rp, "bits", e->bits);
	} else {
		report_cell_word(rp, "distance", NULL);
		report_cell_word(rp, "bits", NULL);
	}
	report_cell_figure(rp, "cosine", d, e->cosine);
	report_cell_bool(rp, "keys_equal", (e->have & EST_KEY) != 0,
	    e->equal);
	threshold(rp, r->threshold);
	report_cell_bool(rp, "similar", 1, r->score >= r->threshold);
}

/*
 * The shared passages: a list in the JSON object; in the tsv format a
 * second table, after an empty record, without their text.
 */
static void
passages(struct report *rp, const struct side *s, const struct result *r)
{
	const struct passage *p;
	size_t i;

	if (report_nested(rp))
		report_list(rp, "passages");
	else {
		report_end(rp);
		report_header(rp, "words\ta_first\ta_last\tb_first\tb_last");
	}
	for (i = 0; i < r->npass; i++) {
		p = &r->pass[i];
		report_row(rp);
		report_cell_count(rp, "words", p->words);
		report_cell_count(rp, "a_first", p->a_first);
		report_cell_count(rp, "a_last", p->a_last);
		report_cell_count(rp, "b_first", p->b_first);
		report_cell_count(rp, "b_last", p->b_last);
		if (report_nested(rp))
			report_cell_text(rp, "text", s[0].text.data +
			    p->a_off, p->a_end - p->a_off);
		report_row_end(rp);
	}
	if (report_nested(rp))
		report_list_end(rp);
}

/* The tsv or json report: one record, or one object. */
static void
print_report(const struct side *s, const struct result *r, int fmt,
    int withpass, int zero)
{
	struct report rp;
	char sch[SCHEME_MAX];

	report_init(&rp, fmt, zero);
	rp.single = 1;
	scheme_format(&r->sc, sch);
	report_header(&rp, "a\tb\tscheme\tjaccard\tcontainment_a_in_b"
	    "\tcontainment_b_in_a\tshared\tsize_a\tsize_b\test_jaccard"
	    "\test_containment_a_in_b\test_containment_b_in_a\tdistance"
	    "\tbits\tcosine\tkeys_equal\tthreshold\tsimilar");
	report_row(&rp);
	report_cell_name(&rp, "a", s[0].name);
	report_cell_name(&rp, "b", s[1].name);
	report_cell_word(&rp, "scheme", sch);
	figures(&rp, r);
	if (withpass && report_nested(&rp))
		passages(&rp, s, r);
	report_row_end(&rp);
	if (withpass && !report_nested(&rp))
		passages(&rp, s, r);
	report_close(&rp);
}

static void
print_estimate(const struct result *r)
{
	const struct estimate *e = &r->est;
	char sch[SCHEME_MAX];

	scheme_format(&r->sc, sch);
	printf("estimated by %s:\n", sch);
	if (e->have & EST_JACCARD)
		printf("  resemblance         %.4f\n", cli_cut(e->jaccard, 4));
	if (e->have & EST_CONTAIN)
		printf("  containment a in b  %.4f\n"
		    "  containment b in a  %.4f\n", cli_cut(e->cont_ab, 4),
		    cli_cut(e->cont_ba, 4));
	if (e->have & EST_DISTANCE)
		printf("  %u of %u bits differ, cosine %.4f\n", e->distance,
		    e->bits, cli_cut(e->cosine, 4));
	if (e->have & EST_KEY)
		printf("  keys %s\n", e->equal ? "equal" : "differ");
}

static void
print_text(const struct side *s, const struct result *r, int passages,
    int color)
{
	const char *bold = color ? "\033[1m" : "", *off = color ? "\033[m" : "";
	const struct passage *p;
	const char *line, *end, *nl;
	size_t i, n;

	printf("a: %s", cli_vis(s[0].name));
	if (r->exact)
		printf(" (%zu shingle%s)", r->sim.size_a,
		    r->sim.size_a == 1 ? "" : "s");
	printf("\nb: %s", cli_vis(s[1].name));
	if (r->exact)
		printf(" (%zu shingle%s)", r->sim.size_b,
		    r->sim.size_b == 1 ? "" : "s");
	putchar('\n');
	if (r->exact)
		printf("resemblance           %.4f  (%zu shared of %zu)\n"
		    "containment a in b    %.4f\n"
		    "containment b in a    %.4f\n", cli_cut(r->sim.jaccard, 4),
		    r->sim.shared, r->sim.size_a + r->sim.size_b -
		    r->sim.shared, cli_cut(r->sim.cont_ab, 4),
		    cli_cut(r->sim.cont_ba, 4));
	print_estimate(r);
	printf("%s (threshold %s)\n", r->score >= r->threshold ?
	    "similar" : "not similar", r->targ);
	if (!passages)
		return;
	printf("\n%zu shared passage%s\n", r->npass, r->npass == 1 ? "" : "s");
	for (i = 0; i < r->npass; i++) {
		p = &r->pass[i];
		printf("\n%s%zu words: a lines %zu-%zu, b lines %zu-%zu%s\n",
		    bold, p->words, p->a_first, p->a_last, p->b_first,
		    p->b_last, off);
		line = s[0].text.data + p->a_off;
		end = s[0].text.data + p->a_end;
		for (n = p->a_first; line <= end; n++) {
			if ((nl = memchr(line, '\n', (size_t)(end - line))) ==
			    NULL)
				nl = end;
			printf("%s%6zu%s  %.*s\n", bold, n, off,
			    (int)(nl - line), line);
			line = nl + 1;
		}
	}
}

/* What the command line asks. */
struct compare_args {
	struct shopts so;
	struct outopts oo;
	int	 fps, quiet, containment, passages, color, archives;
	double	 threshold;
	const char *targ;	/* the threshold as written */
};

static int
compare_option(const struct cmd *c, void *args, int ch, const char *arg)
{
	struct compare_args *a = args;

	switch (ch) {
	case 'F':
		a->fps = 1;
		break;
	case 'q':
		a->quiet = 1;
		break;
	case 't':
		a->threshold = cli_fraction(c, "-t", arg, 1);
		a->targ = arg;
		break;
	case OPT_CMD_FIRST:
		a->containment = 1;
		break;
	case OPT_CMD_FIRST + 1:
		a->passages = 1;
		break;
	case OPT_ARCHIVES:
		a->archives = 1;
		break;
	case OPT_COLOR:
		if ((a->color = fmt_color_option(arg)) < 0) {
			warnx("--color: %s: expected auto, always or never",
			    cli_vis(arg));
			cli_usage(c);
		}
		break;
	default:
		return 0;
	}
	return 1;
}

/* The options of argv into *a: the number of them, or 0 after -h. */
static int
compare_parse(const struct cmd *c, int argc, char **argv,
    struct compare_args *a)
{
	static const struct cli_option longopts[] = {
		SHOPT_LONG,
		OUTOPT_LONG,
		COMMON_LONG,
		{ { "fingerprints", no_argument, NULL, 'F' },
		    NULL, "the operands are fingerprint lines" },
		{ { "quiet", no_argument, NULL, 'q' },
		    NULL, "print nothing: the exit status tells" },
		{ { "threshold", required_argument, NULL, 't' },
		    "threshold", "the least similarity that is similar, 0 to 1" },
		{ { "containment", no_argument, NULL, OPT_CMD_FIRST },
		    NULL, "apply the threshold to the containment" },
		{ { "passages", no_argument, NULL, OPT_CMD_FIRST + 1 },
		    NULL, "also list the passages the two share" },
		{ { "archives", no_argument, NULL, OPT_ARCHIVES },
		    NULL, "an operand ARCHIVE//PATH is that archive's member" },
		{ { "color", required_argument, NULL, OPT_COLOR },
		    "when", "colour the passages: never, always or auto" },
		{ { "colour", required_argument, NULL, OPT_COLOR },
		    "when", "colour the passages: never, always or auto" },
		{ { NULL, 0, NULL, 0 }, NULL, NULL }
	};
	struct cli_parse p = { SHOPT_SHORT OUTOPT_SHORT "Fhqt:",
	    longopts, compare_option, a, &a->so,
	    NULL, NULL, &a->oo };

	memset(a, 0, sizeof(*a));
	shopts_init(&a->so);
	a->oo.names[FMT_TEXT] = "text";
	a->oo.names[FMT_TSV] = "tsv";
	a->oo.names[FMT_JSON] = "json";
	a->color = COLOR_AUTO;
	a->threshold = SIMILARITY_DEFAULT;
	a->targ = SIMILARITY_DEFAULT_TEXT;
	return cli_parse(c, argc, argv, &p);
}

/* Refuse operands and options that do not go together. */
static void
compare_check(const struct cmd *c, int argc, char **argv,
    const struct compare_args *a)
{
	int fps = a->fps;

	if (argc > 2) {
		warnx("too many operands: compare takes two %s",
		    fps ? "fingerprints" : "documents");
		cli_usage(c);
	}
	if (argc < 1 || (argc == 1 && !fps)) {
		warnx(fps ? "expected two fingerprints, or one file holding "
		    "two" : "expected two documents");
		cli_usage(c);
	}
	if (argc == 2 && strcmp(argv[0], "-") == 0 &&
	    strcmp(argv[1], "-") == 0) {
		warnx("standard input can be only one of the operands");
		cli_usage(c);
	}
	if (argc == 2)
		cli_one_pipe(argv[0], argv[1]);
	if (fps && (a->so.given || a->so.algo_given)) {
		warnx("shingling options do not apply to fingerprints (-F): "
		    "their scheme is in the lines");
		cli_usage(c);
	}
	if (fps && a->archives) {
		warnx("--archives needs documents, not fingerprints");
		cli_usage(c);
	}
	if (fps && a->passages) {
		warnx("--passages needs documents, not fingerprints");
		cli_usage(c);
	}
	/* The tsv table always has its header: --header only says so. */
	if (a->oo.header && a->oo.fmt != FMT_TSV) {
		warnx("--header applies to --format=tsv");
		cli_usage(c);
	}
	if (a->oo.zero && !fps && a->oo.fmt != FMT_TSV) {
		warnx("-z applies to fingerprint lines (-F) and to "
		    "--format=tsv");
		cli_usage(c);
	}
}

/* Read both sides: fingerprint lines, or documents exactly. */
static void
compare_read(const struct cmd *c, int argc, char **argv,
    struct compare_args *a, struct side *s, struct result *r)
{
	int i, e;

	if (a->fps) {
		load_fingerprints(s, argc, argv, a->oo.zero);
		r->sc = s[0].fp.sc;
		if (a->containment &&
		    !(algo_get(r->sc.algo)->flags & ALGO_CONTAINMENT)) {
			char l[ALGO_LIST_MAX];

			errx(EXIT_TROUBLE, "--containment: fingerprints of "
			    "%s cannot estimate containment (%s can)",
			    scheme_algo_name(r->sc.algo), algo_list(l,
			    sizeof(l), ALGO_CONTAINMENT, -1, "", "and"));
		}
		return;
	}
	shopts_scheme(c, &a->so, REC_NONE, &r->sc);
	progress_start("files", 0);
	progress_inputs(argv, 2, NULL);
	for (i = 0; i < 2; i++) {
		s[i].name = argv[i];
		if ((e = open_doc(&s[i], a->archives)) == MEMBERS_NONE)
			errx(EXIT_TROUBLE, "%s: no such member",
			    cli_vis(argv[i]));
		else if (e == SOURCE_BROKEN)
			errx(EXIT_TROUBLE, "%s: %s", cli_vis(argv[i]),
			    s[i].mem.why);
		else if (e != 0)
			errc(EXIT_TROUBLE, e, "%s", cli_vis(argv[i]));
	}
	read_sides(s, &r->sc, a->so.weights ? &a->so.wt : NULL, a->passages);
	for (i = 0; i < 2; i++)
		if (s[i].err == SOURCE_BROKEN)
			errx(EXIT_TROUBLE, "%s: %s", cli_vis(argv[i]), s[i].why);
		else if (s[i].err != 0)
			errc(EXIT_TROUBLE, s[i].err, "%s", cli_vis(argv[i]));
	r->exact = 1;
	similarity_exact(&s[0].set, &s[1].set, &r->sim);
}

/* The score the threshold applies to, and the shared passages. */
static void
compare_score(const struct compare_args *a, struct side *s,
    struct result *r)
{
	struct winnow_opts wo;

	similarity_estimate(&r->sc, s[0].fp.v, s[1].fp.v, &r->est);
	if (r->exact)
		r->score = a->containment ? fmax(r->sim.cont_ab,
		    r->sim.cont_ba) : r->sim.jaccard;
	else
		r->score = a->containment ? fmax(r->est.cont_ab,
		    r->est.cont_ba) : r->est.similarity;
	/* A simhash cosine below 0 is no less similar than 0 (-t 0). */
	r->score = fmax(r->score, 0);
	if (a->passages) {
		winnow_opts_default(&wo);
		wo.keepcase = r->sc.keepcase;
		wo.keeppunct = r->sc.keeppunct;
		wo.seed = r->sc.seed;
		progress_stage("finding passages", NULL, 0);
		r->npass = winnow_passages(s[0].text.data, s[0].text.len,
		    s[1].text.data, s[1].text.len, &wo, &r->pass);
	}
	progress_end();
}

static int
compare_exec(const struct cmd *c, int argc, char **argv)
{
	struct compare_args a;
	struct side s[2];
	struct result r;
	int i, n;

	if ((n = compare_parse(c, argc, argv, &a)) == 0)
		return out_close();
	argc -= n;
	argv += n;
	compare_check(c, argc, argv, &a);

	memset(s, 0, sizeof(s));
	memset(&r, 0, sizeof(r));
	r.threshold = a.threshold;
	r.targ = a.targ;
	compare_read(c, argc, argv, &a, s, &r);
	compare_score(&a, s, &r);
	if (!a.quiet) {
		if (a.oo.fmt != FMT_TEXT)
			print_report(s, &r, a.oo.fmt, a.passages, a.oo.zero);
		else
			print_text(s, &r, a.passages, fmt_use_color(a.color));
	}
	for (i = 0; i < 2; i++) {
		shset_free(&s[i].set);
		buf_free(&s[i].text);
		fpline_free(&s[i].fp);
	}
	free(r.pass);
	shopts_free(&a.so);
	if (out_close() != EXIT_OK)
		return EXIT_TROUBLE;
	return r.score >= r.threshold ? EXIT_OK : EXIT_DIFFER;
}
