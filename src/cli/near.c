/*
 * neardup near: the simhash fingerprints of an index within d bits of each
 * query, or every pair of them within d bits (--self), from Manku's
 * permuted tables (src/join/index.c); or the minhash, oph and bottomk
 * fingerprints of estimated resemblance at least t, from LSH tables
 * (src/join/lshindex.c), and their pairs from cluster's (--self).
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
#include "cluster.h"
#include "digest.h"
#include "fpline.h"
#include "fpset.h"
#include "index.h"
#include "lshindex.h"
#include "progress.h"
#include "walk.h"
#include "xmalloc.h"

static int near_exec(const struct cmd *, int, char **);

const struct cmd cmd_near = {
	"near", "fingerprints within d bits, or t resemblance, of each query",
	"near [-hLrz] [-d distance | -t threshold] [-n count] [--docs]\n"
	"\t[--format=text|json] [--header] [--self] [-a algorithm] "
	"[-c n | -w n]\n"
	"\t[-k size] [-s seed] [--binary]"
	"\n"
	"\t[--exclude=glob] [--exclude-dir=glob] [--hidden] [--keep-case]\n"
	"\t[--keep-punct] [--multiset] [--progress | --no-progress] "
	"[--weights=file]\n"
	"\tindex [query ...]",
	near_exec
};

/* Without -t, the resemblance that minhash, oph and bottomk must reach. */
#define DEFAULT_THRESHOLD 0.8

struct near {
	const struct cmd *cmd;
	int	 zero, json, self, header;
	size_t	 limit;		/* -n, 0: all */
	unsigned d;
	int	 have_d;
	/*
	 * 0: simhash, by distance (-d); 1: minhash, oph and bottomk, by
	 * estimated resemblance (-t); -1: not known until a scheme is met.
	 */
	int	 resem;
	double	 t;
	int	 exact;		/* -n without -t: the n most similar of all */
	struct lshindex lx;
	struct lshindex_match *lm;
	size_t	 lmcap;
	struct fpset ix;
	struct index index;
	struct index_match *m;
	size_t	 mcap;
	size_t	 printed;
	int	 rval;
};

static void
put_name(const struct near *r, const char *name)
{
	if (r->json)
		fmt_json_string(stdout, name, strlen(name));
	else if (r->zero)
		fputs(name, stdout);
	else
		fmt_tsv_field(stdout, name, strlen(name));
}

/* A match: its distance (simhash) or estimated resemblance, sim. */
static void
put_pair(struct near *r, const char *a, const char *b, unsigned dist,
    double sim)
{
	progress_stdout();
	if (r->json) {
		printf("%s\n{\"query\": ", r->printed ? "," : "[");
		put_name(r, a);
		printf(", \"match\": ");
		put_name(r, b);
		if (r->resem == 1)
			printf(", \"est_jaccard\": %.4f}", cli_cut(sim, 4));
		else
			printf(", \"distance\": %u}", dist);
		out_json_tail("\n]\n");
	} else {
		put_name(r, a);
		putchar('\t');
		put_name(r, b);
		if (r->resem == 1)
			printf("\t%.4f", cli_cut(sim, 4));
		else
			printf("\t%u", dist);
		putchar(r->zero ? '\0' : '\n');
	}
	r->printed++;
}

static void
query(struct near *r, const char *name, const uint64_t *v)
{
	size_t n, i;

	if (r->resem == 1) {
		n = r->ix.n == 0 ? 0 : lshindex_query(&r->lx, v, r->t,
		    r->limit, r->exact, &r->lm, &r->lmcap);
		for (i = 0; i < n; i++)
			put_pair(r, name, fpset_name(&r->ix, r->lm[i].id), 0,
			    r->lm[i].sim);
		return;
	}
	n = index_query(&r->index, v, &r->m, &r->mcap);
	if (r->limit > 0 && n > r->limit)
		n = r->limit;
	for (i = 0; i < n; i++)
		put_pair(r, name, fpset_name(&r->ix, r->m[i].id),
		    r->m[i].dist, 0);
}

