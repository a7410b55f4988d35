/*
 * The near-duplicate index of src/dedup/dedup.c.  Every duplicate it reports
 * must have an exact resemblance of at least t with its kept record, as an
 * independent path (digest into shset, similarity_exact) computes it;
 * pairs above t + 0.1 must be found at the recall LSH promises; byte
 * identical records, empty records, ID<TAB>TEXT records, the batch API and
 * the memory per kept record are checked too, and the one thread that
 * faults in ahead the memory the index will grow into.
 */
#include <sys/mman.h>

#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dedup.h"
#include "digest.h"
#include "shset.h"
#include "similarity.h"
#include "unit.h"

#define NWORDS	400

static uint64_t seed = 0x6465647570212121ULL;
static char words[NWORDS][12];

/* Character 5-grams, the default of uniq. */
static struct scheme
chars5(void)
{
	struct scheme sc;

	memset(&sc, 0, sizeof(sc));
	sc.algo = ALGO_MINHASH;
	sc.size = 8;
	sc.chars = 1;
	sc.ngram = 5;
	return sc;
}

/* Exact resemblance of two texts, the way compare computes it. */
static double
jaccard(const char *a, size_t alen, const char *b, size_t blen)
{
	struct scheme sc = chars5();
	struct shset sa, sb;
	struct digest d;
	struct similarity sim;

	shset_init(&sa);
	shset_init(&sb);
	digest_init(&d, &sc, NULL, &sa);
	digest_feed(&d, a, alen);
	(void)digest_end(&d);
	digest_free(&d);
	digest_init(&d, &sc, NULL, &sb);
	digest_feed(&d, b, blen);
	(void)digest_end(&d);
	digest_free(&d);
	similarity_exact(&sa, &sb, &sim);
	shset_free(&sa);
	shset_free(&sb);
	return sim.jaccard;
}

static void
make_words(void)
{
	size_t i, j, len;

	for (i = 0; i < NWORDS; i++) {
		len = 3 + splitmix64(&seed) % 8;
		for (j = 0; j < len; j++)
			words[i][j] = (char)('a' + splitmix64(&seed) % 26);
		words[i][len] = '\0';
	}
}

/* A line of n random words into buf. */
static void
random_line(char *buf, size_t size, size_t n)
{
	size_t i;

	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		if (i > 0)
			strlcat(buf, " ", size);
		strlcat(buf, words[splitmix64(&seed) % NWORDS], size);
	}
}

/* buf with its k-th word replaced by a random one. */
static void
mutate(char *out, size_t size, const char *in, size_t k)
{
	const char *p = in, *sp;
	size_t i;

	out[0] = '\0';
	for (i = 0; *p != '\0'; i++) {
		if ((sp = strchr(p, ' ')) == NULL)
			sp = p + strlen(p);
		if (i > 0)
			strlcat(out, " ", size);
		if (i == k)
			strlcat(out, words[splitmix64(&seed) % NWORDS], size);
		else
			strncat(out, p, (size_t)(sp - p));
		p = *sp == ' ' ? sp + 1 : sp;
	}
}

static void
init(struct dedup *d, double t, enum recmode mode)
{
	struct scheme sc = chars5();
	struct reckey key = RECKEY_WHOLE(mode);

	dedup_init(d, &sc, t, &key);
}

static int
add(struct dedup *d, const char *s, uint32_t *id)
{
	return dedup_add(d, s, strlen(s), id);
}

static void
test_bands(void)
{
	struct lsh l;
	double t;

	/* Below 0.2, DEDUP_MAXB bands cannot reach the recall bar. */
	for (t = 0.2; t <= 1.0001; t += 0.05) {
		dedup_bands(&l, t > 1 ? 1 : t);
		CHECK(l.b >= 1 && l.b <= DEDUP_MAXB && l.b * l.r <= DEDUP_K,
		    "t %.2f: %u x %u", t, l.b, l.r);
		if (t + 0.1 <= 1)
			CHECK(lsh_prob(&l, t + 0.1) >= LSH_RECALL,
			    "t %.2f: P(t + 0.1) = %.4f", t,
			    lsh_prob(&l, t + 0.1));
	}
}

