/*
 * neardup hash: one fingerprint line per document.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "hashjob.h"
#include "pool.h"
#include "walk.h"
#include "xmalloc.h"

#define JOBS_MAX 256

static int hash_exec(const struct cmd *, int, char **);

const struct cmd cmd_hash = {
	"hash", "print one fingerprint line per document",
	"hash [-hLrz] [-a algo] [-c n | -w n] [-j jobs] [-k size] [-s seed]\n"
	"\t[--files0-from=file] [--keep-case] [--keep-punct] "
	"[--lines | --tsv]\n"
	"\t[--multiset] [--weights=file] [file ...]",
	hash_exec
};

struct run {
	struct hashcfg cfg;
	struct pool *pool;
	struct walk *walk;
	int	 rval;
};

/* Print a finished job's lines and problems, in input order. */
static void
emit(struct run *r, struct hashjob *j)
{
	size_t i;

	out_write(j->out.data, j->out.len);
	for (i = 0; i < j->nnotes; i++) {
		warnx("%s:%llu: %s", cli_vis(j->name),
		    (unsigned long long)j->notes[i].rec, j->notes[i].why);
		r->rval = EXIT_TROUBLE;
	}
	if (j->errnum != 0) {
		warnc(j->errnum, "%s", cli_vis(j->name));
		r->rval = EXIT_TROUBLE;
	}
	hashjob_free(j);
}

static void
submit(struct run *r, struct hashjob *j)
{
	while (pool_full(r->pool))
		emit(r, pool_get(r->pool));
	pool_put(r->pool, j);
}

static struct hashjob *
newjob(const char *name)
{
	struct hashjob *j = xcalloc(1, sizeof(*j));

	j->name = xstrdup(name);
	return j;
}

/* A problem found by the main thread, reported in its place in order. */
static void
submit_error(struct run *r, const char *name, int errnum)
{
	struct hashjob *j = newjob(name);

	j->errnum = errnum;
	j->data = xstrdup("");	/* an empty batch: nothing to hash */
	submit(r, j);
}

/* Record modes: cut the input into batches of records. */
static void
submit_records(struct run *r, const char *name, int isstdin)
{
	struct recreader rr;
	struct hashjob *j;
	uint64_t first;
	char *data;
	size_t len;
	int fd, n;

	if (isstdin)
		fd = STDIN_FILENO;
	else if ((fd = open(name, O_RDONLY | O_NOCTTY | O_CLOEXEC)) == -1) {
		submit_error(r, name, errno);
		return;
	}
	recreader_init(&rr, fd, r->cfg.zero ? '\0' : '\n');
	while ((n = recreader_next(&rr, &data, &len, &first)) == 1) {
		j = newjob(name);
		j->data = data;
		j->len = len;
		j->first = first;
		submit(r, j);
	}
	if (n < 0)
		submit_error(r, name, -n);
	recreader_free(&rr);
	if (!isstdin)
		close(fd);
}

static void
operand(struct run *r, const char *op)
{
	struct walk_entry e;
	struct hashjob *j;

	walk_start(r->walk, op);
	while (walk_next(r->walk, &e)) {
		if (e.errnum != 0)
			submit_error(r, e.path, e.errnum);
		else if (r->cfg.mode != REC_NONE)
			submit_records(r, e.path, e.isstdin);
		else {
			j = newjob(e.path);
			j->isstdin = e.isstdin;
			submit(r, j);
		}
	}
}

