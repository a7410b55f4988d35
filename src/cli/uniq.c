/*
 * neardup uniq: uniq(1) for near-duplicates, with uniq(1)'s letters
 * (-c -d -D -u -i -f -s -w -z); the shingling options are long only.
 * Records (lines, NUL-terminated records, ID<TAB>TEXT lines or JSON Lines)
 * go through the online index of src/dedup/dedup.c in input order
 * (uniqin.c reads them); a record that is not a near-duplicate of one kept
 * before it is kept and, by default, printed as soon as its batch has been
 * through the index.  A later record may still join a kept one, so -c, -u
 * and -D hold their output until the end of the input.  The index holds a
 * JSON Lines record's text, not its line: the lines (or names, for
 * --explain) of kept records that are printed later are held here.
 */
#include <err.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "cli.h"
#include "dedup.h"
#include "progress.h"
#include "similarity.h"
#include "uniqin.h"
#include "xmalloc.h"

#define NONE	SIZE_MAX

static int uniq_exec(const struct cmd *, int, char **);

const struct cmd cmd_uniq = {
	"uniq", "drop near-duplicate records from a stream",
	"uniq [-cDdhiuz] [-f fields] [-s chars] [-t threshold] [-w chars]\n"
	"\t[--all-repeated[=method]] [--chars=n | --words=n] [--explain]\n"
	"\t[--id=field] [--jsonl-skip-bad] [--keep-case] [--keep-punct] "
	"[--multiset]\n"
	"\t[--progress | --no-progress] [--seed=n] [" RECOPT_MODES "] "
	"[file ...]",
	uniq_exec
};

enum {
	OPT_EXPLAIN = OPT_CMD_FIRST
};

/* -D's groups, as GNU uniq's --all-repeated=METHOD separates them. */
enum { SEP_NONE, SEP_PREPEND, SEP_SEPARATE };
static const char *const sepnames[] = { "none", "prepend", "separate" };
#define NSEP	(sizeof(sepnames) / sizeof(sepnames[0]))

struct uniq {
	struct dedup dd;
	struct recopts rec;
	struct reckey key;	/* -f, -s, -w */
	int	 count, repeated, unique, all, sep, icase, explain;
	int	 track;		/* count each group */
	int	 hold;		/* print at the end */
	double	 t;		/* -t */
	uint64_t *cnt;		/* occurrences of each kept record */
	size_t	 cap;		/* of cnt, dhead, dtail */
	/* -D: the dropped records, each chained after its kept record. */
	struct buf dtext;
	uint64_t *doff;		/* dropped record i is dtext[doff[i], doff[i + 1]) */
	size_t	*dnext, *dhead, *dtail;
	size_t	 nd, dcap;
	/* --jsonl: the line of each kept record, or its name with --explain. */
	struct buf ktext;
	uint64_t *koff;		/* kept record i is ktext[koff[i], koff[i + 1]) */
	size_t	 kcap;
	struct buf name;	/* the name of the record at hand */
	int	 rval;
};

/* Print a record and its terminator. */
static void
put(const struct uniq *u, const char *p, size_t len)
{
	char d = (char)u->rec.delim;

	out_write(p, len);
	out_write(&d, 1);
}

/* What is printed of kept record id: its line, for --jsonl. */
static const char *
kept_rec(const struct uniq *u, uint32_t id, size_t *len)
{
	if (u->rec.mode != REC_JSONL)
		return dedup_record(&u->dd, id, len);
	*len = (size_t)(u->koff[id + 1] - u->koff[id]);
	return u->ktext.data + u->koff[id];
}

/* Hold p for kept record id, the next (--jsonl). */
static void
hold(struct uniq *u, uint32_t id, const char *p, size_t len)
{
	if (id == u->kcap) {
		u->kcap = u->kcap ? 2 * u->kcap : 1024;
		u->koff = xreallocarray(u->koff, u->kcap + 1,
		    sizeof(*u->koff));
		u->koff[0] = 0;
	}
	buf_add(&u->ktext, p, len);
	u->koff[id + 1] = u->ktext.len;
}

