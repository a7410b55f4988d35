/*
 * Printing clusters: groups, the member kept in each, pairs; in the
 * groups, TSV and JSON formats.  The groups themselves come from
 * clustergroup.c.
 */
#include <err.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "clusterkeep.h"
#include "clusterout.h"
#include "clustersh.h"
#include "members.h"
#include "spool.h"
#include "xmalloc.h"

void
cout_open(const struct out *o, struct cout_run *run)
{
	if (o->fmt == OUT_SH) {
		csh_open();
		return;
	}
	report_init(&run->rep, o->fmt, o->zero);
	run->rep.none = "-";
	run->shown = 0;
	report_open(&run->rep);
	if (o->header)
		report_header(&run->rep, o->show == SHOW_UNIQUES ? "name" :
		    "cluster\tname\tsimilarity\tbasis");
}

void
cout_close(const struct out *o, struct cout_run *run)
{
	if (o->fmt == OUT_SH)
		csh_close();
	else
		report_close(&run->rep);
}

/*
 * The similarity of member id of g to its kept one, and what it rests on:
 * "kept" for the kept one itself, "exact" or "estimate".  The leader rule
 * settled it for the members that joined; the others (--transitive) are
 * compared with the kept one here.  NULL without fingerprint values (band
 * lines): the similarity is unknown.
 */
static const char *
member_sim(const struct fpset *s, const struct group *g, uint32_t id,
    const struct out *o, double *sim)
{
	size_t nv = scheme_nvalues(&s->sc);
	const struct clusters *c = o->cl;
	double x;

	*sim = 1;
	if (id == g->kept)
		return "kept";
	if (c != NULL && c->leader != NULL && c->leader[id] != id) {
		*sim = c->sim[id];
		return report_basis(c->exact[id]);
	}
	if (s->v == NULL)
		return NULL;
	if (o->exact != NULL && (x = o->exact(o->ctx, id, g->kept)) >= 0) {
		*sim = x;
		return report_basis(1);
	}
	*sim = cluster_similarity(&s->sc, s->v + (size_t)id * nv,
	    s->v + (size_t)g->kept * nv);
	return report_basis(0);
}

/*
 * Member id of g as a row of the report: in the group's list of members
 * (JSON), or a row of the table, numbered by its group.
 */
static void
member_row(const struct fpset *s, const struct group *g, uint32_t id,
    const struct out *o, struct cout_run *run)
{
	struct report *r = &run->rep;
	const char *basis;
	double sim;
	int have;

	basis = member_sim(s, g, id, o, &sim);
	have = s->v != NULL || id == g->kept;
	report_row(r);
	if (!report_nested(r))
		report_cell_count(r, "cluster", run->shown);
	report_cell_name(r, "name", fpset_name(s, id));
	report_cell_figure(r, "similarity", have, sim);
	report_cell_word(r, "basis", have ? basis : NULL);
	report_row_end(r);
}

/*
 * Is id an archive's member, which --dups does not list: it is no file to
 * remove, and the archive it is in holds other members.  Said once.
 */
static int
dup_member(const struct fpset *s, const struct out *o, uint32_t id)
{
	static int told;
	const char *name = fpset_name(s, id);

	if (o->texts != NULL || members_archive(name) == 0)
		return 0;
	if (!told) {
		told = 1;
		warnx("%s: not listed by --dups, nor any archive member: "
		    "a member is no file to remove", cli_vis(name));
	}
	return 1;
}

/*
 * Is member id of g one that --dups lists, one to remove?  Not the kept
 * one, nor an original (o->isorig).
 */
static int
listed(const struct out *o, const struct group *g, uint32_t id)
{
	return id != g->kept && !ckeep_original(o, id);
}

/* Count group g in the tally of --summary. */
static void
tally_group(const struct fpset *s, const struct group *g,
    const struct out *o)
{
	struct stat st;
	size_t k;

	if (o->tally == NULL || g->n < 2)
		return;
	o->tally->groups++;
	o->tally->files += g->n;
	for (k = 0; k < g->n; k++) {
		/* A record's text, or a file's size: a member is neither. */
		if (!listed(o, g, g->id[k]) || (o->texts == NULL &&
		    members_archive(fpset_name(s, g->id[k])) != 0))
			continue;
		o->tally->dups++;
		if (o->texts != NULL)
			o->tally->bytes += spool_len(o->texts, g->id[k]);
		else if (stat(fpset_name(s, g->id[k]), &st) == 0)
			o->tally->bytes += (uint64_t)st.st_size;
	}
}

