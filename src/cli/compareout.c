/*
 * neardup compare: the report of what was found, as text or as a tsv or
 * json record.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "compare.h"
#include "report.h"

/*
 * The threshold in the tsv and json formats: six decimals, or as many as
 * it takes to read back as itself, so that no figure printed below it
 * reads as equal to it.
 */
static void
threshold(struct report *rp, double t)
{
	char s[32];
	int prec;

	snprintf(s, sizeof(s), "%.6f", t);
	if (strtod(s, NULL) != t)
		for (prec = 7; prec <= 17; prec++) {
			snprintf(s, sizeof(s), "%.*f", prec, t);
			if (strtod(s, NULL) == t)
				break;
		}
	report_cell_raw(rp, "threshold", s);
}

/* The figures of r, exact and estimated, as cells of a row. */
static void
figures(struct report *rp, const struct result *r)
{
	const struct estimate *e = &r->est;
	int d = (e->have & EST_DISTANCE) != 0;

	report_cell_figure(rp, "jaccard", r->exact, r->sim.jaccard);
	report_cell_figure(rp, "containment_a_in_b", r->exact,
	    r->sim.cont_ab);
	report_cell_figure(rp, "containment_b_in_a", r->exact,
	    r->sim.cont_ba);
	if (r->exact) {
		report_cell_count(rp, "shared", r->sim.shared);
		report_cell_count(rp, "size_a", r->sim.size_a);
		report_cell_count(rp, "size_b", r->sim.size_b);
	} else {
		report_cell_word(rp, "shared", NULL);
		report_cell_word(rp, "size_a", NULL);
		report_cell_word(rp, "size_b", NULL);
	}
	report_cell_figure(rp, "est_jaccard", e->have & EST_JACCARD,
	    e->jaccard);
	report_cell_figure(rp, "est_containment_a_in_b",
	    e->have & EST_CONTAIN, e->cont_ab);
	report_cell_figure(rp, "est_containment_b_in_a",
	    e->have & EST_CONTAIN, e->cont_ba);
	if (d) {
		report_cell_count(rp, "distance", e->distance);
		report_cell_count(rp, "bits", e->bits);
	} else {
		report_cell_word(rp, "distance", NULL);
		report_cell_word(rp, "bits", NULL);
	}
	report_cell_figure(rp, "cosine", d, e->cosine);
	report_cell_bool(rp, "keys_equal", (e->have & EST_KEY) != 0,
	    e->equal);
	threshold(rp, r->threshold);
	report_cell_bool(rp, "similar", 1, r->score >= r->threshold);
}

/*
 * The shared passages: a list in the JSON object; in the tsv format a
 * second table, after an empty record, without their text.
 */
static void
passages(struct report *rp, const struct side *s, const struct result *r)
{
	const struct passage *p;
	size_t i;

	if (report_nested(rp))
		report_list(rp, "passages");
	else {
		report_end(rp);
		report_header(rp, "words\ta_first\ta_last\tb_first\tb_last");
	}
	for (i = 0; i < r->npass; i++) {
		p = &r->pass[i];
		report_row(rp);
		report_cell_count(rp, "words", p->words);
		report_cell_count(rp, "a_first", p->a_first);
		report_cell_count(rp, "a_last", p->a_last);
		report_cell_count(rp, "b_first", p->b_first);
		report_cell_count(rp, "b_last", p->b_last);
		if (report_nested(rp))
			report_cell_text(rp, "text", s[0].text.data +
			    p->a_off, p->a_end - p->a_off);
		report_row_end(rp);
	}
	if (report_nested(rp))
		report_list_end(rp);
}

/* The tsv or json report: one record, or one object. */
void
result_report(const struct side *s, const struct result *r, int fmt,
    int withpass, int zero)
{
	struct report rp;
	char sch[SCHEME_MAX];

	report_init(&rp, fmt, zero);
	rp.single = 1;
	scheme_format(&r->sc, sch);
	report_header(&rp, "a\tb\tscheme\tjaccard\tcontainment_a_in_b"
	    "\tcontainment_b_in_a\tshared\tsize_a\tsize_b\test_jaccard"
	    "\test_containment_a_in_b\test_containment_b_in_a\tdistance"
	    "\tbits\tcosine\tkeys_equal\tthreshold\tsimilar");
	report_row(&rp);
	report_cell_name(&rp, "a", s[0].name);
	report_cell_name(&rp, "b", s[1].name);
	report_cell_word(&rp, "scheme", sch);
	figures(&rp, r);
	if (withpass && report_nested(&rp))
		passages(&rp, s, r);
	report_row_end(&rp);
	if (withpass && !report_nested(&rp))
		passages(&rp, s, r);
	report_close(&rp);
}

static void
print_estimate(const struct result *r)
{
	const struct estimate *e = &r->est;
	char sch[SCHEME_MAX];

	scheme_format(&r->sc, sch);
	printf("estimated by %s:\n", sch);
	if (e->have & EST_JACCARD)
		printf("  resemblance         %.4f\n", cli_cut(e->jaccard, 4));
	if (e->have & EST_CONTAIN)
		printf("  containment a in b  %.4f\n"
		    "  containment b in a  %.4f\n", cli_cut(e->cont_ab, 4),
		    cli_cut(e->cont_ba, 4));
	if (e->have & EST_DISTANCE)
		printf("  %u of %u bits differ, cosine %.4f\n", e->distance,
		    e->bits, cli_cut(e->cosine, 4));
	if (e->have & EST_KEY)
		printf("  keys %s\n", e->equal ? "equal" : "differ");
}

void
result_text(const struct side *s, const struct result *r, int passages,
    int color)
{
	const char *bold = color ? "\033[1m" : "", *off = color ? "\033[m" : "";
	const struct passage *p;
	const char *line, *end, *nl;
	size_t i, n;

	printf("a: %s", cli_vis(s[0].name));
	if (r->exact)
		printf(" (%zu shingle%s)", r->sim.size_a,
		    r->sim.size_a == 1 ? "" : "s");
	printf("\nb: %s", cli_vis(s[1].name));
	if (r->exact)
		printf(" (%zu shingle%s)", r->sim.size_b,
		    r->sim.size_b == 1 ? "" : "s");
	putchar('\n');
	if (r->exact)
		printf("resemblance           %.4f  (%zu shared of %zu)\n"
		    "containment a in b    %.4f\n"
		    "containment b in a    %.4f\n", cli_cut(r->sim.jaccard, 4),
		    r->sim.shared, r->sim.size_a + r->sim.size_b -
		    r->sim.shared, cli_cut(r->sim.cont_ab, 4),
		    cli_cut(r->sim.cont_ba, 4));
	print_estimate(r);
	printf("%s (threshold %s)\n", r->score >= r->threshold ?
	    "similar" : "not similar", r->targ);
	if (!passages)
		return;
	printf("\n%zu shared passage%s\n", r->npass, r->npass == 1 ? "" : "s");
	for (i = 0; i < r->npass; i++) {
		p = &r->pass[i];
		printf("\n%s%zu words: a lines %zu-%zu, b lines %zu-%zu%s\n",
		    bold, p->words, p->a_first, p->a_last, p->b_first,
		    p->b_last, off);
		line = s[0].text.data + p->a_off;
		end = s[0].text.data + p->a_end;
		for (n = p->a_first; line <= end; n++) {
			if ((nl = memchr(line, '\n', (size_t)(end - line))) ==
			    NULL)
				nl = end;
			printf("%s%6zu%s  %.*s\n", bold, n, off,
			    (int)(nl - line), line);
			line = nl + 1;
		}
	}
}
