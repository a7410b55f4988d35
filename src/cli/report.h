/*
 * The one writer of the report formats that compare, cluster and near
 * share: a table (text and tsv: tab-separated fields, one record a line)
 * or JSON (an array of objects, or one object).  A report is rows of
 * named cells; the format decides how a row, a cell and a name are
 * written, so that a new format is a case here and a word in --format.
 */
#ifndef REPORT_H
#define REPORT_H

#include <stddef.h>

#define REPORT_DEPTH	4	/* rows in lists in rows... */

struct report {
	int	 fmt;		/* FMT_*: FMT_JSON, or a table */
	int	 zero;		/* -z: records end with NUL, names as they are */
	int	 single;	/* JSON: one object, not an array of them */
	const char *none;	/* a table's text for an unknown value */
	int	 open;		/* JSON: the array's '[' is written */
	size_t	 n;		/* items written at the top level */
	int	 depth;		/* rows and lists open */
	size_t	 cells[REPORT_DEPTH];	/* cells written at each depth */
};

/* A report in format fmt (FMT_*), -z if zero; nothing written yet. */
void	report_init(struct report *, int fmt, int zero);

/*
 * Does the format nest (JSON)?  Then a row may hold a list of rows
 * (report_list); a table writes them as rows of their own.
 */
int	report_nested(const struct report *);

/*
 * A table's header, its columns cols separated by tabs, as a record;
 * nothing in JSON, which names its fields.
 */
void	report_header(const struct report *, const char *cols);

/*
 * Open the JSON array now, and have it closed at exit if an error ends
 * neardup first (out_json_tail).  Without it, the first item opens it.
 */
void	report_open(struct report *);

/* Close what report_open or the first item opened. */
void	report_close(struct report *);

/* A name, escaped for the format (as it is with -z in a table). */
void	report_name(const struct report *, const char *);

/* The end of a table's record: a newline, or NUL with -z. */
void	report_end(const struct report *);

/* An item of the array that is a name alone: a record in a table. */
void	report_item(struct report *, const char *name);

/*
 * A row: a record of a table, an object in JSON (an item of the array
 * at the top level, of the list open below it).  Its cells follow, each
 * named key: a name, a count, a figure (six decimals, cut; have 0: the
 * value is unknown), a word (NULL: unknown), a truth value (have 0:
 * unknown) or text written as it is (a number already formatted).
 */
void	report_row(struct report *);
void	report_row_end(struct report *);
void	report_cell_name(struct report *, const char *key, const char *);
void	report_cell_count(struct report *, const char *key, size_t);
void	report_cell_figure(struct report *, const char *key, int have,
	    double);
void	report_cell_word(struct report *, const char *key, const char *);
void	report_cell_bool(struct report *, const char *key, int have,
	    int);
void	report_cell_raw(struct report *, const char *key, const char *);

/* A cell of len bytes of text, written as a name is. */
void	report_cell_text(struct report *, const char *key, const char *,
	    size_t len);

/* A list of rows in a cell of a JSON row (report_nested), and its end. */
void	report_list(struct report *, const char *key);
void	report_list_end(struct report *);

/* What a similarity rests on, the BASIS column: "exact" or "estimate". */
const char *report_basis(int exact);

#endif
