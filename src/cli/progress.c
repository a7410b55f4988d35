/*
 * The progress line (see progress.h).  The commands count on the main
 * thread, where finished work comes back in order, so the counters are
 * plain; the clock is read only every CHECK_CALLS counts or CHECK_BYTES
 * bytes, and the line is drawn at most every EVERY_MS milliseconds, the
 * first time after FIRST_MS so that short runs draw nothing.  A thread of
 * its own adds up the sizes of the inputs (a directory tree is walked
 * twice, the second time from the cache) for the time left.
 *
 * The line is written to file descriptor 2 directly.  While it is on,
 * stderr is a stream that erases the line before it writes, so that the
 * messages of warn(3), err(3) and the rest begin on a clean line.
 *
 * When standard error is not a terminal (--progress to a log file or a
 * pipe), nothing is drawn over: each line ends with a newline, one every
 * LOG_EVERY_MS at most, the first after as long, and the last is a
 * summary of what was read and how long it took.
 */
#include <sys/ioctl.h>
#include <sys/stat.h>

#include <libutil.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "fdio.h"
#include "hashjob.h"
#include "progress.h"
#include "thread.h"
#include "walk.h"

#define FIRST_MS	500
#define EVERY_MS	200
#define LOG_EVERY_MS	5000
#define CHECK_CALLS	16
#define CHECK_BYTES	(1 << 20)
#define LINE_MAX_LEN	160

enum { PROGRESS_AUTO, PROGRESS_ALWAYS, PROGRESS_NEVER };
enum { TOTAL_COUNTING, TOTAL_KNOWN, TOTAL_UNKNOWN };

struct sizer {
	struct thread th;
	int	 running;
	char *const *ops;
	int	 nops;
	const struct walkopts *wo;
	atomic_int stop;
	atomic_int state;		/* TOTAL_* */
	_Atomic uint64_t total;		/* bytes, once TOTAL_KNOWN */
};

static struct {
	int	 when;			/* PROGRESS_* */
	int	 on, shown, outtty;
	int	 log;			/* stderr is no terminal: lines */
	int	 sized;			/* the sizer's total is the bytes' */
	unsigned width;			/* of the terminal, 0: no limit */
	const char *label, *unit;
	uint64_t items, bytes;
	uint64_t total_items;		/* of the stage, 0: unknown */
	unsigned calls;
	uint64_t checked;		/* bytes at the last look at the clock */
	unsigned check_calls;
	long long start, next;		/* milliseconds */
	long long t0;			/* of progress_start */
	int	 summed;		/* sum_* hold the first stage's */
	const char *sum_unit;
	uint64_t sum_items, sum_bytes;
	long long every;
	size_t	 len;			/* of the line shown */
	struct sizer sz;
	FILE	*stderr0;		/* stderr, while ours stands in */
} P;

static void	clear(void);

/* Write all of buf to standard error: 0, or -1. */
static int
put_stderr(const char *buf, size_t len)
{
	return fdio_write(STDERR_FILENO, buf, len) == 0 ? 0 : -1;
}

#ifdef __GLIBC__
/* Our stderr: a message erases the line first. */
static ssize_t
message_write(void *cookie, const char *buf, size_t len)
{
	(void)cookie;
	clear();
	return put_stderr(buf, len) == 0 ? (ssize_t)len : -1;
}

static void
hook_stderr(void)
{
	cookie_io_functions_t io = { NULL, message_write, NULL, NULL };
	FILE *fp;

	if ((fp = fopencookie(NULL, "w", io)) == NULL)
		return;
	setvbuf(fp, NULL, _IONBF, 0);
	fflush(stderr);
	P.stderr0 = stderr;
	stderr = fp;
}

static void
unhook_stderr(void)
{
	FILE *fp = stderr;

	if (P.stderr0 == NULL)
		return;
	stderr = P.stderr0;
	P.stderr0 = NULL;
	fclose(fp);
}
#else
/* Elsewhere a message may follow the line on the same row. */
static void
hook_stderr(void)
{
}

static void
unhook_stderr(void)
{
}
#endif

