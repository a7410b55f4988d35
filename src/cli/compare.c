/*
 * neardup compare: how similar two documents are, exactly and as the
 * scheme's sketches estimate it; or how similar two fingerprint lines say
 * their documents are (-F).  The reading is in comparein.c, the report
 * in compareout.c.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "compare.h"
#include "progress.h"
#include "record.h"
#include "xmalloc.h"

static int compare_exec(const struct cmd *, int, char **);

const struct cmd cmd_compare = {
	"compare", "how similar two documents (or two fingerprints) are",
	"compare [-Fhqz] [-a algo] [-c n | -w n] [-k size] [-s seed] "
	"[-t threshold]\n"
	"\t[--archives] [--color=when] [--containment] [--format=text|tsv|json] "
	"[--header]\n"
	"\t[--keep-case] [--keep-punct] [--multiset] [--passages]\n"
	"\t[--progress | --no-progress] [--weights=file] a [b]",
	compare_exec
};
/* What the command line asks. */
struct compare_args {
	struct shopts so;
	struct outopts oo;
	int	 fps, quiet, containment, passages, color, archives;
	double	 threshold;
	const char *targ;	/* the threshold as written */
};

static int
compare_option(const struct cmd *c, void *args, int ch, const char *arg)
{
	struct compare_args *a = args;

	switch (ch) {
	case 'F':
		a->fps = 1;
		break;
	case 'q':
		a->quiet = 1;
		break;
	case 't':
		a->threshold = cli_fraction(c, "-t", arg, 1);
		a->targ = arg;
		break;
	case OPT_CMD_FIRST:
		a->containment = 1;
		break;
	case OPT_CMD_FIRST + 1:
		a->passages = 1;
		break;
	case OPT_ARCHIVES:
		a->archives = 1;
		break;
	case OPT_COLOR:
		if ((a->color = fmt_color_option(arg)) < 0) {
			warnx("--color: %s: expected auto, always or never",
			    cli_vis(arg));
			cli_usage(c);
		}
		break;
	default:
		return 0;
	}
	return 1;
}

/* The options of argv into *a: the number of them, or 0 after -h. */
static int
compare_parse(const struct cmd *c, int argc, char **argv,
    struct compare_args *a)
{
	static const struct cli_option longopts[] = {
		SHOPT_LONG,
		OUTOPT_LONG,
		COMMON_LONG,
		{ { "fingerprints", no_argument, NULL, 'F' },
		    NULL, "the operands are fingerprint lines" },
		{ { "quiet", no_argument, NULL, 'q' },
		    NULL, "print nothing: the exit status tells" },
		{ { "threshold", required_argument, NULL, 't' },
		    "threshold", "the least similarity that is similar, 0 to 1" },
		{ { "containment", no_argument, NULL, OPT_CMD_FIRST },
		    NULL, "apply the threshold to the containment" },
		{ { "passages", no_argument, NULL, OPT_CMD_FIRST + 1 },
		    NULL, "also list the passages the two share" },
		{ { "archives", no_argument, NULL, OPT_ARCHIVES },
		    NULL, "an operand ARCHIVE//PATH is that archive's member" },
		{ { "color", required_argument, NULL, OPT_COLOR },
		    "when", "colour the passages: never, always or auto" },
		{ { "colour", required_argument, NULL, OPT_COLOR },
		    "when", "colour the passages: never, always or auto" },
		{ { NULL, 0, NULL, 0 }, NULL, NULL }
	};
	struct cli_parse p = { SHOPT_SHORT OUTOPT_SHORT "Fhqt:",
	    longopts, compare_option, a, &a->so,
	    NULL, NULL, &a->oo };

	memset(a, 0, sizeof(*a));
	shopts_init(&a->so);
	a->oo.names[FMT_TEXT] = "text";
	a->oo.names[FMT_TSV] = "tsv";
	a->oo.names[FMT_JSON] = "json";
	a->color = COLOR_AUTO;
	a->threshold = SIMILARITY_DEFAULT;
	a->targ = SIMILARITY_DEFAULT_TEXT;
	return cli_parse(c, argc, argv, &p);
}

/* Refuse operands and options that do not go together. */
static void
compare_check(const struct cmd *c, int argc, char **argv,
    const struct compare_args *a)
{
	int fps = a->fps;

	if (argc > 2) {
		warnx("too many operands: compare takes two %s",
		    fps ? "fingerprints" : "documents");
		cli_usage(c);
	}
	if (argc < 1 || (argc == 1 && !fps)) {
		warnx(fps ? "expected two fingerprints, or one file holding "
		    "two" : "expected two documents");
		cli_usage(c);
	}
	if (argc == 2 && strcmp(argv[0], "-") == 0 &&
	    strcmp(argv[1], "-") == 0) {
		warnx("standard input can be only one of the operands");
		cli_usage(c);
	}
	if (argc == 2)
		cli_one_pipe(argv[0], argv[1]);
	if (fps && (a->so.given || a->so.algo_given)) {
		warnx("shingling options do not apply to fingerprints (-F): "
		    "their scheme is in the lines");
		cli_usage(c);
	}
	if (fps && a->archives) {
		warnx("--archives needs documents, not fingerprints");
		cli_usage(c);
	}
	if (fps && a->passages) {
		warnx("--passages needs documents, not fingerprints");
		cli_usage(c);
	}
	/* The tsv table always has its header: --header only says so. */
	if (a->oo.header && a->oo.fmt != FMT_TSV) {
		warnx("--header applies to --format=tsv");
		cli_usage(c);
	}
	if (a->oo.zero && !fps && a->oo.fmt != FMT_TSV) {
		warnx("-z applies to fingerprint lines (-F) and to "
		    "--format=tsv");
		cli_usage(c);
	}
}

