/*
 * The command layer: the only part of neardup that talks to the user.
 */
#ifndef CLI_H
#define CLI_H

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>

#include "jsonl.h"
#include "record.h"
#include "scheme.h"
#include "walk.h"
#include "weights.h"

/* Exit status, the same for every command (see EXIT STATUS in neardup(1)). */
#define EXIT_OK		0	/* success, similar, match found */
#define EXIT_DIFFER	1	/* not similar, no match */
#define EXIT_TROUBLE	2	/* an error */

struct cmd {
	const char *name;
	const char *summary;
	const char *usage;	/* after "usage: neardup ", as in the man page */
	int	(*exec)(const struct cmd *, int, char **);
};

extern const struct cmd cmd_cluster;
extern const struct cmd cmd_compare;
extern const struct cmd cmd_hash;
extern const struct cmd cmd_near;
extern const struct cmd cmd_uniq;

/* Print the usage of cmd to stderr and exit 2. */
void	cli_usage(const struct cmd *) __attribute__((noreturn));

/* Print usage text of cmd to fp. */
void	cli_print_usage(const struct cmd *, FILE *);

/* Parse a number for option opt in [min, max], or complain and exit 2. */
long long cli_number(const struct cmd *, const char *opt, const char *arg,
	    long long min, long long max);

/*
 * A number from 0 to 1 for option opt (0 itself only if zero_ok), or
 * complain and exit 2.
 */
double	cli_fraction(const struct cmd *, const char *opt, const char *arg,
	    int zero_ok);

/* --lsh=BxR: bands and rows, or complain and exit 2. */
struct lsh;
void	cli_lsh(const struct cmd *, const char *arg, struct lsh *);

/*
 * x to 4 or 6 decimals, cut toward zero rather than rounded: a figure
 * below a threshold never reads as reaching it (0.99997 is 0.9999, not
 * 1.0000).  The nudge of 1e-7 keeps x = 0.7 from reading 0.6999.
 */
double	cli_cut(double x, int decimals);

/*
 * With -z, line lineno of path is a record whose name holds the lines
 * after it (fpline_holds_line, bandline_holds_line): the input was
 * written without -z.  Says so and exits 2.
 */
void	cli_not_z(const char *path, uint64_t lineno);

/*
 * A walk of the operands that skips the file standard output writes to,
 * as WALK_ISOUTPUT: reading it would read back what neardup writes.
 */
struct walk;
struct walk *cli_walk(const struct walkopts *);

/* Is fd the regular file that standard output writes to? */
int	cli_is_output(int fd);

/*
 * Exit 2 if inputs a and b ("-": standard input) are one pipe, FIFO or
 * socket, whatever their names ("-" and /dev/stdin): read for one, it has
 * nothing left for the other.  Known from stat(2), without opening them,
 * which for a FIFO would wait for a writer.
 */
void	cli_one_pipe(const char *a, const char *b);

/*
 * --files0-from=list: fn(ctx, name) for each NUL-ended name of list ("-":
 * standard input), in order.  A zero-length name, a name too long for a
 * file, and "-" in a list read from standard input are reported with
 * LIST:N and skipped.  Returns EXIT_OK, or EXIT_TROUBLE after messages;
 * exits 2 if list cannot be opened.
 */
typedef void cli_name_fn(void *ctx, const char *name);
int	cli_files0(const char *list, cli_name_fn *fn, void *ctx);

/*
 * A document that could not be read: why, libarchive's words for a broken
 * stream, if not NULL (and freed), or else strerror(errnum); a directory
 * that was not walked (errnum EISDIR) gets the way forward, -r, in a
 * command that takes it (cli_takes_walk).
 */
void	cli_warn_input(const char *path, int errnum, char *why);

/*
 * The command takes -r (inopts_init calls it): only then does
 * cli_warn_input point a directory to -r; uniq and compare read a
 * directory operand as a file, and report its errno alone.
 */
void	cli_takes_walk(void);

/* A name made safe for a message on a terminal (vis(3)); static storage. */
const char *cli_vis(const char *);

/* Reset getopt before a command parses its own options (which permute). */
void	cli_getopt_reset(void);

/* Write to stdout, fatal on error. */
void	out_write(const void *, size_t);

/*
 * The bytes that close the JSON array being written to stdout, written at
 * exit if an error ends neardup before it does (NULL: none pending), so
 * that the output stays JSON.
 */
void	out_json_tail(const char *tail);

/* Hand on what stdout holds, fatal on error: the input is idle. */
void	out_flush(void);

