/*
 * Fuzz target: the command line of every command (hash, compare, cluster,
 * near, uniq, help) and the global options, run whole through main().
 *
 * The input is the arguments, separated by NUL bytes.  A command must end
 * with status 0, 1 or 2 and hold no file, tree walk or mapping when it
 * returns (LeakSanitizer looks after the heap).
 *
 * The commands only ever read files, and write to standard output; here
 * they run in an empty directory of their own with standard input and
 * output on /dev/null, and every "/" of the arguments becomes "_" and every
 * ".." "._", so that no argument can name a file outside that directory:
 * there is nothing to read and nothing that could be changed.  That the
 * directory is still empty is checked after every command.
 *
 * The commands end with exit(), err() or errx() on bad input.  Linked with
 * ld --wrap (see FUZZ_WRAP in the Makefile), those jump back here instead,
 * and what the command held then is let go: each heap block, FILE, file
 * descriptor, tree walk and mapping is tracked while a command runs (the
 * heap blocks under a mask, so that LeakSanitizer still finds the leaks of
 * commands that return).  Threads could not be stopped that way, so
 * pthread_create() fails here: the work pool then works on its own.
 *
 * The progress line keeps its state in statics: --progress of one input is
 * undone before the next, and progress_end() is called for a command that
 * exits.
 *
 * The commands' messages go to /dev/null (libFuzzer's -close_fd_mask=3,
 * added unless NEARDUP_FUZZ_VERBOSE is set); what goes wrong here is
 * reported on libFuzzer's own standard error.  libFuzzer's paths (corpus,
 * inputs, -artifact_prefix) are made absolute first, and crashing inputs
 * are left in the directory it was started in.
 */
#include <sys/mman.h>
#include <sys/stat.h>

#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <fts.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/progress.h"
#include "fuzz.h"

/* main() of neardup, renamed: libFuzzer has the real one. */
int	neardup_main(int, char **);
#define main neardup_main
#include "cli/main.c"
#undef main

#define MAXLEN	4096		/* longest input run */
#define MAXARGS	64		/* arguments after the first taken */
#define MASK	((uintptr_t)0xA5C3A5C3A5C3A5C3ULL)	/* hides pointers */
#define NSMALL	256		/* FILEs, descriptors, walks, mappings */

/* The wrapped functions (ld --wrap=NAME): __real_NAME is the original. */
void	__real_exit(int) __attribute__((noreturn));
void	*__real_malloc(size_t);
void	*__real_calloc(size_t, size_t);
void	*__real_realloc(void *, size_t);
void	*__real_reallocarray(void *, size_t, size_t);
void	__real_free(void *);
char	*__real_strdup(const char *);
ssize_t	__real_getline(char **, size_t *, FILE *);
ssize_t	__real_getdelim(char **, size_t *, int, FILE *);
ssize_t	__real___getdelim(char **, size_t *, int, FILE *);
FILE	*__real_fopen(const char *, const char *);
FILE	*__real_fopencookie(void *, const char *, cookie_io_functions_t);
int	__real_fclose(FILE *);
int	__real_open(const char *, int, ...);
int	__real_close(int);
FTS	*__real_fts_open(char *const *, int,
	    int (*)(const FTSENT **, const FTSENT **));
int	__real_fts_close(FTS *);
void	*__real_mmap(void *, size_t, int, int, int, off_t);
void	*__real_mremap(void *, size_t, size_t, int, ...);
int	__real_munmap(void *, size_t);
int	__real_pthread_create(pthread_t *, const pthread_attr_t *,
	    void *(*)(void *), void *);

void	__wrap_exit(int) __attribute__((noreturn));
void	__wrap_err(int, const char *, ...)
	    __attribute__((noreturn, format(printf, 2, 3)));
void	__wrap_errx(int, const char *, ...)
	    __attribute__((noreturn, format(printf, 2, 3)));
void	__wrap_errc(int, int, const char *, ...)
	    __attribute__((noreturn, format(printf, 3, 4)));
void	__wrap_verr(int, const char *, va_list)
	    __attribute__((noreturn, format(printf, 2, 0)));
void	__wrap_verrx(int, const char *, va_list)
	    __attribute__((noreturn, format(printf, 2, 0)));
void	__wrap_verrc(int, int, const char *, va_list)
	    __attribute__((noreturn, format(printf, 3, 0)));
