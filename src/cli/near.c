/*
 * neardup near: the simhash fingerprints of an index within d bits of each
 * query, or every pair of them within d bits (--self), from Manku's
 * permuted tables (src/join/index.c); or the minhash, oph and bottomk
 * fingerprints of estimated resemblance at least t, from LSH tables
 * (src/join/lshindex.c), and their pairs from cluster's (--self).  The
 * index is nearix.c, the queries nearq.c, --self nearself.c.
 */
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "algo.h"
#include "cli.h"
#include "digest.h"
#include "index.h"
#include "nearix.h"
#include "nearq.h"
#include "nearself.h"
#include "progress.h"
#include "report.h"
#include "similarity.h"
#include "walk.h"

static int near_exec(const struct cmd *, int, char **);

const struct cmd cmd_near = {
	"near", "fingerprints within d bits, or t resemblance, of each query",
	"near [-hLrz] [-d distance | -t threshold] [-n count] [--docs]\n"
	"\t[--format=text|json] [--header] [--self] [-a algorithm] "
	"[-c n | -w n]\n"
	"\t[-k size] [-s seed] [--archives] [--binary] [--exclude=glob]\n"
	"\t[--exclude-dir=glob] [--files0-from=file] [--hidden] "
	"[--keep-case]\n"
	"\t[--keep-punct] [--jsonl[=field]] [--id=field] [--jsonl-skip-bad]\n"
	"\t[--multiset] [--progress | --no-progress] [--weights=file]\n"
	"\tindex [query ...]",
	near_exec
};

/* What the command line asks. */
struct near_args {
	struct shopts so;
	struct inopts io;
	struct outopts oo;
	struct recopts rec;	/* --jsonl records as queries */
	int	 docs, have_d, have_t, self;
	size_t	 limit;
	unsigned d;
	double	 t;
};

static int
near_option(const struct cmd *c, void *args, int ch, const char *arg)
{
	struct near_args *a = args;

	switch (ch) {
	case 'd':
		a->d = (unsigned)cli_number(c, "-d", arg, 0, INDEX_MAXD(128));
		a->have_d = 1;
		break;
	case 'n':
		a->limit = (size_t)cli_number(c, "-n", arg, 1, UINT32_MAX);
		break;
	case 't':
		a->t = cli_fraction(c, "-t", arg, 0);
		a->have_t = 1;
		break;
	case OPT_CMD_FIRST:
		a->docs = 1;
		break;
	case OPT_CMD_FIRST + 1:
		a->self = 1;
		break;
	case OPT_JSONL:
	case OPT_ID:
	case OPT_JSONL_SKIP_BAD:
		return recopts_option(c, &a->rec, ch, arg);
	default:
		return 0;
	}
	return 1;
}

/* The options of argv into *a: the number of them, or 0 after -h. */
static int
near_parse(const struct cmd *c, int argc, char **argv, struct near_args *a)
{
	static const struct cli_option longopts[] = {
		SHOPT_LONG,
		INOPT_LONG,
		OUTOPT_LONG,
		COMMON_LONG,
		{ { "distance", required_argument, NULL, 'd' },
		    "distance", "simhash: the largest distance of a match" },
		{ { "threshold", required_argument, NULL, 't' },
		    "threshold", "minhash, oph, bottomk: the least estimated "
		    "resemblance" },
		{ { "count", required_argument, NULL, 'n' },
		    "count", "at most count matches a query, the nearest" },
		{ { "docs", no_argument, NULL, OPT_CMD_FIRST },
		    NULL, "the queries are documents, hashed as the index" },
		{ { "self", no_argument, NULL, OPT_CMD_FIRST + 1 },
		    NULL, "every pair of the index that matches" },
		RECOPT_JSONL_LONG,
		{ { NULL, 0, NULL, 0 }, NULL, NULL }
	};
	struct cli_parse p = { SHOPT_SHORT INOPT_SHORT OUTOPT_SHORT "d:hn:t:",
	    longopts, near_option, a, &a->so,
	    &a->io, NULL, &a->oo };

	memset(a, 0, sizeof(*a));
	shopts_init(&a->so);
	inopts_init(&a->io);
	recopts_init(&a->rec, REC_NONE);
	a->oo.names[FMT_TEXT] = "text";
	a->oo.names[FMT_JSON] = "json";
	return cli_parse(c, argc, argv, &p);
}

