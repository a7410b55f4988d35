/*
 * Files of fingerprint lines, read whole for the commands that index or
 * cluster them.
 */
#include <err.h>
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
		if (fpline_parse(line, len, zero, &fp, &why) == -1)
			errx(EXIT_TROUBLE, "%s:%" PRIu64 ": %s", cli_vis(path),
			    li.lineno, why);
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
	if ((e = linein_close(&li, &broke)) != 0 || n < 0) {
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
