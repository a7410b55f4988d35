/*
 * Unit tests of src/join/winnow.c: a copied paragraph found with its lines and
 * byte ranges, normalization, the order of passages, the guarantee that a
 * common run of k + w - 1 words is found (and, against a brute force, that
 * exactly the maximal runs are reported), unrelated, identical, repetitive,
 * empty and broken documents, and word hashes equal to the shingler's.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <xxhash.h>

#include "buf.h"
#include "scheme.h"
#include "shingle.h"
#include "unit.h"
#include "winnow.h"

/* A paragraph of 40 words on 5 lines. */
static const char *const para[] = {
	"Near the old mill, the river bends twice",
	"before running under a bridge nobody has crossed",
	"since the flood of that wet spring when",
	"the whole valley lay under brown water for",
	"eleven days, and the ferryman sold his boat.",
};
#define PARA_LINES	5
#define PARA_WORDS	40

/* Append a random word of 7 letters (no accidental matches between two). */
static void
add_word(struct buf *b, uint64_t *rng)
{
	uint64_t x = splitmix64(rng);
	int i;

	for (i = 0; i < 7; i++) {
		buf_addc(b, 'a' + (int)(x % 26));
		x /= 26;
	}
}

/* Append lines lines of perline random words; each line ends in '\n'. */
static void
add_filler(struct buf *b, uint64_t *rng, size_t lines, size_t perline)
{
	size_t i, j;

	for (i = 0; i < lines; i++) {
		for (j = 0; j < perline; j++) {
			if (j > 0)
				buf_addc(b, ' ');
			add_word(b, rng);
		}
		buf_addc(b, '\n');
	}
}

static void
add_str(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

/* Append the paragraph, each line ending in '\n'. */
static void
add_para(struct buf *b)
{
	int i;

	for (i = 0; i < PARA_LINES; i++) {
		add_str(b, para[i]);
		buf_addc(b, '\n');
	}
}

/* Does text[off..end) hold exactly want? */
static int
slice_is(const struct buf *text, size_t off, size_t end, const char *want)
{
	size_t n = strlen(want);

	return off <= end && end <= text->len && end - off == n &&
	    memcmp(text->data + off, want, n) == 0;
}

static size_t
compare(const struct buf *a, const struct buf *b,
    const struct winnow_opts *o, struct passage **out)
{
	return winnow_passages(a->data, a->len, b->data, b->len, o, out);
}

static void
test_copied_paragraph(void)
{
	struct buf a = { 0 }, b = { 0 }, want = { 0 };
	struct winnow_opts o;
	struct passage *p;
	uint64_t rng = 1;
	size_t n;
	int i;

	add_filler(&a, &rng, 9, 6);
	add_para(&a);		/* lines 10-14 */
	add_filler(&a, &rng, 6, 6);
	add_filler(&b, &rng, 2, 9);
	add_para(&b);		/* lines 3-7 */
	add_filler(&b, &rng, 5, 4);
	for (i = 0; i < PARA_LINES; i++) {
		if (i > 0)
			buf_addc(&want, '\n');
		add_str(&want, para[i]);
	}
	buf_addc(&want, '\0');

	winnow_opts_default(&o);
	n = compare(&a, &b, &o, &p);
	if (CHECK(n == 1, "%zu passages, want 1", n)) {
		CHECK(p[0].words == PARA_WORDS, "%zu words", p[0].words);
		CHECK(p[0].a_first == 10 && p[0].a_last == 14,
		    "A lines %zu-%zu", p[0].a_first, p[0].a_last);
		CHECK(p[0].b_first == 3 && p[0].b_last == 7,
		    "B lines %zu-%zu", p[0].b_first, p[0].b_last);
		CHECK(slice_is(&a, p[0].a_off, p[0].a_end, want.data),
		    "A bytes %zu-%zu are not lines 10-14", p[0].a_off,
		    p[0].a_end);
		CHECK(slice_is(&b, p[0].b_off, p[0].b_end, want.data),
		    "B bytes %zu-%zu are not lines 3-7", p[0].b_off,
		    p[0].b_end);
	}
	free(p);

	/* The other way round. */
	n = compare(&b, &a, &o, &p);
	if (CHECK(n == 1, "B against A: %zu passages", n))
		CHECK(p[0].words == PARA_WORDS && p[0].a_first == 3 &&
		    p[0].b_first == 10, "B against A: %zu words, lines %zu "
		    "and %zu", p[0].words, p[0].a_first, p[0].b_first);
	free(p);
	buf_free(&a);
	buf_free(&b);
	buf_free(&want);
}

/*
 * The paragraph with every third word capitalized (F_CASE) or followed by
 * a comma (F_PUNCT).
 */
#define F_CASE	1
#define F_PUNCT	2

static void
add_para_changed(struct buf *b, int how)
{
	const char *s;
	size_t word = 0;
	int i, inword;

	for (i = 0; i < PARA_LINES; i++) {
		inword = 0;
		for (s = para[i]; *s != '\0'; s++) {
			if (*s == ' ' || *s == ',' || *s == '.') {
				if (inword && word % 3 == 0 &&
				    (how & F_PUNCT) && *s != ',')
					buf_addc(b, ',');
				if (inword)
					word++;
				inword = 0;
				buf_addc(b, *s);
				continue;
			}
			if (!inword && word % 3 == 0 && (how & F_CASE) &&
			    *s >= 'a' && *s <= 'z')
				buf_addc(b, *s - 'a' + 'A');
			else
				buf_addc(b, *s);
			inword = 1;
		}
		if (inword && word % 3 == 0 && (how & F_PUNCT))
			buf_addc(b, ';');
		if (inword)
			word++;
		buf_addc(b, '\n');
	}
}

static void
test_normalization(void)
{
	static const struct {
		int	 how, keepcase, keeppunct;
		size_t	 want;
	} t[] = {
		{ F_CASE, 0, 0, 1 },
		{ F_PUNCT, 0, 0, 1 },
		{ F_CASE | F_PUNCT, 0, 0, 1 },
		{ F_CASE, 1, 0, 0 },
		{ F_PUNCT, 1, 0, 1 },
		{ F_PUNCT, 0, 1, 0 },
		{ F_CASE, 0, 1, 1 },
		{ 0, 1, 1, 1 },
	};
	struct buf a = { 0 }, b = { 0 };
	struct winnow_opts o;
	struct passage *p;
	uint64_t rng = 2;
	size_t i, n;

	add_filler(&a, &rng, 3, 5);
	add_para(&a);
	add_filler(&a, &rng, 3, 5);
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		buf_clear(&b);
		add_filler(&b, &rng, 1, 5);
		add_para_changed(&b, t[i].how);
		add_filler(&b, &rng, 1, 5);
		winnow_opts_default(&o);
		o.keepcase = t[i].keepcase;
		o.keeppunct = t[i].keeppunct;
		n = compare(&a, &b, &o, &p);
		if (CHECK(n == t[i].want, "case %zu: %zu passages, want %zu",
		    i, n, t[i].want) && n == 1) {
			CHECK(p[0].words == PARA_WORDS, "case %zu: %zu words",
			    i, p[0].words);
			CHECK(p[0].a_first == 4 && p[0].b_first == 2,
			    "case %zu: lines %zu and %zu", i, p[0].a_first,
			    p[0].b_first);
		}
		free(p);
	}
	buf_free(&a);
	buf_free(&b);
}