/* The name of a JSON Lines record of file name: its ID or FILE:NUMBER. */
static const char *
rec_name(struct uniq *u, const char *name, const struct uniqin_rec *r,
    size_t *len)
{
	char num[24];

	buf_clear(&u->name);
	if (r->id != NULL)
		buf_add(&u->name, r->id, r->idlen);
	else {
		buf_add(&u->name, name, strlen(name));
		buf_add(&u->name, num, (size_t)snprintf(num, sizeof(num),
		    ":%" PRIu64, r->num));
	}
	*len = u->name.len;
	return u->name.data;
}

/* The first record of a group, with the group's size counted. */
static void
kept(struct uniq *u, uint32_t id, const char *rec, size_t len)
{
	size_t cap;

	if (u->track) {
		if (id == u->cap) {
			cap = u->cap ? 2 * u->cap : 1024;
			u->cnt = xreallocarray(u->cnt, cap, sizeof(*u->cnt));
			if (u->all) {
				u->dhead = xreallocarray(u->dhead, cap,
				    sizeof(*u->dhead));
				u->dtail = xreallocarray(u->dtail, cap,
				    sizeof(*u->dtail));
			}
			u->cap = cap;
		}
		u->cnt[id] = 1;
		if (u->all)
			u->dhead[id] = u->dtail[id] = NONE;
	}
	if (!u->hold && !u->explain && !u->repeated)
		put(u, rec, len);
}

/* Keep a dropped record for -D, after the last one of its group. */
static void
dropped(struct uniq *u, uint32_t id, const char *rec, size_t len)
{
	if (u->nd == u->dcap) {
		u->dcap = u->dcap ? 2 * u->dcap : 1024;
		u->doff = xreallocarray(u->doff, u->dcap + 1, sizeof(*u->doff));
		u->dnext = xreallocarray(u->dnext, u->dcap, sizeof(*u->dnext));
		u->doff[0] = 0;
	}
	buf_add(&u->dtext, rec, len);
	u->doff[u->nd + 1] = u->dtext.len;
	u->dnext[u->nd] = NONE;
	if (u->dtail[id] == NONE)
		u->dhead[id] = u->nd;
	else
		u->dnext[u->dtail[id]] = u->nd;
	u->dtail[id] = u->nd++;
}

/* A record that is a near-duplicate of kept record id. */
static void
duplicate(struct uniq *u, uint32_t id, const char *rec, size_t len)
{
	const char *k;
	size_t klen;

	if (u->track)
		u->cnt[id]++;
	if (u->explain) {
		k = kept_rec(u, id, &klen);
		rec = record_id(u->rec.mode, rec, len, &len);
		k = record_id(u->rec.mode, k, klen, &klen);
		out_write(rec, len);
		out_write("\t", 1);
		put(u, k, klen);
	} else if (u->all)
		dropped(u, id, rec, len);
	else if (u->repeated && !u->hold && u->cnt[id] == 2) {
		k = kept_rec(u, id, &klen);
		put(u, k, klen);
	}
}

/*
 * A batch of records of file name, added to the index: out they go.  For
 * --jsonl, what is printed of a record is its line (its name with
 * --explain), and that of a kept one is held for later if need be.
 */
static void
emit(void *ctx, const char *name, const struct dedup_item *items,
    const struct uniqin_rec *recs, size_t n)
{
	struct uniq *u = ctx;
	uint64_t bytes = n;
	const char *p;
	size_t i, len;

	progress_stdout();
	for (i = 0; i < n; i++) {
		p = items[i].rec;
		len = items[i].len;
		if (recs != NULL && u->explain)
			p = rec_name(u, name, &recs[i], &len);
		else if (recs != NULL) {
			p = recs[i].line;
			len = recs[i].len;
		}
		bytes += len;
		if (items[i].kept && recs != NULL && (u->track || u->explain))
			hold(u, items[i].id, p, len);
		if (items[i].kept)
			kept(u, items[i].id, p, len);
		else
			duplicate(u, items[i].id, p, len);
	}
	progress_count(n, bytes);
}

/* -D: a group of kept record id, k, and its near-duplicates. */
static void
group(struct uniq *u, size_t id, const char *k, size_t klen, int first)
{
	size_t i;

	if (u->sep == SEP_PREPEND || (u->sep == SEP_SEPARATE && !first))
		put(u, "", 0);
	put(u, k, klen);
	for (i = u->dhead[id]; i != NONE; i = u->dnext[i])
		put(u, u->dtext.data + u->doff[i],
		    (size_t)(u->doff[i + 1] - u->doff[i]));
}

