/*
 * Helpers every command uses: usage, numbers, safe names, stdout.
 */
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <vis.h>

#include "cli.h"
#include "decimal.h"
#include "lsh.h"
#include "walk.h"
#include "xmalloc.h"

void
cli_print_usage(const struct cmd *c, FILE *fp)
{
	fprintf(fp, "usage: %s %s\n", getprogname(), c->usage);
}

void
cli_usage(const struct cmd *c)
{
	cli_print_usage(c, stderr);
	exit(EXIT_TROUBLE);
}

long long
cli_number(const struct cmd *c, const char *opt, const char *arg,
    long long min, long long max)
{
	const char *errstr;
	long long n;

	n = strtonum(arg, min, max, &errstr);
	if (errstr != NULL) {
		warnx("%s: %s: %s (range %lld to %lld)", opt, cli_vis(arg),
		    errstr, min, max);
		cli_usage(c);
	}
	return n;
}

const char *
cli_vis(const char *s)
{
	static char *out;
	static size_t cap;
	size_t need = 4 * strlen(s) + 1;

	if (need > cap) {
		free(out);
		if ((out = malloc(need)) == NULL)
			err(EXIT_TROUBLE, NULL);
		cap = need;
	}
	strvis(out, s, VIS_CSTYLE | VIS_NL | VIS_TAB | VIS_OCTAL);
	return out;
}

/* The command takes -r (its inopts were set up): a directory can be walked. */
static int walks;

void
cli_takes_walk(void)
{
	walks = 1;
}

void
cli_warn_input(const char *path, int errnum, char *why)
{
	if (why != NULL)
		warnx("%s: %s", cli_vis(path), why);
	else if (errnum == EISDIR && walks)
		warnx("%s: is a directory: -r walks it", cli_vis(path));
	else
		warnx("%s: %s", cli_vis(path), walk_strerror(errnum));
	free(why);
}

/*
 * The global options stop at the command name ("+"); a command's own parse
 * permutes, as GNU tools do, so that "neardup cluster -r dir -t 0.9" works
 * ("--" ends the options).  glibc takes the ordering from the optstring
 * only when it initializes, which optind = 0 forces.
 */
void
cli_getopt_reset(void)
{
#ifdef __GLIBC__
	optind = 0;
#else
	optreset = 1;
	optind = 1;
#endif
}

void
out_write(const void *p, size_t len)
{
	if (len > 0 && fwrite(p, 1, len, stdout) != len)
		err(EXIT_TROUBLE, "stdout");
}

static const char *json_tail;	/* closes the JSON array begun on stdout */

static void
json_close(void)
{
	if (json_tail != NULL)
		fputs(json_tail, stdout);
}

void
out_json_tail(const char *tail)
{
	static int registered;

	if (!registered && tail != NULL) {
		if (atexit(json_close) != 0)
			err(EXIT_TROUBLE, "atexit");
		registered = 1;
	}
	json_tail = tail;
}

void
out_flush(void)
{
	if (fflush(stdout) == EOF)
		err(EXIT_TROUBLE, "stdout");
}

int
out_close(void)
{
	if (fflush(stdout) == EOF || ferror(stdout)) {
		warn("stdout");
		return EXIT_TROUBLE;
	}
	if (fclose(stdout) == EOF) {
		warn("stdout");
		return EXIT_TROUBLE;
	}
	return EXIT_OK;
}

double
cli_cut(double x, int decimals)
{
	double scale = decimals == 4 ? 1e4 : 1e6;

	return x >= 0 ? floor(x * scale + 1e-7) / scale :
	    ceil(x * scale - 1e-7) / scale;
}

void
cli_not_z(const char *path, uint64_t lineno)
{
	errx(EXIT_TROUBLE, "%s:%" PRIu64 ": a name holds fingerprint lines "
	    "after a newline: input written without -z?", cli_vis(path),
	    lineno);
}

struct walk *
cli_walk(const struct walkopts *wo)
{
	struct walk *w = walk_new(wo);
	struct stat st;

	if (fstat(STDOUT_FILENO, &st) == 0 && S_ISREG(st.st_mode))
		walk_skip(w, st.st_dev, st.st_ino);
	return w;
}