/* A line of n random words, with its '\n', as a string in s. */
static void
make_line(struct buf *s, uint64_t *rng, size_t n)
{
	buf_clear(s);
	add_filler(s, rng, 1, n);
}

static void
test_longest_first(void)
{
	struct buf a = { 0 }, b = { 0 }, p15 = { 0 }, p30 = { 0 };
	struct buf q20 = { 0 }, r20 = { 0 };
	struct winnow_opts o;
	struct passage *p;
	uint64_t rng = 3;
	size_t n;

	make_line(&p15, &rng, 15);
	make_line(&p30, &rng, 30);
	make_line(&q20, &rng, 20);
	make_line(&r20, &rng, 20);

	/* A: p15 on line 3, p30 on line 10.  B: p30 on 2, p15 on 12. */
	add_filler(&a, &rng, 2, 4);
	buf_add(&a, p15.data, p15.len);
	add_filler(&a, &rng, 6, 4);
	buf_add(&a, p30.data, p30.len);
	add_filler(&a, &rng, 2, 4);
	add_filler(&b, &rng, 1, 4);
	buf_add(&b, p30.data, p30.len);
	add_filler(&b, &rng, 9, 4);
	buf_add(&b, p15.data, p15.len);
	add_filler(&b, &rng, 2, 4);
	winnow_opts_default(&o);
	n = compare(&a, &b, &o, &p);
	if (CHECK(n == 2, "%zu passages, want 2", n)) {
		CHECK(p[0].words == 30 && p[0].a_first == 10 &&
		    p[0].b_first == 2, "first: %zu words, lines %zu and %zu",
		    p[0].words, p[0].a_first, p[0].b_first);
		CHECK(p[1].words == 15 && p[1].a_first == 3 &&
		    p[1].b_first == 12, "second: %zu words, lines %zu and %zu",
		    p[1].words, p[1].a_first, p[1].b_first);
	}
	free(p);

	/*
	 * Ties: r20 on line 2 of A, q20 on line 5; B has q20 on lines 1 and
	 * 7, r20 on line 4.  Order by A's line, then B's.
	 */
	buf_clear(&a);
	buf_clear(&b);
	add_filler(&a, &rng, 1, 4);
	buf_add(&a, r20.data, r20.len);
	add_filler(&a, &rng, 2, 4);
	buf_add(&a, q20.data, q20.len);
	buf_add(&b, q20.data, q20.len);
	add_filler(&b, &rng, 2, 4);
	buf_add(&b, r20.data, r20.len);
	add_filler(&b, &rng, 2, 4);
	buf_add(&b, q20.data, q20.len);
	a.len--;	/* no newline at the end */
	b.len--;
	n = compare(&a, &b, &o, &p);
	if (CHECK(n == 3, "ties: %zu passages, want 3", n)) {
		CHECK(p[0].words == 20 && p[0].a_first == 2 &&
		    p[0].b_first == 4, "ties, 1st: %zu words, lines %zu and "
		    "%zu", p[0].words, p[0].a_first, p[0].b_first);
		CHECK(p[1].words == 20 && p[1].a_first == 5 &&
		    p[1].b_first == 1, "ties, 2nd: %zu words, lines %zu and "
		    "%zu", p[1].words, p[1].a_first, p[1].b_first);
		CHECK(p[2].words == 20 && p[2].a_first == 5 &&
		    p[2].b_first == 7, "ties, 3rd: %zu words, lines %zu and "
		    "%zu", p[2].words, p[2].a_first, p[2].b_first);
		/* The last line of A has no newline: a_end is the end. */
		CHECK(p[1].a_end == a.len && p[2].b_end == b.len,
		    "a_end %zu of %zu, b_end %zu of %zu", p[1].a_end, a.len,
		    p[2].b_end, b.len);
	}
	free(p);
	buf_free(&a);
	buf_free(&b);
	buf_free(&p15);
	buf_free(&p30);
	buf_free(&q20);
	buf_free(&r20);
}