/* Options that do not go together, and the operands. */
static void
near_check_opts(const struct cmd *c, int argc, const struct near_args *a)
{
	if (a->oo.header && a->oo.fmt == FMT_JSON) {
		warnx("--header applies to the text format, a table");
		cli_usage(c);
	}
	if (argc < 1) {
		warnx("expected an index of fingerprint lines");
		cli_usage(c);
	}
	if (a->self && a->io.list != NULL) {
		warnx("--self takes the index alone: --files0-from names "
		    "queries");
		cli_usage(c);
	}
	if (a->self && (argc > 1 || a->docs || a->limit > 0)) {
		warnx("--self takes the index alone, without queries, --docs "
		    "or -n");
		cli_usage(c);
	}
	if (a->so.given && !a->docs) {
		warnx("shingling options apply to --docs only: the scheme of "
		    "fingerprint lines is in the lines");
		cli_usage(c);
	}
	if ((a->io.walk.recursive || a->io.walk.follow) && !a->docs) {
		warnx("-r and -L apply to --docs");
		cli_usage(c);
	}
	if (a->rec.mode == REC_JSONL && (!a->docs || a->io.filter ||
	    a->io.walk.recursive || a->io.walk.follow)) {
		warnx("--jsonl applies to --docs, without -r, -L, --binary, "
		    "--exclude, --exclude-dir and --hidden");
		cli_usage(c);
	}
	if (a->io.filter && !a->docs) {
		warnx("--archives, --binary, --exclude, --exclude-dir and "
		    "--hidden apply to --docs");
		cli_usage(c);
	}
	inopts_check(c, &a->io, argc - 1);
}

/* -d, -t and -a: how the index is searched. */
static void
near_check_mode(const struct cmd *c, const struct near_args *a)
{
	char l[NEARIX_SCHEMES_MAX];
	int kind = nearix_kind(a->so.algo);

	if (a->have_d && a->have_t) {
		warnx("-d and -t do not go together: near searches %s",
		    nearix_schemes(l, sizeof(l)));
		cli_usage(c);
	}
	if (kind == NEAR_NONE) {
		warnx("-a: near searches %s", nearix_schemes(l, sizeof(l)));
		cli_usage(c);
	}
	/*
	 * With --docs, -a gives the scheme now; fingerprint lines give
	 * theirs when they are read (nearix_scheme).
	 */
	if (a->docs && kind != (a->have_t ? NEAR_RESEM : NEAR_DISTANCE) &&
	    (a->have_d || a->have_t)) {
		warnx("%s fingerprints are searched by %s, not %s",
		    scheme_algo_name(a->so.algo), a->have_t ? "-d" : "-t",
		    a->have_t ? "-t" : "-d");
		cli_usage(c);
	}
}

static void
near_check(const struct cmd *c, int argc, char **argv,
    struct near_args *a)
{
	int i;

	near_check_opts(c, argc, a);
	near_check_mode(c, a);
	recopts_check(c, &a->rec);
	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "-") == 0 && strcmp(argv[0], "-") == 0)
			break;
	if (strcmp(argv[0], "-") == 0 && !a->self && (argc == 1 || i < argc) &&
	    (a->io.list == NULL || strcmp(a->io.list, "-") == 0)) {
		warnx("the index and the queries cannot both be standard "
		    "input");
		cli_usage(c);
	}
	for (i = 1; i < argc; i++)
		cli_one_pipe(argv[0], argv[i]);
}

/* --docs: the documents of the queries, hashed as the index was. */
static void
near_docs(const struct cmd *c, struct near *r, int argc, char **argv,
    struct near_args *a)
{
	char sch[SCHEME_MAX], want[SCHEME_MAX];
	struct scheme sc;
	struct digest dg;
	struct walk *w;
	int i;

