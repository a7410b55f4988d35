/*
 * neardup cluster: groups of near-duplicates, from fingerprint lines or
 * from documents hashed on the fly, and which member of each to keep.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "cli.h"
#include "cluster.h"
#include "clusterargs.h"
#include "clusterchk.h"
#include "clusterdocs.h"
#include "clusterin.h"
#include "clusterkeep.h"
#include "clusterout.h"
#include "fpset.h"
#include "hashrun.h"
#include "index.h"
#include "progress.h"
#include "similarity.h"
#include "spool.h"
#include "xmalloc.h"
#include "xxh.h"



static int cluster_exec(const struct cmd *, int, char **);

const struct cmd cmd_cluster = {
	"cluster", "group near-duplicates and choose which to keep",
	"cluster [-0hLrvz] [-a algo] [-c n | -w n] [-d distance] [-j jobs] "
	"[-k size]\n"
	"\t[-s seed] [-t threshold] [--all] [--archives] [--binary] [--docs]\n"
	"\t[--dups | --uniques] [--exclude=glob] [--exclude-dir=glob]\n"
	"\t[--files0-from=file] [--format=groups|tsv|json|sh] [--hidden]\n"
	"\t[--jsonl[=field]] [--id=field] [--jsonl-skip-bad]\n"
	"\t[--keep=first|longest|shortest|path|newest|oldest]\n"
	"\t[--originals=dir] [--summary | --no-summary]\n"
	"\t[--bands] [--keep-case] [--keep-punct] [--lsh=BxR] [--multiset]\n"
	"\t[--header] [--pairs] [--progress | --no-progress] [--sorted]\n"
	"\t[--exact | --verify] [--transitive] [--weights=file] [file ...]",
	cluster_exec
};

/* -t, -d and --lsh each apply to some algorithms only. */
/*
 * -t, -d and --lsh against the fingerprints of scheme sc: with documents
 * as soon as the options are read, with fingerprint lines once they are.
 */
static void
check_algo_opts(const struct scheme *sc, int have_t, int have_d,
    int have_lsh, const struct cluster_opts *co, int exact)
{
	const struct algo_desc *a = algo_get(sc->algo);
	char l[ALGO_LIST_MAX], h[ALGO_LIST_MAX], e[ALGO_LIST_MAX];

	if (have_lsh && a->cand != CAND_BANDS)
		errx(EXIT_TROUBLE, "--lsh: bands apply to %s fingerprints",
		    algo_list(l, sizeof(l), 0, CAND_BANDS, "", "and"));
	if (have_d && a->cand != CAND_HAMMING)
		errx(EXIT_TROUBLE, "-d: applies to %s fingerprints",
		    algo_list(l, sizeof(l), 0, CAND_HAMMING, "", "and"));
	if (have_t && !exact && !(a->flags & ALGO_RESEMBLANCE))
		errx(EXIT_TROUBLE, "-t: applies to %s fingerprints, and to "
		    "documents (%s fingerprints join within -d bits, %s ones "
		    "when equal; --verify confirms them by -t)",
		    algo_list(l, sizeof(l), ALGO_RESEMBLANCE, -1, "", "and"),
		    algo_list(h, sizeof(h), 0, CAND_HAMMING, "", "and"),
		    algo_list(e, sizeof(e), 0, CAND_EQUAL, "", "and"));
	if (have_lsh && co->lsh.b * co->lsh.r > sc->size)
		errx(EXIT_TROUBLE, "--lsh: %u x %u rows is more than the %u "
		    "values of a fingerprint", co->lsh.b, co->lsh.r, sc->size);
	if (have_d && co->d > INDEX_MAXD(sc->size))
		errx(EXIT_TROUBLE, "-d: %u: too large for %u-bit fingerprints",
		    co->d, sc->size);
}

/*
 * The name as spelled without what cannot change the file it names: the
 * working directory in front, "./", "/./" and repeated slashes.  Into b.
 */
static void
plain_name(const char *name, const char *cwd, struct buf *b)
{
	size_t n = cwd != NULL ? strlen(cwd) : 0;
	const char *p;

	if (n > 1 && strncmp(name, cwd, n) == 0 && name[n] == '/')
		name += n + 1;
	buf_clear(b);
	for (p = name; *p != '\0'; p++) {
		/* At the start of a component: "./" and "/" add nothing. */
		if (p == name || p[-1] == '/') {
			if (p[0] == '.' && p[1] == '/') {
				p++;
				continue;
			}
			if (p[0] == '/' && p != name)
				continue;
		}
		buf_addc(b, *p);
	}
	if (b->len == 0)
		buf_addc(b, '.');
}