/*
 * Random documents of one word a line, of na and nb words, sharing the
 * run of len words at word pa of A and pb of B.
 */
static void
make_pair(struct buf *a, struct buf *b, uint64_t *rng, size_t na, size_t nb,
    size_t pa, size_t pb, size_t len)
{
	struct buf run = { 0 };
	size_t i;

	add_filler(&run, rng, len, 1);
	buf_clear(a);
	buf_clear(b);
	for (i = 0; i <= na; i++) {
		if (i == pa)
			buf_add(a, run.data, run.len);
		if (i < na)
			add_filler(a, rng, 1, 1);
	}
	for (i = 0; i <= nb; i++) {
		if (i == pb)
			buf_add(b, run.data, run.len);
		if (i < nb)
			add_filler(b, rng, 1, 1);
	}
	buf_free(&run);
}

static void
test_min_run_found(void)
{
	struct buf a = { 0 }, b = { 0 };
	struct winnow_opts o;
	struct passage *p;
	uint64_t rng = 4;
	size_t trial, n, len, na, nb, pa, pb, bad = 0;

	for (trial = 0; trial < 600; trial++) {
		winnow_opts_default(&o);
		o.seed = trial;
		o.k = 1 + trial % 7;
		o.w = 1 + (unsigned)(trial / 7) % 6;
		o.minwords = trial % 2 ? o.k + o.w - 1 : 0;
		len = o.k + o.w - 1;
		na = splitmix64(&rng) % 150;
		nb = splitmix64(&rng) % 150;
		pa = splitmix64(&rng) % (na + 1);
		pb = splitmix64(&rng) % (nb + 1);

		/* Exactly k + w - 1 words: always found. */
		make_pair(&a, &b, &rng, na, nb, pa, pb, len);
		n = compare(&a, &b, &o, &p);
		if (n != 1 || p[0].words != len || p[0].a_first != pa + 1 ||
		    p[0].a_last != pa + len || p[0].b_first != pb + 1 ||
		    p[0].b_last != pb + len)
			bad++;
		free(p);

		/* One word fewer: never reported. */
		if (len > 1) {
			make_pair(&a, &b, &rng, na, nb, pa, pb, len - 1);
			n = compare(&a, &b, &o, &p);
			CHECK(n == 0, "trial %zu (k %u w %u): a run of %zu "
			    "words reported", trial, o.k, o.w, len - 1);
			free(p);
		}
	}
	CHECK(bad == 0, "%zu of 600 runs of k + w - 1 words not found", bad);

	/* minwords above the default. */
	make_pair(&a, &b, &rng, 50, 60, 10, 20, 20);
	winnow_opts_default(&o);
	o.minwords = 21;
	n = compare(&a, &b, &o, &p);
	CHECK(n == 0, "minwords 21: %zu passages of 20 words", n);
	free(p);
	o.minwords = 20;
	n = compare(&a, &b, &o, &p);
	CHECK(n == 1 && p[0].words == 20, "minwords 20: %zu passages", n);
	free(p);
	buf_free(&a);
	buf_free(&b);
}