	shopts_scheme(c, &a->so, a->rec.mode, &sc);
	if (r->ix.have_sc && !scheme_equal(&sc, &r->ix.sc)) {
		scheme_format(&sc, sch);
		scheme_format(&r->ix.sc, want);
		errx(EXIT_TROUBLE, "--docs: documents hashed as %s cannot "
		    "be compared with the index's %s", sch, want);
	}
	nearix_scheme(r, "--docs", &sc);
	digest_init(&dg, &sc, a->so.weights ? &a->so.wt : NULL, NULL);
	if (a->rec.mode == REC_JSONL) {
		r->dg = &dg;
		if (argc == 1)
			r->rval |= recopts_each(&a->rec, "-", nearq_record, r);
		for (i = 1; i < argc; i++)
			r->rval |= recopts_each(&a->rec, argv[i], nearq_record,
			    r);
		recopts_report(&a->rec);
		digest_free(&dg);
		return;
	}
	w = cli_walk(&a->io.walk);
	if (a->io.list != NULL)
		nearq_list(r, w, &dg, a->io.list, &a->io);
	else if (argc == 1)
		nearq_docs(r, w, &dg, "-", &a->io);
	for (i = 1; i < argc; i++)
		nearq_docs(r, w, &dg, argv[i], &a->io);
	walk_free(w);
	digest_free(&dg);
}

/* Load the index of argv[0] and build its tables: 0, or -1. */
static int
near_index(struct near *r, int argc, char **argv, const struct near_args *a)
{
	progress_start(a->docs ? "files" : "fingerprints", !r->self);
	/* The total: with queries from standard input, unknown. */
	if (r->self || argc > 1)
		progress_inputs(argv, r->self ? 1 : argc,
		    a->docs ? &a->io.walk : NULL);
	if (nearix_load(r, argv[0]) == -1) {
		/* Unhook stderr and stop the sizer, as on the way out. */
		progress_end();
		return -1;
	}
	return 0;
}

/*
 * The run that a asks: by -d, by -t, or, with neither, as the first
 * scheme met says; -n alone asks for the n most similar of all.
 */
static void
near_init(const struct cmd *c, struct near *r, const struct near_args *a)
{
	memset(r, 0, sizeof(*r));
	r->cmd = c;
	report_init(&r->rep, a->oo.fmt, a->oo.zero);
	r->self = a->self;
	r->limit = a->limit;
	r->d = a->d;
	r->have_d = a->have_d;
	r->mode = a->have_d ? NEAR_DISTANCE : a->have_t ? NEAR_RESEM :
	    NEAR_NONE;
	r->t = a->have_t ? a->t : a->limit > 0 ? 0 : SIMILARITY_DEFAULT;
	r->exact = a->limit > 0 && !a->have_t;
}

static int
near_exec(const struct cmd *c, int argc, char **argv)
{
	struct near_args a;
	struct near r;
	int i, n;

	if ((n = near_parse(c, argc, argv, &a)) == 0)
		return out_close();
	argc -= n;
	argv += n;
	near_check(c, argc, argv, &a);

	near_init(c, &r, &a);
	if (near_index(&r, argc, argv, &a) == -1)
		return EXIT_TROUBLE;
	if (a.oo.header)
		nearix_header(&r);
	if (r.self)
		nearself_run(&r);
	else if (a.docs)
		near_docs(c, &r, argc, argv, &a);
	else if (a.io.list != NULL)
		nearq_list(&r, NULL, NULL, a.io.list, NULL);
	else {
		if (argc == 1)
			nearq_lines(&r, "-");
		for (i = 1; i < argc; i++)
			nearq_lines(&r, argv[i]);
	}
	progress_end();
	report_close(&r.rep);

	nearix_free(&r);
	shopts_free(&a.so);
	inopts_free(&a.io);
	if (out_close() != EXIT_OK)
		return EXIT_TROUBLE;
	if (r.rval != EXIT_OK)
		return r.rval;
	return r.printed > 0 ? EXIT_OK : EXIT_DIFFER;
}
