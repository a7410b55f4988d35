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

static int hash_exec(const struct cmd *, int, char **);

const struct cmd cmd_hash = {
	"hash", "print one fingerprint line per document",
	"hash [-hLrz] [-a algo] [-c n | -w n] [-j jobs] [-k size] [-s seed]\n"
	"\t[--bands [-t threshold | --lsh=BxR]] [--binary] [--exclude=glob]\n"
	"\t[--exclude-dir=glob] [--files0-from=file] [--hidden] "
	"[--keep-case]\n"
	"\t[--keep-punct] [--lines | --tsv] [--multiset]\n"
	"\t[--progress | --no-progress] [--weights=file] [file ...]",
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

static int
hash_exec(const struct cmd *c, int argc, char **argv)
{
	static const struct option longopts[] = {
		SHOPT_LONG,
		PROGRESS_LONG,
		INOPT_LONG,
		{ "files0-from", required_argument, NULL, OPT_FILES0 },
		{ "lines", no_argument, NULL, OPT_LINES },
		{ "tsv", no_argument, NULL, OPT_TSV },
		{ "null-data", no_argument, NULL, 'z' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "bands", no_argument, NULL, OPT_CMD_FIRST },
		{ "lsh", required_argument, NULL, OPT_CMD_FIRST + 1 },
		{ "threshold", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct hashcfg cfg;
	struct hashrun *run;
	struct shopts so;
	struct inopts io;
	const char *list = NULL;
	unsigned jobs = hashrun_default_jobs();
	int ch, i, rval, bands = 0, have_lsh = 0;
	double t = -1;
	struct lsh lsh;

	memset(&cfg, 0, sizeof(cfg));
	shopts_init(&so);
	inopts_init(&io);
	while ((ch = getopt_long(argc, argv, SHOPT_SHORT INOPT_SHORT "hj:t:z",
	    longopts, NULL)) != -1) {
		if (shopts_option(c, &so, ch, optarg) ||
		    inopts_option(&io, ch, optarg) || progress_option(ch))
			continue;
		switch (ch) {
		case 'h':
			cli_print_usage(c, stdout);
			return out_close();
		case 'j':
			jobs = (unsigned)cli_number(c, "-j", optarg, 1,
			    HASHRUN_JOBS_MAX);
			break;
		case 't':
			t = cli_fraction(c, "-t", optarg, 0);
			break;
		case 'z':
			cfg.zero = 1;
			break;
		case OPT_CMD_FIRST:
			bands = 1;
			break;
		case OPT_CMD_FIRST + 1:
			cli_lsh(c, optarg, &lsh);
			have_lsh = 1;
			break;
		case OPT_FILES0:
			list = optarg;
			break;
		case OPT_LINES:
		case OPT_TSV:
			if (cfg.mode != REC_NONE &&
			    cfg.mode != (ch == OPT_LINES ? REC_LINES : REC_TSV)) {
				warnx("--lines and --tsv exclude each other");
				cli_usage(c);
			}
			cfg.mode = ch == OPT_LINES ? REC_LINES : REC_TSV;
			break;
		default:
			cli_usage(c);
		}
	}
	argc -= optind;
	argv += optind;
	inopts_check(c, &io);
	if (io.binary && cfg.mode != REC_NONE) {
		warnx("--binary applies to whole documents, not to --lines or "
		    "--tsv records");
		cli_usage(c);
	}
	cfg.binary = io.binary;
	if (list != NULL && argc > 0) {
		warnx("file operands cannot be combined with --files0-from");
		cli_usage(c);
	}
	if (!bands && (t >= 0 || have_lsh)) {
		warnx("-t and --lsh apply to --bands");
		cli_usage(c);
	}
	if (bands) {
		if (algo_get(so.algo)->cand != CAND_BANDS) {
			warnx("--bands: needs -a minhash or -a oph");
			cli_usage(c);
		}
		if (t >= 0 && have_lsh) {
			warnx("--bands: give -t or --lsh, not both");
			cli_usage(c);
		}
	}
	shopts_scheme(c, &so, cfg.mode, &cfg.sc);
	cfg.wt = so.weights != NULL ? &so.wt : NULL;
	if (bands) {
		if (!have_lsh)
			lsh_choose(&lsh, t >= 0 ? t : 0.8, cfg.sc.size,
			    cfg.sc.size, LSH_FPW, LSH_FNW);
		if (lsh.b * lsh.r > cfg.sc.size)
			errx(EXIT_TROUBLE, "--lsh: %u x %u rows is more than "
			    "the %u values of a fingerprint", lsh.b, lsh.r,
			    cfg.sc.size);
		cfg.bands = &lsh;
	}

	progress_start(cfg.mode == REC_NONE ? "files" : NULL, 1);
	if (list == NULL)
		progress_inputs(argv, argc, &io.walk);
	run = hashrun_new(&cfg, jobs, &io.walk, write_lines, NULL);
	if (list != NULL)
		hashrun_files0(run, list);
	else if (argc == 0)
		hashrun_operand(run, "-");
	else
		for (i = 0; i < argc; i++)
			hashrun_operand(run, argv[i]);
	rval = hashrun_finish(run);
	progress_end();
	shopts_free(&so);
	inopts_free(&io);
	return out_close() | rval;
}
