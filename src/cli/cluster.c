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
#include "fpline.h"
#include "clusterchk.h"
#include "clusterin.h"
#include "clusterout.h"
#include "fpset.h"
#include "hashrun.h"
#include "index.h"
#include "progress.h"
#include "xmalloc.h"
#include "xxh.h"

#define DEFAULT_THRESHOLD 0.8


static int cluster_exec(const struct cmd *, int, char **);

const struct cmd cmd_cluster = {
	"cluster", "group near-duplicates and choose which to keep",
	"cluster [-hLrvz] [-a algo] [-c n | -w n] [-d distance] [-j jobs] "
	"[-k size]\n"
	"\t[-s seed] [-t threshold] [--all] [--binary] [--docs]\n"
	"\t[--dups | --uniques] [--exclude=glob] [--exclude-dir=glob]\n"
	"\t[--format=groups|tsv|json] [--hidden]\n"
	"\t[--keep=first|longest|shortest|path]\n"
	"\t[--bands] [--keep-case] [--keep-punct] [--lsh=BxR] [--multiset]\n"
	"\t[--header] [--pairs] [--progress | --no-progress] [--sorted]\n"
	"\t[--exact | --verify] [--transitive] [--weights=file] [file ...]",
	cluster_exec
};

/* --docs, -r: parse the lines the workers produce into the set. */
static void
collect(void *ctx, const char *lines, size_t len)
{
	struct fpset *s = ctx;
	struct fpline fp = { 0 };
	const char *p = lines, *end = lines + len, *eol, *why;
	size_t nv;

	for (; p < end; p = eol + 1) {
		eol = memchr(p, '\n', (size_t)(end - p));
		if (fpline_parse(p, (size_t)(eol - p), 0, &fp, &why) == -1)
			errx(EXIT_TROUBLE, "internal error: %s", why);
		s->sc = fp.sc;
		s->have_sc = 1;
		nv = fp.nv;
		if (s->n == s->cap) {
			s->cap = s->cap ? 2 * s->cap : 1024;
			s->v = xreallocarray(s->v, s->cap, nv * sizeof(*s->v));
			s->name = xreallocarray(s->name, s->cap,
			    sizeof(*s->name));
		}
		memcpy(s->v + s->n * nv, fp.v, nv * sizeof(*s->v));
		s->name[s->n++] = s->names.len;
		buf_add(&s->names, fp.name.data, fp.name.len + 1);
	}
	fpline_free(&fp);
}

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

	if (have_lsh && a->cand != CAND_BANDS)
		errx(EXIT_TROUBLE, "--lsh: bands apply to minhash and oph "
		    "fingerprints");
	if (have_d && a->cand != CAND_HAMMING)
		errx(EXIT_TROUBLE, "-d: applies to simhash fingerprints");
	if (have_t && !exact && !(a->flags & ALGO_RESEMBLANCE))
		errx(EXIT_TROUBLE, "-t: applies to minhash, oph and bottomk "
		    "fingerprints, and to documents (simhash fingerprints "
		    "join within -d bits, key ones when equal; --verify "
		    "confirms them by -t)");
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