static long long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int
progress_option(int ch)
{
	if (ch == OPT_PROGRESS)
		P.when = PROGRESS_ALWAYS;
	else if (ch == OPT_NO_PROGRESS)
		P.when = PROGRESS_NEVER;
	else
		return 0;
	return 1;
}

void
progress_start(const char *unit, int streaming)
{
	struct winsize ws;
	const char *env, *errstr;
	long long first = FIRST_MS;

	P.outtty = isatty(STDOUT_FILENO);
	if (P.when == PROGRESS_ALWAYS)
		P.on = 1;
	else if (P.when == PROGRESS_NEVER)
		P.on = 0;
	else
		P.on = isatty(STDERR_FILENO) && !(streaming && P.outtty);
	if (!P.on)
		return;
	P.unit = unit;
	P.log = !isatty(STDERR_FILENO);
	P.every = P.log ? LOG_EVERY_MS : EVERY_MS;
	if (P.log)
		first = LOG_EVERY_MS;
	P.check_calls = CHECK_CALLS;
	/* For the tests: draw sooner and more often. */
	if ((env = getenv("NEARDUP_PROGRESS_INTERVAL")) != NULL) {
		P.every = strtonum(env, 0, 60000, &errstr);
		if (errstr != NULL)
			P.every = EVERY_MS;
		else {
			first = P.every;
			P.check_calls = 1;
		}
	}
	if (isatty(STDERR_FILENO) && ioctl(STDERR_FILENO, TIOCGWINSZ,
	    &ws) == 0 && ws.ws_col > 1)
		P.width = ws.ws_col;
	P.start = P.t0 = now_ms();
	P.next = P.start + first;
	/* Lines that end: a message needs nothing erased first. */
	if (!P.log)
		hook_stderr();
}

int
progress_on(void)
{
	return P.on;
}

/* The size of an input, 0 for what is not hashed; -1 if unknowable. */
static long long
input_size(const char *path)
{
	struct stat st;

	if (stat(path, &st) == -1 || S_ISDIR(st.st_mode))
		return 0;
	return S_ISREG(st.st_mode) ? (long long)st.st_size : -1;
}

static void *
sizer_main(void *arg)
{
	struct sizer *sz = arg;
	struct walk_entry e;
	struct walk *w;
	uint64_t sum = 0;
	long long n;
	int i, state = TOTAL_KNOWN;

	w = walk_new(sz->wo);
	for (i = 0; i < sz->nops && state == TOTAL_KNOWN; i++) {
		walk_start(w, sz->ops[i]);
		while (walk_next(w, &e)) {
			if (atomic_load(&sz->stop)) {
				state = TOTAL_UNKNOWN;
				break;
			}
			/* Standard input was measured before. */
			if (e.errnum != 0 || e.isstdin)
				continue;
			if ((n = e.size) < 0 && (n = input_size(e.path)) < 0) {
				state = TOTAL_UNKNOWN;
				break;
			}
			sum += (uint64_t)n;
		}
	}
	walk_free(w);
	atomic_fetch_add(&sz->total, sum);
	atomic_store(&sz->state, state);
	return NULL;
}

void
progress_inputs(char *const *ops, int nops, const struct walkopts *wo)
{
	static char *const dash[] = { "-", NULL };
	struct sizer *sz = &P.sz;
	struct stat st;
	off_t off;
	int i, files = 0;

	if (!P.on || sz->running)
		return;
	P.sized = 1;
	if (nops == 0) {
		ops = dash;
		nops = 1;
	}
	/*
	 * Standard input here, before anything is read from it: what is
	 * left of a regular file.
	 */
	atomic_store(&sz->total, 0);
	for (i = 0; i < nops; i++) {
		if (strcmp(ops[i], "-") != 0) {
			files = 1;
			continue;
		}
		if (fstat(STDIN_FILENO, &st) == -1 || !S_ISREG(st.st_mode)) {
			atomic_store(&sz->state, TOTAL_UNKNOWN);
			return;
		}
		if ((off = lseek(STDIN_FILENO, 0, SEEK_CUR)) < 0 ||
		    off > st.st_size)
			off = 0;
		atomic_store(&sz->total, (uint64_t)(st.st_size - off));
		break;	/* standard input is read once */
	}
	if (!files) {
		atomic_store(&sz->state, TOTAL_KNOWN);
		return;
	}
	sz->ops = ops;
	sz->nops = nops;
	sz->wo = wo;
	atomic_store(&sz->stop, 0);
	atomic_store(&sz->state, TOTAL_COUNTING);
	if (thread_start(&sz->th, sizer_main, sz) != 0)
		atomic_store(&sz->state, TOTAL_UNKNOWN);
	else
		sz->running = 1;
}