/* Flush and close stdout: EXIT_OK, or EXIT_TROUBLE after a message. */
int	out_close(void);

/* --color=WHEN */
enum { COLOR_NEVER, COLOR_ALWAYS, COLOR_AUTO };

/* Print s as a JSON string (invalid UTF-8 bytes become U+FFFD). */
void	fmt_json_string(FILE *, const char *s, size_t len);

/* Print s as a TSV field: backslash, tab, newline, CR escaped as \\ \t \n \r. */
void	fmt_tsv_field(FILE *, const char *s, size_t len);

/* COLOR_* for a --color argument, or -1. */
int	fmt_color_option(const char *);

/* Colour on stdout? (auto: a terminal, TERM not dumb, NO_COLOR unset) */
int	fmt_use_color(int when);

/*
 * Options shared by every command that shingles text: -a -c -k -s -w,
 * --multiset, --keep-case, --keep-punct, --weights.
 */
struct shopts {
	int	 algo;
	long long size;		/* -1: the algorithm's default */
	long long ngram;	/* -1: the default for the input mode */
	int	 chars;		/* -1: the default for the input mode */
	int	 multiset, keepcase, keeppunct;
	uint64_t seed;
	const char *weights;
	struct weights wt;
	int	 algo_given;	/* -a was given */
	int	 given;		/* one of the others was */
	/*
	 * Taken by the long names only: the letters are the command's own
	 * (uniq's are uniq(1)'s).  The parser then hands a shingling option
	 * given by its long name to the command first, as OPT_LONGONLY | ch,
	 * and to the group if the command does not take it.
	 */
	int	 longonly;
};

#define OPT_LONGONLY	0x10000

enum {
	OPT_MULTISET = 256,
	OPT_KEEPCASE,
	OPT_KEEPPUNCT,
	OPT_WEIGHTS,
	OPT_FILES0,
	OPT_LINES,
	OPT_TSV,
	OPT_COLOR,
	OPT_FORMAT,
	OPT_HEADER,
	OPT_PROGRESS,
	OPT_NO_PROGRESS,
	OPT_BINARY,
	OPT_EXCLUDE,
	OPT_EXCLUDE_DIR,
	OPT_HIDDEN,
	OPT_ARCHIVES,
	OPT_JSONL,
	OPT_ID,
	OPT_JSONL_SKIP_BAD,
	OPT_VERSION,
	OPT_CMD_FIRST		/* first value free for a command's own */
};

#define SHOPT_SHORT "a:c:k:s:w:"
#define SHOPT_LONG \
	{ { "algorithm", required_argument, NULL, 'a' }, "algo", \
	    "the sketch: simhash, minhash, oph, bottomk or key" }, \
	{ { "chars", required_argument, NULL, 'c' }, "n", \
	    "shingles are character n-grams" }, \
	{ { "size", required_argument, NULL, 'k' }, "size", \
	    "the size of the sketch: bits, or hash values" }, \
	{ { "seed", required_argument, NULL, 's' }, "seed", \
	    "the seed of every hash function" }, \
	{ { "words", required_argument, NULL, 'w' }, "n", \
	    "shingles are word n-grams" }, \
	{ { "multiset", no_argument, NULL, OPT_MULTISET }, NULL, \
	    "count repeated shingles" }, \
	{ { "keep-case", no_argument, NULL, OPT_KEEPCASE }, NULL, \
	    "do not fold case" }, \
	{ { "keep-punct", no_argument, NULL, OPT_KEEPPUNCT }, NULL, \
	    "punctuation is part of words" }, \
	{ { "weights", required_argument, NULL, OPT_WEIGHTS }, "file", \
	    "weigh simhash's words by the token-weight lines of file" }

void	shopts_init(struct shopts *);

/* Is name the long name of a shingling option? */
int	shopts_long(const char *name);

/* Handle option ch if it is a shingling option: 1 if it was. */
int	shopts_option(const struct cmd *, struct shopts *, int ch,
	    const char *arg);

/*
 * Settle the scheme for input mode (defaults, checks, weights file);
 * complains and exits 2 on a bad combination.
 */
void	shopts_scheme(const struct cmd *, struct shopts *, enum recmode,
	    struct scheme *);

void	shopts_free(struct shopts *);

/*
 * Options shared by every command that walks documents: -L -r, --binary,
 * --exclude, --exclude-dir, --files0-from, --hidden.
 */
struct inopts {
	struct walkopts walk;
	const char *list;	/* --files0-from: the names, not operands */
	int	 binary;	/* --binary: read binary files as text */
	int	 archives;	/* --archives: each member a document */
	int	 filter;	/* one of --binary, --exclude, --hidden... */
};

