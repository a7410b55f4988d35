/*
 * neardup near: the simhash fingerprints of an index within d bits of each
 * query, or every pair of them within d bits (--self), from Manku's
 * permuted tables (src/join/index.c).
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

#include "buf.h"
#include "cli.h"
#include "digest.h"
#include "fpline.h"
#include "fpset.h"
#include "hashjob.h"
#include "hashrun.h"
#include "members.h"
#include "index.h"
#include "progress.h"
#include "report.h"
#include "source.h"
#include "walk.h"
#include "xmalloc.h"

static int near_exec(const struct cmd *, int, char **);

const struct cmd cmd_near = {
	"near", "simhash fingerprints within d bits of each query",
	"near [-hLrz] -d distance [-n count] [--docs] [--format=text|json] "
	"[--header]\n"
	"\t[--self] [-a simhash] [-c n | -w n] [-k size] [-s seed] "
	"[--archives]\n"
	"\t[--binary] [--exclude=glob] [--exclude-dir=glob] "
	"[--files0-from=file] [--hidden]\n"
	"\t[--keep-case] [--keep-punct] [--jsonl[=field]] [--id=field] "
	"[--jsonl-skip-bad]\n"
	"\t[--multiset] [--progress | --no-progress] [--weights=file]\n"
	"\tindex [query ...]",
	near_exec
};

struct near {
	struct report rep;
	int	 self;
	size_t	 limit;		/* -n, 0: all */
	unsigned d;
	struct fpset ix;
	struct index index;
	struct index_match *m;
	size_t	 mcap;
	size_t	 printed;
	struct digest *dg;	/* --docs --jsonl: hashes the queries */
	int	 rval;
};

static void
put_pair(struct near *r, const char *a, const char *b, unsigned dist)
{
	progress_stdout();
	report_row(&r->rep);
	report_cell_name(&r->rep, "query", a);
	report_cell_name(&r->rep, "match", b);
	report_cell_count(&r->rep, "distance", dist);
	report_row_end(&r->rep);
	r->printed++;
}

static void
query(struct near *r, const char *name, const uint64_t *v)
{
	size_t n, i;

	n = index_query(&r->index, v, &r->m, &r->mcap);
	if (r->limit > 0 && n > r->limit)
		n = r->limit;
	for (i = 0; i < n; i++)
		put_pair(r, name, fpset_name(&r->ix, r->m[i].id), r->m[i].dist);
}

/* -d fits fingerprints of bits bits, or exit 2. */
static void
check_d(unsigned d, unsigned bits)
{
	if (d > INDEX_MAXD(bits))
		errx(EXIT_TROUBLE, "-d: %u: too large for %u-bit fingerprints "
		    "(at most %u)", d, bits, INDEX_MAXD(bits));
}

/* Query with every fingerprint line of path. */
static void
query_lines(struct near *r, const char *path)
{
	struct fpset q = { 0 };
	char sch[SCHEME_MAX], want[SCHEME_MAX];
	size_t i;

	q.hint_text = "queries that are documents need --docs";
	q.hint_dir = "queries in it need --docs -r";
	/* After a read error, the lines read before it are still asked. */
	if (fpset_load(&q, path, r->rep.zero, 1) == -1)
		r->rval = EXIT_TROUBLE;
	if (q.n > 0 && r->ix.have_sc && !scheme_equal(&q.sc, &r->ix.sc)) {
		scheme_format(&q.sc, sch);
		scheme_format(&r->ix.sc, want);
		errx(EXIT_TROUBLE, "%s: scheme %s differs from the index's %s",
		    cli_vis(path), sch, want);
	}
	/* An empty index: the queries say how many bits. */
	if (q.n > 0)
		check_d(r->d, q.sc.size);
	for (i = 0; i < q.n; i++)
		query(r, fpset_name(&q, i), q.v + i * r->index.words);
	fpset_free(&q);
}

/*
 * --docs: hash the documents under path and query with them; binary ones
 * are skipped with a note unless binary.
 */
/* Query with a member's values (a hashdoc_fn). */
static void
query_member(void *ctx, const char *name, size_t len, const uint64_t *v)
{
	(void)len;
	query(ctx, name, v);
}