/* Say that fingerprints i and j, of one file, differ, and exit 2. */
static void
stale(const struct fpset *s, uint32_t i, uint32_t j)
{
	char *a = xstrdup(cli_vis(fpset_name(s, i)));

	if (strcmp(fpset_name(s, i), fpset_name(s, j)) == 0)
		errx(EXIT_TROUBLE, "%s: two different fingerprints for one "
		    "name: lines from before and after it changed?", a);
	errx(EXIT_TROUBLE, "%s and %s: two different fingerprints for one "
	    "file: lines from before and after it changed?", a,
	    cli_vis(fpset_name(s, j)));
}

/*
 * One file has one text: one name, or two spellings of one (plain_name()),
 * with two different fingerprints were hashed before and after the file
 * changed.  Grouped by the older one, the copies of a text it no longer
 * holds would be listed for removal: refuse such input.  Names are looked
 * up by a hash of their plain spelling, in time linear in their number.
 */
static void
check_names(const struct fpset *s)
{
	size_t nv = scheme_nvalues(&s->sc), cap, i, j;
	struct buf a = { 0 }, b = { 0 };
	uint64_t *h;
	uint32_t *slot, k;
	char *cwd;

	if (s->n < 2)
		return;
	cwd = getcwd(NULL, 0);
	for (cap = 1024; cap < 2 * s->n; cap *= 2)
		;
	slot = xreallocarray(NULL, cap, sizeof(*slot));
	memset(slot, 0xFF, cap * sizeof(*slot));
	h = xreallocarray(NULL, s->n, sizeof(*h));
	for (i = 0; i < s->n; i++) {
		plain_name(fpset_name(s, i), cwd, &a);
		h[i] = xxh_bytes(a.data, a.len, 0);
	}
	/*
	 * The slots are asked for ahead: the table is larger than a cache.
	 * Names of one hash are spelled plain again and compared.
	 */
	for (i = 0; i < s->n; i++) {
		if (i + 16 < s->n)
			__builtin_prefetch(&slot[h[i + 16] & (cap - 1)]);
		for (j = (size_t)h[i] & (cap - 1); (k = slot[j]) != UINT32_MAX;
		    j = (j + 1) & (cap - 1)) {
			if (h[k] != h[i])
				continue;
			plain_name(fpset_name(s, k), cwd, &a);
			plain_name(fpset_name(s, i), cwd, &b);
			if (a.len != b.len ||
			    memcmp(a.data, b.data, a.len) != 0)
				continue;
			if (memcmp(s->v + (size_t)k * nv, s->v + i * nv,
			    nv * sizeof(*s->v)) != 0)
				stale(s, k, (uint32_t)i);
			break;
		}
		if (slot[j] == UINT32_MAX)
			slot[j] = (uint32_t)i;
	}
	buf_free(&a);
	buf_free(&b);
	free(h);
	free(slot);
	free(cwd);
}

/* -v: the fingerprints, their scheme and how candidates are found. */
static void
say_scheme(const struct fpset *s, const struct cluster_opts *co, int exact)
{
	char sch[SCHEME_MAX];
	enum cand_rule cand = algo_get(s->sc.algo)->cand;

	scheme_format(&s->sc, sch);
	fprintf(stderr, "%s: %zu fingerprints of %s", getprogname(), s->n,
	    sch);
	if (exact)
		fprintf(stderr, "; every pair of resemblance %.2f or more, "
		    "by the exact join (no bands)", co->t);
	else if (cand == CAND_BANDS) {
		fprintf(stderr, "; %u band%s x %u row%s, P(%.2f) = %.3f",
		    co->lsh.b, co->lsh.b == 1 ? "" : "s", co->lsh.r,
		    co->lsh.r == 1 ? "" : "s", co->t, lsh_prob(&co->lsh, co->t));
		if (co->t + 0.1 <= 1)
			fprintf(stderr, ", P(%.2f) = %.3f", co->t + 0.1,
			    lsh_prob(&co->lsh, co->t + 0.1));
	} else if (cand == CAND_SMALLEST)
		fprintf(stderr, "; the %u smallest hashes as bands", co->lsh.b);
	else if (cand == CAND_HAMMING)
		fprintf(stderr, "; pairs within %u bits", co->d);
	fputc('\n', stderr);
}