static int
cluster_exec(const struct cmd *c, int argc, char **argv)
{
	static const struct option longopts[] = {
		SHOPT_LONG,
		PROGRESS_LONG,
		{ "distance", required_argument, NULL, 'd' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "header", no_argument, NULL, OPT_HEADER },
		{ "threshold", required_argument, NULL, 't' },
		INOPT_LONG,
		{ "null-data", no_argument, NULL, 'z' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "all", no_argument, NULL, OPT_CMD_FIRST },
		{ "docs", no_argument, NULL, OPT_CMD_FIRST + 1 },
		{ "dups", no_argument, NULL, OPT_CMD_FIRST + 2 },
		{ "uniques", no_argument, NULL, OPT_CMD_FIRST + 3 },
		{ "keep", required_argument, NULL, OPT_CMD_FIRST + 4 },
		{ "lsh", required_argument, NULL, OPT_CMD_FIRST + 5 },
		{ "pairs", no_argument, NULL, OPT_CMD_FIRST + 6 },
		{ "bands", no_argument, NULL, OPT_CMD_FIRST + 7 },
		{ "sorted", no_argument, NULL, OPT_CMD_FIRST + 8 },
		{ "transitive", no_argument, NULL, OPT_CMD_FIRST + 9 },
		{ "verify", no_argument, NULL, OPT_CMD_FIRST + 10 },
		{ "exact", no_argument, NULL, OPT_CMD_FIRST + 11 },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	static const char *const keeps[] = { "first", "longest", "shortest",
	    "path" };
	struct cluster_opts co;
	struct clusterchk chk;
	struct clusters cl;
	struct hashcfg cfg;
	struct hashrun *run;
	struct shopts so;
	struct inopts io;
	struct fpset s;
	struct group *g;
	struct out o;
	size_t ng, i;
	unsigned jobs = hashrun_default_jobs();
	int ch, docs = 0, verbose = 0, shingling = 0;
	int algo_given = 0, have_lsh = 0, have_d = 0, rval = EXIT_OK, k;
	int bands = 0, sorted = 0, have_t = 0, have_keep = 0, verify = 0;
	int exact = 0;
	struct cluster_pair *given;
	size_t ngiven;
	uint32_t *order;

	memset(&o, 0, sizeof(o));
	memset(&co, 0, sizeof(co));
	memset(&s, 0, sizeof(s));
	co.t = DEFAULT_THRESHOLD;
	co.d = 3;
	shopts_init(&so);
	inopts_init(&io);
	while ((ch = getopt_long(argc, argv, SHOPT_SHORT INOPT_SHORT "d:hj:t:vz",
	    longopts, NULL)) != -1) {
		if (shopts_option(c, &so, ch, optarg)) {
			shingling = 1;
			algo_given |= ch == 'a';
			continue;
		}
		if (inopts_option(&io, ch, optarg) || progress_option(ch))
			continue;
		switch (ch) {
		case 'd':
			co.d = (unsigned)cli_number(c, "-d", optarg, 0,
			    INDEX_MAXD(128));
			have_d = 1;
			break;
		case 'h':
			cli_print_usage(c, stdout);
			return out_close();
		case 'j':
			jobs = (unsigned)cli_number(c, "-j", optarg, 1,
			    HASHRUN_JOBS_MAX);
			break;
		case 't':
			co.t = cli_fraction(c, "-t", optarg, 0);
			have_t = 1;
			break;
		case 'v':
			verbose = 1;
			break;
		case 'z':
			o.zero = 1;
			break;
		case OPT_CMD_FIRST:
			o.all = 1;
			break;
		case OPT_CMD_FIRST + 1:
			docs = 1;
			break;
		case OPT_CMD_FIRST + 2:
		case OPT_CMD_FIRST + 3:
			k = ch == OPT_CMD_FIRST + 2 ? SHOW_DUPS : SHOW_UNIQUES;
			if (o.show != SHOW_GROUPS && o.show != k) {
				warnx("--dups and --uniques exclude each other");
				cli_usage(c);
			}
			o.show = k;
			break;
		case OPT_CMD_FIRST + 4:
			for (k = 0; k < 4 && strcmp(optarg, keeps[k]) != 0; k++)
				;
			if (k == 4) {
				warnx("--keep: %s: expected first, longest, "
				    "shortest or path", cli_vis(optarg));
				cli_usage(c);
			}
			o.keep = k;
			have_keep = 1;
			break;
		case OPT_CMD_FIRST + 5:
			cli_lsh(c, optarg, &co.lsh);
			have_lsh = 1;
			break;
		case OPT_CMD_FIRST + 6:
			o.pairs = co.pairs = 1;
			break;
		case OPT_CMD_FIRST + 7:
			bands = 1;
			break;
		case OPT_CMD_FIRST + 8:
			sorted = 1;
			break;
		case OPT_CMD_FIRST + 9:
			co.transitive = 1;
			break;
		case OPT_CMD_FIRST + 10:
			verify = 1;
			break;
		case OPT_CMD_FIRST + 11:
			exact = 1;
			break;
		case OPT_HEADER:
			o.header = 1;
			break;
		case OPT_FORMAT:
			if (strcmp(optarg, "groups") == 0)
				o.fmt = OUT_GROUPS;
			else if (strcmp(optarg, "tsv") == 0)
				o.fmt = OUT_TSV;
			else if (strcmp(optarg, "json") == 0)
				o.fmt = OUT_JSON;
			else {
				warnx("--format: %s: expected groups, tsv or "
				    "json", cli_vis(optarg));
				cli_usage(c);
			}
			break;
		default:
			cli_usage(c);
		}
	}
	argc -= optind;
	argv += optind;
	docs |= io.walk.recursive;
	inopts_check(c, &io);
	if (io.filter && !docs) {
		warnx("--binary, --exclude, --exclude-dir and --hidden apply "
		    "to documents (--docs, -r)");
		cli_usage(c);
	}
	if (o.pairs && (o.show != SHOW_GROUPS || o.all || have_keep)) {
		warnx("--pairs prints pairs, not groups: not with --dups, "
		    "--uniques, --all or --keep");
		cli_usage(c);
	}
	if (o.all && o.show != SHOW_GROUPS) {
		warnx("--all adds the groups of one, which --dups and "
		    "--uniques already settle: not with them");
		cli_usage(c);
	}
	if (o.header && !(o.fmt == OUT_TSV || (o.pairs && o.fmt != OUT_JSON))) {
		warnx("--header applies to tables: --format=tsv, --pairs");
		cli_usage(c);
	}
	if (shingling && !docs) {
		warnx("shingling options apply to documents (--docs, -r): the "
		    "scheme of fingerprint lines is in the lines");
		cli_usage(c);
	}
	if ((bands || sorted) && (docs || o.pairs || have_lsh || have_d ||
	    have_t || verify || co.transitive)) {
		warnx("--bands and --sorted group equal keys: no documents, "
		    "--pairs, --lsh, -d, -t, --verify or --transitive (the "
		    "bands were chosen by hash --bands)");
		cli_usage(c);
	}
	if (exact && (verify || have_lsh || have_d || bands || sorted)) {
		warnx("--exact finds every pair by the exact join: not with "
		    "--verify, --lsh, -d, --bands or --sorted");
		cli_usage(c);
	}
	verify |= exact && !docs;
	if (verify && docs) {
		warnx("--verify reads the files that fingerprint lines name: "
		    "documents (--docs, -r) are confirmed exactly already");
		cli_usage(c);
	}
	if (sorted) {
		rval = cluster_sorted(argc, argv, &o, bands);
		return out_close() | rval;
	}
	if (bands) {
		rval = cluster_bandlines(argc, argv, &o);
		return out_close() | rval;
	}

	if (docs) {
		/* Documents: one permutation hashing unless -a says. */
		if (!algo_given)
			so.algo = ALGO_OPH;
		memset(&cfg, 0, sizeof(cfg));
		shopts_scheme(c, &so, REC_NONE, &cfg.sc);
		/* Known now: say so before hashing them all. */
		check_algo_opts(&cfg.sc, have_t, have_d, have_lsh, &co, 1);
		cfg.wt = so.weights != NULL ? &so.wt : NULL;
		cfg.binary = io.binary;
		progress_start("files", 0);
		progress_inputs(argv, argc, &io.walk);
		run = hashrun_new(&cfg, jobs, &io.walk, collect, &s);
		if (argc == 0)
			hashrun_operand(run, "-");
		for (i = 0; i < (size_t)argc; i++)
			hashrun_operand(run, argv[i]);
		rval = hashrun_finish(run);
	} else {
		progress_start("fingerprints", 0);
		progress_inputs(argv, argc, NULL);
		if (argc == 0 && fpset_load(&s, "-", o.zero, 0) == -1)
			rval = EXIT_TROUBLE;
		for (i = 0; i < (size_t)argc; i++)
			if (fpset_load(&s, argv[i], o.zero, 0) == -1)
				rval = EXIT_TROUBLE;
	}

	/*
	 * Nothing read: nothing to do, and no scheme to refuse -t, -d or
	 * --lsh for (an empty directory is not an error).
	 */
	if (!s.have_sc) {
		s.sc.algo = ALGO_KEY;
		have_lsh = have_t = have_d = 0;
	}
	check_algo_opts(&s.sc, have_t, have_d, have_lsh, &co, docs || verify);
	if (!docs)
		check_names(&s);
	if (!have_lsh)
		cluster_bands(&s.sc, co.t, docs || verify, &co.lsh);
	/*
	 * Documents at hand: every candidate is confirmed by its exact
	 * resemblance, of the files as they are then.
	 */
	if (docs || verify) {
		clusterchk_init(&chk, &s, jobs);
		co.exact = o.exact = clusterchk_exact;
		co.prefetch = clusterchk_prefetch;
		co.ctx = o.ctx = &chk;
	}
	order = o.pairs || co.transitive ? NULL : cout_order(&s, o.keep);
	co.order = order;
	o.cl = &cl;
	if (verbose)
		say_scheme(&s, &co, exact);

	progress_stage("grouping", NULL, 0);
	if (exact) {
		clusterchk_all(&chk, co.t, &given, &ngiven);
		cluster_given(s.n, given, ngiven, &co, &cl);
		free(given);
	} else
		cluster_run(&s.sc, s.v, s.n, &co, &cl);
	progress_end();
	if (verbose)
		fprintf(stderr, "%s: %zu candidate pairs, %zu confirmed, %zu "
		    "by the exact resemblance\n", getprogname(), cl.candidates,
		    cl.confirmed, cl.exacts);
	if (o.pairs)
		cout_pairs(&s, &cl, &o);
	else {
		g = cout_groups(&s, &cl, &o, &ng);
		cout_all(&s, g, ng, &o);
		for (i = 0; i < ng; i++)
			free(g[i].id);
		free(g);
	}
	if (co.exact != NULL) {
		if (verbose) {
			size_t reads;
			uint64_t bytes;

			setcache_stats(chk.cache, &reads, &bytes);
			fprintf(stderr, "%s: %zu documents read again for their "
			    "shingle sets, %llu bytes\n", getprogname(), reads,
			    (unsigned long long)bytes);
		}
		rval |= chk.rval;
		clusterchk_free(&chk);
	}
	free(order);
	cluster_free(&cl);
	fpset_free(&s);
	shopts_free(&so);
	inopts_free(&io);
	return out_close() | rval;
}