static void
test_near_pair(void)
{
	const char *a = "kernel: usb 1-1: new high-speed USB device number 3 "
	    "using xhci_hcd on bus 1 port 4";
	const char *b = "kernel: usb 1-1: new high-speed USB device number 9 "
	    "using xhci_hcd on bus 1 port 4";
	double j = jaccard(a, strlen(a), b, strlen(b));
	struct dedup d;
	uint32_t id;

	if (!CHECK(j >= 0.7 && j < 0.99, "J = %.3f", j))
		return;
	init(&d, 0.7, REC_LINES);
	CHECK(add(&d, a, &id) == DEDUP_KEPT && id == 0, "first not kept");
	CHECK(add(&d, b, &id) == DEDUP_DUP && id == 0,
	    "J %.3f >= 0.7 but not a duplicate", j);
	CHECK(d.st.near == 1 && d.st.exact == 0, "near %llu exact %llu",
	    (unsigned long long)d.st.near, (unsigned long long)d.st.exact);
	dedup_free(&d);
	init(&d, 0.99, REC_LINES);
	add(&d, a, &id);
	CHECK(add(&d, b, &id) == DEDUP_KEPT && id == 1,
	    "J %.3f < 0.99 but a duplicate", j);
	dedup_free(&d);
}

static void
test_unrelated(void)
{
	struct dedup d;
	uint32_t id;

	init(&d, 0.7, REC_LINES);
	add(&d, "the quick brown fox jumps over the lazy dog", &id);
	CHECK(add(&d, "pack my box with five dozen liquor jugs", &id) ==
	    DEDUP_KEPT && id == 1, "unrelated lines merged");
	CHECK(dedup_kept(&d) == 2, "%zu kept", dedup_kept(&d));
	dedup_free(&d);
}

static void
test_exact_short_circuit(void)
{
	const char *a = "a line that comes twice, byte for byte";
	struct dedup d;
	uint32_t id;

	init(&d, 0.7, REC_LINES);
	add(&d, a, &id);
	add(&d, "something else entirely, to be kept", &id);
	CHECK(add(&d, a, &id) == DEDUP_DUP && id == 0, "repeat not found");
	CHECK(d.st.exact == 1, "exact %llu", (unsigned long long)d.st.exact);
	CHECK(d.rs.compared == 0, "%llu resemblances computed",
	    (unsigned long long)d.rs.compared);
	dedup_free(&d);
}

/*
 * A line that holds a kept one and as much again shares bands with it
 * often, but resembles it at about 1/2: the numbers of their shingles
 * rule that out, with no resemblance computed.  The same line with one
 * word changed is of a size to compare, and is.
 */
/* Is id among ids[0..n)? */
static int
kept(const uint32_t *ids, size_t n, uint32_t id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (ids[i] == id)
			return 1;
	return 0;
}

static void
test_sizes_rule_out(void)
{
	char a[512], b[1024], c[512];
	struct dedup d;
	uint32_t id;
	size_t i, cand = 0, compared = 0;

	for (i = 0; i < 60; i++) {
		init(&d, 0.7, REC_LINES);
		random_line(a, sizeof(a), 12);
		random_line(c, sizeof(c), 12);
		snprintf(b, sizeof(b), "%s %s", a, c);
		add(&d, a, &id);
		CHECK(add(&d, b, &id) == DEDUP_KEPT, "kept \"%s\" as a "
		    "near-duplicate of \"%s\"", b, a);
		cand += d.st.candidates;
		compared += d.rs.compared;
		dedup_free(&d);
	}
	CHECK(cand > 10, "only %zu candidates", cand);
	CHECK(compared == 0, "%zu resemblances computed for %zu candidates",
	    compared, cand);

	init(&d, 0.7, REC_LINES);
	random_line(a, sizeof(a), 12);
	mutate(c, sizeof(c), a, 6);
	add(&d, a, &id);
	add(&d, c, &id);
	CHECK(d.st.candidates == 0 || d.rs.compared > 0,
	    "a candidate of its size not compared");
	dedup_free(&d);
}

/*
 * What the marks of a held record a of na shingles and a record b allow,
 * written out from their definition (recsim.h): 1 if b may resemble a at
 * t, with the division of the bound made for each pair.
 */
static int
mark_allows(const struct recsim_mark *a, size_t na,
    const struct recsim_mark *b, double t)
{
	const uint64_t cls = ((uint64_t)1 << (RECSIM_CLASSES - 64)) - 1;
	size_t nb = (size_t)(b->w[1] >> 56), onlya = 0, onlyb = 0, shared;

	if (nb == RECSIM_MANY)
		nb = (size_t)b->w[0];
	else if (na < RECSIM_MANY) {
		onlya = (size_t)__builtin_popcountll(a->w[0] & ~b->w[0]) +
		    (size_t)__builtin_popcountll(a->w[1] & ~b->w[1] & cls);
		onlyb = (size_t)__builtin_popcountll(b->w[0] & ~a->w[0]) +
		    (size_t)__builtin_popcountll(b->w[1] & ~a->w[1] & cls);
	}
	if (onlya >= na || onlyb >= nb)
		return 0;
	shared = na - onlya < nb - onlyb ? na - onlya : nb - onlyb;
	return (double)shared / (double)(na + nb - shared) >= t;
}