/*
 * --originals=DIR, kept as given until cluster_check resolves it
 * (originals_resolve): -h, or a usage error, looks at no file.
 */
static void
originals_option(struct cluster_args *a, const char *arg)
{
	a->o.orig = xreallocarray(a->o.orig, a->o.norig + 1,
	    sizeof(*a->o.orig));
	a->o.orig[a->o.norig++] = (char *)arg;
}

/* The options of directory dedup: --originals, --summary, -0. */
static int
dedup_option(struct cluster_args *a, int ch, const char *arg)
{
	switch (ch) {
	case '0':
		a->print0 = 1;
		break;
	case OPT_CMD_FIRST + 12:
		originals_option(a, arg);
		break;
	case OPT_CMD_FIRST + 13:
	case OPT_CMD_FIRST + 14:
		a->summary = ch == OPT_CMD_FIRST + 13;
		break;
	default:
		return 0;
	}
	return 1;
}

/* --keep=WHICH */
static void
keep_option(const struct cmd *c, struct cluster_args *a, const char *arg)
{
	/* In the order of KEEP_* (clusterout.h). */
	static const char *const keeps[] = { "first", "longest", "shortest",
	    "path", "newest", "oldest" };
	int k;

	for (k = 0; k < 6 && strcmp(arg, keeps[k]) != 0; k++)
		;
	if (k == 6) {
		warnx("--keep: %s: expected first, longest, shortest, path, "
		    "newest or oldest", cli_vis(arg));
		cli_usage(c);
	}
	a->o.keep = k;
	a->have_keep = 1;
}

/* --dups, --uniques */
static void
show_option(const struct cmd *c, struct cluster_args *a, int show)
{
	if (a->o.show != SHOW_GROUPS && a->o.show != show) {
		warnx("--dups and --uniques exclude each other");
		cli_usage(c);
	}
	a->o.show = show;
}

static int
cluster_option(const struct cmd *c, void *args, int ch, const char *arg)
{
	struct cluster_args *a = args;

	switch (ch) {
	case 'd':
		a->co.d = (unsigned)cli_number(c, "-d", arg, 0,
		    INDEX_MAXD(128));
		a->have_d = 1;
		break;
	case 'j':
		a->jobs = (unsigned)cli_number(c, "-j", arg, 1,
		    HASHRUN_JOBS_MAX);
		break;
	case 't':
		a->co.t = cli_fraction(c, "-t", arg, 0);
		a->have_t = 1;
		break;
	case 'v':
		a->verbose = 1;
		break;
	case OPT_CMD_FIRST:
		a->o.all = 1;
		break;
	case OPT_CMD_FIRST + 1:
		a->docs = 1;
		break;
	case OPT_CMD_FIRST + 2:
	case OPT_CMD_FIRST + 3:
		show_option(c, a, ch == OPT_CMD_FIRST + 2 ? SHOW_DUPS :
		    SHOW_UNIQUES);
		break;
	case OPT_CMD_FIRST + 4:
		keep_option(c, a, arg);
		break;
	case OPT_CMD_FIRST + 5:
		cli_lsh(c, arg, &a->co.lsh);
		a->have_lsh = 1;
		break;
	case OPT_CMD_FIRST + 6:
		a->o.pairs = a->co.pairs = 1;
		break;
	case OPT_JSONL:
	case OPT_ID:
	case OPT_JSONL_SKIP_BAD:
		return recopts_option(c, &a->rec, ch, arg);
	default:
		return dedup_option(a, ch, arg);
	}
	return 1;
}

/* The flags of cluster_option, after it: --bands ... --exact. */
static int
cluster_flag(const struct cmd *c, void *args, int ch, const char *arg)
{
	struct cluster_args *a = args;
	int *flag[] = { &a->bands, &a->sorted, &a->co.transitive, &a->verify,
	    &a->exact };

	if (ch >= OPT_CMD_FIRST + 7 && ch <= OPT_CMD_FIRST + 11) {
		*flag[ch - (OPT_CMD_FIRST + 7)] = 1;
		return 1;
	}
	return cluster_option(c, args, ch, arg);
}