static void
files0(struct run *r, const char *list)
{
	char *name = NULL;
	size_t cap = 0, n = 0;
	FILE *fp;
	int rv;

	if (strcmp(list, "-") == 0)
		fp = stdin;
	else if ((fp = fopen(list, "r")) == NULL)
		err(EXIT_TROUBLE, "%s", cli_vis(list));
	while ((rv = walk_files0(fp, &name, &cap)) == 1) {
		n++;
		if (name[0] == '\0') {
			warnx("%s:%zu: invalid zero-length file name",
			    cli_vis(list), n);
			r->rval = EXIT_TROUBLE;
		} else if (fp == stdin && strcmp(name, "-") == 0) {
			warnx("%s:%zu: file name '-' not allowed when "
			    "reading names from standard input",
			    cli_vis(list), n);
			r->rval = EXIT_TROUBLE;
		} else
			operand(r, name);
	}
	if (rv == -1) {
		warn("%s", cli_vis(list));
		r->rval = EXIT_TROUBLE;
	}
	free(name);
	if (fp != stdin)
		fclose(fp);
}

static int
hash_exec(const struct cmd *c, int argc, char **argv)
{
	static const struct option longopts[] = {
		SHOPT_LONG,
		{ "recursive", no_argument, NULL, 'r' },
		{ "dereference", no_argument, NULL, 'L' },
		{ "files0-from", required_argument, NULL, OPT_FILES0 },
		{ "lines", no_argument, NULL, OPT_LINES },
		{ "tsv", no_argument, NULL, OPT_TSV },
		{ "null-data", no_argument, NULL, 'z' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct hashworker *workers;
	struct shopts so;
	struct run r;
	const char *list = NULL;
	void **wctx;
	long jobs;
	int ch, recursive = 0, follow = 0, i;
	struct hashjob *j;

	memset(&r, 0, sizeof(r));
	shopts_init(&so);
	jobs = sysconf(_SC_NPROCESSORS_ONLN);
	jobs = jobs < 1 ? 1 : jobs > JOBS_MAX ? JOBS_MAX : jobs;
	while ((ch = getopt_long(argc, argv, "+" SHOPT_SHORT "hj:Lrz",
	    longopts, NULL)) != -1) {
		if (shopts_option(c, &so, ch, optarg))
			continue;
		switch (ch) {
		case 'h':
			cli_print_usage(c, stdout);
			return out_close();
		case 'j':
			jobs = (long)cli_number(c, "-j", optarg, 1, JOBS_MAX);
			break;
		case 'L':
			follow = 1;
			break;
		case 'r':
			recursive = 1;
			break;
		case 'z':
			r.cfg.zero = 1;
			break;
		case OPT_FILES0:
			list = optarg;
			break;
		case OPT_LINES:
		case OPT_TSV:
			if (r.cfg.mode != REC_NONE &&
			    r.cfg.mode != (ch == OPT_LINES ? REC_LINES : REC_TSV)) {
				warnx("--lines and --tsv exclude each other");
				cli_usage(c);
			}
			r.cfg.mode = ch == OPT_LINES ? REC_LINES : REC_TSV;
			break;
		default:
			cli_usage(c);
		}
	}
	argc -= optind;
	argv += optind;
	if (list != NULL && argc > 0) {
		warnx("file operands cannot be combined with --files0-from");
		cli_usage(c);
	}
	shopts_scheme(c, &so, r.cfg.mode, &r.cfg.sc);
	r.cfg.wt = so.weights != NULL ? &so.wt : NULL;

	workers = xreallocarray(NULL, (size_t)jobs, sizeof(*workers));
	wctx = xreallocarray(NULL, (size_t)jobs, sizeof(*wctx));
	for (i = 0; i < jobs; i++) {
		hashworker_init(&workers[i], &r.cfg);
		wctx[i] = &workers[i];
	}
	r.pool = pool_new((unsigned)jobs, hashjob_run, wctx);
	r.walk = walk_new(recursive, follow);

	if (list != NULL)
		files0(&r, list);
	else if (argc == 0)
		operand(&r, "-");
	else
		for (i = 0; i < argc; i++)
			operand(&r, argv[i]);
	while ((j = pool_get(r.pool)) != NULL)
		emit(&r, j);

	pool_free(r.pool);
	walk_free(r.walk);
	for (i = 0; i < jobs; i++)
		hashworker_free(&workers[i]);
	free(workers);
	free(wctx);
	shopts_free(&so);
	return out_close() | r.rval;
}