/* Append to the line under construction (see draw). */
static void put(char *, size_t *, const char *, ...)
    __attribute__((format(printf, 3, 4)));

static void
put(char *line, size_t *n, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vsnprintf(line + *n, LINE_MAX_LEN - *n, fmt, ap);
	va_end(ap);
	if (r > 0)
		*n += (size_t)r < LINE_MAX_LEN - *n ? (size_t)r :
		    LINE_MAX_LEN - *n - 1;
}

/* Append "h:mm:ss" or "m:ss" for secs. */
static void
put_time(char *line, size_t *n, long long secs)
{
	if (secs >= 3600)
		put(line, n, "%lld:%02lld:%02lld", secs / 3600, secs / 60 % 60,
		    secs % 60);
	else
		put(line, n, "%lld:%02lld", secs / 60, secs % 60);
}

/* Bytes as "12 MiB", as libbsd's humanize_number(3) puts them. */
static void
put_bytes(char *p, size_t cap, uint64_t n)
{
	humanize_number(p, cap < 8 ? cap : 8, (int64_t)n, "B", HN_AUTOSCALE,
	    HN_DECIMAL | HN_IEC_PREFIXES);
}

/*
 * "neardup: [label: ]N unit, BYTES, RATE/s[, P%, ETA m:ss]", cut to the
 * width of the terminal, over the line shown before.
 */
static void
draw(long long now)
{
	char line[LINE_MAX_LEN], num[16], rate[16], out[3 * LINE_MAX_LEN + 4];
	const char *sep = "";
	long long ms = now - P.start;
	uint64_t total = 0, done = 0;
	size_t n = 0, pad, len;

	/* Not over the shell's prompt from the background. */
	if (isatty(STDERR_FILENO) && tcgetpgrp(STDERR_FILENO) != getpgrp())
		return;
	if (ms <= 0)
		ms = 1;
	put(line, &n, "%s: ", getprogname());
	if (P.label != NULL) {
		put(line, &n, "%s", P.label);
		sep = ": ";
	}
	if (P.unit != NULL) {
		/* "1 file", "2 files". */
		put(line, &n, "%s%llu %.*s", sep, (unsigned long long)P.items,
		    (int)strlen(P.unit) - (P.items == 1), P.unit);
		sep = ", ";
	}
	if (P.bytes > 0 || (P.unit == NULL && P.label == NULL)) {
		put_bytes(num, sizeof(num), P.bytes);
		put_bytes(rate, sizeof(rate), P.bytes * 1000 / (uint64_t)ms);
		put(line, &n, "%s%s, %s/s", sep, num, rate);
		sep = ", ";
		if (P.sized && atomic_load(&P.sz.state) == TOTAL_KNOWN) {
			total = atomic_load(&P.sz.total);
			done = P.bytes;
		}
	} else if (P.unit != NULL)
		put(line, &n, ", %llu/s", (unsigned long long)(P.items *
		    1000 / (uint64_t)ms));
	if (P.total_items > 0) {
		total = P.total_items;
		done = P.items;
	}
	if (total > 0 && done > 0) {
		if (done > total)
			done = total;
		put(line, &n, "%s%d%%, ETA ", sep, (int)(done * 100 / total));
		put_time(line, &n, (long long)((double)(total - done) *
		    (double)ms / (double)done / 1000));
	}
	if (P.log) {
		put(line, &n, "\n");
		(void)put_stderr(line, n);
		return;
	}
	if (P.width > 0 && n > P.width - 1)
		n = P.width - 1;
	/* "\r", the line, blanks over the rest of the last, "\r" and again. */
	len = (size_t)snprintf(out, sizeof(out), "\r%.*s", (int)n, line);
	if (P.len > n) {
		pad = P.len - n;
		memset(out + len, ' ', pad);
		len += pad;
		len += (size_t)snprintf(out + len, sizeof(out) - len, "\r%.*s",
		    (int)n, line);
	}
	if (put_stderr(out, len) == 0) {
		P.len = n;
		P.shown = 1;
	}
}