/* A document of n words, one a line, each one of nv words: word i is v[i]. */
static void
make_vocab_doc(struct buf *b, unsigned *v, size_t n, uint64_t *rng,
    unsigned nv)
{
	static const char *const vocab[] = {
		"alpha", "beta", "gamma", "delta", "eps", "zeta", "eta",
		"theta", "iota", "kappa",
	};
	size_t i;

	buf_clear(b);
	for (i = 0; i < n; i++) {
		v[i] = (unsigned)(splitmix64(rng) % nv);
		add_str(b, vocab[v[i]]);
		buf_addc(b, '\n');
	}
}

/*
 * The maximal common runs of at least min words of x[0..nx) and y[0..ny),
 * by brute force over every diagonal, as passages of one word a line:
 * returns how many there are, and stores the first max into out.
 */
static size_t
brute_runs(const unsigned *x, size_t nx, const unsigned *y, size_t ny,
    size_t min, struct passage *out, size_t max)
{
	size_t n = 0, i, j, len;
	long d;

	for (d = -(long)ny + 1; d < (long)nx; d++) {
		i = d > 0 ? (size_t)d : 0;
		j = d > 0 ? 0 : (size_t)-d;
		while (i < nx && j < ny) {
			for (len = 0; i + len < nx && j + len < ny &&
			    x[i + len] == y[j + len]; len++)
				continue;
			if (len >= min && n++ < max) {
				memset(&out[n - 1], 0, sizeof(out[n - 1]));
				out[n - 1].words = len;
				out[n - 1].a_first = i + 1;
				out[n - 1].a_last = i + len;
				out[n - 1].b_first = j + 1;
				out[n - 1].b_last = j + len;
			}
			i += len + 1;
			j += len + 1;
		}
	}
	return n;
}

static int
passage_cmp(const void *x, const void *y)
{
	const struct passage *a = x, *b = y;

	if (a->words != b->words)
		return a->words > b->words ? -1 : 1;
	if (a->a_first != b->a_first)
		return a->a_first < b->a_first ? -1 : 1;
	return (a->b_first > b->b_first) - (a->b_first < b->b_first);
}

static int
same_run(const struct passage *p, const struct passage *q)
{
	return p->words == q->words && p->a_first == q->a_first &&
	    p->a_last == q->a_last && p->b_first == q->b_first &&
	    p->b_last == q->b_last;
}

#define BRUTE_MAX	4096

/*
 * Documents of a few distinct words, so that they share many runs: with
 * minwords k + w - 1 exactly the maximal runs that long are reported, in
 * order; with minwords k, only maximal runs, and all those of k + w - 1.
 */
static void
test_brute_force(void)
{
	static struct passage want[BRUTE_MAX];
	static unsigned x[400], y[400];
	struct buf a = { 0 }, b = { 0 };
	struct winnow_opts o;
	struct passage *p;
	uint64_t rng = 5;
	size_t trial, n, nw, na, nb, i, j, total = 0, mismatch = 0;
	size_t unsound = 0, missed = 0;

	for (trial = 0; trial < 120; trial++) {
		winnow_opts_default(&o);
		o.seed = trial * 7919;
		o.k = 4 + trial % 4;
		o.w = 1 + (unsigned)(trial / 4) % 5;
		o.minwords = trial % 2 ? o.k + o.w - 1 : 0;
		na = 100 + splitmix64(&rng) % 300;
		nb = 100 + splitmix64(&rng) % 300;
		make_vocab_doc(&a, x, na, &rng, 4);
		make_vocab_doc(&b, y, nb, &rng, 4);

		nw = brute_runs(x, na, y, nb, o.k + o.w - 1, want, BRUTE_MAX);
		if (!CHECK(nw <= BRUTE_MAX, "trial %zu: %zu runs", trial, nw))
			break;
		qsort(want, nw, sizeof(*want), passage_cmp);
		total += nw;
		n = compare(&a, &b, &o, &p);
		if (n != nw)
			mismatch++;
		else
			for (i = 0; i < n; i++)
				if (!same_run(&p[i], &want[i])) {
					mismatch++;
					break;
				}
		free(p);

		o.minwords = o.k;
		n = compare(&a, &b, &o, &p);
		nw = brute_runs(x, na, y, nb, o.k, want, BRUTE_MAX);
		if (!CHECK(nw <= BRUTE_MAX, "trial %zu: %zu runs", trial, nw))
			break;
		for (i = 0; i < n; i++) {
			/* A reported run is maximal: it is in the list. */
			for (j = 0; j < nw && !same_run(&p[i], &want[j]); j++)
				continue;
			unsound += j == nw;
		}
		for (j = 0; j < nw; j++) {
			if (want[j].words < o.k + o.w - 1)
				continue;
			for (i = 0; i < n && !same_run(&p[i], &want[j]); i++)
				continue;
			missed += i == n;
		}
		free(p);
	}
	CHECK(total > 1000, "only %zu runs in all: the test is too easy",
	    total);
	CHECK(mismatch == 0, "%zu of 120 trials differ from brute force",
	    mismatch);
	CHECK(unsound == 0, "%zu reported runs are not maximal common runs",
	    unsound);
	CHECK(missed == 0, "minwords k: %zu runs of k + w - 1 words missed",
	    missed);
	buf_free(&a);
	buf_free(&b);
}