/*
 * The screen answers as mark_allows() does, pair by pair: records of 1
 * to 300 shingles sharing any number of them, at thresholds that are and
 * are not exact binary fractions, each met at the boundary of some pair
 * (the screen keeps a table of the shared counts per total, made anew
 * when the threshold changes).
 */
static void
test_screen_exact(void)
{
	static const double ts[] = {
		0.1, 0.2, 1.0 / 3, 0.5, 0.6, 2.0 / 3, 0.7, 0.8, 0.9, 0.95, 1,
	};
	struct scheme sc = chars5();
	struct recsim rs;
	struct recsim_mark ma, mb;
	uint64_t a[300], b[300];
	uint32_t id;
	size_t k, i, na, nb, sh, t, bad = 0, kept = 0;

	recsim_init(&rs, &sc);
	for (k = 0; k < 20000 && bad < 5; k++) {
		na = 1 + splitmix64(&seed) % (k % 8 == 0 ? 300 : 60);
		nb = 1 + splitmix64(&seed) % (k % 8 == 1 ? 300 : 60);
		sh = splitmix64(&seed) % ((na < nb ? na : nb) + 1);
		for (i = 0; i < na; i++)
			a[i] = splitmix64(&seed);
		for (i = 0; i < nb; i++)
			b[i] = i < sh ? a[i] : splitmix64(&seed);
		recsim_mark(&ma, a, na);
		recsim_mark(&mb, b, nb);
		recsim_hold(&rs, a, na);
		for (t = 0; t < sizeof(ts) / sizeof(ts[0]); t++) {
			id = 0;
			i = recsim_screen(&rs, &mb, &id, 1, ts[t]);
			kept += i;
			if (i != (size_t)mark_allows(&ma, na, &mb, ts[t]) &&
			    bad++ < 5)
				CHECK(0, "na %zu nb %zu shared %zu t %.4f: "
				    "screen %zu, by the definition %d", na,
				    nb, sh, ts[t], i,
				    mark_allows(&ma, na, &mb, ts[t]));
		}
	}
	CHECK(kept > 0 && kept < k * (sizeof(ts) / sizeof(ts[0])),
	    "kept %zu of %zu: no test", kept,
	    k * (sizeof(ts) / sizeof(ts[0])));
	recsim_free(&rs);
}

/*
 * The marks never rule out a record that resembles the held one at t (of
 * lines from the same one with a few words changed, at several t), keep
 * the order of those left, bound a record of RECSIM_MANY shingles or more
 * by its size alone, and rule out most lines of the same size that share
 * nothing.
 */