void	*__wrap_malloc(size_t);
void	*__wrap_calloc(size_t, size_t);
void	*__wrap_realloc(void *, size_t);
void	*__wrap_reallocarray(void *, size_t, size_t);
void	__wrap_free(void *);
char	*__wrap_strdup(const char *);
ssize_t	__wrap_getline(char **, size_t *, FILE *);
ssize_t	__wrap_getdelim(char **, size_t *, int, FILE *);
ssize_t	__wrap___getdelim(char **, size_t *, int, FILE *);
FILE	*__wrap_fopen(const char *, const char *);
FILE	*__wrap_fopencookie(void *, const char *, cookie_io_functions_t);
int	__wrap_fclose(FILE *);
int	__wrap_open(const char *, int, ...);
int	__wrap_close(int);
FTS	*__wrap_fts_open(char *const *, int,
	    int (*)(const FTSENT **, const FTSENT **));
int	__wrap_fts_close(FTS *);
void	*__wrap_mmap(void *, size_t, int, int, int, off_t);
void	*__wrap_mremap(void *, size_t, size_t, int, ...);
int	__wrap_munmap(void *, size_t);
int	__wrap_pthread_create(pthread_t *, const pthread_attr_t *,
	    void *(*)(void *), void *);

static FILE *report;		/* libFuzzer's standard error */
static FILE *stderr0;		/* the commands' stderr, as it was */
static pthread_t main_thread;
static int tracking;		/* a command is running */
static jmp_buf exit_jmp;
static int exit_status;

#define CHECK(cond) do {						\
	if (!(cond)) {							\
		fprintf(report, "%s:%d: check failed: %s\n", __FILE__,	\
		    __LINE__, #cond);					\
		fflush(report);						\
		abort();						\
	}								\
} while (0)

/* Heap blocks of the running command: open addressing, masked. */
#define SLOT_FREE	0
#define SLOT_GONE	1

static struct {
	uintptr_t *slot;
	size_t	 cap, used, gone;
} heap;

/* The other resources: a few at a time. */
struct small {
	uintptr_t v[NSMALL];	/* masked pointers, or descriptors */
	size_t	 len[NSMALL];	/* mappings: their length */
	size_t	 n;
};

static struct small files, fds, walks, maps;

static int
tracked(void)
{
	return tracking && pthread_equal(pthread_self(), main_thread);
}

static size_t
heap_home(uintptr_t m, size_t cap)
{
	return (size_t)((m >> 4) * 0x9E3779B97F4A7C15ULL) & (cap - 1);
}

static void heap_add(void *);

static void
heap_grow(void)
{
	uintptr_t *old = heap.slot;
	size_t oldcap = heap.cap, i;

	/* A power of two, at most a quarter full after. */
	for (heap.cap = 1024; heap.cap < heap.used * 4; heap.cap *= 2)
		;
	heap.slot = __real_calloc(heap.cap, sizeof(*heap.slot));
	CHECK(heap.slot != NULL);
	heap.used = heap.gone = 0;
	for (i = 0; i < oldcap; i++)
		if (old[i] > SLOT_GONE)
			heap_add((void *)(old[i] ^ MASK));
	__real_free(old);
}

static void
heap_add(void *p)
{
	uintptr_t m = (uintptr_t)p ^ MASK;
	size_t i;

	if (p == NULL)
		return;
	if ((heap.used + heap.gone + 1) * 2 > heap.cap)
		heap_grow();
	for (i = heap_home(m, heap.cap); heap.slot[i] > SLOT_GONE;
	    i = (i + 1) & (heap.cap - 1))
		;
	heap.gone -= heap.slot[i] == SLOT_GONE;
	heap.slot[i] = m;
	heap.used++;
}

/* Forget p; returns whether it was tracked. */
static int
heap_del(void *p)
{
	uintptr_t m = (uintptr_t)p ^ MASK;
	size_t i;

	if (p == NULL || heap.cap == 0)
		return 0;
	for (i = heap_home(m, heap.cap); heap.slot[i] != SLOT_FREE;
	    i = (i + 1) & (heap.cap - 1)) {
		if (heap.slot[i] == m) {
			heap.slot[i] = SLOT_GONE;
			heap.used--;
			heap.gone++;
			return 1;
		}
	}
	return 0;
}

static void
small_add(struct small *s, uintptr_t v, size_t len)
{
	CHECK(s->n < NSMALL);
	s->len[s->n] = len;
	s->v[s->n++] = v;
}

