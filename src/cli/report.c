/*
 * The report formats of compare, cluster and near: how a row, a cell, a
 * name, a header and the JSON array around the rows are written.
 */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "report.h"

void
report_init(struct report *r, int fmt, int zero)
{
	memset(r, 0, sizeof(*r));
	r->fmt = fmt;
	r->zero = zero;
	r->none = "";
}

int
report_nested(const struct report *r)
{
	return r->fmt == FMT_JSON;
}

void
report_end(const struct report *r)
{
	putchar(r->zero ? '\0' : '\n');
}

void
report_header(const struct report *r, const char *cols)
{
	if (report_nested(r))
		return;
	fputs(cols, stdout);
	report_end(r);
}

void
report_open(struct report *r)
{
	if (!report_nested(r) || r->single)
		return;
	putchar('[');
	out_json_tail("]\n");
	r->open = 1;
}

void
report_close(struct report *r)
{
	if (!report_nested(r))
		return;
	if (r->single) {
		putchar('\n');
		return;
	}
	out_json_tail(NULL);
	fputs(r->n ? "\n]\n" : r->open ? "]\n" : "[]\n", stdout);
}

static void
text(const struct report *r, const char *s, size_t len)
{
	if (report_nested(r))
		fmt_json_string(stdout, s, len);
	else if (r->zero)
		fwrite(s, 1, len, stdout);
	else
		fmt_tsv_field(stdout, s, len);
}

void
report_name(const struct report *r, const char *name)
{
	text(r, name, strlen(name));
}

/*
 * The start of an item of the top level: in JSON, after the one before
 * it, or opening the array; the array is closed at exit from now on.
 */
static void
item(struct report *r)
{
	if (report_nested(r) && !r->single) {
		fputs(r->n ? ",\n" : r->open ? "\n" : "[\n", stdout);
		r->open = 1;
		out_json_tail("\n]\n");
	}
	r->n++;
}

void
report_item(struct report *r, const char *name)
{
	item(r);
	report_name(r, name);
	if (!report_nested(r))
		report_end(r);
}

/* Before a cell or a row below the top: the separator, the key. */
static void
cell(struct report *r, const char *key)
{
	int nested = report_nested(r);

	assert(r->depth > 0);
	if (r->cells[r->depth]++ > 0)
		fputs(nested ? ", " : "\t", stdout);
	if (nested && key != NULL)
		printf("\"%s\": ", key);
}

static void
enter(struct report *r)
{
	assert(r->depth + 1 < REPORT_DEPTH);
	r->cells[++r->depth] = 0;
}

void
report_row(struct report *r)
{
	if (r->depth == 0)
		item(r);
	else
		cell(r, NULL);
	if (report_nested(r))
		putchar('{');
	enter(r);
}

void
report_row_end(struct report *r)
{
	r->depth--;
	if (report_nested(r))
		putchar('}');
	else
		report_end(r);
}

void
report_list(struct report *r, const char *key)
{
	assert(report_nested(r));
	cell(r, key);
	putchar('[');
	enter(r);
}

void
report_list_end(struct report *r)
{
	r->depth--;
	putchar(']');
}

void
report_cell_text(struct report *r, const char *key, const char *s,
    size_t len)
{
	cell(r, key);
	text(r, s, len);
}

void
report_cell_name(struct report *r, const char *key, const char *name)
{
	report_cell_text(r, key, name, strlen(name));
}

/* An unknown value: null in JSON. */
static void
none(const struct report *r)
{
	fputs(report_nested(r) ? "null" : r->none, stdout);
}

void
report_cell_count(struct report *r, const char *key, size_t n)
{
	cell(r, key);
	printf("%zu", n);
}

void
report_cell_figure(struct report *r, const char *key, int have, double v)
{
	cell(r, key);
	if (have)
		printf("%.6f", cli_cut(v, 6));
	else
		none(r);
}

void
report_cell_word(struct report *r, const char *key, const char *w)
{
	cell(r, key);
	if (w == NULL)
		none(r);
	else if (report_nested(r))
		printf("\"%s\"", w);
	else
		fputs(w, stdout);
}

void
report_cell_bool(struct report *r, const char *key, int have, int v)
{
	cell(r, key);
	if (have)
		fputs(v ? "true" : "false", stdout);
	else
		none(r);
}

void
report_cell_raw(struct report *r, const char *key, const char *s)
{
	cell(r, key);
	fputs(s, stdout);
}

const char *
report_basis(int exact)
{
	return exact ? "exact" : "estimate";
}