static void
query_docs(struct near *r, struct walk *w, struct digest *dg,
    const char *path, const struct inopts *io)
{
	struct walk_entry e;
	struct hashdoc d;
	struct buf name = { 0 };
	const uint64_t *v;
	int whole;

	walk_start(w, path);
	while (walk_next(w, &e)) {
		memset(&d, 0, sizeof(d));
		d.name = (char *)e.path;
		d.isstdin = e.isstdin;
		d.errnum = e.errnum;
		whole = d.errnum == 0 && (!io->archives || hashdoc_members(dg,
		    &name, &d, io->binary, query_member, r) == MEMBERS_PLAIN);
		if (whole && hashdoc_digest(dg, &d, io->binary, &v) == 0 &&
		    !d.binary)
			query(r, e.path, v);
		progress_count(1, progress_on() && d.errnum == 0 ? d.size : 0);
		if (hashrun_note(&d))
			r->rval = EXIT_TROUBLE;
		free(d.why);
		buf_free(&d.skipped);
	}
	buf_free(&name);
}

/* --self: the progress of the join, as the index reports it. */
static void
join_tick(void *ctx, uint64_t done, uint64_t total)
{
	static int staged;

	(void)ctx;
	if (!staged) {
		progress_stage("joining", NULL, total);
		staged = 1;
	}
	progress_set(done);
}

struct pair {
	uint32_t a, b;
	unsigned dist;
};

/*
 * The pairs of --self, printed by a, then distance, then b: all of them
 * at the end, from the tables, which find them in no order; or from a
 * scan, which finds them by a, those of each a as soon as the next a has
 * one (put_pairs()), so that output begins at once and memory holds one
 * a's pairs only.
 */
struct pairs {
	struct pair *p;
	size_t	 n, cap;
	struct near *r;
	int	 stream;	/* by a: print each a's when the next comes */
};

static int
pair_cmp(const void *x, const void *y)
{
	const struct pair *p = x, *q = y;

	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	if (p->dist != q->dist)
		return p->dist < q->dist ? -1 : 1;
	return (p->b > q->b) - (p->b < q->b);
}

static void
put_pairs(struct pairs *ps)
{
	size_t k;

	if (ps->n > 1)
		qsort(ps->p, ps->n, sizeof(*ps->p), pair_cmp);
	for (k = 0; k < ps->n; k++)
		put_pair(ps->r, fpset_name(&ps->r->ix, ps->p[k].a),
		    fpset_name(&ps->r->ix, ps->p[k].b), ps->p[k].dist);
	ps->n = 0;
}

static void
add_pair(void *ctx, uint32_t a, uint32_t b, unsigned dist)
{
	struct pairs *ps = ctx;

	if (ps->stream && ps->n > 0 && ps->p[0].a != a)
		put_pairs(ps);
	if (ps->n == ps->cap) {
		ps->cap = ps->cap ? 2 * ps->cap : 1024;
		ps->p = xreallocarray(ps->p, ps->cap, sizeof(*ps->p));
	}
	ps->p[ps->n].a = a;
	ps->p[ps->n].b = b;
	ps->p[ps->n].dist = dist;
	ps->n++;
}


