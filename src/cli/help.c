/*
 * The help of a command (-h, --help, help CMD), made from the table of
 * options that parse.c parses by: the usage, one line an option, and
 * where to read more.  An option the table holds but the usage does not
 * name is one the command refuses (uniq's -a), and is left out.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "xmalloc.h"

#define HELP_COLUMN	30	/* where the words about an option begin */

/* Is c a character of an option's name? */
static int
name_char(int c)
{
	return isalnum((unsigned char)c) || c == '-';
}

/* Does usage name the short option ch: "-x", or in a cluster "-hLx"? */
static int
names_short(const char *usage, int ch)
{
	const char *p, *q;

	for (p = usage; (p = strchr(p, '-')) != NULL; p++) {
		if ((p > usage && name_char(p[-1])) || p[1] == '-')
			continue;
		for (q = p + 1; isalnum((unsigned char)*q); q++)
			if (*q == ch)
				return 1;
	}
	return 0;
}

/* Does usage name the long option name: "--name", whole? */
static int
names_long(const char *usage, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = usage; (p = strstr(p, "--")) != NULL; p += 2)
		if (strncmp(p + 2, name, n) == 0 && !name_char(p[2 + n]))
			return 1;
	return 0;
}

/*
 * The option's value as the parser sees it: a shingling option of a
 * command that takes them by their long names only (uniq) is not the
 * letter, which is the command's own (uniq's -c, -s, -w).
 */
static int
value(const struct cli_parse *p, const struct cli_option *o)
{
	if (p->sh != NULL && p->sh->longonly && shopts_long(o->o.name))
		return OPT_LONGONLY | o->o.val;
	return o->o.val;
}

/* Is the option a short one of p's shortopts? */
static int
is_short(const struct cli_parse *p, const struct cli_option *o)
{
	int v = value(p, o);

	return v > 0 && v < 256 && v != ':' && v != '+' && v != '-' &&
	    strchr(p->shortopts, v) != NULL;
}

/*
 * Does the command offer the option: does its usage name it, or an
 * option of the same value (--colour, --color)?  --version is every
 * command's, and no usage names it.
 */
static int
offered(const struct cmd *c, const struct cli_parse *p,
    const struct cli_option *o)
{
	const struct cli_option *a;

	if (o->o.val == OPT_VERSION)
		return 1;
	for (a = p->longopts; a->o.name != NULL; a++)
		if (value(p, a) == value(p, o) &&
		    (names_long(c->usage, a->o.name) ||
		    (is_short(p, a) && names_short(c->usage, a->o.val))))
			return 1;
	return 0;
}

static int
by_name(const void *a, const void *b)
{
	const struct cli_option *x = *(const struct cli_option *const *)a;
	const struct cli_option *y = *(const struct cli_option *const *)b;

	return strcmp(x->o.name, y->o.name);
}

/*
 * The argument's name: for --format, the words the command takes
 * ("groups|tsv|json", from its outopts) into buf.
 */
static const char *
arg_name(const struct cli_parse *p, const struct cli_option *o, char *buf,
    size_t cap)
{
	size_t i;

	if (o->o.val != OPT_FORMAT || p->out == NULL)
		return o->arg != NULL ? o->arg : "arg";
	buf[0] = '\0';
	for (i = 0; i < FMT_N; i++) {
		if (p->out->names[i] == NULL)
			continue;
		if (buf[0] != '\0')
			strlcat(buf, "|", cap);
		strlcat(buf, p->out->names[i], cap);
	}
	return buf;
}

/* "--name=arg", "--name[=arg]" or "--name" onto fp: its length. */
static int
put_long(FILE *fp, const struct cli_parse *p, const struct cli_option *o)
{
	char buf[64];

	if (o->o.has_arg == required_argument)
		return fprintf(fp, "--%s=%s", o->o.name,
		    arg_name(p, o, buf, sizeof(buf)));
	if (o->o.has_arg == optional_argument)
		return fprintf(fp, "--%s[=%s]", o->o.name,
		    arg_name(p, o, buf, sizeof(buf)));
	return fprintf(fp, "--%s", o->o.name);
}

/* The line of option o, and of the others of its value, its aliases. */
static void
put_option(FILE *fp, const struct cli_parse *p, const struct cli_option *o)
{
	const struct cli_option *a;
	int n;

	n = is_short(p, o) ? fprintf(fp, "  -%c, ", o->o.val) :
	    fprintf(fp, "      ");
	n += put_long(fp, p, o);
	for (a = p->longopts; a->o.name != NULL; a++)
		if (a != o && value(p, a) == value(p, o)) {
			n += fprintf(fp, ", ");
			n += put_long(fp, p, a);
		}
	if (n < HELP_COLUMN - 1)
		fprintf(fp, "%*s", HELP_COLUMN - n, "");
	else
		fprintf(fp, "  ");
	fprintf(fp, "%s\n", o->help != NULL ? o->help : "");
}

void
cli_help(const struct cmd *c, const struct cli_parse *p, FILE *fp)
{
	const struct cli_option **v, *o, *a, *opts = p->longopts;
	size_t n = 0, i;

	cli_print_usage(c, fp);
	for (o = opts; o->o.name != NULL; o++)
		n++;
	v = xreallocarray(NULL, n + 1, sizeof(*v));
	for (n = 0, o = opts; o->o.name != NULL; o++) {
		/* An alias goes on the line of the first of its value. */
		for (a = opts; a != o && value(p, a) != value(p, o); a++)
			continue;
		if (a == o && offered(c, p, o))
			v[n++] = o;
	}
	qsort(v, n, sizeof(*v), by_name);
	fprintf(fp, "\noptions:\n");
	for (i = 0; i < n; i++)
		put_option(fp, p, v[i]);
	fprintf(fp, "\nSee neardup(1) for details: man neardup\n");
	free(v);
}

void
cli_version(FILE *fp)
{
	fprintf(fp, "neardup %s\n", VERSION);
}