static void
test_marks(void)
{
	static const double ts[] = { 0.3, 0.5, 0.7, 0.9, 1 };
	struct scheme sc = chars5();
	struct recsim rs;
	struct recsim_hashes a = { 0 }, b = { 0 }, bd = { 0 };
	struct recsim_set set = { 0 };
	struct recsim_mark mk[8];
	uint32_t ids[8];
	char x[256], y[8][256], big[2048], big2[2048];
	size_t k, i, n, t, far = 0, out = 0;
	double j;

	recsim_init(&rs, &sc);
	for (k = 0; k < 300; k++) {
		random_line(x, sizeof(x), 10);
		recsim_shingle(&rs, x, strlen(x), &a);
		for (i = 0; i < 8; i++) {
			if (i < 6)
				mutate(y[i], sizeof(y[i]), x, (k + i) % 10);
			else
				random_line(y[i], sizeof(y[i]), 10);
			if (i > 0 && i < 5)
				mutate(y[i], sizeof(y[i]), y[i - 1],
				    (k + 3 * i) % 10);
			recsim_shingle(&rs, y[i], strlen(y[i]), &b);
			bd.n = 0;
			recsim_distinct_start(&set);
			recsim_distinct_add(&set, b.h, b.n, &bd);
			recsim_mark(&mk[i], bd.h, bd.n);
		}
		bd.n = 0;
		recsim_distinct_start(&set);
		recsim_distinct_add(&set, a.h, a.n, &bd);
		recsim_hold(&rs, bd.h, bd.n);
		for (t = 0; t < sizeof(ts) / sizeof(ts[0]); t++) {
			for (i = 0; i < 8; i++)
				ids[i] = (uint32_t)(7 - i);
			n = recsim_screen(&rs, mk, ids, 8, ts[t]);
			for (i = 0; i + 1 < n; i++)
				CHECK(ids[i] > ids[i + 1], "line %zu: order "
				    "lost", k);
			for (i = 0; i < 8; i++) {
				j = jaccard(x, strlen(x), y[i], strlen(y[i]));
				if (j >= ts[t])
					CHECK(kept(ids, n, (uint32_t)i),
					    "line %zu: J %.3f >= %.2f ruled "
					    "out", k, j, ts[t]);
				if (i >= 6 && ts[t] == 0.5) {
					far++;
					out += !kept(ids, n, (uint32_t)i);
				}
			}
		}
	}
	CHECK(out > far * 9 / 10, "only %zu of %zu unrelated lines ruled "
	    "out", out, far);

	/*
	 * Too many shingles to class: ruled out by its size against the
	 * short line held, not by its classes against a copy of itself with
	 * a word changed, nor, held, against a short line.
	 */
	random_line(big, sizeof(big), 200);
	mutate(big2, sizeof(big2), big, 7);
	recsim_shingle(&rs, big, strlen(big), &b);
	bd.n = 0;
	recsim_distinct_start(&set);
	recsim_distinct_add(&set, b.h, b.n, &bd);
	CHECK(bd.n >= RECSIM_MANY, "only %zu shingles", bd.n);
	recsim_mark(&mk[0], bd.h, bd.n);
	ids[0] = 0;
	CHECK(recsim_screen(&rs, mk, ids, 1, 0.1) == 0,
	    "a record of %zu shingles not ruled out by its size", bd.n);
	recsim_shingle(&rs, big2, strlen(big2), &a);
	recsim_hold(&rs, a.h, a.n);
	j = jaccard(big, strlen(big), big2, strlen(big2));
	ids[0] = 0;
	CHECK(j >= 0.9 && recsim_screen(&rs, mk, ids, 1, 0.9) == 1,
	    "J %.3f: a record of %zu shingles ruled out", j, bd.n);
	recsim_shingle(&rs, x, strlen(x), &b);
	recsim_mark(&mk[1], b.h, b.n);
	ids[0] = 1;
	CHECK(recsim_screen(&rs, mk, ids, 1, 0.5) == 0,
	    "a short line not ruled out by the size of the held record");
	ids[0] = 1;
	CHECK(recsim_screen(&rs, mk, ids, 1, 0.01) == 1,
	    "a short line ruled out at 0.01");
	recsim_hashes_free(&a);
	recsim_hashes_free(&b);
	recsim_hashes_free(&bd);
	recsim_set_free(&set);
	recsim_free(&rs);
}

/* A text that was a near-duplicate goes straight to its kept record. */
static void
test_repeated_near_duplicate(void)
{
	const char *a = "error: disk sda1 is 95 percent full on host alpha";
	const char *b = "error: disk sda1 is 97 percent full on host alpha";
	struct dedup d;
	uint32_t id;

	init(&d, 0.7, REC_LINES);
	add(&d, a, &id);
	CHECK(add(&d, b, &id) == DEDUP_DUP && id == 0, "b not a duplicate");
	CHECK(add(&d, b, &id) == DEDUP_DUP && id == 0, "b again: %u", id);
	CHECK(d.st.near == 2, "near %llu", (unsigned long long)d.st.near);
	dedup_free(&d);
}

/* Records without shingles are duplicates only of the same bytes. */
static void
test_empty_records(void)
{
	struct dedup d;
	uint32_t id;

	init(&d, 0.7, REC_LINES);
	CHECK(add(&d, "}", &id) == DEDUP_KEPT && id == 0, "} not kept");
	CHECK(add(&d, "*/", &id) == DEDUP_KEPT && id == 1, "*/ not kept");
	CHECK(add(&d, "", &id) == DEDUP_KEPT && id == 2, "empty not kept");
	CHECK(add(&d, "}", &id) == DEDUP_DUP && id == 0, "} again: %u", id);
	CHECK(add(&d, "", &id) == DEDUP_DUP && id == 2, "empty again: %u",
	    id);
	dedup_free(&d);
}