/* Look at the clock, and draw if it is time. */
static void
tick(void)
{
	long long now = now_ms();

	if (now < P.next)
		return;
	draw(now);
	P.next = now + P.every;
}

void
progress_count(uint64_t items, uint64_t bytes)
{
	if (!P.on)
		return;
	P.items += items;
	P.bytes += bytes;
	if (++P.calls < P.check_calls && P.bytes - P.checked < CHECK_BYTES)
		return;
	P.calls = 0;
	P.checked = P.bytes;
	tick();
}

void
progress_job(const struct hashjob *j)
{
	uint64_t bytes = 0;
	size_t i;

	if (!P.on)
		return;
	if (j->docs == NULL) {
		progress_count(0, j->len);
		return;
	}
	/* Whole files: the sizes the workers found when they opened them. */
	for (i = 0; i < j->ndocs; i++)
		if (j->docs[i].errnum == 0)
			bytes += j->docs[i].size;
	progress_count(j->ndocs, bytes);
}

void
progress_stage(const char *label, const char *unit, uint64_t total)
{
	if (!P.on)
		return;
	/* The summary tells what was read: the first stage's counts. */
	if (!P.summed) {
		P.sum_unit = P.unit;
		P.sum_items = P.items;
		P.sum_bytes = P.bytes;
		P.summed = 1;
	}
	P.label = label;
	P.unit = unit;
	P.items = P.bytes = P.checked = 0;
	P.calls = 0;
	P.total_items = total;
	P.sized = 0;
	P.start = now_ms();
	/* A stage of a run long enough to show is shown at once. */
	if (P.start >= P.next) {
		draw(P.start);
		P.next = P.start + P.every;
	}
}

void
progress_set(uint64_t done)
{
	if (!P.on)
		return;
	P.items = done;
	tick();
}

/* Erase the line, if shown. */
static void
clear(void)
{
	char out[LINE_MAX_LEN + 2];

	if (!P.shown)
		return;
	out[0] = '\r';
	memset(out + 1, ' ', P.len);
	out[P.len + 1] = '\r';
	(void)put_stderr(out, P.len + 2);
	P.shown = 0;
	P.len = 0;
}

void
progress_stdout(void)
{
	if (P.outtty)
		clear();
}

/* The last line of a log: "neardup: done: N files, B bytes, S s". */
static void
summary(void)
{
	char line[LINE_MAX_LEN];
	const char *unit = P.summed ? P.sum_unit : P.unit;
	uint64_t items = P.summed ? P.sum_items : P.items;
	uint64_t bytes = P.summed ? P.sum_bytes : P.bytes;
	long long ms = now_ms() - P.t0;
	size_t n = 0;

	put(line, &n, "%s: done: ", getprogname());
	if (unit != NULL)
		put(line, &n, "%llu %.*s, ", (unsigned long long)items,
		    (int)strlen(unit) - (items == 1), unit);
	put(line, &n, "%llu byte%s, %lld.%02lld s\n",
	    (unsigned long long)bytes, bytes == 1 ? "" : "s", ms / 1000,
	    ms % 1000 / 10);
	(void)put_stderr(line, n);
}

void
progress_end(void)
{
	if (P.sz.running) {
		atomic_store(&P.sz.stop, 1);
		thread_join(&P.sz.th);
		P.sz.running = 0;
	}
	clear();
	unhook_stderr();
	if (P.on && P.log)
		summary();
	P.on = 0;
}