/* At the end of input: the counts, -u's records, or the groups of -D. */
static void
finish(struct uniq *u)
{
	const char *k;
	size_t id, klen, groups = 0;

	if (!u->hold)
		return;
	for (id = 0; id < dedup_kept(&u->dd); id++) {
		if ((u->repeated || u->all) && u->cnt[id] < 2)
			continue;
		if (u->unique && u->cnt[id] > 1)
			continue;
		k = kept_rec(u, (uint32_t)id, &klen);
		if (u->all) {
			group(u, id, k, klen, groups++ == 0);
			continue;
		}
		if (u->count && printf("%7" PRIu64 " ", u->cnt[id]) < 0)
			err(EXIT_TROUBLE, "stdout");
		put(u, k, klen);
	}
}

/* The shingling options that make no sense here. */
static void
refuse(const struct cmd *c, int ch)
{
	if (ch == OPT_WEIGHTS)
		warnx("--weights: not an option of uniq: resemblance is "
		    "unweighted");
	else
		warnx("--%s: not an option of uniq: its sketch is always "
		    "%s, sized from -t", ch == 'a' ? "algorithm" : "size",
		    scheme_algo_name(ALGO_MINHASH));
	cli_usage(c);
}

/* --all-repeated's METHOD: SEP_*. */
static int
separation(const struct cmd *c, const char *arg)
{
	size_t i;

	for (i = 0; arg != NULL && i < NSEP; i++)
		if (strcmp(arg, sepnames[i]) == 0)
			return (int)i;
	if (arg == NULL)
		return SEP_NONE;
	warnx("--all-repeated: %s: expected none, prepend or separate",
	    cli_vis(arg));
	cli_usage(c);
}

/* -f, -s, -w: the fields, bytes skipped, bytes compared; 1 if ch is one. */
static int
key_option(const struct cmd *c, struct reckey *k, int ch, const char *arg)
{
	char opt[3] = { '-', (char)ch, '\0' };
	size_t *n;

	if (ch == 'f')
		n = &k->skipfields;
	else if (ch == 's')
		n = &k->skipchars;
	else if (ch == 'w')
		n = &k->checkchars;
	else
		return 0;
	*n = (size_t)cli_number(c, opt, arg, 0, LLONG_MAX);
	return 1;
}

static int
uniq_option(const struct cmd *c, void *args, int ch, const char *arg)
{
	struct uniq *u = args;

	if (key_option(c, &u->key, ch, arg))
		return 1;
	switch (ch) {
	case OPT_LONGONLY | 'a':
	case OPT_LONGONLY | 'k':
	case OPT_LONGONLY | OPT_WEIGHTS:
		refuse(c, ch & ~OPT_LONGONLY);
		break;
	case 'c':
		u->count = 1;
		break;
	case 'D':
		u->all = 1;
		u->sep = separation(c, arg);
		break;
	case 'd':
		u->repeated = 1;
		break;
	case 'i':
		u->icase = 1;
		break;
	case 't':
		u->t = cli_fraction(c, "-t", arg, 0);
		break;
	case 'u':
		u->unique = 1;
		break;
	case OPT_EXPLAIN:
		u->explain = 1;
		break;
	default:
		return 0;
	}
	return 1;
}