/* Forget v; returns whether it was tracked (and its length in *len). */
static int
small_del(struct small *s, uintptr_t v, size_t *len)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		if (s->v[i] == v) {
			if (len != NULL)
				*len = s->len[i];
			s->v[i] = s->v[--s->n];
			s->len[i] = s->len[s->n];
			return 1;
		}
	}
	return 0;
}

/* Let go of whatever the command held when it exited. */
static void
release(void)
{
	size_t i;

	while (files.n > 0)
		__real_fclose((FILE *)(files.v[--files.n] ^ MASK));
	while (walks.n > 0)
		__real_fts_close((FTS *)(walks.v[--walks.n] ^ MASK));
	while (fds.n > 0)
		__real_close((int)fds.v[--fds.n]);
	while (maps.n > 0) {
		maps.n--;
		__real_munmap((void *)(maps.v[maps.n] ^ MASK), maps.len[maps.n]);
	}
	for (i = 0; i < heap.cap; i++) {
		if (heap.slot[i] > SLOT_GONE)
			__real_free((void *)(heap.slot[i] ^ MASK));
		heap.slot[i] = SLOT_FREE;
	}
	heap.used = heap.gone = 0;
}

void
__wrap_exit(int status)
{
	if (!tracked())
		__real_exit(status);
	exit_status = status;
	longjmp(exit_jmp, 1);
}

void
__wrap_err(int eval, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
	__wrap_exit(eval);
}

void
__wrap_errx(int eval, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarnx(fmt, ap);
	va_end(ap);
	__wrap_exit(eval);
}

void
__wrap_errc(int eval, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarnc(code, fmt, ap);
	va_end(ap);
	__wrap_exit(eval);
}

void
__wrap_verr(int eval, const char *fmt, va_list ap)
{
	vwarn(fmt, ap);
	__wrap_exit(eval);
}

void
__wrap_verrx(int eval, const char *fmt, va_list ap)
{
	vwarnx(fmt, ap);
	__wrap_exit(eval);
}

void
__wrap_verrc(int eval, int code, const char *fmt, va_list ap)
{
	vwarnc(code, fmt, ap);
	__wrap_exit(eval);
}

void *
__wrap_malloc(size_t n)
{
	void *p = __real_malloc(n);

	if (tracked())
		heap_add(p);
	return p;
}

void *
__wrap_calloc(size_t n, size_t size)
{
	void *p = __real_calloc(n, size);

	if (tracked())
		heap_add(p);
	return p;
}

/*
 * A block from before the command (a static cache) stays untracked when it
 * moves; the others follow their block.
 */
void *
__wrap_realloc(void *old, size_t n)
{
	int was = tracked() && (old == NULL || heap_del(old));
	void *p = __real_realloc(old, n);

	if (was)
		heap_add(p != NULL ? p : old);
	return p;
}

void *
__wrap_reallocarray(void *old, size_t n, size_t size)
{
	int was = tracked() && (old == NULL || heap_del(old));
	void *p = __real_reallocarray(old, n, size);

	if (was)
		heap_add(p != NULL ? p : old);
	return p;
}

void
__wrap_free(void *p)
{
	if (tracked())
		heap_del(p);
	__real_free(p);
}

char *
__wrap_strdup(const char *s)
{
	char *p = __real_strdup(s);

	if (tracked())
		heap_add(p);
	return p;
}

/* The C library may reallocate the line: follow it. */
static void
follow_line(char *old, char *now)
{
	if (!tracked() || old == now)
		return;
	if (old == NULL || heap_del(old))
		heap_add(now);
}

ssize_t
__wrap_getline(char **line, size_t *cap, FILE *fp)
{
	char *old = *line;
	ssize_t n = __real_getline(line, cap, fp);

	follow_line(old, *line);
	return n;
}

ssize_t
__wrap_getdelim(char **line, size_t *cap, int delim, FILE *fp)
{
	char *old = *line;
	ssize_t n = __real_getdelim(line, cap, delim, fp);

	follow_line(old, *line);
	return n;
}

ssize_t
__wrap___getdelim(char **line, size_t *cap, int delim, FILE *fp)
{
	char *old = *line;
	ssize_t n = __real___getdelim(line, cap, delim, fp);

	follow_line(old, *line);
	return n;
}

FILE *
__wrap_fopen(const char *path, const char *mode)
{
	FILE *fp = __real_fopen(path, mode);

	if (fp != NULL && tracked())
		small_add(&files, (uintptr_t)fp ^ MASK, 0);
	return fp;
}