/* The options of argv into *a: the number of them, or 0 after -h. */
static int
cluster_parse(const struct cmd *c, int argc, char **argv,
    struct cluster_args *a)
{
	static const struct cli_option longopts[] = {
		SHOPT_LONG,
		INOPT_LONG,
		OUTOPT_LONG,
		COMMON_LONG,
		RECOPT_JSONL_LONG,
		{ { "distance", required_argument, NULL, 'd' },
		    "distance", "simhash: join within this many bits" },
		{ { "jobs", required_argument, NULL, 'j' },
		    "jobs", "with documents, hash with this many threads" },
		{ { "threshold", required_argument, NULL, 't' },
		    "threshold", "the least resemblance that joins, 0 to 1" },
		{ { "verbose", no_argument, NULL, 'v' },
		    NULL, "say the scheme and the counts on standard error" },
		{ { "all", no_argument, NULL, OPT_CMD_FIRST },
		    NULL, "also print the documents without a near-duplicate" },
		{ { "docs", no_argument, NULL, OPT_CMD_FIRST + 1 },
		    NULL, "the operands are documents, not fingerprint lines" },
		{ { "dups", no_argument, NULL, OPT_CMD_FIRST + 2 },
		    NULL, "print only the members not kept" },
		{ { "uniques", no_argument, NULL, OPT_CMD_FIRST + 3 },
		    NULL, "print the members kept and the documents alone" },
		{ { "keep", required_argument, NULL, OPT_CMD_FIRST + 4 },
		    "policy", "first, longest, shortest, path, newest, oldest" },
		{ { "lsh", required_argument, NULL, OPT_CMD_FIRST + 5 },
		    "BxR", "B bands of R rows for minhash and oph candidates" },
		{ { "pairs", no_argument, NULL, OPT_CMD_FIRST + 6 },
		    NULL, "print the confirmed pairs, not groups" },
		{ { "bands", no_argument, NULL, OPT_CMD_FIRST + 7 },
		    NULL, "the input is band lines (hash --bands)" },
		{ { "sorted", no_argument, NULL, OPT_CMD_FIRST + 8 },
		    NULL, "the input is sorted by key: bounded memory" },
		{ { "transitive", no_argument, NULL, OPT_CMD_FIRST + 9 },
		    NULL, "join through chains of pairs" },
		{ { "verify", no_argument, NULL, OPT_CMD_FIRST + 10 },
		    NULL, "confirm pairs by reading the files the lines name" },
		{ { "exact", no_argument, NULL, OPT_CMD_FIRST + 11 },
		    NULL, "every pair of exact resemblance >= threshold" },
		{ { "originals", required_argument, NULL, OPT_CMD_FIRST + 12 },
		    "dir", "keep the files under dir before any other" },
		{ { "summary", no_argument, NULL, OPT_CMD_FIRST + 13 },
		    NULL, "count the groups and duplicates on standard error" },
		{ { "no-summary", no_argument, NULL, OPT_CMD_FIRST + 14 },
		    NULL, "no count of the groups on standard error" },
		{ { "print0", no_argument, NULL, '0' },
		    NULL, "end each name of the output with NUL, as find -print0" },
		{ { NULL, 0, NULL, 0 }, NULL, NULL }
	};
	struct cli_parse p = { SHOPT_SHORT INOPT_SHORT OUTOPT_SHORT
	    "0d:hj:t:v",
	    longopts, cluster_flag, a, &a->so,
	    &a->io, NULL, &a->oo };
	int n;

	memset(a, 0, sizeof(*a));
	a->co.t = SIMILARITY_DEFAULT;
	a->co.d = 3;
	a->jobs = hashrun_default_jobs();
	a->summary = -1;
	shopts_init(&a->so);
	inopts_init(&a->io);
	recopts_init(&a->rec, REC_NONE);
	a->oo.names[FMT_TEXT] = "groups";
	a->oo.names[FMT_TSV] = "tsv";
	a->oo.names[FMT_JSON] = "json";
	a->oo.names[FMT_SH] = "sh";
	if ((n = cli_parse(c, argc, argv, &p)) == 0)
		return 0;
	a->o.fmt = a->oo.fmt;
	a->o.header = a->oo.header;
	a->o.zero = a->oo.zero || a->print0;
	a->o.zin = a->oo.zero;
	a->docs |= a->io.walk.recursive || a->rec.mode != REC_NONE;
	return n;
}