static void
test_unrelated(void)
{
	struct buf a = { 0 }, b = { 0 };
	struct winnow_opts o;
	struct passage *p;
	static unsigned x[3000], y[3000];
	uint64_t rng = 6;
	size_t n;

	winnow_opts_default(&o);
	add_filler(&a, &rng, 300, 10);
	add_filler(&b, &rng, 300, 10);
	n = compare(&a, &b, &o, &p);
	CHECK(n == 0, "random texts: %zu passages", n);
	free(p);

	/*
	 * Ten words only: some common k-grams, but no common run of 8 (as
	 * the brute force confirms).
	 */
	make_vocab_doc(&a, x, 3000, &rng, 10);
	make_vocab_doc(&b, y, 3000, &rng, 10);
	n = compare(&a, &b, &o, &p);
	CHECK(n == 0, "ten words: %zu passages", n);
	free(p);
	CHECK(brute_runs(x, 3000, y, 3000, 8, NULL, 0) == 0 &&
	    brute_runs(x, 3000, y, 3000, 5, NULL, 0) > 20,
	    "ten words: the texts are not as meant");
	buf_free(&a);
	buf_free(&b);
}

static void
test_identical(void)
{
	struct buf a = { 0 };
	struct winnow_opts o;
	struct passage *p;
	uint64_t rng = 7;
	size_t i, n;

	winnow_opts_default(&o);
	add_filler(&a, &rng, 60, 7);
	n = compare(&a, &a, &o, &p);
	if (CHECK(n == 1, "%zu passages, want 1", n))
		CHECK(p[0].words == 420 && p[0].a_first == 1 &&
		    p[0].a_last == 60 && p[0].b_first == 1 &&
		    p[0].b_last == 60 && p[0].a_off == 0 &&
		    p[0].a_end == a.len - 1 && p[0].b_off == 0 &&
		    p[0].b_end == a.len - 1, "%zu words, lines %zu-%zu, "
		    "bytes %zu-%zu of %zu", p[0].words, p[0].a_first,
		    p[0].a_last, p[0].a_off, p[0].a_end, a.len);
	free(p);

	/* Blank lines before, no newline at the end. */
	buf_clear(&a);
	add_str(&a, "\n  \n");
	add_filler(&a, &rng, 10, 3);
	add_str(&a, "  last words here  ");
	n = compare(&a, &a, &o, &p);
	if (CHECK(n == 1, "blank lines: %zu passages, want 1", n))
		CHECK(p[0].words == 33 && p[0].a_first == 3 &&
		    p[0].a_last == 13 && p[0].a_off == 4 &&
		    p[0].a_end == a.len, "blank lines: %zu words, lines "
		    "%zu-%zu, bytes %zu-%zu of %zu", p[0].words, p[0].a_first,
		    p[0].a_last, p[0].a_off, p[0].a_end, a.len);
	free(p);

	/*
	 * Fewer than k + w - 1 words: the k-grams make one window, so a
	 * document of k words or more still has a fingerprint.
	 */
	for (o.k = 1; o.k <= 5; o.k++)
		for (o.w = 1; o.w <= 4; o.w++)
			for (n = o.k; n < o.k + o.w - 1; n++) {
				buf_clear(&a);
				add_filler(&a, &rng, 1, n);
				o.minwords = o.k;
				i = compare(&a, &a, &o, &p);
				CHECK(i == 1 && p[0].words == n, "k %u w %u: "
				    "%zu passages of %zu words", o.k, o.w, i,
				    n);
				free(p);
			}

	/* A window far longer than the document costs nothing. */
	buf_clear(&a);
	add_filler(&a, &rng, 10, 10);
	o.k = 5;
	o.w = 4000000000u;
	o.minwords = 8;
	n = compare(&a, &a, &o, &p);
	CHECK(n == 1 && p[0].words == 100, "w 4e9: %zu passages", n);
	free(p);
	buf_free(&a);
}