FILE *
__wrap_fopencookie(void *cookie, const char *mode, cookie_io_functions_t io)
{
	FILE *fp = __real_fopencookie(cookie, mode, io);

	if (fp != NULL && tracked())
		small_add(&files, (uintptr_t)fp ^ MASK, 0);
	return fp;
}

/* The standard streams stay open for the next command. */
int
__wrap_fclose(FILE *fp)
{
	if (fp == stdout)
		return fflush(fp);
	if (fp == stdin || fp == stderr0)
		return 0;
	if (tracked())
		small_del(&files, (uintptr_t)fp ^ MASK, NULL);
	return __real_fclose(fp);
}

int
__wrap_open(const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;
	int fd;

	if (flags & (O_CREAT | O_TMPFILE)) {
		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	fd = __real_open(path, flags, mode);
	if (fd != -1 && tracked())
		small_add(&fds, (uintptr_t)fd, 0);
	return fd;
}

int
__wrap_close(int fd)
{
	if (tracked())
		small_del(&fds, (uintptr_t)fd, NULL);
	return __real_close(fd);
}

FTS *
__wrap_fts_open(char *const *argv, int options,
    int (*cmp)(const FTSENT **, const FTSENT **))
{
	FTS *f = __real_fts_open(argv, options, cmp);

	if (f != NULL && tracked())
		small_add(&walks, (uintptr_t)f ^ MASK, 0);
	return f;
}

int
__wrap_fts_close(FTS *f)
{
	if (tracked())
		small_del(&walks, (uintptr_t)f ^ MASK, NULL);
	return __real_fts_close(f);
}

void *
__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	void *p = __real_mmap(addr, len, prot, flags, fd, off);

	if (p != MAP_FAILED && tracked())
		small_add(&maps, (uintptr_t)p ^ MASK, len);
	return p;
}

void *
__wrap_mremap(void *old, size_t oldlen, size_t len, int flags, ...)
{
	void *p, *to = NULL;
	va_list ap;
	int was;

	if (flags & MREMAP_FIXED) {
		va_start(ap, flags);
		to = va_arg(ap, void *);
		va_end(ap);
		p = __real_mremap(old, oldlen, len, flags, to);
	} else
		p = __real_mremap(old, oldlen, len, flags);
	if (p != MAP_FAILED && tracked()) {
		was = small_del(&maps, (uintptr_t)old ^ MASK, NULL);
		if (was)
			small_add(&maps, (uintptr_t)p ^ MASK, len);
	}
	return p;
}

int
__wrap_munmap(void *addr, size_t len)
{
	if (tracked())
		small_del(&maps, (uintptr_t)addr ^ MASK, NULL);
	return __real_munmap(addr, len);
}

int
__wrap_pthread_create(pthread_t *th, const pthread_attr_t *attr,
    void *(*fn)(void *), void *arg)
{
	if (tracked())
		return EAGAIN;
	return __real_pthread_create(th, attr, fn, arg);
}

static char tmpdir[] = "/tmp/neardup-fuzz-cli.XXXXXX";

static void
remove_tmpdir(void)
{
	(void)rmdir(tmpdir);
}

/*
 * libFuzzer's argument arg with its path (after the prefix flag) made
 * absolute, since the commands run in a directory of their own.
 */