#define INOPT_SHORT "Lr"
#define INOPT_LONG \
	{ { "recursive", no_argument, NULL, 'r' }, NULL, \
	    "walk the directories among the operands (none: .)" }, \
	{ { "dereference", no_argument, NULL, 'L' }, NULL, \
	    "with -r, follow symbolic links" }, \
	{ { "archives", no_argument, NULL, OPT_ARCHIVES }, NULL, \
	    "each member of a tar, zip or cpio archive is a document" }, \
	{ { "binary", no_argument, NULL, OPT_BINARY }, NULL, \
	    "read binary files too, as text" }, \
	{ { "exclude", required_argument, NULL, OPT_EXCLUDE }, "glob", \
	    "skip the files whose base name matches glob" }, \
	{ { "exclude-dir", required_argument, NULL, OPT_EXCLUDE_DIR }, \
	    "glob", "with -r, skip the directories that match glob" }, \
	{ { "hidden", no_argument, NULL, OPT_HIDDEN }, NULL, \
	    "with -r, walk hidden files and directories too" }, \
	{ { "files0-from", required_argument, NULL, OPT_FILES0 }, "file", \
	    "read the names of the documents, NUL-ended, from file" }

void	inopts_init(struct inopts *);

/* Handle option ch if it is an input option: 1 if it was. */
int	inopts_option(struct inopts *, int ch, const char *arg);

/*
 * -L, --hidden and --exclude-dir shape the walk of -r: without -r, a
 * usage error; so is --files0-from with noperands names as operands.
 */
void	inopts_check(const struct cmd *, const struct inopts *,
	    int noperands);

/*
 * The operands to walk: with -r and none, the working directory, as
 * grep -r walks it; otherwise argv as it is (*argc operands).
 */
char  **inopts_operands(const struct inopts *, int *argc, char **argv);

void	inopts_free(struct inopts *);

/*
 * Options shared by the commands that write reports (compare, cluster,
 * near): --format, --header, -z.
 */
/* FMT_TEXT: cluster's groups; FMT_SH: cluster's removal script. */
enum { FMT_TEXT, FMT_TSV, FMT_JSON, FMT_SH, FMT_N };

struct outopts {
	const char *names[FMT_N];	/* --format's words; NULL: not taken */
	int	 fmt;		/* FMT_* */
	int	 header;	/* --header */
	int	 zero;		/* -z: NUL-terminated lines */
};

#define OUTOPT_SHORT "z"
#define OUTOPT_LONG \
	{ { "format", required_argument, NULL, OPT_FORMAT }, "format", \
	    "the format of the report" }, \
	{ { "header", no_argument, NULL, OPT_HEADER }, NULL, \
	    "begin a table with a line naming its columns" }, \
	{ { "null-data", no_argument, NULL, 'z' }, NULL, \
	    "lines end with NUL, not newline" }

/* Handle option ch if it is an output option: 1 if it was. */
int	outopts_option(const struct cmd *, struct outopts *, int ch,
	    const char *arg);

/*
 * Options shared by the commands that read records (hash, uniq): the
 * record mode, and NUL-terminated records.  Lines are uniq's records
 * without an option, and hash's with --lines (so --lines is in hash's
 * table and usage, not in RECOPT_LONG and RECOPT_MODES); a record mode
 * is added here, in recopts.c and in record.h.
 */
struct recopts {
	enum recmode mode;	/* the default until an option sets it */
	enum recmode given;	/* set by an option; REC_NONE: none was */
	int	 delim;		/* -z: '\0'; otherwise '\n' */
	const char *field;	/* --jsonl=FIELD: "text" by default */
	const char *idfield;	/* --id=FIELD, or NULL */
	int	 skipbad;	/* --jsonl-skip-bad */
	uint64_t skipped;	/* records it skipped */
	struct jsonl_spec js;	/* made from them by recopts_check() */
};

#define RECOPT_SHORT "z"
#define RECOPT_LONG \
	{ { "tsv", no_argument, NULL, OPT_TSV }, NULL, \
	    "records are ID<TAB>TEXT lines, named by ID" }, \
	RECOPT_JSONL_LONG, \
	{ { "null-data", no_argument, NULL, 'z' }, NULL, \
	    "records and output lines end with NUL, not newline" }