/* The options of argv into *u: the number of them, or 0 after -h. */
static int
uniq_parse(const struct cmd *c, int argc, char **argv, struct uniq *u,
    struct shopts *so)
{
	static const struct cli_option longopts[] = {
		SHOPT_LONG,
		COMMON_LONG,
		{ { "all-repeated", optional_argument, NULL, 'D' }, "method",
		    "print every record that has a near-duplicate" },
		{ { "check-chars", required_argument, NULL, 'w' }, "chars",
		    "compare no more than chars characters of each record" },
		{ { "count", no_argument, NULL, 'c' },
		    NULL, "prefix each record kept with its number of copies" },
		{ { "explain", no_argument, NULL, OPT_EXPLAIN },
		    NULL, "say which earlier record each dropped one is like" },
		{ { "ignore-case", no_argument, NULL, 'i' },
		    NULL, "fold case when comparing records" },
		{ { "repeated", no_argument, NULL, 'd' },
		    NULL, "print one record of each group of near-duplicates" },
		{ { "skip-chars", required_argument, NULL, 's' }, "chars",
		    "skip the first chars characters of each record" },
		{ { "skip-fields", required_argument, NULL, 'f' }, "fields",
		    "skip the first fields fields of each record" },
		{ { "threshold", required_argument, NULL, 't' },
		    "threshold", "the least resemblance of a near-duplicate" },
		{ { "unique", no_argument, NULL, 'u' },
		    NULL, "print only the records without a near-duplicate" },
		{ { "zero-terminated", no_argument, NULL, 'z' },
		    NULL, "records and output lines end with NUL, not newline" },
		RECOPT_LONG,
		{ { NULL, 0, NULL, 0 }, NULL, NULL }
	};
	/* The letters are uniq(1)'s: shingling is by long names only. */
	struct cli_parse p = { RECOPT_SHORT "cDdf:his:t:uw:",
	    longopts, uniq_option, u, so, NULL,
	    &u->rec, NULL };

	memset(u, 0, sizeof(*u));
	recopts_init(&u->rec, REC_LINES);
	u->key.checkchars = SIZE_MAX;
	u->t = SIMILARITY_DEFAULT;
	shopts_init(so);
	so->algo = ALGO_MINHASH;
	so->longonly = 1;
	return cli_parse(c, argc, argv, &p);
}

/*
 * -c N as neardup uniq took it once, character N-grams: N is no file,
 * and it is a number.  Says what -c means now, and exits 2.
 */
static void
old_count(const struct cmd *c, int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++)
		if (argv[i][0] != '\0' &&
		    strspn(argv[i], "0123456789") == strlen(argv[i]) &&
		    access(argv[i], F_OK) == -1) {
			warnx("%s: no such file: -c counts, as in uniq(1); "
			    "character %s-grams are --chars=%s", argv[i],
			    argv[i], argv[i]);
			cli_usage(c);
		}
}

static void
uniq_check(const struct cmd *c, struct uniq *u, struct shopts *so,
    int argc, char **argv)
{
	if (u->all && (u->unique || u->count)) {
		warnx("-D excludes -c and -u");
		cli_usage(c);
	}
	if (u->explain && (u->all || u->repeated || u->count || u->unique)) {
		warnx("--explain excludes -c, -D, -d and -u");
		cli_usage(c);
	}
	if (u->icase && so->keepcase) {
		warnx("-i and --keep-case exclude each other");
		cli_usage(c);
	}
	if (u->count)
		old_count(c, argc, argv);
	u->key.mode = u->rec.mode;
	u->track = u->count || u->repeated || u->all || u->unique;
	u->hold = u->count || u->all || u->unique;
}

static int
uniq_exec(const struct cmd *c, int argc, char **argv)
{
	struct scheme sc;
	struct shopts so;
	struct uniqin *in;
	struct uniq u;
	int i, n;

	if ((n = uniq_parse(c, argc, argv, &u, &so)) == 0)
		return out_close();
	argc -= n;
	argv += n;
	uniq_check(c, &u, &so, argc, argv);
	recopts_check(c, &u.rec);
	shopts_scheme(c, &so, u.rec.mode, &sc);
	dedup_init(&u.dd, &sc, u.t, &u.key);

	progress_start("records", !u.hold);
	progress_inputs(argv, argc, NULL);
	in = uniqin_new(&u.dd, &u.rec, emit, &u);
	if (argc == 0)
		u.rval |= uniqin_file(in, "-");
	for (i = 0; i < argc; i++)
		u.rval |= uniqin_file(in, argv[i]);
	uniqin_end(in);
	progress_end();
	finish(&u);
	recopts_report(&u.rec);

	dedup_free(&u.dd);
	free(u.cnt);
	free(u.dhead);
	free(u.dtail);
	free(u.doff);
	free(u.dnext);
	buf_free(&u.dtext);
	buf_free(&u.ktext);
	buf_free(&u.name);
	free(u.koff);
	shopts_free(&so);
	return out_close() | u.rval;
}