void
cout_summary(const struct out *o)
{
	const struct cout_tally *t = o->tally;

	fprintf(stderr, "%s: %zu %s%s in %zu group%s, %ju byte%s in the "
	    "%zu duplicate%s\n", getprogname(), t->files,
	    o->texts != NULL ? "record" : "file", t->files == 1 ? "" : "s",
	    t->groups, t->groups == 1 ? "" : "s",
	    (uintmax_t)t->bytes, t->bytes == 1 ? "" : "s", t->dups,
	    t->dups == 1 ? "" : "s");
}

/* --format=sh: group g as comments and a removal for each duplicate. */
static void
sh_group(const struct fpset *s, const struct group *g, const struct out *o)
{
	const char *kept = fpset_name(s, g->kept), *basis;
	uint32_t id;
	size_t k;
	double sim;

	csh_kept(kept);
	for (k = 0; k < g->n; k++) {
		id = g->id[k];
		if (id == g->kept)
			continue;
		if (!listed(o, g, id) || dup_member(s, o, id)) {
			csh_original(fpset_name(s, id));
			continue;
		}
		basis = member_sim(s, g, id, o, &sim);
		if (csh_remove(fpset_name(s, id), kept, sim, basis) == -1 &&
		    o->tally != NULL)
			o->tally->trouble = 1;
	}
}

/*
 * --uniques: the kept member of g, and the originals kept besides it, in
 * input order after it.
 */
static void
uniques_group(const struct fpset *s, const struct group *g,
    const struct out *o, struct cout_run *run)
{
	uint32_t id;
	size_t k;

	for (k = 0; k <= g->n; k++) {
		id = k == 0 ? g->kept : g->id[k - 1];
		if (k > 0 && (listed(o, g, id) || id == g->kept))
			continue;
		report_item(&run->rep, fpset_name(s, id));
		run->shown++;
	}
}

/* Print group g of s (unless hidden), as the shown-th so far. */
void
cout_group(const struct fpset *s, const struct group *g,
    const struct out *o, struct cout_run *run)
{
	struct report *r = &run->rep;
	size_t k;
	uint32_t id;

	if (g->n < 2 && !o->all && o->show != SHOW_UNIQUES)
		return;
	tally_group(s, g, o);
	if (o->show == SHOW_UNIQUES) {
		uniques_group(s, g, o, run);
		return;
	}
	if (o->fmt == OUT_SH) {
		if (g->n > 1)
			sh_group(s, g, o);
		run->shown++;
		return;
	}
	if (o->fmt == OUT_GROUPS && o->show == SHOW_GROUPS && run->shown > 0)
		report_end(r);
	run->shown++;
	if (o->fmt != OUT_GROUPS && report_nested(r)) {
		report_row(r);
		report_cell_count(r, "cluster", run->shown);
		report_cell_name(r, "kept", fpset_name(s, g->kept));
		report_list(r, "members");
	}
	/* The kept one first, then the others in input order. */
	for (k = 0; k <= g->n; k++) {
		id = k == 0 ? g->kept : g->id[k - 1];
		if ((k > 0 && id == g->kept) || (o->show == SHOW_DUPS &&
		    (!listed(o, g, id) || dup_member(s, o, id))))
			continue;
		if (o->fmt != OUT_GROUPS)
			member_row(s, g, id, o, run);
		else {
			report_name(r, fpset_name(s, id));
			report_end(r);
		}
	}
	if (o->fmt != OUT_GROUPS && report_nested(r)) {
		report_list_end(r);
		report_row_end(r);
	}
}

void
cout_all(const struct fpset *s, const struct group *g, size_t ng,
    const struct out *o)
{
	struct cout_run run;
	size_t i;

	cout_open(o, &run);
	for (i = 0; i < ng; i++)
		cout_group(s, &g[i], o, &run);
	cout_close(o, &run);
}

void
cout_pairs(const struct fpset *s, struct clusters *c, const struct out *o)
{
	struct cout_places *places = NULL;
	struct report r;
	size_t i;
	uint32_t a, b;

	report_init(&r, o->fmt, o->zero);
	report_open(&r);
	if (o->header)
		report_header(&r, "a\tb\tsimilarity\tbasis");
	for (i = 0; i < c->npair; i++) {
		a = c->pair[i].a;
		b = c->pair[i].b;
		if (cout_no_pair(s, o, &places, a, b, c->pair[i].sim))
			continue;
		report_row(&r);
		report_cell_name(&r, "a", fpset_name(s, a));
		report_cell_name(&r, "b", fpset_name(s, b));
		report_cell_figure(&r, "similarity", 1, c->pair[i].sim);
		report_cell_word(&r, "basis", report_basis(c->pair[i].exact));
		report_row_end(&r);
	}
	report_close(&r);
	cout_places_free(s, places);
}