static void
test_tsv(void)
{
	struct dedup d;
	const char *r;
	size_t len;
	uint32_t id;

	init(&d, 0.7, REC_TSV);
	add(&d, "a\tthe text of the first record, long enough", &id);
	CHECK(add(&d, "b\tthe text of the first record, long enough", &id) ==
	    DEDUP_DUP && id == 0, "same text, other ID: not a duplicate");
	CHECK(d.st.exact == 1, "not found as byte-identical text");
	CHECK(add(&d, "the text of\tthe first record, long enough", &id) ==
	    DEDUP_KEPT, "an ID is not text");
	r = dedup_record(&d, 0, &len);
	CHECK(len == strlen("a\tthe text of the first record, long enough") &&
	    memcmp(r, "a\t", 2) == 0, "record 0 is %.*s", (int)len, r);
	dedup_free(&d);
}

/*
 * Families of lines, each a random line and mutants of it.  Every
 * duplicate reported must be at resemblance t or more with its kept
 * record, kept earlier; and the batch API must agree with dedup_add.
 */
static void
test_sound_and_batched(void)
{
	enum { N = 3000, BATCH = 97 };
	static char line[N][256];
	struct dedup d1, d2;
	struct dedup_item *it = calloc(N, sizeof(*it));
	struct recsim_hashes store = { 0 };
	uint64_t *keys;
	uint32_t id;
	size_t i, n, bad = 0, diff = 0, klen;
	const char *k;
	double j;
	int r;

	init(&d1, 0.7, REC_LINES);
	init(&d2, 0.7, REC_LINES);
	keys = calloc(N, d2.lsh.b * sizeof(*keys));
	if (!CHECK(it != NULL && keys != NULL, "calloc"))
		return;
	for (i = 0; i < N; i++) {
		if (i % 5 == 0)
			random_line(line[i], sizeof(line[i]),
			    6 + splitmix64(&seed) % 10);
		else
			mutate(line[i], sizeof(line[i]), line[i - i % 5 +
			    splitmix64(&seed) % (i % 5)], splitmix64(&seed) %
			    6);
		it[i].rec = line[i];
		it[i].len = strlen(line[i]);
	}
	for (i = 0; i < N; i += BATCH) {
		n = N - i < BATCH ? N - i : BATCH;
		dedup_look(&d2, it + i, n);
		dedup_sketch(&d2.one, it + i, n, keys + i * d2.lsh.b, &store);
		CHECK(dedup_batch(&d2, it + i, n, keys + i * d2.lsh.b,
		    &store) == n,
		    "batch cut short");
	}
	for (i = 0; i < N; i++) {
		r = add(&d1, line[i], &id);
		diff += (r == DEDUP_KEPT) != it[i].kept || id != it[i].id;
		if (r == DEDUP_KEPT)
			continue;
		k = dedup_record(&d1, id, &klen);
		j = jaccard(line[i], strlen(line[i]), k, klen);
		if (j < 0.7 || id >= dedup_kept(&d1))
			bad++;
	}
	CHECK(bad == 0, "%zu duplicates below t", bad);
	CHECK(diff == 0, "%zu records differ between the APIs", diff);
	CHECK(d1.st.near > N / 4, "only %llu near-duplicates",
	    (unsigned long long)d1.st.near);
	dedup_free(&d1);
	dedup_free(&d2);
	free(it);
	free(keys);
	recsim_hashes_free(&store);
}

/* Pairs at resemblance t + 0.1 or more are found (LSH_RECALL). */
static void
test_recall(void)
{
	enum { N = 600 };
	static char base[N][256], copy[256];
	struct dedup d;
	uint32_t id;
	size_t i, found = 0, pairs = 0;
	double j;

	init(&d, 0.7, REC_LINES);
	for (i = 0; i < N; i++) {
		random_line(base[i], sizeof(base[i]), 14);
		add(&d, base[i], &id);
	}
	for (i = 0; i < N; i++) {
		mutate(copy, sizeof(copy), base[i], splitmix64(&seed) % 14);
		j = jaccard(base[i], strlen(base[i]), copy, strlen(copy));
		if (j < 0.8 || j >= 1)
			continue;
		pairs++;
		found += add(&d, copy, &id) == DEDUP_DUP;
	}
	if (!CHECK(pairs > N / 2, "only %zu pairs at 0.8 or more", pairs))
		return;
	CHECK(found >= 0.98 * pairs, "found %zu of %zu", found, pairs);
	dedup_free(&d);
}

/*
 * recsim's answer from the cache is the one from the text: for a record
 * remembered, with its shingles, and for one compared once; a record it
 * never met is not cached.
 */
