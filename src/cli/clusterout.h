/*
 * Output of neardup cluster (the groups in clustergroup.c, their printing
 * in clusterout.c), shared by the whole-input and the streaming (--sorted)
 * ways of clustering.
 */
#ifndef CLUSTEROUT_H
#define CLUSTEROUT_H

#include <stddef.h>
#include <stdint.h>

#include "cli.h"
#include "cluster.h"
#include "fpset.h"
#include "report.h"

struct spool;

/* --format: the output group's FMT_*, groups being cluster's text. */
enum { OUT_GROUPS = FMT_TEXT, OUT_TSV = FMT_TSV, OUT_JSON = FMT_JSON,
	OUT_SH = FMT_SH };
/* --keep: in the order of its words in cluster.c. */
enum { KEEP_FIRST, KEEP_LONGEST, KEEP_SHORTEST, KEEP_PATH, KEEP_NEWEST,
	KEEP_OLDEST };
enum { SHOW_GROUPS, SHOW_DUPS, SHOW_UNIQUES };

/* What --summary says, counted as the groups are printed. */
struct cout_tally {
	size_t	 files;		/* in groups of two or more */
	size_t	 groups;	/* of two or more */
	size_t	 dups;		/* what --dups lists */
	uint64_t bytes;		/* their sizes, of those stat(2) finds */
	int	 trouble;	/* --format=sh left out a name not found */
};

struct out {
	int	 fmt, keep, show, all, pairs;
	int	 zero;		/* NUL-ended output (-z, -0) */
	int	 zin;		/* NUL-ended input lines (-z) */
	int	 header;	/* --header: tsv output starts with its columns */
	const struct clusters *cl;	/* leaders: each one's similarity */
	cluster_exact_fn *exact;	/* or NULL: members' similarity to the
					   kept one is estimated */
	void	*ctx;
	char	**orig;		/* --originals: realpath(3)s of the DIRs,
				   once cluster_check resolved them */
	size_t	 norig;
	const unsigned char *isorig;	/* per document: an original; NULL
					   for none (ckeep_originals) */
	struct cout_tally *tally;	/* counted by cout_group, or NULL */
	const struct spool *texts;	/* records (--jsonl): the documents
					   are its texts, not files */
};

/* One group: its members (ids, input order) and the kept one. */
struct group {
	uint32_t *id;
	size_t	 n;
	uint32_t kept;
	int	 haskept;	/* kept was settled by the leader rule */
};

/*
 * Drop from the n members id[] of a group those that are an earlier one
 * (with byname, a lesser name) again: the same name, or another path to
 * the same directory entry (realpath(3), among names of one file; hard
 * links stay apart).  Records (o->texts) are never one another again.
 * Returns how many are left, in their order.
 */
size_t	cout_once(const struct fpset *, const struct out *o, uint32_t *id,
	    size_t n, int byname);

/*
 * Settle the n groups of *gp (cap of them allocated; members in input
 * order): members with the fingerprint of the empty text (no shingle)
 * move to groups of their own, one for each content, as files here have
 * it (a name that is no file here is alone); members met twice go
 * (cout_once); each group gets its kept one (ckeep_kept).  Returns how
 * many groups there are now, in order of first member.
 */
size_t	cout_settle(const struct fpset *, struct group **gp, size_t n,
	    size_t *cap, const struct out *o, int byname);

/*
 * The groups of the union-find of c over s, in order of first member,
 * each without its members met twice (cout_once).
 */
struct group *cout_groups(const struct fpset *, struct clusters *c,
	    const struct out *, size_t *ngroups);

/*
 * Is the confirmed pair a, b of similarity sim no pair after all: one
 * document met twice, by one name or by two paths to one directory entry,
 * or two empty texts of different bytes?  What it learns of the files is
 * kept in *pc (NULL at first), freed by cout_places_free().
 */
struct cout_places;
int	cout_no_pair(const struct fpset *, const struct out *o,
	    struct cout_places **pc, uint32_t a, uint32_t b, double sim);
void	cout_places_free(const struct fpset *, struct cout_places *pc);

/* A printing of groups under way: its report, and the groups shown. */
struct cout_run {
	struct report rep;
	size_t	 shown;
};

/* Open, print one group (unless hidden), close. */
void	cout_open(const struct out *, struct cout_run *);
void	cout_group(const struct fpset *, const struct group *,
	    const struct out *, struct cout_run *);
void	cout_close(const struct out *, struct cout_run *);

/* --summary: the tally of o on standard error, one line. */
void	cout_summary(const struct out *o);

/* Every group, from open to close. */
void	cout_all(const struct fpset *, const struct group *, size_t,
	    const struct out *);

/* Every confirmed pair of c. */
void	cout_pairs(const struct fpset *, struct clusters *c,
	    const struct out *);

#endif
