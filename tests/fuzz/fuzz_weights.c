/*
 * Fuzz target: the weights file reader (--weights FILE).
 *
 * The input is one option byte (bit 0: --keep-case, bit 1: --keep-punct,
 * bits 2-7: the seed) and the file, which is handed to weights_load()
 * through a memory file.  A table that loads holds the weight of each
 * plain word line, loads again with the same digest, and weighs the
 * shingles of a weighted simhash the same however the text is cut.
 */
#include <sys/mman.h>

#include <math.h>
#include <string.h>
#include <unistd.h>

#include "digest.h"
#include "fuzz.h"
#include "scheme.h"
#include "shingle.h"
#include "weights.h"

static int memfd = -1;
static char path[64];

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if ((memfd = memfd_create("weights", MFD_CLOEXEC)) == -1) {
		perror("memfd_create");
		abort();
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", memfd);
	return 0;
}

/* Is tok[0..len) a word that normalization leaves as it is? */
static int
plain_word(const char *tok, size_t len, const struct scheme *sc)
{
	size_t i;

	if (len == 0)
		return 0;
	for (i = 0; i < len; i++) {
		if ((tok[i] >= 'a' && tok[i] <= 'z') ||
		    (tok[i] >= '0' && tok[i] <= '9'))
			continue;
		if (sc->keepcase && tok[i] >= 'A' && tok[i] <= 'Z')
			continue;
		return 0;
	}
	return 1;
}

/* Each line "WORD<TAB>WEIGHT" of a plain word has its weight in w. */
static void
check_lines(const struct weights *w, const struct scheme *sc,
    const char *p, size_t len)
{
	const char *end = p + len, *eol, *tab;
	char num[64], *e;
	size_t n;
	double v;

	for (; p < end; p = eol + 1) {
		if ((eol = memchr(p, '\n', (size_t)(end - p))) == NULL)
			eol = end;
		n = (size_t)(eol - p);
		if (n > 0 && p[n - 1] == '\r')
			n--;
		if ((tab = memchr(p, '\t', n)) == NULL ||
		    !plain_word(p, (size_t)(tab - p), sc))
			continue;
		if (n - (size_t)(tab + 1 - p) >= sizeof(num))
			continue;
		memcpy(num, tab + 1, n - (size_t)(tab + 1 - p));
		num[n - (size_t)(tab + 1 - p)] = '\0';
		v = strtod(num, &e);
		FUZZ_CHECK(*e == '\0' && isfinite(v) && v >= 0);
		FUZZ_CHECK(weights_get(w, shingle_token_hash(p,
		    (size_t)(tab - p), sc->seed)) == v);
	}
}

/* A weighted simhash of text, whole and in blocks. */
static void
check_simhash(const struct weights *w, const struct scheme *wsc,
    const uint8_t *text, size_t len, uint64_t split)
{
	struct digest d;
	uint64_t v;
	size_t n;

	digest_init(&d, wsc, w, NULL);
	digest_feed(&d, text, len);
	v = digest_end(&d)[0];
	while (len > 0) {
		n = fuzz_block(&split, len);
		digest_feed(&d, text, n);
		text += n;
		len -= n;
	}
	FUZZ_CHECK(digest_end(&d)[0] == v);
	digest_free(&d);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	struct weights w, again;
	struct weights_error e;
	struct scheme sc;
	size_t lines, i;
	unsigned b0;

	b0 = fuzz_byte(&in);
	memset(&sc, 0, sizeof(sc));
	sc.algo = ALGO_SIMHASH;
	sc.size = 64;
	sc.ngram = 3;
	sc.keepcase = b0 & 1;
	sc.keeppunct = (b0 >> 1) & 1;
	sc.seed = b0 >> 2;

	if (ftruncate(memfd, 0) == -1 || (in.n > 0 &&
	    pwrite(memfd, in.p, in.n, 0) != (ssize_t)in.n)) {
		perror("memfd");
		abort();
	}
	for (lines = 1, i = 0; i < in.n; i++)
		lines += in.p[i] == '\n';

	if (weights_load(&w, path, &sc, &e) == -1) {
		FUZZ_CHECK(e.line > 0 ? e.why != NULL && e.line <= lines :
		    e.errnum != 0);
		FUZZ_CHECK(w.key == NULL && w.n == 0);
		return 0;
	}
	FUZZ_CHECK(w.n <= lines && w.n < w.cap);
	check_lines(&w, &sc, (const char *)in.p, in.n);
	FUZZ_CHECK(weights_load(&again, path, &sc, &e) == 0);
	FUZZ_CHECK(again.n == w.n && again.digest == w.digest);
	weights_free(&again);

	sc.weighted = 1;
	sc.wdigest = w.digest;
	check_simhash(&w, &sc, in.p, in.n, b0);
	sc.size = 128;
	sc.ngram = 1 + b0 % 4;
	check_simhash(&w, &sc, in.p, in.n, b0 + 1);
	weights_free(&w);
	return 0;
}