static void
test_resemblance_cached(void)
{
	struct scheme sc = chars5();
	struct recsim rs;
	struct recsim_hashes a = { 0 }, b = { 0 }, bd = { 0 };
	struct recsim_set set = { 0 };
	char x[256], y[256];
	size_t k;
	int full, got;

	recsim_init(&rs, &sc);
	for (k = 0; k < 200; k++) {
		random_line(x, sizeof(x), 10);
		mutate(y, sizeof(y), x, k % 10);
		recsim_shingle(&rs, x, strlen(x), &a);
		recsim_shingle(&rs, y, strlen(y), &b);
		recsim_hold(&rs, a.h, a.n);
		CHECK(recsim_similar_cached(&rs, (uint32_t)(2 * k), 0.5) == -1,
		    "line %zu: cached before it was met", k);
		full = recsim_similar(&rs, (uint32_t)(2 * k), y, strlen(y),
		    0.5);
		CHECK(full == (jaccard(x, strlen(x), y, strlen(y)) >= 0.5),
		    "line %zu: resemblance %d", k, full);
		got = recsim_similar_cached(&rs, (uint32_t)(2 * k), 0.5);
		CHECK(got == full, "line %zu: %d from the cache, %d from the "
		    "text", k, got, full);
		recsim_hold(&rs, b.h, b.n);
		/* Remembered from its hashes: it resembles itself whole. */
		bd.n = 0;
		recsim_distinct_start(&set);
		recsim_distinct_add(&set, b.h, b.n, &bd);
		recsim_remember(&rs, (uint32_t)(2 * k + 1), bd.h, bd.n);
		CHECK(recsim_similar_cached(&rs, (uint32_t)(2 * k + 1), 1) ==
		    1, "line %zu: remembered, not found", k);
	}
	recsim_hashes_free(&a);
	recsim_hashes_free(&b);
	recsim_hashes_free(&bd);
	recsim_set_free(&set);
	recsim_free(&rs);
}

/*
 * The cache's ring grows for the lookups it makes miss, not for the
 * hashes that go through it: records remembered over many laps, never
 * looked up, leave it as it was; lookups of records it has come round
 * over make it grow; and a record just remembered is found.
 */
static void
test_ring_growth(void)
{
	enum { PER = 100, IDS = 10 * RECSIM_RING_MIN / PER };
	struct scheme sc = chars5();
	struct recsim rs;
	uint64_t h[PER];
	uint32_t id;
	size_t i, missed = 0;

	recsim_init(&rs, &sc);
	for (id = 0; id < IDS; id++) {
		for (i = 0; i < PER; i++)
			h[i] = splitmix64(&seed);
		recsim_remember(&rs, id, h, PER);
	}
	CHECK(rs.ringcap == RECSIM_RING_MIN, "%zu hashes through a ring "
	    "never looked in: it grew from %d to %zu", (size_t)IDS * PER,
	    RECSIM_RING_MIN, rs.ringcap);
	recsim_hold(&rs, h, PER);
	CHECK(recsim_similar_cached(&rs, IDS - 1, 1) == 1,
	    "the record last remembered is not found");
	for (id = 0; id < 200; id++)
		missed += recsim_similar_cached(&rs, id, 0.5) == -1;
	CHECK(missed == 200, "%zu of 200 records the ring came round over "
	    "found", 200 - missed);
	recsim_remember(&rs, IDS, h, PER);
	CHECK(rs.ringcap == 2 * RECSIM_RING_MIN, "after 200 lookups made to "
	    "miss, the ring holds %zu hashes, not %d", rs.ringcap,
	    2 * RECSIM_RING_MIN);
	CHECK(recsim_similar_cached(&rs, IDS, 1) == 1,
	    "the record remembered after growing is not found");
	recsim_free(&rs);
}

/*
 * The distinct hashes of a record met in batches of any size are those of
 * the record met whole, in order, however many: the set grows with them.
 * A record of many shingles is cached too, once compared.
 */
