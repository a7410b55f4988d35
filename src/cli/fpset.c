/*
 * Files of fingerprint lines, read whole for the commands that index or
 * cluster them.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fpline.h"
#include "fpset.h"
#include "xmalloc.h"

const char *
fpset_name(const struct fpset *s, size_t i)
{
	return s->names.data + s->name[i];
}

int
fpset_load(struct fpset *s, const char *path, int zero, int simhash)
{
	char *line = NULL, sch[SCHEME_MAX], want[SCHEME_MAX];
	struct fpline fp = { 0 };
	size_t cap = 0, lineno = 0, words;
	const char *why;
	ssize_t len;
	FILE *f;

	if (strcmp(path, "-") == 0)
		f = stdin;
	else if ((f = fopen(path, "r")) == NULL) {
		warn("%s", cli_vis(path));
		return -1;
	}
	while ((len = getdelim(&line, &cap, zero ? '\0' : '\n', f)) != -1) {
		lineno++;
		if (len > 0 && line[len - 1] == (zero ? '\0' : '\n'))
			len--;
		if (fpline_parse(line, (size_t)len, zero, &fp, &why) == -1)
			errx(EXIT_TROUBLE, "%s:%zu: %s", cli_vis(path), lineno,
			    why);
		if (simhash && fp.sc.algo != ALGO_SIMHASH)
			errx(EXIT_TROUBLE, "%s:%zu: not a simhash fingerprint "
			    "(%s)", cli_vis(path), lineno,
			    scheme_algo_name(fp.sc.algo));
		if (!s->have_sc) {
			s->sc = fp.sc;
			s->have_sc = 1;
		} else if (!scheme_equal(&s->sc, &fp.sc)) {
			scheme_format(&fp.sc, sch);
			scheme_format(&s->sc, want);
			errx(EXIT_TROUBLE, "%s:%zu: scheme %s differs from the "
			    "first line's %s", cli_vis(path), lineno, sch, want);
		}
		if (s->n == UINT32_MAX)
			errx(EXIT_TROUBLE, "%s: more than %u fingerprints",
			    cli_vis(path), UINT32_MAX);
		words = fp.nv;
		if (s->n == s->cap) {
			s->cap = s->cap ? 2 * s->cap : 1024;
			s->v = xreallocarray(s->v, s->cap, words * sizeof(*s->v));
			s->name = xreallocarray(s->name, s->cap,
			    sizeof(*s->name));
		}
		memcpy(s->v + s->n * words, fp.v, words * sizeof(*s->v));
		s->name[s->n++] = s->names.len;
		buf_add(&s->names, fp.name.data, fp.name.len + 1);
	}
	if (ferror(f))
		err(EXIT_TROUBLE, "%s", cli_vis(path));
	if (f != stdin)
		fclose(f);
	free(line);
	fpline_free(&fp);
	return 0;
}

void
fpset_free(struct fpset *s)
{
	free(s->v);
	free(s->name);
	buf_free(&s->names);
	memset(s, 0, sizeof(*s));
}
