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

static int hash_exec(const struct cmd *, int, char **);

const struct cmd cmd_hash = {
	"hash", "print one fingerprint line per document",
	"hash [-hLrz] [-a algo] [-c n | -w n] [-j jobs] [-k size] [-s seed]\n"
	"\t[--files0-from=file] [--keep-case] [--keep-punct] "
	"[--lines | --tsv]\n"
	"\t[--multiset] [--weights=file] [file ...]",
	hash_exec
};

/* Write each finished job's lines. */
static void
write_lines(void *ctx, const struct hashjob *j)
{
	(void)ctx;
	out_write(j->out.data, j->out.len);
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
	struct hashcfg cfg;
	struct hashrun *run;
	struct shopts so;
	const char *list = NULL;
	unsigned jobs = hashrun_default_jobs();
	int ch, recursive = 0, follow = 0, i, rval;

	memset(&cfg, 0, sizeof(cfg));
	shopts_init(&so);
	while ((ch = getopt_long(argc, argv, "+" SHOPT_SHORT "hj:Lrz",
	    longopts, NULL)) != -1) {
		if (shopts_option(c, &so, ch, optarg))
			continue;
		switch (ch) {
		case 'h':
			cli_print_usage(c, stdout);
			return out_close();
		case 'j':
			jobs = (unsigned)cli_number(c, "-j", optarg, 1,
			    HASHRUN_JOBS_MAX);
			break;
		case 'L':
			follow = 1;
			break;
		case 'r':
			recursive = 1;
			break;
		case 'z':
			cfg.zero = 1;
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
	if (list != NULL && argc > 0) {
		warnx("file operands cannot be combined with --files0-from");
		cli_usage(c);
	}
	shopts_scheme(c, &so, cfg.mode, &cfg.sc);
	cfg.wt = so.weights != NULL ? &so.wt : NULL;

	run = hashrun_new(&cfg, jobs, recursive, follow, write_lines, NULL);
	if (list != NULL)
		hashrun_files0(run, list);
	else if (argc == 0)
		hashrun_operand(run, "-");
	else
		for (i = 0; i < argc; i++)
			hashrun_operand(run, argv[i]);
	rval = hashrun_finish(run);
	shopts_free(&so);
	return out_close() | rval;
}