/* -d fits fingerprints of bits bits, or exit 2. */
static void
check_d(unsigned d, unsigned bits)
{
	if (d > INDEX_MAXD(bits))
		errx(EXIT_TROUBLE, "-d: %u: too large for %u-bit fingerprints "
		    "(at most %u)", d, bits, INDEX_MAXD(bits));
}

/*
 * Fingerprints of scheme sc from path: simhash ones are searched by -d,
 * the others by -t, and the first scheme met says which when neither is
 * given.
 */
static void
near_mode(struct near *r, const char *path, const struct scheme *sc)
{
	enum cand_rule cr = algo_get(sc->algo)->cand;
	int resem = cr == CAND_BANDS || cr == CAND_SMALLEST;

	if (cr == CAND_EQUAL)
		errx(EXIT_TROUBLE, "%s: %s fingerprints have no near search: "
		    "hash with -a simhash, minhash, oph or bottomk",
		    cli_vis(path), scheme_algo_name(sc->algo));
	if (r->resem == -1) {
		if (!resem && !r->have_d) {
			warnx("-d: the largest distance is required");
			cli_usage(r->cmd);
		}
		r->resem = resem;
	} else if (r->resem != resem)
		errx(EXIT_TROUBLE, "%s: %s fingerprints are searched by %s, "
		    "not %s", cli_vis(path), scheme_algo_name(sc->algo),
		    resem ? "-t" : "-d", resem ? "-d" : "-t");
}

/* Query with every fingerprint line of path. */
static void
query_lines(struct near *r, const char *path)
{
	struct fpset q = { 0 };
	char sch[SCHEME_MAX], want[SCHEME_MAX];
	size_t i;

	/* After a read error, the lines read before it are still asked. */
	if (fpset_load(&q, path, r->zero, r->resem == 0) == -1)
		r->rval = EXIT_TROUBLE;
	if (q.n > 0 && r->ix.have_sc && !scheme_equal(&q.sc, &r->ix.sc)) {
		scheme_format(&q.sc, sch);
		scheme_format(&r->ix.sc, want);
		errx(EXIT_TROUBLE, "%s: scheme %s differs from the index's %s",
		    cli_vis(path), sch, want);
	}
	if (q.n > 0)
		near_mode(r, path, &q.sc);
	/* An empty index: the queries say how many bits. */
	if (q.n > 0 && r->resem == 0)
		check_d(r->d, q.sc.size);
	for (i = 0; i < q.n; i++)
		query(r, fpset_name(&q, i), q.v + i * scheme_nvalues(&q.sc));
	fpset_free(&q);
}

/* The bytes of a document read from fd, for the progress line. */
static uint64_t
doc_size(int fd, int errnum)
{
	struct stat st;

	if (!progress_on() || errnum != 0 || fstat(fd, &st) == -1 ||
	    !S_ISREG(st.st_mode))
		return 0;
	return (uint64_t)st.st_size;
}

/*
 * --docs: hash the documents under path and query with them; binary ones
 * are skipped with a note unless binary.
 */
static void
query_docs(struct near *r, struct walk *w, struct digest *dg,
    const char *path, int binary)
{
	struct walk_entry e;
	const uint64_t *v;
	int fd, errnum, rv;

	walk_start(w, path);
	while (walk_next(w, &e)) {
		if ((errnum = e.errnum) == 0) {
			fd = e.isstdin ? STDIN_FILENO : open(e.path, O_RDONLY |
			    O_NOCTTY | O_CLOEXEC);
			if (fd == -1)
				errnum = errno;
			else {
				rv = digest_fd(dg, fd, !binary, &v);
				errnum = rv == DIGEST_BINARY ? 0 : rv;
				progress_count(1, doc_size(fd, errnum));
				if (!e.isstdin)
					close(fd);
				if (rv == DIGEST_BINARY) {
					/* A note, not an error. */
					warnx("%s: binary file skipped",
					    cli_vis(e.path));
					continue;
				}
			}
		}
		if (errnum != 0) {
			warnx("%s: %s", cli_vis(e.path),
			    walk_strerror(errnum));
			if (errnum != WALK_NOTREG)
				r->rval = EXIT_TROUBLE;
			continue;
		}
		query(r, e.path, v);
	}
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
	double	 sim;
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
	if (p->sim != q->sim)
		return p->sim > q->sim ? -1 : 1;
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
		    fpset_name(&ps->r->ix, ps->p[k].b), ps->p[k].dist,
		    ps->p[k].sim);
	ps->n = 0;
}

