/*
 * Operand walking with fts(3).  Command-line symbolic links are followed
 * (as grep -r does); links met inside a tree are followed only with -L,
 * when fts also reports directory cycles.  Only regular files are hashed
 * from a tree: devices, FIFOs and sockets inside it are skipped, and said
 * to be (a FIFO would block, a device might never end).
 *
 * Below an operand, names that begin with "." (.git, .cache) are passed
 * over unless --hidden, as ripgrep and fd do, and --exclude and
 * --exclude-dir skip base names as GNU grep's do; an operand is never
 * hidden, since it was named, and only --exclude applies to it.  What is
 * passed over is not reported: it was asked for.
 */
#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <fnmatch.h>
#include <fts.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "walk.h"
#include "xmalloc.h"

enum { W_DONE, W_PENDING, W_TREE };

struct walk {
	const struct walkopts *o;
	int	 state;
	char	*operand;
	FTS	*fts;
	int	 skip;		/* skipdev:skipino is set */
	dev_t	 skipdev;
	ino_t	 skipino;
};

struct walk *
walk_new(const struct walkopts *o)
{
	static const struct walkopts plain;
	struct walk *w = xcalloc(1, sizeof(*w));

	w->o = o != NULL ? o : &plain;
	return w;
}

void
walk_skip(struct walk *w, dev_t dev, ino_t ino)
{
	w->skip = 1;
	w->skipdev = dev;
	w->skipino = ino;
}

/* Is st the file to skip? */
static int
skipped(const struct walk *w, const struct stat *st)
{
	return w->skip && S_ISREG(st->st_mode) && st->st_dev == w->skipdev &&
	    st->st_ino == w->skipino;
}

/* Does one of the n globs match name? */
static int
matches(char *const *globs, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (fnmatch(globs[i], name, 0) == 0)
			return 1;
	return 0;
}

/*
 * Does --exclude skip the operand name?  As in GNU grep, a glob is
 * matched against the whole name and against each part of it that
 * follows a "/", the base name among them.
 */
static int
excluded_operand(const struct walkopts *o, const char *name)
{
	const char *p;

	if (matches(o->exclude, o->nexclude, name))
		return 1;
	for (p = name; (p = strchr(p, '/')) != NULL; )
		if (*++p != '/' && *p != '\0' &&
		    matches(o->exclude, o->nexclude, p))
			return 1;
	return 0;
}

/* Is the entry f, met below an operand, to be passed over? */
static int
passed_over(const struct walkopts *o, const FTSENT *f)
{
	if (f->fts_level <= FTS_ROOTLEVEL)
		return 0;
	if (!o->hidden && f->fts_name[0] == '.')
		return 1;
	switch (f->fts_info) {
	case FTS_D:
	case FTS_DC:
	case FTS_DNR:
	case FTS_DP:
		return matches(o->exclude_dir, o->nexclude_dir, f->fts_name);
	default:
		return matches(o->exclude, o->nexclude, f->fts_name);
	}
}

static int
byname(const FTSENT **a, const FTSENT **b)
{
	return strcmp((*a)->fts_name, (*b)->fts_name);
}

static void
close_fts(struct walk *w)
{
	if (w->fts != NULL)
		fts_close(w->fts);
	w->fts = NULL;
}

void
walk_start(struct walk *w, const char *operand)
{
	close_fts(w);
	free(w->operand);
	w->operand = xstrdup(operand);
	w->state = W_PENDING;
}

/* Open a tree walk at the operand, or return its errno. */
static int
open_tree(struct walk *w)
{
	char *argv[2] = { w->operand, NULL };

	w->fts = fts_open(argv, FTS_NOCHDIR | FTS_COMFOLLOW |
	    (w->o->follow ? FTS_LOGICAL : FTS_PHYSICAL), byname);
	return w->fts == NULL ? errno : 0;
}

int
walk_next(struct walk *w, struct walk_entry *e)
{
	struct stat st;
	FTSENT *f;
	int isdir;

	memset(e, 0, sizeof(*e));
	e->size = -1;
	if (w->state == W_PENDING) {
		w->state = W_DONE;
		e->path = w->operand;
		if (strcmp(w->operand, "-") == 0) {
			e->isstdin = 1;
			if (fstat(STDIN_FILENO, &st) == 0 && skipped(w, &st))
				e->errnum = WALK_ISOUTPUT;
			return 1;
		}
		/*
		 * A file operand that --exclude names is not read at all;
		 * one that cannot be stat'ed, the open that follows reports.
		 */
		if (stat(w->operand, &st) == -1)
			return !excluded_operand(w->o, w->operand);
		isdir = S_ISDIR(st.st_mode);
		if (!isdir && excluded_operand(w->o, w->operand))
			return 0;
		if (skipped(w, &st)) {
			e->errnum = WALK_ISOUTPUT;
			return 1;
		}
		if (S_ISREG(st.st_mode))
			e->size = (long long)st.st_size;
		if (!w->o->recursive || !isdir)
			return 1;
		if ((e->errnum = open_tree(w)) != 0)
			return 1;
		w->state = W_TREE;
	}
	if (w->state != W_TREE)
		return 0;
	for (errno = 0; (f = fts_read(w->fts)) != NULL; errno = 0) {
		if (passed_over(w->o, f)) {
			if (f->fts_info == FTS_D)
				(void)fts_set(w->fts, f, FTS_SKIP);
			continue;
		}
		e->path = f->fts_path;
		switch (f->fts_info) {
		case FTS_F:
			if (f->fts_statp != NULL) {
				e->size = (long long)f->fts_statp->st_size;
				if (skipped(w, f->fts_statp))
					e->errnum = WALK_ISOUTPUT;
			}
			return 1;
		case FTS_DC:
			e->errnum = ELOOP;
			return 1;
		case FTS_DNR:
		case FTS_ERR:
		case FTS_NS:
			e->errnum = f->fts_errno ? f->fts_errno : EIO;
			return 1;
		case FTS_SLNONE:
			/* A dangling link, or a loop of links. */
			if (w->o->follow) {
				e->errnum = stat(f->fts_accpath, &st) == -1 ?
				    errno : ENOENT;
				return 1;
			}
			break;
		case FTS_DEFAULT:
			e->errnum = WALK_NOTREG;
			return 1;
		default:
			break;
		}
	}
	w->state = W_DONE;
	if (errno != 0) {
		e->path = w->operand;
		e->errnum = errno;
		return 1;
	}
	return 0;
}

void
walk_free(struct walk *w)
{
	close_fts(w);
	free(w->operand);
	free(w);
}

const char *
walk_strerror(int errnum)
{
	return errnum == WALK_NOTREG ? "not a regular file, skipped" :
	    errnum == WALK_ISOUTPUT ? "input file is also the output" :
	    strerror(errnum);
}

int
walk_files0(FILE *fp, char **name, size_t *cap)
{
	size_t n = 0;
	int c;

	if (*cap < PATH_MAX) {
		*name = xreallocarray(*name, PATH_MAX, 1);
		*cap = PATH_MAX;
	}
	errno = 0;
	while ((c = getc_unlocked(fp)) != EOF && c != '\0')
		if (n++ < PATH_MAX - 1)
			(*name)[n - 1] = (char)c;
	if (c == EOF && ferror(fp))
		return -1;
	if (c == EOF && n == 0)
		return 0;
	if (n >= PATH_MAX)
		return WALK_LONGNAME;
	(*name)[n] = '\0';
	return 1;
}