static double
cpu_seconds(clock_t t0)
{
	return (double)(clock() - t0) / CLOCKS_PER_SEC;
}

/*
 * One sentence 10,000 times against itself: every copy matches every
 * other, but the sentence's hashes are too frequent to seed anything.
 * Boilerplate around a unique paragraph does not hide the paragraph.
 */
static void
test_repeated(void)
{
	static const char sentence[] =
	    "The quick brown fox jumps over the lazy dog again and again.\n";
	struct buf a = { 0 }, b = { 0 };
	struct winnow_opts o;
	struct passage *p;
	clock_t t0;
	size_t i, n;

	for (i = 0; i < 10000; i++)
		add_str(&a, sentence);
	winnow_opts_default(&o);
	t0 = clock();
	n = compare(&a, &a, &o, &p);
	CHECK(cpu_seconds(t0) < 2.0 * unit_time_scale(),
	    "%.2f s for 10,000 sentences",
	    cpu_seconds(t0));
	CHECK(n == 0, "%zu passages from boilerplate alone", n);
	free(p);

	/* A: 5000 sentences, the paragraph, 5000; B: 3000, it, 2000. */
	buf_clear(&a);
	for (i = 0; i < 10000; i++) {
		if (i == 5000)
			add_para(&a);
		add_str(&a, sentence);
	}
	for (i = 0; i < 5000; i++) {
		if (i == 3000)
			add_para(&b);
		add_str(&b, sentence);
	}
	t0 = clock();
	n = compare(&a, &b, &o, &p);
	CHECK(cpu_seconds(t0) < 2.0 * unit_time_scale(),
	    "%.2f s for boilerplate and a paragraph",
	    cpu_seconds(t0));
	/* All of B is in A, from sentence 2001 on. */
	if (CHECK(n == 1, "%zu passages, want 1", n))
		CHECK(p[0].words == 5000 * 12 + PARA_WORDS &&
		    p[0].a_first == 2001 && p[0].b_first == 1 &&
		    p[0].b_last == 5000 + PARA_LINES, "%zu words, lines %zu "
		    "and %zu-%zu", p[0].words, p[0].a_first, p[0].b_first,
		    p[0].b_last);
	free(p);
	buf_free(&a);
	buf_free(&b);
}

static void
test_empty(void)
{
	static const char *const docs[] = {
		"", " ", "\n\n\n", " \t\r\n \v\f ", "!!! ,,, ... ---",
		"one two three", "\xe2\x80\x83\xc2\xa0\n",
	};
	struct buf t = { 0 };
	struct winnow_opts o;
	struct passage *p, dummy;
	uint64_t rng = 8;
	size_t i, j, n;

	add_filler(&t, &rng, 5, 5);
	winnow_opts_default(&o);
	for (i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
		p = &dummy;
		n = winnow_passages(docs[i], strlen(docs[i]), t.data, t.len,
		    &o, &p);
		CHECK(n == 0 && p == NULL, "doc %zu against text: %zu", i, n);
		if (p != &dummy)
			free(p);
		p = &dummy;
		n = winnow_passages(t.data, t.len, docs[i], strlen(docs[i]),
		    &o, &p);
		CHECK(n == 0 && p == NULL, "text against doc %zu: %zu", i, n);
		if (p != &dummy)
			free(p);
		for (j = 0; j < sizeof(docs) / sizeof(docs[0]); j++) {
			n = winnow_passages(docs[i], strlen(docs[i]), docs[j],
			    strlen(docs[j]), &o, &p);
			CHECK(n == 0, "doc %zu against doc %zu: %zu", i, j, n);
			free(p);
		}
	}
	n = winnow_passages(NULL, 0, NULL, 0, &o, &p);
	CHECK(n == 0 && p == NULL, "NULL, 0: %zu passages", n);
	free(p);
	buf_free(&t);
}