/* A pair at distance dist, or of estimated resemblance sim. */
static void
add_sim_pair(struct pairs *ps, uint32_t a, uint32_t b, unsigned dist,
    double sim)
{
	if (ps->stream && ps->n > 0 && ps->p[0].a != a)
		put_pairs(ps);
	if (ps->n == ps->cap) {
		ps->cap = ps->cap ? 2 * ps->cap : 1024;
		ps->p = xreallocarray(ps->p, ps->cap, sizeof(*ps->p));
	}
	ps->p[ps->n].a = a;
	ps->p[ps->n].b = b;
	ps->p[ps->n].dist = dist;
	ps->p[ps->n].sim = sim;
	ps->n++;
}

static void
add_pair(void *ctx, uint32_t a, uint32_t b, unsigned dist)
{
	add_sim_pair(ctx, a, b, dist, 0);
}

/* What the command line asks. */
struct near_args {
	struct shopts so;
	struct inopts io;
	struct outopts oo;
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
	default:
		return 0;
	}
	return 1;
}

/* The options of argv into *a: the number of them, or 0 after -h. */
static int
near_parse(const struct cmd *c, int argc, char **argv, struct near_args *a)
{
	static const struct option longopts[] = {
		SHOPT_LONG,
		INOPT_LONG,
		OUTOPT_LONG,
		COMMON_LONG,
		{ "distance", required_argument, NULL, 'd' },
		{ "count", required_argument, NULL, 'n' },
		{ "threshold", required_argument, NULL, 't' },
		{ "docs", no_argument, NULL, OPT_CMD_FIRST },
		{ "self", no_argument, NULL, OPT_CMD_FIRST + 1 },
		{ NULL, 0, NULL, 0 }
	};
	struct cli_parse p = { SHOPT_SHORT INOPT_SHORT OUTOPT_SHORT "d:hn:t:",
	    longopts, near_option, a, &a->so,
	    &a->io, NULL, &a->oo };

	memset(a, 0, sizeof(*a));
	shopts_init(&a->so);
	inopts_init(&a->io);
	a->oo.names[FMT_TEXT] = "text";
	a->oo.names[FMT_JSON] = "json";
	return cli_parse(c, argc, argv, &p);
}