/* What the command line asks. */
struct near_args {
	struct shopts so;
	struct inopts io;
	struct outopts oo;
	struct recopts rec;	/* --jsonl records as queries */
	int	 docs, have_d, self;
	size_t	 limit;
	unsigned d;
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
		    "distance", "the largest Hamming distance of a match" },
		{ { "count", required_argument, NULL, 'n' },
		    "count", "at most count matches a query, the nearest" },
		{ { "docs", no_argument, NULL, OPT_CMD_FIRST },
		    NULL, "the queries are documents, hashed as the index" },
		{ { "self", no_argument, NULL, OPT_CMD_FIRST + 1 },
		    NULL, "every pair of the index within distance" },
		RECOPT_JSONL_LONG,
		{ { NULL, 0, NULL, 0 }, NULL, NULL }
	};
	struct cli_parse p = { SHOPT_SHORT INOPT_SHORT OUTOPT_SHORT "d:hn:",
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
	if (!a->have_d) {
		warnx("-d: the largest distance is required");
		cli_usage(c);
	}
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
	if (algo_get(a->so.algo)->cand != CAND_HAMMING) {
		char l[ALGO_LIST_MAX];

		warnx("-a: near works on %s fingerprints only", algo_list(l,
		    sizeof(l), 0, CAND_HAMMING, "", "and"));
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

static void
near_check(const struct cmd *c, int argc, char **argv,
    struct near_args *a)
{
	int i;

	near_check_opts(c, argc, a);
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

/* --self: every pair of the index within d bits. */
static void
near_self(struct near *r)
{
	struct pairs ps = { 0 };

	r->index.tick = join_tick;
	ps.r = r;
	ps.stream = r->index.ntables == 0;
	index_self(&r->index, add_pair, &ps);
	progress_end();
	put_pairs(&ps);
	free(ps.p);
}

/* --docs --jsonl: query with one record. */
static void
query_record(void *ctx, const struct record *rec, const char *name,
    size_t namelen)
{
	struct near *r = ctx;

	(void)namelen;
	digest_feed(r->dg, rec->text, rec->tlen);
	progress_count(1, rec->len + 1);
	query(r, name, digest_end(r->dg));
}

/* A query of a --files0-from list: a document, or a file of lines. */
struct near_query {
	struct near *r;
	struct walk *w;		/* NULL: fingerprint lines */
	struct digest *dg;
	const struct inopts *io;
};

static void
query_one(void *ctx, const char *path)
{
	struct near_query *q = ctx;

	if (q->w != NULL)
		query_docs(q->r, q->w, q->dg, path, q->io);
	else
		query_lines(q->r, path);
}

/* The queries of --files0-from=list. */
static void
near_list(struct near *r, struct walk *w, struct digest *dg,
    const char *list, const struct inopts *io)
{
	struct near_query q = { r, w, dg, io };

	r->rval |= cli_files0(list, query_one, &q);
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
	check_d(r->d, sc.size);
	digest_init(&dg, &sc, a->so.weights ? &a->so.wt : NULL, NULL);
	if (a->rec.mode == REC_JSONL) {
		r->dg = &dg;
		if (argc == 1)
			r->rval |= recopts_each(&a->rec, "-", query_record, r);
		for (i = 1; i < argc; i++)
			r->rval |= recopts_each(&a->rec, argv[i], query_record,
			    r);
		recopts_report(&a->rec);
		digest_free(&dg);
		return;
	}
	w = cli_walk(&a->io.walk);
	if (a->io.list != NULL)
		near_list(r, w, &dg, a->io.list, &a->io);
	else if (argc == 1)
		query_docs(r, w, &dg, "-", &a->io);
	for (i = 1; i < argc; i++)
		query_docs(r, w, &dg, argv[i], &a->io);
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
	r->ix.hint_text = "the index is fingerprint lines, as neardup hash "
	    "prints them";
	r->ix.hint_dir = "the index is a file of fingerprint lines";
	if (fpset_load(&r->ix, argv[0], r->rep.zero, 1) == -1) {
		/* Unhook stderr and stop the sizer, as on the way out. */
		progress_end();
		fpset_free(&r->ix);
		return -1;
	}
	if (r->ix.have_sc)
		check_d(r->d, r->ix.sc.size);
	if (r->self)
		progress_stage("building the tables", NULL, 0);
	index_build(&r->index, r->ix.v, r->ix.n, r->ix.have_sc ?
	    r->ix.sc.size : 64, r->d, r->self ? INDEX_SELF : INDEX_QUERIES);
	return 0;
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

	memset(&r, 0, sizeof(r));
	report_init(&r.rep, a.oo.fmt, a.oo.zero);
	r.self = a.self;
	r.limit = a.limit;
	r.d = a.d;
	if (near_index(&r, argc, argv, &a) == -1)
		return EXIT_TROUBLE;
	if (a.oo.header) {
		progress_stdout();
		report_header(&r.rep, "query\tmatch\tdistance");
	}
	if (r.self)
		near_self(&r);
	else if (a.docs)
		near_docs(c, &r, argc, argv, &a);
	else if (a.io.list != NULL)
		near_list(&r, NULL, NULL, a.io.list, 0);
	else {
		if (argc == 1)
			query_lines(&r, "-");
		for (i = 1; i < argc; i++)
			query_lines(&r, argv[i]);
	}
	progress_end();
	report_close(&r.rep);

	index_free(&r.index);
	free(r.m);
	fpset_free(&r.ix);
	shopts_free(&a.so);
	inopts_free(&a.io);
	if (out_close() != EXIT_OK)
		return EXIT_TROUBLE;
	if (r.rval != EXIT_OK)
		return r.rval;
	return r.printed > 0 ? EXIT_OK : EXIT_DIFFER;
}