/* Random bytes, rich in separators, newlines, NULs and high bytes. */
static void
add_garbage(struct buf *b, uint64_t *rng, size_t len)
{
	static const char pick[] = " \n\0\xff\xc3\xa9\xe2\x82\xac\xf0\x9f\x98"
	    "aZ.";
	uint64_t x;
	size_t i;

	for (i = 0; i < len; i++) {
		x = splitmix64(rng);
		if (x % 3 == 0)
			buf_addc(b, (int)(x >> 8) & 0xff);
		else if (x % 3 == 1)
			buf_addc(b, pick[(x >> 8) % (sizeof(pick) - 1)]);
		else
			buf_addc(b, 'a' + (int)((x >> 8) % 26));
	}
}

static void
test_invalid_bytes(void)
{
	static const char bad[] =
	    "caf\xc3\xa9 \xff\xfe word\0word overlong \xc0\xaf here "
	    "surrogate \xed\xa0\x80 and \xe2\x82 cut and NUL\0\0NUL again "
	    "and \x80\x80 lone continuation bytes then the end";
	struct buf a = { 0 }, b = { 0 };
	struct winnow_opts o;
	struct passage *p;
	uint64_t rng = 9, *h;
	size_t i, n, nw, trial, bad_bounds = 0;

	winnow_opts_default(&o);
	nw = winnow_words(bad, sizeof(bad) - 1, &o, &h, NULL);
	free(h);
	add_filler(&a, &rng, 4, 5);
	buf_add(&a, bad, sizeof(bad) - 1);
	buf_addc(&a, '\n');
	add_filler(&a, &rng, 4, 5);
	add_filler(&b, &rng, 2, 5);
	buf_add(&b, bad, sizeof(bad) - 1);
	n = compare(&a, &b, &o, &p);
	if (CHECK(n == 1, "%zu passages, want 1", n))
		CHECK(p[0].words == nw && p[0].a_first == 5 &&
		    p[0].b_first == 3 && p[0].b_end == b.len &&
		    p[0].a_end - p[0].a_off == sizeof(bad) - 1,
		    "%zu words of %zu, lines %zu and %zu", p[0].words, nw,
		    p[0].a_first, p[0].b_first);
	free(p);

	/* NUL separates words by default, joins them under keeppunct. */
	nw = winnow_words("foo\0bar", 7, &o, &h, NULL);
	CHECK(nw == 2, "\"foo\\0bar\": %zu words", nw);
	free(h);
	o.keeppunct = 1;
	nw = winnow_words("foo\0bar", 7, &o, &h, NULL);
	CHECK(nw == 1, "keeppunct \"foo\\0bar\": %zu words", nw);
	free(h);

	/* Garbage, sharing a slice. */
	for (trial = 0; trial < 300; trial++) {
		winnow_opts_default(&o);
		o.keeppunct = trial % 2;
		o.keepcase = trial % 4 < 2;
		o.k = 1 + trial % 5;
		o.w = 1 + trial % 3;
		buf_clear(&a);
		buf_clear(&b);
		add_garbage(&a, &rng, splitmix64(&rng) % 3000);
		add_garbage(&b, &rng, splitmix64(&rng) % 500);
		if (a.len > 10)
			buf_add(&b, a.data + a.len / 3, a.len / 2);
		add_garbage(&b, &rng, splitmix64(&rng) % 500);
		n = compare(&a, &b, &o, &p);
		for (i = 0; i < n; i++)
			if (p[i].words < o.k + o.w - 1 ||
			    p[i].a_first > p[i].a_last ||
			    p[i].b_first > p[i].b_last ||
			    p[i].a_off > p[i].a_end || p[i].a_end > a.len ||
			    p[i].b_off > p[i].b_end || p[i].b_end > b.len ||
			    (i > 0 && p[i].words > p[i - 1].words))
				bad_bounds++;
		if (a.len > 1500 && n == 0)
			bad_bounds++;	/* the shared slice was lost */
		free(p);
	}
	CHECK(bad_bounds == 0, "%zu bad passages in garbage", bad_bounds);
	buf_free(&a);
	buf_free(&b);
}

/* The word 1-gram hashes a shingler hands to its sink, in order. */
struct coll {
	uint64_t *h;
	size_t	 n, cap;
};

static void
coll_sink(void *ctx, const uint64_t *h, const double *w, size_t n)
{
	struct coll *c = ctx;

	(void)w;
	if (c->n + n > c->cap) {
		while (c->n + n > c->cap)
			c->cap = c->cap ? 2 * c->cap : 64;
		if ((c->h = realloc(c->h, c->cap * sizeof(*c->h))) == NULL)
			abort();
	}
	memcpy(c->h + c->n, h, n * sizeof(*h));
	c->n += n;
}

static int
u64_cmp(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return (a > b) - (a < b);
}

/*
 * Do the shingler's word 1-grams of text equal, in order and so as a set,
 * XXH3 of the 8 little-endian bytes of each of winnow's word hashes?
 */