/* Options that do not go together, and the operands. */
static void
near_check_opts(const struct cmd *c, int argc, const struct near_args *a)
{
	if (a->have_d && a->have_t) {
		warnx("-d is for simhash fingerprints, -t for minhash, oph "
		    "and bottomk ones: not both");
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
	if (a->self && (argc > 1 || a->docs || a->limit > 0)) {
		warnx("--self takes the index alone, without queries, --docs "
		    "or -n");
		cli_usage(c);
	}
	if (algo_get(a->so.algo)->cand == CAND_EQUAL) {
		warnx("-a: near works on simhash, minhash, oph and bottomk "
		    "fingerprints");
		cli_usage(c);
	}
	if (a->have_d && algo_get(a->so.algo)->cand != CAND_HAMMING) {
		warnx("%s fingerprints are searched by -t, not -d",
		    scheme_algo_name(a->so.algo));
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
	if (a->io.filter && !a->docs) {
		warnx("--binary, --exclude, --exclude-dir and --hidden apply "
		    "to --docs");
		cli_usage(c);
	}
	inopts_check(c, &a->io);
}

static void
near_check(const struct cmd *c, int argc, char **argv,
    const struct near_args *a)
{
	int i;

	near_check_opts(c, argc, a);
	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "-") == 0 && strcmp(argv[0], "-") == 0)
			break;
	if (strcmp(argv[0], "-") == 0 && !a->self && (argc == 1 || i < argc)) {
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

/*
 * --self of minhash, oph and bottomk fingerprints: every pair of estimated
 * resemblance at least t that cluster's bands find.
 */
static void
near_self_resem(struct near *r)
{
	struct cluster_opts o = { 0 };
	struct pairs ps = { 0 };
	struct clusters cl;
	size_t i;

	if (r->ix.n == 0)
		return;
	progress_stage("joining", NULL, 0);
	o.t = r->t;
	o.pairs = 1;
	cluster_bands(&r->ix.sc, r->t, 1, &o.lsh);
	cluster_run(&r->ix.sc, r->ix.v, r->ix.n, &o, &cl);
	progress_end();
	ps.r = r;
	for (i = 0; i < cl.npair; i++)
		add_sim_pair(&ps, cl.pair[i].a, cl.pair[i].b, 0,
		    cl.pair[i].sim);
	cluster_free(&cl);
	put_pairs(&ps);
	free(ps.p);
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

	shopts_scheme(c, &a->so, REC_NONE, &sc);
	if (r->ix.have_sc && !scheme_equal(&sc, &r->ix.sc)) {
		scheme_format(&sc, sch);
		scheme_format(&r->ix.sc, want);
		errx(EXIT_TROUBLE, "--docs: documents hashed as %s cannot "
		    "be compared with the index's %s", sch, want);
	}
	near_mode(r, "--docs", &sc);
	if (r->resem == 0)
		check_d(r->d, sc.size);
	digest_init(&dg, &sc, a->so.weights ? &a->so.wt : NULL, NULL);
	w = cli_walk(&a->io.walk);
	if (argc == 1)
		query_docs(r, w, &dg, "-", a->io.binary);
	for (i = 1; i < argc; i++)
		query_docs(r, w, &dg, argv[i], a->io.binary);
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
	if (fpset_load(&r->ix, argv[0], r->zero, r->resem == 0) == -1) {
		/* Unhook stderr and stop the sizer, as on the way out. */
		progress_end();
		fpset_free(&r->ix);
		return -1;
	}
	if (r->ix.have_sc)
		near_mode(r, argv[0], &r->ix.sc);
	if (r->resem == 1 && !r->self && r->ix.n > 0)
		lshindex_build(&r->lx, &r->ix.sc, r->ix.v, r->ix.n,
		    r->exact ? DEFAULT_THRESHOLD : r->t);
	if (r->resem != 0)
		return 0;
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
	r.zero = a.oo.zero;
	r.json = a.oo.fmt == FMT_JSON;
	r.header = a.oo.header;
	r.self = a.self;
	r.limit = a.limit;
	r.d = a.d;
	r.cmd = c;
	r.have_d = a.have_d;
	r.resem = a.have_d ? 0 : a.have_t ? 1 : -1;
	r.t = a.have_t ? a.t : a.limit > 0 ? 0 : DEFAULT_THRESHOLD;
	r.exact = a.limit > 0 && !a.have_t;
	if (near_index(&r, argc, argv, &a) == -1)
		return EXIT_TROUBLE;
	if (r.header) {
		progress_stdout();
		printf("query\tmatch\t%s%c", r.resem == 1 ? "est_jaccard" :
		    "distance", r.zero ? '\0' : '\n');
	}
	if (r.self && r.resem == 1)
		near_self_resem(&r);
	else if (r.self)
		near_self(&r);
	else if (a.docs)
		near_docs(c, &r, argc, argv, &a);
	else {
		if (argc == 1)
			query_lines(&r, "-");
		for (i = 1; i < argc; i++)
			query_lines(&r, argv[i]);
	}
	progress_end();
	if (r.json) {
		out_json_tail(NULL);
		printf(r.printed ? "\n]\n" : "[]\n");
	}

	index_free(&r.index);
	lshindex_free(&r.lx);
	free(r.m);
	free(r.lm);
	fpset_free(&r.ix);
	shopts_free(&a.so);
	inopts_free(&a.io);
	if (out_close() != EXIT_OK)
		return EXIT_TROUBLE;
	if (r.rval != EXIT_OK)
		return r.rval;
	return r.printed > 0 ? EXIT_OK : EXIT_DIFFER;
}