static void
test_distinct_batches(void)
{
	struct scheme sc = chars5();
	struct recsim rs;
	struct recsim_hashes all = { 0 }, want = { 0 }, got = { 0 }, a = { 0 };
	struct recsim_set set = { 0 };
	uint64_t state = 7;
	size_t i, j, n, step;
	char *big;

	for (i = 0; i < 300000; i++) {
		state = state * 6364136223846793005ULL + 1442695040888963407ULL;
		/* About 60000 distinct values, each met five times. */
		n = (size_t)(state >> 33) % 60000;
		recsim_sink(&all, &(uint64_t){ n * 0x9E3779B97F4A7C15ULL },
		    NULL, 1);
	}
	/* The distinct ones of the first 20000, in order, the slow way. */
	for (i = 0; i < 20000; i++) {
		for (j = 0; j < want.n && want.h[j] != all.h[i]; j++)
			continue;
		if (j == want.n)
			recsim_sink(&want, &all.h[i], NULL, 1);
	}
	for (step = 1; step <= 4097; step = step * 8 + 1) {
		got.n = 0;
		recsim_distinct_start(&set);
		for (i = 0; i < all.n; i += n) {
			n = all.n - i < step ? all.n - i : step;
			recsim_distinct_add(&set, all.h + i, n, &got);
		}
		CHECK(set.n == got.n && got.n > 55000 && got.n <= 60000,
		    "batches of %zu: %zu distinct, %zu in the set", step,
		    got.n, set.n);
		for (i = 0; i < want.n; i++)
			CHECK(got.h[i] == want.h[i], "batches of %zu: hash %zu "
			    "out of order", step, i);
	}
	/* 40000 characters: some 40000 distinct 5-grams, past 4096. */
	big = malloc(40001);
	CHECK(big != NULL, "malloc");
	for (i = 0; i < 40000; i++) {
		state = state * 6364136223846793005ULL + 1442695040888963407ULL;
		big[i] = "abcdefghijklmnopqrstuvwxyz  "[(state >> 33) % 28];
	}
	big[40000] = '\0';
	recsim_init(&rs, &sc);
	recsim_shingle(&rs, big, 40000, &a);
	recsim_hold(&rs, a.h, a.n);
	CHECK(recsim_similar(&rs, 1, big, 40000, 1) == 1, "big: not itself");
	CHECK(recsim_similar_cached(&rs, 1, 1) == 1, "big: not cached");
	recsim_free(&rs);
	free(big);
	recsim_hashes_free(&all);
	recsim_hashes_free(&want);
	recsim_hashes_free(&got);
	recsim_hashes_free(&a);
	recsim_set_free(&set);
}

/*
 * A pair is similar at a threshold of exactly its resemblance, and not at
 * the next double above: the comparison that gives up once too many
 * shingles are missing gives up neither too soon nor too late.
 */
static void
test_resemblance_edge(void)
{
	struct scheme sc = chars5();
	struct recsim rs;
	struct recsim_hashes a = { 0 };
	char x[256], y[256], z[256];
	size_t k, bad = 0;
	double j;
	int at, above;

	recsim_init(&rs, &sc);
	for (k = 0; k < 300; k++) {
		random_line(x, sizeof(x), 4 + k % 12);
		mutate(y, sizeof(y), x, k % 7);
		if (k % 3 == 0)
			mutate(y, sizeof(y), strcpy(z, y), k % 5);
		j = jaccard(x, strlen(x), y, strlen(y));
		recsim_shingle(&rs, x, strlen(x), &a);
		recsim_hold(&rs, a.h, a.n);
		at = recsim_similar(&rs, (uint32_t)(2 * k), y, strlen(y), j);
		above = recsim_similar(&rs, (uint32_t)(2 * k + 1), y,
		    strlen(y), nextafter(j, 2));
		if (at != 1 || above != 0) {
			bad++;
			CHECK(0, "resemblance %.17g: %d at it, %d above", j,
			    at, above);
		}
	}
	CHECK(bad == 0, "%zu of 300 pairs misjudged", bad);
	recsim_hashes_free(&a);
	recsim_free(&rs);
}

static void
test_memory(void)
{
	enum { N = 60000 };
	char buf[256];
	struct dedup d;
	uint32_t id;
	double per;
	size_t i;

	init(&d, 0.7, REC_LINES);
	for (i = 0; i < N; i++) {
		random_line(buf, sizeof(buf), 12);
		add(&d, buf, &id);
	}
	per = (double)dedup_memory(&d) / (double)dedup_kept(&d);
	CHECK(dedup_kept(&d) > N * 0.99, "%zu kept", dedup_kept(&d));
	CHECK(per <= 9 + 15 * (d.lsh.b + 1) + 16, "%.1f bytes a record",
	    per);
	CHECK(per <= 256, "%.1f bytes a record", per);
	dedup_free(&d);
}

/* Are the pages of p[0..len) resident, within 10 s? */
static int
resident(const char *p, size_t len)
{
	struct timespec ms = { 0, 1000000 };
	uintptr_t a = (uintptr_t)p & ~(uintptr_t)4095;
	unsigned char v[80];
	size_t i, n = ((uintptr_t)p + len - a + 4095) / 4096;
	int tries;

	if (n > sizeof(v))
		return 0;
	for (tries = 0; tries < 10000; tries++) {
		if (mincore((void *)a, n * 4096, v) != 0)
			return 0;
		for (i = 0; i < n && (v[i] & 1); i++)
			;
		if (i == n)
			return 1;
		nanosleep(&ms, NULL);
	}
	return 0;
}