static int
agrees(const char *text, size_t len, int keepcase, int keeppunct,
    uint64_t seed, size_t *nwords)
{
	struct coll c = { 0 };
	struct scheme sc;
	struct shingler sh;
	struct winnow_opts o;
	unsigned char le[8];
	uint64_t *h;
	size_t i, n;
	int j, ok;

	memset(&sc, 0, sizeof(sc));
	sc.algo = ALGO_SIMHASH;
	sc.size = 64;
	sc.ngram = 1;
	sc.keepcase = keepcase;
	sc.keeppunct = keeppunct;
	sc.seed = seed;
	shingle_init(&sh, &sc, NULL, coll_sink, &c);
	shingle_feed(&sh, text, len);
	shingle_end(&sh);
	shingle_free(&sh);

	winnow_opts_default(&o);
	o.keepcase = keepcase;
	o.keeppunct = keeppunct;
	o.seed = seed;
	n = winnow_words(text, len, &o, &h, NULL);
	for (i = 0; i < n; i++) {
		for (j = 0; j < 8; j++)
			le[j] = (unsigned char)(h[i] >> (8 * j));
		h[i] = XXH3_64bits_withSeed(le, sizeof(le), seed);
	}
	ok = n == c.n && (n == 0 || memcmp(h, c.h, n * sizeof(*h)) == 0);
	if (n > 0 && c.n > 0) {
		qsort(h, n, sizeof(*h), u64_cmp);
		qsort(c.h, c.n, sizeof(*c.h), u64_cmp);
		ok = ok && memcmp(h, c.h, n * sizeof(*h)) == 0;
	}
	*nwords = n;
	free(h);
	free(c.h);
	return ok;
}

static void
test_shingler_hashes(void)
{
	static const char mixed[] =
	    "Hello, WORLD! \xc3\x89t\xc3\xa9 \xc3\xa0 Z\xc3\xbcrich; "
	    "\xce\x9a\xce\xb1\xce\xbb\xce\xb7\xce\xbc\xce\xad\xcf\x81\xce\xb1 "
	    "\xd0\x9f\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x82 \xe4\xb8\xad"
	    "\xe6\x96\x87 it's e-mail x\xe2\x80\x83y \xef\xbb\xbf bom "
	    "\xff\xfe bad\0nul \xc0\xaf \xed\xa0\x80 \xe2\x82 done\n";
	static const uint64_t seeds[] = { 0, 42 };
	struct buf t = { 0 };
	uint64_t rng = 10;
	size_t i, s, f, nw, words = 0;

	for (i = 0; i < 8; i++)
		buf_add(&t, mixed, sizeof(mixed) - 1);
	for (i = 0; i < 300; i++)	/* a word longer than 256 bytes */
		buf_addc(&t, 'A' + (int)(i % 26));
	buf_addc(&t, ' ');
	add_filler(&t, &rng, 50, 12);
	add_garbage(&t, &rng, 20000);
	add_str(&t, "tail \xe2\x82");
	for (s = 0; s < 2; s++)
		for (f = 0; f < 4; f++) {
			CHECK(agrees(t.data, t.len, f & 1, (f & 2) != 0,
			    seeds[s], &nw), "seed %llu keepcase %d keeppunct "
			    "%d: word hashes differ from the shingler's",
			    (unsigned long long)seeds[s], (int)(f & 1),
			    (f & 2) != 0);
			words += nw;
		}
	CHECK(words > 8 * 1000, "only %zu words", words);
	buf_free(&t);
}

static void
test_word_lines(void)
{
	static const char text[] = "a b\n\nc\r\nd,e \n  \n\xff";
	static const size_t want[] = { 1, 1, 3, 4, 4, 6 };
	struct winnow_opts o;
	uint64_t *h;
	size_t *line, n, i;

	winnow_opts_default(&o);
	n = winnow_words(text, sizeof(text) - 1, &o, &h, &line);
	if (CHECK(n == 6, "%zu words, want 6", n))
		for (i = 0; i < n; i++)
			CHECK(line[i] == want[i], "word %zu on line %zu, "
			    "want %zu", i, line[i], want[i]);
	free(h);
	free(line);
}

int
main(void)
{
	RUN(test_copied_paragraph);
	RUN(test_normalization);
	RUN(test_longest_first);
	RUN(test_min_run_found);
	RUN(test_brute_force);
	RUN(test_unrelated);
	RUN(test_identical);
	RUN(test_repeated);
	RUN(test_empty);
	RUN(test_invalid_bytes);
	RUN(test_shingler_hashes);
	RUN(test_word_lines);
	return unit_status();
}