/* A file of fingerprint lines for the set, and how it went. */
struct lines_in {
	struct fpset *s;
	int	 zero, rval;
};

static void
load_lines(void *ctx, const char *path)
{
	struct lines_in *in = ctx;

	if (fpset_load(in->s, path, in->zero, 0) == -1)
		in->rval = EXIT_TROUBLE;
}

/*
 * The fingerprint lines of the operands, or of the files that a
 * --files0-from list names, into s.
 */
static int
cluster_lines(int argc, char **argv, struct cluster_args *a,
    struct fpset *s)
{
	struct lines_in in = { s, a->oo.zero, EXIT_OK };
	int i;

	s->hint_text = "documents need --docs or -r";
	s->hint_dir = "documents in it need -r";
	progress_start("fingerprints", 0);
	if (a->io.list != NULL)
		return cli_files0(a->io.list, load_lines, &in) | in.rval;
	progress_inputs(argv, argc, NULL);
	if (argc == 0)
		load_lines(&in, "-");
	for (i = 0; i < argc; i++)
		load_lines(&in, argv[i]);
	return in.rval;
}

/* The fingerprints into s: of documents, or of fingerprint lines. */
static int
cluster_read(const struct cmd *c, int argc, char **argv,
    struct cluster_args *a, struct fpset *s)
{
	struct hashcfg cfg;

	if (!a->docs)
		return cluster_lines(argc, argv, a, s);
	/* Documents: one permutation hashing unless -a says. */
	if (!a->so.algo_given)
		a->so.algo = ALGO_OPH;
	memset(&cfg, 0, sizeof(cfg));
	shopts_scheme(c, &a->so, a->rec.mode, &cfg.sc);
	/* Known now: say so before hashing them all. */
	check_algo_opts(&cfg.sc, a->have_t, a->have_d, a->have_lsh, &a->co, 1);
	cfg.wt = a->so.weights != NULL ? &a->so.wt : NULL;
	cfg.binary = a->io.binary;
	cfg.archives = a->io.archives;
	cfg.mode = a->rec.mode;
	cfg.json = &a->rec.js;
	return cluster_docs(&cfg, a->jobs, &a->io, &a->rec, argc, argv, s,
	    &a->texts);
}

/*
 * Fingerprint lines of simhash, hash's default, join within -d bits, not
 * by cluster -r's exact resemblance of -t.  Unless -d chose that, say so
 * once, with the pipeline whose groups are those of cluster -r.  (Key
 * lines join when equal, but no one has those by default.)
 */
static void
say_criterion(const struct cluster_args *a, const struct fpset *s)
{
	char sh[32] = "";

	if (a->docs || !s->have_sc || a->have_d ||
	    algo_get(s->sc.algo)->cand != CAND_HAMMING)
		return;
	if (s->sc.chars || s->sc.ngram != 3)
		snprintf(sh, sizeof(sh), " -%c %u", s->sc.chars ? 'c' : 'w',
		    s->sc.ngram);
	warnx("%s fingerprints join within -d %u bits, not at resemblance "
	    "%g as cluster -r does: for its groups, neardup hash -a oph%s "
	    "... | neardup cluster", scheme_algo_name(s->sc.algo), a->co.d,
	    a->co.t, sh);
}

/*
 * Settle the bands and the confirmation for the fingerprints read.
 * Documents at hand: every candidate is confirmed by its exact
 * resemblance, of the files as they are then.
 */
static void
cluster_prepare(struct cluster_args *a, struct fpset *s,
    struct clusterchk *chk)
{
	int confirm = a->docs || a->verify;

	/*
	 * Nothing read: nothing to do, and no scheme to refuse -t, -d or
	 * --lsh for (an empty directory is not an error).
	 */
	if (!s->have_sc) {
		s->sc.algo = ALGO_KEY;
		a->have_lsh = a->have_t = a->have_d = 0;
	}
	check_algo_opts(&s->sc, a->have_t, a->have_d, a->have_lsh, &a->co,
	    confirm);
	if (!a->docs) {
		check_names(s);
		say_criterion(a, s);
	}
	if (!a->have_lsh)
		cluster_bands(&s->sc, a->co.t, confirm, &a->co.lsh);
	if (confirm) {
		clusterchk_init(chk, s, a->texts, a->jobs);
		a->co.exact = a->o.exact = clusterchk_exact;
		a->co.prefetch = clusterchk_prefetch;
		a->co.ctx = a->o.ctx = chk;
	}
}