/* Read both sides: fingerprint lines, or documents exactly. */
static void
compare_read(const struct cmd *c, int argc, char **argv,
    struct compare_args *a, struct side *s, struct result *r)
{
	int i, e;

	if (a->fps) {
		sides_load_fps(s, argc, argv, a->oo.zero);
		r->sc = s[0].fp.sc;
		if (a->containment &&
		    !(algo_get(r->sc.algo)->flags & ALGO_CONTAINMENT)) {
			char l[ALGO_LIST_MAX];

			errx(EXIT_TROUBLE, "--containment: fingerprints of "
			    "%s cannot estimate containment (%s can)",
			    scheme_algo_name(r->sc.algo), algo_list(l,
			    sizeof(l), ALGO_CONTAINMENT, -1, "", "and"));
		}
		return;
	}
	shopts_scheme(c, &a->so, REC_NONE, &r->sc);
	progress_start("files", 0);
	progress_inputs(argv, 2, NULL);
	for (i = 0; i < 2; i++) {
		s[i].name = argv[i];
		if ((e = side_open(&s[i], a->archives)) == MEMBERS_NONE)
			errx(EXIT_TROUBLE, "%s: no such member",
			    cli_vis(argv[i]));
		else if (e == SOURCE_BROKEN)
			errx(EXIT_TROUBLE, "%s: %s", cli_vis(argv[i]),
			    s[i].mem.why);
		else if (e != 0)
			errc(EXIT_TROUBLE, e, "%s", cli_vis(argv[i]));
	}
	sides_read(s, &r->sc, a->so.weights ? &a->so.wt : NULL, a->passages);
	for (i = 0; i < 2; i++)
		if (s[i].err == SOURCE_BROKEN)
			errx(EXIT_TROUBLE, "%s: %s", cli_vis(argv[i]), s[i].why);
		else if (s[i].err != 0)
			errc(EXIT_TROUBLE, s[i].err, "%s", cli_vis(argv[i]));
	r->exact = 1;
	similarity_exact(&s[0].set, &s[1].set, &r->sim);
}

/* The score the threshold applies to, and the shared passages. */
static void
compare_score(const struct compare_args *a, struct side *s,
    struct result *r)
{
	struct winnow_opts wo;

	similarity_estimate(&r->sc, s[0].fp.v, s[1].fp.v, &r->est);
	if (r->exact)
		r->score = a->containment ? fmax(r->sim.cont_ab,
		    r->sim.cont_ba) : r->sim.jaccard;
	else
		r->score = a->containment ? fmax(r->est.cont_ab,
		    r->est.cont_ba) : r->est.similarity;
	/* A simhash cosine below 0 is no less similar than 0 (-t 0). */
	r->score = fmax(r->score, 0);
	if (a->passages) {
		winnow_opts_default(&wo);
		wo.keepcase = r->sc.keepcase;
		wo.keeppunct = r->sc.keeppunct;
		wo.seed = r->sc.seed;
		progress_stage("finding passages", NULL, 0);
		r->npass = winnow_passages(s[0].text.data, s[0].text.len,
		    s[1].text.data, s[1].text.len, &wo, &r->pass);
	}
	progress_end();
}

static int
compare_exec(const struct cmd *c, int argc, char **argv)
{
	struct compare_args a;
	struct side s[2];
	struct result r;
	int i, n;

	if ((n = compare_parse(c, argc, argv, &a)) == 0)
		return out_close();
	argc -= n;
	argv += n;
	compare_check(c, argc, argv, &a);

	memset(s, 0, sizeof(s));
	memset(&r, 0, sizeof(r));
	r.threshold = a.threshold;
	r.targ = a.targ;
	compare_read(c, argc, argv, &a, s, &r);
	compare_score(&a, s, &r);
	if (!a.quiet) {
		if (a.oo.fmt != FMT_TEXT)
			result_report(s, &r, a.oo.fmt, a.passages, a.oo.zero);
		else
			result_text(s, &r, a.passages, fmt_use_color(a.color));
	}
	for (i = 0; i < 2; i++) {
		shset_free(&s[i].set);
		buf_free(&s[i].text);
		fpline_free(&s[i].fp);
	}
	free(r.pass);
	shopts_free(&a.so);
	if (out_close() != EXIT_OK)
		return EXIT_TROUBLE;
	return r.score >= r.threshold ? EXIT_OK : EXIT_DIFFER;
}