/* The JSON Lines options alone (near --docs, whose -z is its output's). */
#define RECOPT_JSONL_LONG \
	{ { "jsonl", optional_argument, NULL, OPT_JSONL }, "field", \
	    "records are JSON lines, the document their field (text)" }, \
	{ { "id", required_argument, NULL, OPT_ID }, "field", \
	    "with --jsonl, name each record by its field" }, \
	{ { "jsonl-skip-bad", no_argument, NULL, OPT_JSONL_SKIP_BAD }, NULL, \
	    "with --jsonl, skip unreadable lines, count them at the end" }
/* The options of RECOPT_LONG that pick a mode, for a usage. */
#define RECOPT_MODES "--tsv | --jsonl[=field]"

/* Records in mode unless an option says otherwise. */
void	recopts_init(struct recopts *, enum recmode mode);

/* Handle option ch if it is a record option: 1 if it was. */
int	recopts_option(const struct cmd *, struct recopts *, int ch,
	    const char *arg);

/* Refuse --id and --jsonl-skip-bad without --jsonl; make o->js. */
void	recopts_check(const struct cmd *, struct recopts *);

/*
 * A record that cannot be read: warn "name:num: why" and return
 * EXIT_TROUBLE, or with --jsonl-skip-bad count it and return EXIT_OK.
 */
int	recopts_bad(struct recopts *, const char *name, uint64_t num,
	    const char *why);

/* With --jsonl-skip-bad, say how many records were skipped, if any. */
void	recopts_report(const struct recopts *);

/*
 * Open file name ("-": standard input) to read records as o says, into
 * rr through src (decompressed if it is compressed, source.h): 0, or -1
 * after a message (it cannot be opened, or it is the file standard output
 * writes to).
 */
struct source;
int	recopts_open(const struct recopts *o, const char *name,
	    struct recreader *rr, struct source *src);

/*
 * Release rr and close src (standard input aside), n being what the last
 * recreader_next() returned: EXIT_OK, or EXIT_TROUBLE after a message if
 * the read failed or the decompressed stream broke.
 */
int	recopts_close(struct recreader *rr, struct source *src,
	    const char *name, int n);

/*
 * Read the records of file name ("-": standard input) in turn, as o says,
 * calling fn with each one that can be read and its name (its ID, or
 * name:NUMBER); the others go through recopts_bad().  For commands that
 * take records one at a time.  Returns EXIT_OK or EXIT_TROUBLE.
 */
struct record;
typedef void recopts_fn(void *ctx, const struct record *, const char *name,
	    size_t namelen);
int	recopts_each(struct recopts *o, const char *name, recopts_fn *fn,
	    void *ctx);

/*
 * The one option parser of the commands, as tmux's cmd-*.c share theirs:
 * a command gives its options and the groups it takes (NULL: not taken),
 * whose options the groups handle; --progress, --no-progress and -h
 * (COMMON_LONG, "h") are every command's, and handled here.
 */
#define COMMON_LONG \
	PROGRESS_LONG, \
	{ { "help", no_argument, NULL, 'h' }, NULL, \
	    "print this help and exit" }, \
	{ { "version", no_argument, NULL, OPT_VERSION }, NULL, \
	    "print the version of neardup and exit" }

/*
 * An option of a command's table: what getopt_long(3) takes, and what
 * --help says of it, so that the help is the table the parser uses.
 */
struct cli_option {
	struct option o;
	const char *arg;	/* the argument's name in the help, or NULL */
	const char *help;	/* a few words */
};

struct cli_parse {
	/*
	 * Every option the command takes, its groups' (SHOPT_SHORT,
	 * SHOPT_LONG...) and COMMON_LONG's included: the tables say in
	 * one place what the command accepts, and --help prints them.
	 */
	const char *shortopts;
	const struct cli_option *longopts;	/* ended by a zeroed one */
	/* The command's own option ch: 1 if handled, 0 if not its own. */
	int	(*own)(const struct cmd *, void *args, int ch,
		    const char *arg);
	void	*args;
	struct shopts *sh;
	struct inopts *in;
	struct recopts *rec;
	struct outopts *out;
};

/*
 * Parse the options of argv for command c: the index of the first
 * operand, or 0 once -h has printed the help, or --version the version,
 * on stdout (the command then returns out_close()).  A bad option prints
 * the usage and exits 2.
 */
int	cli_parse(const struct cmd *, int argc, char **argv,
	    const struct cli_parse *);

/*
 * The help of command c (-h, --help, help CMD): its usage, one line for
 * each option of p's table that the usage names, and where to read more.
 */
void	cli_help(const struct cmd *, const struct cli_parse *, FILE *);

/* neardup --version, and every command's --version. */
void	cli_version(FILE *);

#endif
