/*
 * The shingling options shared by the commands that read documents.
 */
#include <err.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The long names, for a command that takes the group by them only. */
static const struct cli_option longnames[] = {
	SHOPT_LONG,
	{ { NULL, 0, NULL, 0 }, NULL, NULL }
};

int
shopts_long(const char *name)
{
	size_t i;

	for (i = 0; longnames[i].o.name != NULL; i++)
		if (strcmp(longnames[i].o.name, name) == 0)
			return 1;
	return 0;
}

/* Option ch as the user wrote it, for a message: "-c" or "--chars". */
static const char *
optname(const struct shopts *o, int ch)
{
	static char buf[64];
	size_t i;

	for (i = 0; o->longonly && longnames[i].o.name != NULL; i++)
		if (longnames[i].o.val == ch) {
			snprintf(buf, sizeof(buf), "--%s", longnames[i].o.name);
			return buf;
		}
	snprintf(buf, sizeof(buf), "-%c", ch);
	return buf;
}

void
shopts_init(struct shopts *o)
{
	memset(o, 0, sizeof(*o));
	o->algo = ALGO_SIMHASH;
	o->size = -1;
	o->ngram = -1;
	o->chars = -1;
}

int
shopts_option(const struct cmd *c, struct shopts *o, int ch, const char *arg)
{
	char names[128];

	switch (ch) {
	case 'a':
		if ((o->algo = scheme_algo_lookup(arg)) < 0) {
			warnx("%s: %s: unknown algorithm (%s)", optname(o, ch),
			    cli_vis(arg), algo_names(names, sizeof(names)));
			cli_usage(c);
		}
		break;
	case 'c':
	case 'w':
		o->ngram = cli_number(c, optname(o, ch), arg, 1,
		    SCHEME_NGRAM_MAX);
		o->chars = ch == 'c';
		break;
	case 'k':
		o->size = cli_number(c, optname(o, ch), arg, 1, SCHEME_K_MAX);
		break;
	case 's':
		o->seed = (uint64_t)cli_number(c, optname(o, ch), arg, 0, INT64_MAX);
		break;
	case OPT_MULTISET:
		o->multiset = 1;
		break;
	case OPT_KEEPCASE:
		o->keepcase = 1;
		break;
	case OPT_KEEPPUNCT:
		o->keeppunct = 1;
		break;
	case OPT_WEIGHTS:
		o->weights = arg;
		break;
	default:
		return 0;
	}
	if (ch == 'a')
		o->algo_given = 1;
	else
		o->given = 1;
	return 1;
}

void
shopts_scheme(const struct cmd *c, struct shopts *o, enum recmode mode,
    struct scheme *sc)
{
	struct weights_error e;
	const char *why;

	memset(sc, 0, sizeof(*sc));
	sc->algo = (enum algo)o->algo;
	sc->size = o->size < 0 ? scheme_default_size(sc->algo) :
	    (unsigned)o->size;
	if ((why = scheme_check_size(sc->algo, sc->size)) != NULL) {
		warnx("-k: %u: %s", sc->size, why);
		cli_usage(c);
	}
	/* Whole documents: word 3-grams; short records: character 5-grams. */
	if (o->ngram < 0) {
		sc->chars = mode != REC_NONE;
		sc->ngram = sc->chars ? 5 : 3;
	} else {
		sc->chars = o->chars;
		sc->ngram = (unsigned)o->ngram;
	}
	sc->multiset = o->multiset;
	sc->keepcase = o->keepcase;
	sc->keeppunct = o->keeppunct;
	sc->seed = o->seed;
	if (o->weights == NULL)
		return;
	if (!(algo_get(sc->algo)->flags & ALGO_WEIGHTS) || sc->chars) {
		char l[ALGO_LIST_MAX];

		warnx("--weights: applies to %s with word shingles only",
		    algo_list(l, sizeof(l), ALGO_WEIGHTS, -1, "", "and"));
		cli_usage(c);
	}
	if (weights_load(&o->wt, o->weights, sc, &e) == -1) {
		if (e.line > 0)
			errx(EXIT_TROUBLE, "%s:%zu: %s", cli_vis(o->weights),
			    e.line, e.why);
		errc(EXIT_TROUBLE, e.errnum, "%s", cli_vis(o->weights));
	}
	sc->weighted = 1;
	sc->wdigest = o->wt.digest;
}

void
shopts_free(struct shopts *o)
{
	if (o->weights != NULL)
		weights_free(&o->wt);
}
