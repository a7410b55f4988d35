/*
 * Output of neardup cluster (clusterout.c), shared by the whole-input and
 * the streaming (--sorted) ways of clustering.
 */
#ifndef CLUSTEROUT_H
#define CLUSTEROUT_H

#include <stddef.h>
#include <stdint.h>

#include "cli.h"
#include "cluster.h"
#include "fpset.h"
#include "report.h"

/* --format: the output group's FMT_*, groups being cluster's text. */
enum { OUT_GROUPS = FMT_TEXT, OUT_TSV = FMT_TSV, OUT_JSON = FMT_JSON };
enum { KEEP_FIRST, KEEP_LONGEST, KEEP_SHORTEST, KEEP_PATH };
enum { SHOW_GROUPS, SHOW_DUPS, SHOW_UNIQUES };

struct out {
	int	 fmt, keep, show, all, zero, pairs;
	int	 header;	/* --header: tsv output starts with its columns */
	const struct clusters *cl;	/* leaders: each one's similarity */
	cluster_exact_fn *exact;	/* or NULL: members' similarity to the
					   kept one is estimated */
	void	*ctx;
};

/* One group: its members (ids, input order) and the kept one. */
struct group {
	uint32_t *id;
	size_t	 n;
	uint32_t kept;
	int	 haskept;	/* kept was settled by the leader rule */
};

/*
 * The ids of s in the order of keep policy keep (KEEP_*): the order in
 * which the leader rule takes them.  NULL for input order (KEEP_FIRST).
 */
uint32_t *cout_order(const struct fpset *, int keep);

/*
 * The member of g to keep under policy keep (KEEP_*).  With byname, the
 * choice does not depend on the order of the members: first is the least
 * name, and between files of one size the least name is kept.  So a
 * member is kept in every group of --sorted where it is the choice, in
 * whatever order a shuffle brought the lines of each key.
 */
uint32_t cout_kept(const struct fpset *, const struct group *g, int keep,
	    int byname);

/*
 * Drop from the n members id[] of a group those that are an earlier one
 * (with byname, a lesser name) again: the same name, or another path to
 * the same directory entry (realpath(3), among names of one file; hard
 * links stay apart).  Returns how many are left, in their order.
 */
size_t	cout_once(const struct fpset *, uint32_t *id, size_t n,
	    int byname);

/*
 * Settle the n groups of *gp (cap of them allocated; members in input
 * order): members with the fingerprint of the empty text (no shingle)
 * move to groups of their own, one for each content, as files here have
 * it (a name that is no file here is alone); members met twice go
 * (cout_once); each group gets its kept one (cout_kept).  Returns how
 * many groups there are now, in order of first member.
 */
size_t	cout_settle(const struct fpset *, struct group **gp, size_t n,
	    size_t *cap, int keep, int byname);

/*
 * The groups of the union-find of c over s, in order of first member,
 * each without its members met twice (cout_once).
 */
struct group *cout_groups(const struct fpset *, struct clusters *c,
	    const struct out *, size_t *ngroups);

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

/* Every group, from open to close. */
void	cout_all(const struct fpset *, const struct group *, size_t,
	    const struct out *);

/* Every confirmed pair of c. */
void	cout_pairs(const struct fpset *, struct clusters *c,
	    const struct out *);

#endif