/*
 * Past a MiB of text, the pages the text will grow into are faulted in
 * ahead; the buffer moves as it grows, and every record reads back.
 */
static void
test_text_ahead(void)
{
	enum { N = 40000 };
	char buf[256], (*lines)[288] = calloc(N, sizeof(*lines));
	struct dedup d;
	uint32_t id;
	size_t i, len, bad = 0, checked = 0;
	const char *rec;

	if (!CHECK(lines != NULL, "calloc"))
		return;
	init(&d, 0.7, REC_LINES);
	for (i = 0; i < N; i++) {
		random_line(buf, sizeof(buf), 16);
		snprintf(lines[i], sizeof(lines[i]), "%zu %s", i, buf);
		if (add(&d, lines[i], &id) != DEDUP_KEPT || id != i)
			bad++;
		/* Half a MiB past the end is always asked for. */
		if (d.pf != NULL && d.text.len > 2 * 1024 * 1024 &&
		    i % 5000 == 0 && ++checked &&
		    !CHECK(resident(d.text.data + d.text.len, 256 * 1024),
		    "%zu bytes of text: the next pages not faulted in",
		    d.text.len))
			break;
	}
	CHECK(bad == 0, "%zu records not kept as numbered", bad);
	CHECK(d.pf == NULL || checked >= 3, "checked %zu times", checked);
	for (i = 0; i < dedup_kept(&d); i++) {
		rec = dedup_record(&d, (uint32_t)i, &len);
		bad += len != strlen(lines[i]) || memcmp(rec, lines[i], len);
	}
	CHECK(bad == 0, "%zu records read back wrong", bad);
	dedup_free(&d);
	free(lines);
}

/* Threads of this process, or 0 if /proc does not say. */
static size_t
threads(void)
{
	DIR *dir;
	struct dirent *e;
	size_t n = 0;

	if ((dir = opendir("/proc/self/task")) == NULL)
		return 0;
	while ((e = readdir(dir)) != NULL)
		n += e->d_name[0] != '.';
	closedir(dir);
	return n;
}

/*
 * Do the threads fall to n within 10 s?  A thread joined may still be
 * listed for a moment, as under an emulator, where the thread that ran it
 * ends after the one it emulated.
 */
static int
threads_fall_to(size_t n)
{
	struct timespec ms = { 0, 1000000 };
	int tries;

	for (tries = 0; tries < 10000 && threads() > n; tries++)
		(void)nanosleep(&ms, NULL);
	return threads() == n;
}

/*
 * Both tables grow in one job thread, and the text is faulted in ahead by
 * another, each started only when first needed: none for a few records.
 */
static void
test_helper_threads(void)
{
	char buf[256];
	struct dedup d;
	uint32_t id;
	size_t i, before = threads();

	if (before == 0)
		return;
	init(&d, 0.7, REC_LINES);
	for (i = 0; i < 100; i++) {
		random_line(buf, sizeof(buf), 12);
		add(&d, buf, &id);
	}
	CHECK(threads() == before, "%zu threads for 100 records",
	    threads() - before);
	/* Every part of both tables grows in the job thread. */
	d.exact.bgmin = d.bands.bgmin = 0;
	for (i = 0; i < 40000; i++) {
		random_line(buf, sizeof(buf), 12);
		add(&d, buf, &id);
	}
	CHECK(threads() == before + 1 + (d.pf != NULL),
	    "%zu threads growing the tables and faulting in the text",
	    threads() - before);
	dedup_free(&d);
	CHECK(threads_fall_to(before), "%zu threads left", threads() - before);
}

int
main(void)
{
	make_words();
	RUN(test_helper_threads);
	RUN(test_sizes_rule_out);
	RUN(test_marks);
	RUN(test_screen_exact);
	RUN(test_text_ahead);
	RUN(test_bands);
	RUN(test_near_pair);
	RUN(test_unrelated);
	RUN(test_exact_short_circuit);
	RUN(test_repeated_near_duplicate);
	RUN(test_empty_records);
	RUN(test_tsv);
	RUN(test_sound_and_batched);
	RUN(test_recall);
	RUN(test_resemblance_cached);
	RUN(test_ring_growth);
	RUN(test_distinct_batches);
	RUN(test_resemblance_edge);
	RUN(test_memory);
	return unit_status();
}