int
cli_is_output(int fd)
{
	struct stat in, out;

	return fstat(fd, &in) == 0 && fstat(STDOUT_FILENO, &out) == 0 &&
	    S_ISREG(in.st_mode) && S_ISREG(out.st_mode) &&
	    in.st_dev == out.st_dev && in.st_ino == out.st_ino;
}

/* The stat(2) of input name, "-" being standard input: 0 or -1. */
static int
stat_input(const char *name, struct stat *st)
{
	if (strcmp(name, "-") == 0)
		return fstat(STDIN_FILENO, st);
	return stat(name, st);
}

void
cli_one_pipe(const char *a, const char *b)
{
	struct stat sa, sb;
	char *va;

	if (stat_input(a, &sa) == 0 && stat_input(b, &sb) == 0 &&
	    (S_ISFIFO(sa.st_mode) || S_ISSOCK(sa.st_mode)) &&
	    sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino) {
		va = xstrdup(cli_vis(a));	/* cli_vis() has one buffer */
		errx(EXIT_TROUBLE, "%s and %s are one pipe: it can be read "
		    "only once", va, cli_vis(b));
	}
}

double
cli_fraction(const struct cmd *c, const char *opt, const char *arg,
    int zero_ok)
{
	double t;

	/*
	 * -t 80 for 80%: a fraction was meant.  A percentage is written
	 * plain, and from 2: 1.5 or 1e1 is more likely a slip than 1.5%.
	 */
	if (decimal_parse(arg, &t) == 0 && t >= 2 && t <= 100 &&
	    strspn(arg, "0123456789.") == strlen(arg)) {
		warnx("%s: %s: a fraction from 0 to 1: use %g", opt,
		    cli_vis(arg), t / 100);
		cli_usage(c);
	}
	if (decimal_parse(arg, &t) == -1 || !(t <= 1) ||
	    !(zero_ok ? t >= 0 : t > 0)) {
		warnx("%s: %s: not a number in %s, 1]", opt, cli_vis(arg),
		    zero_ok ? "[0" : "(0");
		cli_usage(c);
	}
	return t == 0 ? 0 : t;	/* -0 is 0, and is printed so */
}

void
cli_lsh(const struct cmd *c, const char *arg, struct lsh *l)
{
	const char *errstr = NULL;
	char buf[32], *x;

	if (strlcpy(buf, arg, sizeof(buf)) >= sizeof(buf) ||
	    (x = strchr(buf, 'x')) == NULL) {
		warnx("--lsh: %s: expected BxR, bands x rows", cli_vis(arg));
		cli_usage(c);
	}
	*x++ = '\0';
	l->b = (unsigned)strtonum(buf, 1, SCHEME_K_MAX, &errstr);
	if (errstr == NULL)
		l->r = (unsigned)strtonum(x, 1, SCHEME_K_MAX, &errstr);
	if (errstr != NULL) {
		warnx("--lsh: %s: %s", cli_vis(arg), errstr);
		cli_usage(c);
	}
}

int
cli_files0(const char *list, cli_name_fn *fn, void *ctx)
{
	char *name = NULL;
	size_t cap = 0, n = 0;
	FILE *fp;
	int rv, rval = EXIT_OK;

	if (strcmp(list, "-") == 0)
		fp = stdin;
	else if ((fp = fopen(list, "r")) == NULL)
		err(EXIT_TROUBLE, "%s", cli_vis(list));
	while ((rv = walk_files0(fp, &name, &cap)) > 0) {
		n++;
		if (rv == WALK_LONGNAME)
			warnx("%s:%zu: %s", cli_vis(list), n,
			    strerror(ENAMETOOLONG));
		else if (name[0] == '\0')
			warnx("%s:%zu: invalid zero-length file name",
			    cli_vis(list), n);
		else if (fp == stdin && strcmp(name, "-") == 0)
			warnx("%s:%zu: file name '-' not allowed when "
			    "reading names from standard input",
			    cli_vis(list), n);
		else {
			fn(ctx, name);
			continue;
		}
		rval = EXIT_TROUBLE;
	}
	if (rv == -1) {
		warn("%s", cli_vis(list));
		rval = EXIT_TROUBLE;
	}
	free(name);
	if (fp != stdin)
		fclose(fp);
	return rval;
}
