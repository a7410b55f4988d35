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
#include "hashrun.h"
#include "lsh.h"
#include "progress.h"
#include "similarity.h"

static int hash_exec(const struct cmd *, int, char **);

const struct cmd cmd_hash = {
	"hash", "print one fingerprint line per document",
	"hash [-hLrz] [-a algo] [-c n | -w n] [-j jobs] [-k size] [-s seed]\n"
	"\t[--archives] [--bands [-t threshold | --lsh=BxR]] [--binary]\n"
	"\t[--exclude=glob] [--exclude-dir=glob] [--files0-from=file] "
	"[--hidden]\n"
	"\t[--keep-case] [--keep-punct] [--lines | " RECOPT_MODES "] "
	"[--id=field]\n"
	"\t[--jsonl-skip-bad] [--multiset] [--progress | --no-progress]\n"
	"\t[--weights=file] [file ...]",
	hash_exec
};

/* Write the documents' lines as they come, in order. */
static void
write_lines(void *ctx, const char *lines, size_t len)
{
	(void)ctx;
	progress_stdout();
	out_write(lines, len);
}

/* What the command line asks. */
struct hash_args {
	struct hashcfg cfg;
	struct shopts so;
	struct inopts io;
	struct recopts rec;
	struct lsh lsh;
	unsigned jobs;
	int	 bands, have_lsh;
	double	 t;
};

static int
hash_option(const struct cmd *c, void *args, int ch, const char *arg)
{
	struct hash_args *a = args;

	switch (ch) {
	case 'j':
		a->jobs = (unsigned)cli_number(c, "-j", arg, 1,
		    HASHRUN_JOBS_MAX);
		break;
	case 't':
		a->t = cli_fraction(c, "-t", arg, 0);
		break;
	case OPT_CMD_FIRST:
		a->bands = 1;
		break;
	case OPT_CMD_FIRST + 1:
		cli_lsh(c, arg, &a->lsh);
		a->have_lsh = 1;
		break;
	default:
		return 0;
	}
	return 1;
}

/* The options of argv into *a: the number of them, or 0 after -h. */
static int
hash_parse(const struct cmd *c, int argc, char **argv, struct hash_args *a)
{
	static const struct cli_option longopts[] = {
		SHOPT_LONG,
		INOPT_LONG,
		COMMON_LONG,
		RECOPT_LONG,
		{ { "lines", no_argument, NULL, OPT_LINES },
		    NULL, "each line of each input is a document" },
		{ { "jobs", required_argument, NULL, 'j' },
		    "jobs", "hash with this many threads" },
		{ { "bands", no_argument, NULL, OPT_CMD_FIRST },
		    NULL, "print band lines, not fingerprint lines" },
		{ { "lsh", required_argument, NULL, OPT_CMD_FIRST + 1 },
		    "BxR", "with --bands, B bands of R rows" },
		{ { "threshold", required_argument, NULL, 't' },
		    "threshold", "with --bands, the bands for this resemblance" },
		{ { NULL, 0, NULL, 0 }, NULL, NULL }
	};
	struct cli_parse p = { SHOPT_SHORT INOPT_SHORT RECOPT_SHORT "hj:t:",
	    longopts, hash_option, a, &a->so,
	    &a->io, &a->rec, NULL };

	memset(a, 0, sizeof(*a));
	a->jobs = hashrun_default_jobs();
	a->t = -1;
	shopts_init(&a->so);
	inopts_init(&a->io);
	recopts_init(&a->rec, REC_NONE);
	return cli_parse(c, argc, argv, &p);
}

/* Refuse options that do not go together; settle the scheme. */
static void
hash_check(const struct cmd *c, int argc, struct hash_args *a)
{
	inopts_check(c, &a->io, argc);
	recopts_check(c, &a->rec);
	a->cfg.mode = a->rec.mode;
	a->cfg.json = &a->rec.js;
	a->cfg.zero = a->rec.delim == '\0';
	if ((a->io.binary || a->io.archives) && a->cfg.mode != REC_NONE) {
		warnx("%s applies to whole documents, not to --lines, --tsv "
		    "or --jsonl records", a->io.binary ? "--binary" :
		    "--archives");
		cli_usage(c);
	}
	a->cfg.binary = a->io.binary;
	a->cfg.archives = a->io.archives;
	if (!a->bands && (a->t >= 0 || a->have_lsh)) {
		warnx("-t and --lsh apply to --bands");
		cli_usage(c);
	}
	if (a->bands && algo_get(a->so.algo)->cand != CAND_BANDS) {
		char l[ALGO_LIST_MAX];

		warnx("--bands: needs %s", algo_list(l, sizeof(l), 0,
		    CAND_BANDS, "-a ", "or"));
		cli_usage(c);
	}
	if (a->bands && a->t >= 0 && a->have_lsh) {
		warnx("--bands: give -t or --lsh, not both");
		cli_usage(c);
	}
	shopts_scheme(c, &a->so, a->cfg.mode, &a->cfg.sc);
	a->cfg.wt = a->so.weights != NULL ? &a->so.wt : NULL;
	if (!a->bands)
		return;
	if (!a->have_lsh)
		lsh_choose(&a->lsh, a->t >= 0 ? a->t : SIMILARITY_DEFAULT,
		    a->cfg.sc.size, a->cfg.sc.size, LSH_FPW, LSH_FNW);
	if (a->lsh.b * a->lsh.r > a->cfg.sc.size)
		errx(EXIT_TROUBLE, "--lsh: %u x %u rows is more than the %u "
		    "values of a fingerprint", a->lsh.b, a->lsh.r,
		    a->cfg.sc.size);
	a->cfg.bands = &a->lsh;
}

static int
hash_exec(const struct cmd *c, int argc, char **argv)
{
	struct hash_args a;
	struct hashrun *run;
	int i, n, rval;

	if ((n = hash_parse(c, argc, argv, &a)) == 0)
		return out_close();
	argc -= n;
	argv += n;
	hash_check(c, argc, &a);
	if (a.io.list == NULL)
		argv = inopts_operands(&a.io, &argc, argv);

	progress_start(a.cfg.mode == REC_NONE ? "files" : NULL, 1);
	if (a.io.list == NULL)
		progress_inputs(argv, argc, &a.io.walk);
	run = hashrun_new(&a.cfg, a.jobs, &a.io.walk, write_lines, NULL);
	hashrun_records(run, &a.rec);
	if (a.io.list != NULL)
		hashrun_files0(run, a.io.list);
	else if (argc == 0)
		hashrun_operand(run, "-");
	else
		for (i = 0; i < argc; i++)
			hashrun_operand(run, argv[i]);
	rval = hashrun_finish(run);
	progress_end();
	recopts_report(&a.rec);
	shopts_free(&a.so);
	inopts_free(&a.io);
	return out_close() | rval;
}
