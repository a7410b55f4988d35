/*
 * neardup uniq: uniq(1) for near-duplicates.  Records (lines,
 * NUL-terminated records, or ID<TAB>TEXT lines) go through the online
 * index of src/dedup/dedup.c in input order (uniqin.c reads them); a record
 * that is not a near-duplicate of one kept before it is kept and, by
 * default, printed as soon as its batch has been through the index.
 */
#include <err.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "cli.h"
#include "dedup.h"
#include "progress.h"
#include "uniqin.h"
#include "xmalloc.h"

#define DEFAULT_THRESHOLD 0.7
#define NONE	SIZE_MAX

static int uniq_exec(const struct cmd *, int, char **);

const struct cmd cmd_uniq = {
	"uniq", "drop near-duplicate records from a stream",
	"uniq [-Ddhz] [-c n | -w n] [-s seed] [-t threshold] [--count] "
	"[--explain]\n"
	"\t[--keep-case] [--keep-punct] [--multiset] "
	"[--progress | --no-progress] [" RECOPT_MODES "]\n"
	"\t[file ...]",
	uniq_exec
};

enum {
	OPT_COUNT = OPT_CMD_FIRST,
	OPT_EXPLAIN
};

struct uniq {
	struct dedup dd;
	struct recopts rec;
	int	 count, repeated, all, explain, track;
	double	 t;		/* -t */
	uint64_t *cnt;		/* occurrences of each kept record */
	size_t	 cap;		/* of cnt, dhead, dtail */
	/* -D: the dropped records, each chained after its kept record. */
	struct buf dtext;
	uint64_t *doff;		/* dropped record i is dtext[doff[i], doff[i + 1]) */
	size_t	*dnext, *dhead, *dtail;
	size_t	 nd, dcap;
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
	if (!u->track && !u->explain)
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
	k = dedup_record(&u->dd, id, &klen);
	if (u->explain) {
		if (u->rec.mode == REC_TSV) {
			len = record_idlen(rec, len);
			klen = record_idlen(k, klen);
		}
		out_write(rec, len);
		out_write("\t", 1);
		put(u, k, klen);
	} else if (u->all)
		dropped(u, id, rec, len);
	else if (u->repeated && !u->count && u->cnt[id] == 2)
		put(u, k, klen);
}

/* A batch of records, added to the index: out they go. */
static void
emit(void *ctx, const struct dedup_item *items, size_t n)
{
	struct uniq *u = ctx;
	uint64_t bytes = n;
	size_t i;

	progress_stdout();
	for (i = 0; i < n; i++) {
		bytes += items[i].len;
		if (items[i].kept)
			kept(u, items[i].id, items[i].rec, items[i].len);
		else
			duplicate(u, items[i].id, items[i].rec, items[i].len);
	}
	progress_count(n, bytes);
}

/* At the end of input: the counts, or the groups of -D. */
static void
finish(struct uniq *u)
{
	const char *k;
	size_t id, i, klen;

	if (!u->count && !u->all)
		return;
	for (id = 0; id < dedup_kept(&u->dd); id++) {
		if (u->repeated && u->cnt[id] < 2)
			continue;
		k = dedup_record(&u->dd, (uint32_t)id, &klen);
		if (u->count) {
			if (printf("%7" PRIu64 " ", u->cnt[id]) < 0)
				err(EXIT_TROUBLE, "stdout");
			put(u, k, klen);
			continue;
		}
		if (u->dhead[id] == NONE)
			continue;
		put(u, k, klen);
		for (i = u->dhead[id]; i != NONE; i = u->dnext[i])
			put(u, u->dtext.data + u->doff[i],
			    (size_t)(u->doff[i + 1] - u->doff[i]));
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
		warnx("-%c: not an option of uniq: its sketch is always "
		    "minhash, sized from -t", ch);
	cli_usage(c);
}

static int
uniq_option(const struct cmd *c, void *args, int ch, const char *arg)
{
	struct uniq *u = args;

	switch (ch) {
	case 'a':
	case 'k':
	case OPT_WEIGHTS:
		refuse(c, ch);
		break;
	case 'D':
		u->all = 1;
		break;
	case 'd':
		u->repeated = 1;
		break;
	case 't':
		u->t = cli_fraction(c, "-t", arg, 0);
		break;
	case OPT_COUNT:
		u->count = 1;
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
		{ { "all-repeated", no_argument, NULL, 'D' },
		    NULL, "print every record that has a near-duplicate" },
		{ { "count", no_argument, NULL, OPT_COUNT },
		    NULL, "prefix each record kept with its number of copies" },
		{ { "explain", no_argument, NULL, OPT_EXPLAIN },
		    NULL, "say which earlier record each dropped one is like" },
		{ { "repeated", no_argument, NULL, 'd' },
		    NULL, "print one record of each group of near-duplicates" },
		{ { "threshold", required_argument, NULL, 't' },
		    "threshold", "the least resemblance of a near-duplicate" },
		RECOPT_LONG,
		{ { NULL, 0, NULL, 0 }, NULL, NULL }
	};
	struct cli_parse p = { SHOPT_SHORT RECOPT_SHORT "Ddht:",
	    longopts, uniq_option, u, so, NULL,
	    &u->rec, NULL };

	memset(u, 0, sizeof(*u));
	recopts_init(&u->rec, REC_LINES);
	u->t = DEFAULT_THRESHOLD;
	shopts_init(so);
	so->algo = ALGO_MINHASH;
	return cli_parse(c, argc, argv, &p);
}

static void
uniq_check(const struct cmd *c, struct uniq *u)
{
	if (u->all && (u->repeated || u->count)) {
		warnx("-D excludes -d and --count");
		cli_usage(c);
	}
	if (u->explain && (u->all || u->repeated || u->count)) {
		warnx("--explain excludes -D, -d and --count");
		cli_usage(c);
	}
	u->track = u->count || u->repeated || u->all;
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
	uniq_check(c, &u);
	shopts_scheme(c, &so, u.rec.mode, &sc);
	dedup_init(&u.dd, &sc, u.t, u.rec.mode);

	progress_start("records", !u.count && !u.all);
	progress_inputs(argv, argc, NULL);
	in = uniqin_new(&u.dd, u.rec.delim, u.rec.mode, emit, &u);
	if (argc == 0)
		u.rval |= uniqin_file(in, "-");
	for (i = 0; i < argc; i++)
		u.rval |= uniqin_file(in, argv[i]);
	uniqin_end(in);
	progress_end();
	finish(&u);

	dedup_free(&u.dd);
	free(u.cnt);
	free(u.dhead);
	free(u.dtail);
	free(u.doff);
	free(u.dnext);
	buf_free(&u.dtext);
	shopts_free(&so);
	return out_close() | u.rval;
}