static char *
absolute(const char *cwd, char *arg, const char *flag)
{
	size_t n = strlen(flag);
	char *s;

	if (strncmp(arg, flag, n) != 0 || arg[n] == '/' || (n > 0 &&
	    arg[n] == '\0'))
		return arg;
	if (asprintf(&s, "%s%s/%s", flag, cwd, arg + n) == -1) {
		perror("fuzz_cli");
		abort();
	}
	return s;
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char *const flags[] = { "-artifact_prefix=",
	    "-exact_artifact_path=", "-dict=", "-features_dir=" };
	static char *nargv[256];
	static char mask[] = "-close_fd_mask=3";
	static char big[2 * MAXLEN + 1];
	char cwd[4096], *prefix;
	size_t j;
	int i, n, fd, quiet = getenv("NEARDUP_FUZZ_VERBOSE") == NULL;
	int have_prefix = 0;

	main_thread = pthread_self();
	if (*argc + 3 > (int)(sizeof(nargv) / sizeof(nargv[0])) ||
	    getcwd(cwd, sizeof(cwd)) == NULL) {
		fprintf(stderr, "fuzz_cli: too many arguments, or no cwd\n");
		abort();
	}

	/*
	 * Corpus directories, inputs and the paths of flags: absolute.  The
	 * crashing inputs go to the directory we were started in, not to
	 * the commands'.  The commands' messages go nowhere; libFuzzer's
	 * stay.
	 */
	nargv[0] = (*argv)[0];
	for (i = n = 1; i < *argc; i++) {
		nargv[n] = (*argv)[i];
		if (nargv[n][0] != '-')
			nargv[n] = absolute(cwd, nargv[n], "");
		for (j = 0; j < sizeof(flags) / sizeof(flags[0]); j++)
			nargv[n] = absolute(cwd, nargv[n], flags[j]);
		have_prefix |= strncmp(nargv[n], flags[0],
		    strlen(flags[0])) == 0;
		if (strncmp(nargv[n], "-close_fd_mask=", 15) == 0)
			quiet = 0;
		n++;
	}
	if (!have_prefix) {
		if (asprintf(&prefix, "%s%s/", flags[0], cwd) == -1) {
			perror("fuzz_cli");
			abort();
		}
		nargv[n++] = prefix;
	}
	if (quiet)
		nargv[n++] = mask;
	nargv[n] = NULL;
	*argc = n;
	*argv = nargv;
	if ((fd = dup(STDERR_FILENO)) == -1 ||
	    (report = fdopen(fd, "w")) == NULL) {
		perror("fuzz_cli: stderr");
		abort();
	}
	stderr0 = stderr;

	/* An empty directory to run in, standard input and output nowhere. */
	if (mkdtemp(tmpdir) == NULL || chdir(tmpdir) == -1) {
		perror("fuzz_cli: temporary directory");
		abort();
	}
	atexit(remove_tmpdir);
	if ((fd = __real_open("/dev/null", O_RDWR, 0)) == -1 ||
	    dup2(fd, STDIN_FILENO) == -1 || dup2(fd, STDOUT_FILENO) == -1) {
		perror("fuzz_cli: /dev/null");
		abort();
	}
	__real_close(fd);

	/* cli_vis() keeps its buffer: make it large enough once and for all. */
	memset(big, 'x', sizeof(big) - 1);
	(void)cli_vis(big);

	return 0;
}

/* Is the current directory still empty? */
static int
dir_empty(void)
{
	struct dirent *e;
	DIR *d;
	int n = 0;

	if ((d = opendir(".")) == NULL)
		return 0;
	while ((e = readdir(d)) != NULL)
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return n == 0;
}

/* The arguments: NUL-separated, with no way out of the directory. */
static int
split(char *buf, size_t len, char **argv)
{
	static char name[] = "neardup";
	size_t i, start;
	int argc = 0;

	argv[argc++] = name;
	for (i = 0; i < len; i++) {
		if (buf[i] == '/')
			buf[i] = '_';
		else if (buf[i] == '.' && i + 1 < len && buf[i + 1] == '.')
			buf[i + 1] = '_';
	}
	buf[len] = '\0';
	for (start = 0, i = 0; i <= len && argc <= MAXARGS; i++) {
		if (buf[i] != '\0')
			continue;
		if (i < len || i > start)
			argv[argc++] = buf + start;
		start = i + 1;
	}
	argv[argc] = NULL;
	return argc;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char buf[MAXLEN + 1];
	char *argv[MAXARGS + 2];
	volatile int status;
	int argc;

	if (size > MAXLEN)
		return -1;
	memcpy(buf, data, size);
	argc = split(buf, size, argv);

	clearerr(stdin);
	clearerr(stdout);
	stderr = stderr0;
	cli_getopt_reset();
	progress_option(OPT_NO_PROGRESS);
	/* What a command that returned still held was reported: forget it. */
	files.n = fds.n = walks.n = maps.n = 0;
	if (heap.cap > 0)
		memset(heap.slot, 0, heap.cap * sizeof(*heap.slot));
	heap.used = heap.gone = 0;

	tracking = 1;
	if (setjmp(exit_jmp) == 0) {
		status = neardup_main(argc, argv);
		tracking = 0;
		CHECK(files.n == 0);
		CHECK(fds.n == 0);
		CHECK(walks.n == 0);
		CHECK(maps.n == 0);
	} else {
		/* Unhook stderr from the progress line while still tracking. */
		progress_end();
		tracking = 0;
		status = exit_status;
		release();
	}
	CHECK(status == EXIT_OK || status == EXIT_DIFFER ||
	    status == EXIT_TROUBLE);
	CHECK(dir_empty());
	stderr = stderr0;
	fflush(stdout);
	return 0;
}
