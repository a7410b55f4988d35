/*
 * Files of fingerprint lines, read whole for the commands that index or
 * cluster them.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "fpline.h"
#include "fpset.h"
#include "linein.h"
#include "progress.h"
#include "record.h"
#include "xmalloc.h"

const char *
fpset_name(const struct fpset *s, size_t i)
{
	return s->names.data + s->name[i];
}

void
fpset_add(struct fpset *s, const struct fpline *fp)
{
	size_t nv = fp->nv;

	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 1024;
		s->v = xreallocarray(s->v, s->cap, nv * sizeof(*s->v));
		s->name = xreallocarray(s->name, s->cap, sizeof(*s->name));
	}
	memcpy(s->v + s->n * nv, fp->v, nv * sizeof(*s->v));
	s->name[s->n++] = s->names.len;
	buf_add(&s->names, fp->name.data, fp->name.len + 1);
}

/*
 * Line 1 of the set failed to parse: is it text rather than a damaged
 * fingerprint line (no "nd1-" scheme in front)?  Then the command was
 * given documents for fingerprint lines: say what it takes, and exit 2.
 */
static void
not_fplines(const struct fpset *s, const char *path, const char *line,
    size_t len)
{
	size_t n = strlen(SCHEME_VERSION);

	if (s->n > 0 || s->have_sc || s->hint_text == NULL)
		return;
	if (len > 0 && line[0] == '\\') {
		line++;
		len--;
	}
	if (len > n && memcmp(line, SCHEME_VERSION, n) == 0 && line[n] == '-')
		return;
	errx(EXIT_TROUBLE, "%s:1: not a fingerprint line: %s", cli_vis(path),
	    s->hint_text);
}

int
fpset_load(struct fpset *s, const char *path, int zero, int simhash)
{
	char sch[SCHEME_MAX], want[SCHEME_MAX], *line;
	struct fpline fp = { 0 };
	struct linein li;
	size_t len;
	const char *why;
	char *broke;
	int n, e, rv = 0;

	if ((e = linein_open(&li, path, strcmp(path, "-") == 0,
	    zero ? '\0' : '\n', RECORD_MAX)) != 0) {
		warnc(e, "%s", cli_vis(path));
		return -1;
	}
	while ((n = linein_next(&li, &line, &len)) > 0) {
		progress_count(1, len + 1);
		if (n == LINEIN_LONG)
			errx(EXIT_TROUBLE, "%s:%" PRIu64 ": line longer than %d "
			    "bytes", cli_vis(path), li.lineno, RECORD_MAX);
		if (fpline_parse(line, len, zero, &fp, &why) == -1) {
			if (li.lineno == 1)
				not_fplines(s, path, line, len);
			errx(EXIT_TROUBLE, "%s:%" PRIu64 ": %s", cli_vis(path),
			    li.lineno, why);
		}
		if (zero && fpline_holds_line(&fp))
			cli_not_z(path, li.lineno);
		if (simhash && algo_get(fp.sc.algo)->cand != CAND_HAMMING) {
			char l[ALGO_LIST_MAX];

			errx(EXIT_TROUBLE, "%s:%" PRIu64 ": not a %s "
			    "fingerprint (%s)", cli_vis(path), li.lineno,
			    algo_list(l, sizeof(l), 0, CAND_HAMMING, "", "or"),
			    scheme_algo_name(fp.sc.algo));
		}
		if (!s->have_sc) {
			s->sc = fp.sc;
			s->have_sc = 1;
		} else if (!scheme_equal(&s->sc, &fp.sc)) {
			scheme_format(&fp.sc, sch);
			scheme_format(&s->sc, want);
			errx(EXIT_TROUBLE, "%s:%" PRIu64 ": scheme %s differs "
			    "from the first line's %s", cli_vis(path),
			    li.lineno, sch, want);
		}
		if (s->n == UINT32_MAX)
			errx(EXIT_TROUBLE, "%s: more than %u fingerprints",
			    cli_vis(path), UINT32_MAX);
		fpset_add(s, &fp);
	}
	e = linein_close(&li, &broke);
	if (n == -EISDIR && s->hint_dir != NULL) {
		warnx("%s: is a directory: %s", cli_vis(path), s->hint_dir);
		free(broke);
		rv = -1;
	} else if (e != 0 || n < 0) {
		cli_warn_input(path, n < 0 ? -n : e, broke);
		rv = -1;
	}
	fpline_free(&fp);
	return rv;
}

void
fpset_free(struct fpset *s)
{
	free(s->v);
	free(s->name);
	free(s->empty);
	buf_free(&s->names);
	memset(s, 0, sizeof(*s));
}