/* Group the fingerprints of s and print the groups (or pairs). */
static void
cluster_group(struct cluster_args *a, struct fpset *s,
    struct clusterchk *chk)
{
	struct cluster_pair *given;
	struct clusters cl;
	struct group *g;
	size_t ng, ngiven, i;

	a->o.cl = &cl;
	if (a->verbose)
		say_scheme(s, &a->co, a->exact);
	progress_stage("grouping", NULL, 0);
	if (a->exact) {
		clusterchk_all(chk, a->co.t, &given, &ngiven);
		cluster_given(s->n, given, ngiven, &a->co, &cl);
		free(given);
	} else
		cluster_run(&s->sc, s->v, s->n, &a->co, &cl);
	progress_end();
	if (a->verbose)
		fprintf(stderr, "%s: %zu candidate pairs, %zu confirmed, %zu "
		    "by the exact resemblance\n", getprogname(), cl.candidates,
		    cl.confirmed, cl.exacts);
	if (a->o.pairs)
		cout_pairs(s, &cl, &a->o);
	else {
		g = cout_groups(s, &cl, &a->o, &ng);
		cout_all(s, g, ng, &a->o);
		for (i = 0; i < ng; i++)
			free(g[i].id);
		free(g);
	}
	cluster_free(&cl);
}

/* -v: how much was read again to confirm candidates. */
static void
say_reads(const struct clusterchk *chk)
{
	size_t reads;
	uint64_t bytes;

	setcache_stats(chk->cache, &reads, &bytes);
	fprintf(stderr, "%s: %zu documents read again for their shingle "
	    "sets, %llu bytes\n", getprogname(), reads,
	    (unsigned long long)bytes);
}

/* Cluster the whole input, held in memory: documents or lines. */
static int
cluster_whole(const struct cmd *c, int argc, char **argv,
    struct cluster_args *a)
{
	struct clusterchk chk;
	struct fpset s;
	unsigned char *isorig;
	uint32_t *order;
	int rval;

	memset(&s, 0, sizeof(s));
	rval = cluster_read(c, argc, argv, a, &s);
	a->o.texts = a->texts;
	cluster_prepare(a, &s, &chk);
	isorig = ckeep_originals(&s, &a->o);
	a->o.isorig = isorig;
	order = a->o.pairs || a->co.transitive ? NULL : ckeep_order(&s, &a->o);
	a->co.order = order;
	cluster_group(a, &s, &chk);
	if (a->co.exact != NULL) {
		if (a->verbose)
			say_reads(&chk);
		rval |= chk.rval;
		clusterchk_free(&chk);
	}
	free(order);
	free(isorig);
	fpset_free(&s);
	spool_free(a->texts);
	recopts_report(&a->rec);
	shopts_free(&a->so);
	inopts_free(&a->io);
	return rval;
}

static int
cluster_exec(const struct cmd *c, int argc, char **argv)
{
	struct cluster_args a;
	size_t i;
	int n, rval;

	if ((n = cluster_parse(c, argc, argv, &a)) == 0) {
		free(a.o.orig);	/* -h: the names are argv's, unresolved */
		return out_close();
	}
	argc -= n;
	argv += n;
	cluster_check(c, argc, &a);
	argv = inopts_operands(&a.io, &argc, argv);
	if (a.sorted)
		rval = cluster_sorted(argc, argv, &a.o, a.bands);
	else if (a.bands)
		rval = cluster_bandlines(argc, argv, &a.o);
	else
		rval = cluster_whole(c, argc, argv, &a);
	if (a.summary) {
		/* After the groups it counts, on a terminal too. */
		out_flush();
		cout_summary(&a.o);
	}
	if (a.tally.trouble)
		rval = EXIT_TROUBLE;
	for (i = 0; i < a.o.norig; i++)
		free(a.o.orig[i]);
	free(a.o.orig);
	return out_close() | rval;
}
