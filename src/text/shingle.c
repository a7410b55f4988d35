/*
 * Tokenizing, n-gram windows and shingle hashing.
 *
 * Definitions (format nd1), every hash XXH3-64 with the scheme's seed:
 *  - a word's hash is XXH3 of its normalized UTF-8 bytes; a character's
 *    hash is XXH3 of its code point as 4 little-endian bytes;
 *  - the hash of an n-gram of item hashes t_1 .. t_n is XXH3 of the 8
 *    little-endian bytes of  rotl(t_1, n-1) ^ rotl(t_2, n-2) ^ ... ^ t_n;
 *    a document with m < n items has one shingle, the same with n = m;
 *  - under --multiset the i-th occurrence (i >= 2) of a shingle hash h
 *    becomes XXH3 of (h, i) as 16 little-endian bytes.
 * The XOR of rotations rolls in O(1) per item: shift the window by one
 * rotation, XOR out the item that leaves (now rotated by n), XOR in the
 * new one.  Only the final XXH3 of 8 bytes is computed per shingle.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "byteorder.h"
#include "cpu.h"
#include "shingle.h"
#include "token.h"
#include "utf8.h"
#include "weights.h"
#include "window.h"
#include "wordvec.h"
#include "xmalloc.h"
#include "xxh.h"

static void	scan_flush(void *);

uint64_t
shingle_token_hash(const void *tok, size_t len, uint64_t seed)
{
	return token_hash(tok, len, seed);
}

/*
 * The item hash of a character: from the tables, those below U+0800 made
 * as they are first met (a text uses few of them, over and over).
 */
static uint64_t
char_hash(struct shingler *s, uint32_t cp)
{
	if (cp < 128)
		return s->ws.ascii[cp];
	if (cp >= TOKEN_TWO)
		return cp < TOKEN_THREE ? scan_three_hash(&s->ws, cp) :
		    token_char_hash(cp, s->ws.seed);
	return scan_two_hash(&s->ws, cp);
}

void
shingle_init(struct shingler *s, const struct scheme *sc,
    const struct weights *wt, shingle_sink *sink, void *ctx)
{
	uint32_t c;

	memset(s, 0, sizeof(*s));
	s->ws.n = sc->ngram;
	s->chars = sc->chars;
	s->ws.keepcase = sc->keepcase;
	s->ws.keeppunct = sc->keeppunct;
	s->multiset = sc->multiset;
	s->ws.seed = sc->seed;
	s->wt = wt;
	s->sink = sink;
	s->ctx = ctx;
	s->ws.flush = scan_flush;
	s->ws.flushctx = s;
#ifdef CPU_AVX512_SCAN
	s->ws.ssse3 = (cpu_usable() & CPU_SSSE3) != 0;
	s->ws.v3 = (cpu_usable() & CPU_LEVEL_V3) != 0;
	s->ws.gather = (cpu_usable() & CPU_GATHER) != 0;
	s->ws.avx512 = cpu_usable() & CPU_AVX512_TEXT ? 2 :
	    (cpu_usable() & CPU_AVX512_WORDS) != 0;
	if (s->ws.avx512)
		wordvec_init(&s->ws);
#endif
#ifdef CPU_AVX2_SCAN
	s->ws.avx2 = (cpu_usable() & CPU_AVX2) != 0;
#endif
#ifdef CPU_BLOCK_SCAN
	/*
	 * Only the portable word scanner looks words up in the cache; with
	 * AVX-512, wordvec.c hashes them in batches instead.
	 */
	if (!s->ws.avx512 && !s->chars && wt == NULL)
		s->ws.cache = xcalloc((size_t)1 << SCAN_CACHE_BITS,
		    sizeof(*s->ws.cache));
#endif
	for (c = 0; c < 128; c++) {
		s->ws.ascii[c] = token_char_hash(c, s->ws.seed);
		s->ws.lin[c] = xxh_le64_lin(s->ws.ascii[c]);
	}
	s->cls = token_classes(sc->keeppunct, sc->keepcase);
	s->ws.two = token_two(sc->keeppunct, sc->keepcase);
}

/* Number of earlier occurrences of h in this document, plus one. */
static uint32_t
occurrence(struct shingle_counts *c, uint64_t h)
{
	size_t i, mask, oldcap;
	uint64_t *okey;
	uint32_t *ocount;

	if (c->used * 4 >= c->cap * 3) {
		okey = c->key;
		ocount = c->count;
		oldcap = c->cap;
		c->cap = oldcap ? oldcap * 2 : 1024;
		c->key = xreallocarray(NULL, c->cap, sizeof(*c->key));
		c->count = xcalloc(c->cap, sizeof(*c->count));
		c->used = 0;
		for (i = 0; i < oldcap; i++) {
			size_t j = ocount[i] ? (size_t)okey[i] & (c->cap - 1) : 0;

			if (ocount[i] == 0)
				continue;
			while (c->count[j] != 0)
				j = (j + 1) & (c->cap - 1);
			c->key[j] = okey[i];
			c->count[j] = ocount[i];
			c->used++;
		}
		free(okey);
		free(ocount);
	}
	mask = c->cap - 1;
	for (i = (size_t)h & mask; c->count[i] != 0; i = (i + 1) & mask)
		if (c->key[i] == h)
			return c->count[i] < UINT32_MAX ? ++c->count[i] :
			    c->count[i];
	c->key[i] = h;
	c->count[i] = 1;
	c->used++;
	return 1;
}

/*
 * out[] holds the rolled XORs: finish each with XXH3 here, in a loop of
 * independent iterations, and label repeated shingles under --multiset.
 */
static inline __attribute__((always_inline)) void
finish_body(uint64_t *out, size_t n, uint64_t seed)
{
	xxh_le64_many(out, n, seed);
}

CPU_LEVELS(finish, (uint64_t *out, size_t n, uint64_t seed), (out, n, seed))

/* Finish the n-grams queued, so that finished ones can follow. */
static void
settle(struct shingler *s)
{
	finish(s->ws.out + s->ws.nfin, s->ws.nout - s->ws.nfin, s->ws.seed);
	s->ws.nfin = s->ws.nout;
}

/* Hand the queued n-grams to the sink. */
static void
flush(struct shingler *s)
{
	uint64_t in[2];
	uint32_t occ;
	size_t i;

	settle(s);
	if (s->multiset) {
		for (i = 0; i < s->ws.nout; i++) {
			if ((occ = occurrence(&s->counts, s->ws.out[i])) > 1) {
				in[0] = le64(s->ws.out[i]);
				in[1] = le64(occ);
				s->ws.out[i] = xxh_bytes(in, sizeof(in),
				    s->ws.seed);
			}
		}
	}
	if (s->ws.nout > 0)
		s->sink(s->ctx, s->ws.out, s->wt ? s->outw : NULL, s->ws.nout);
	s->ws.nout = s->ws.nfin = 0;
}

/* flush for the block scanners (scan.h), which know no shingler. */
static void
scan_flush(void *ctx)
{
	flush(ctx);
}

#ifdef CPU_BLOCK_SCAN
/*
 * The block scanners (scan.h), from p between words: give them the queue
 * finished, as they queue n-grams finished.
 *
 * A tail shorter than a block, a line as a rule, is scanned from a copy
 * padded with spaces: len bytes of p, and a tail of words up to its last
 * separator or of characters that ends in an ASCII byte, so that no word
 * or character of several bytes goes on past it.  The padding makes no
 * items; for characters, it leaves a separator pending, and what pendsep
 * should be after the tail is set from its last byte.  Only tails of
 * SCAN_TAIL_MIN bytes or more, as the scanner's start and end cost more
 * than the byte-at-a-time way saves on fewer.  Returns where the scanner
 * stopped, and in *scalar_until where the byte-at-a-time way goes on to.
 */
#define SCAN_TAIL_MIN	16

static const unsigned char *
scan_tail(struct shingler *s, const unsigned char *p, size_t len,
    const unsigned char **scalar_until)
{
	/* A block, and spaces past it as a margin. */
	unsigned char pad[64 + 32];
	const unsigned char *q, *until = pad;

	memcpy(pad, p, len);
	memset(pad + len, ' ', sizeof(pad) - len);
	q = s->chars ? blockscan_chars(&s->ws, pad, pad + 64, &until) :
	    blockscan_words(&s->ws, pad, pad + 64, &until);
	if (q >= pad + len) {
		if (s->chars)
			s->ws.pendsep = s->cls[p[len - 1]] == TOKEN_SEP;
		*scalar_until = p + len;
		return p + len;
	}
	*scalar_until = p + (until < pad + len ? (size_t)(until - pad) : len);
	return p + (q - pad);
}

static const unsigned char *
scan_words(struct shingler *s, const unsigned char *p,
    const unsigned char *end, const unsigned char **scalar_until)
{
	const unsigned char *q;
	size_t len = (size_t)(end - p);

	settle(s);
	if (len < 64) {
		while (len > 0 && s->cls[p[len - 1]] != TOKEN_SEP)
			len--;
		if (len >= SCAN_TAIL_MIN) {
			q = scan_tail(s, p, len, scalar_until);
			if (q == p + len)
				*scalar_until = end;	/* the last word */
			return q;
		}
	}
	return blockscan_words(&s->ws, p, end, scalar_until);
}

static const unsigned char *
scan_chars(struct shingler *s, const unsigned char *p,
    const unsigned char *end, const unsigned char **scalar_until)
{
	size_t len = (size_t)(end - p);

	settle(s);
	if (len < 64 && len >= SCAN_TAIL_MIN && end[-1] < 0x80)
		return scan_tail(s, p, len, scalar_until);
	return blockscan_chars(&s->ws, p, end, scalar_until);
}
#endif

/* Queue the n-gram of the m newest items (m <= n). */
static inline void
emit_window(struct shingler *s, unsigned m)
{
	unsigned i, j;
	double w = 0;

	if (s->wt != NULL) {
		/* Oldest to newest, so that the sum is the same every time. */
		for (i = 0, j = s->ws.pos + s->ws.n - m; i < m; i++, j++)
			w += s->wwin[j % s->ws.n];
		s->outw[s->ws.nout] = w / m;
	}
	s->ws.out[s->ws.nout] = s->ws.roll;
	if (++s->ws.nout == SHINGLE_BATCH)
		flush(s);
}

/* Slide the window by one item of hash t (and weight w). */
static inline void
push(struct shingler *s, uint64_t t, double w)
{
	scan_window_plain(&s->ws);
	s->wwin[s->ws.pos] = w;
	if (window_slide(&s->ws.roll, &s->ws.seen, &s->ws.pos, s->ws.win, s->ws.n, t))
		emit_window(s, s->ws.n);
}

static void
push_char(struct shingler *s, uint32_t cp)
{
	push(s, char_hash(s, cp), 0);
}

static void
push_word(struct shingler *s, uint64_t th)
{
	push(s, th, s->wt != NULL ? weights_get(s->wt, th) : 0);
}

static void
end_token(struct shingler *s)
{
	uint64_t th;

	if (s->tokstream) {
		XXH3_64bits_update(s->st, s->tok, s->toklen);
		th = XXH3_64bits_digest(s->st);
		s->tokstream = 0;
	} else
		th = token_hash(s->tok, s->toklen, s->ws.seed);
	s->toklen = 0;
	push_word(s, th);
}

/* The token buffer is full: continue the token in a streaming hash. */
static void
spill_token(struct shingler *s)
{
	if (!s->tokstream) {
		if (s->st == NULL && (s->st = XXH3_createState()) == NULL)
			abort();
		XXH3_64bits_reset_withSeed(s->st, s->ws.seed);
		s->tokstream = 1;
	}
	XXH3_64bits_update(s->st, s->tok, s->toklen);
	s->toklen = 0;
}

static void
add_tok(struct shingler *s, const unsigned char *p, size_t len)
{
	size_t n;

	while (len > 0) {
		if (s->toklen == SHINGLE_TOKMAX)
			spill_token(s);
		n = SHINGLE_TOKMAX - s->toklen;
		n = n < len ? n : len;
		memcpy(s->tok + s->toklen, p, n);
		s->toklen += n;
		p += n;
		len -= n;
	}
}

static void
separator(struct shingler *s)
{
	if (s->chars)
		s->ws.pendsep = 1;
	else if (s->toklen > 0 || s->tokstream)
		end_token(s);
}

/* A code point of a word, as the token holds it (token_fold). */
static void
put_held(struct shingler *s, uint32_t cp)
{
	if (s->chars) {
		if (s->ws.pendsep && s->ws.anychar)
			push_char(s, ' ');
		s->ws.pendsep = 0;
		s->ws.anychar = 1;
		push_char(s, cp);
		return;
	}
	/* (A token hashed in a stream has the same hash.) */
	if (s->toklen > SHINGLE_TOKMAX - 4)
		spill_token(s);
	s->toklen += utf8_encode(cp, s->tok + s->toklen);
}

/* One code point of any kind (the slow path). */
static void
put_cp(struct shingler *s, uint32_t cp)
{
	if (token_isword(cp, s->ws.keeppunct))
		put_held(s, token_fold(cp, s->ws.keepcase));
	else
		separator(s);
}

/*
 * A code point of two bytes at p (two of them readable): put as the
 * table token_two gives it, and 2 returned; else 0.  Such a sequence
 * (C2 to DF, then 80 to BF) is always valid, and is most of the non-ASCII
 * text of European languages.
 */
static inline size_t
put_two(struct shingler *s, const unsigned char *p)
{
	uint32_t cp;

	if (p[0] < 0xC2 || p[0] > 0xDF || (p[1] & 0xC0) != 0x80)
		return 0;
	cp = s->ws.two[(p[0] & 0x1Fu) << 6 | (p[1] & 0x3Fu)];
	if (cp != 0)
		put_held(s, cp);
	else
		separator(s);
	return 2;
}

/*
 * Words: the code points of two and three bytes from p on (before end)
 * while they are word characters, onto the token, or one that is a
 * separator; returns the bytes taken, 0 if p holds no such code point.
 * Cyrillic, Greek and the like are runs of two bytes (token_two), CJK,
 * kana, Hangul, Indic scripts and Thai of three (scan_three); sentences of
 * CJK, whose fullwidth commas are word characters, are words longer than
 * the block scanners take, and come this way.  What neither settles (a
 * letter of three bytes that folds, an invalid sequence) is put_high's.
 */
static size_t
put_run(struct shingler *s, const unsigned char *p, const unsigned char *end)
{
	const unsigned char *q = p;
	uint32_t cp = 0;
	size_t n;
	int k;

	for (;; q += n) {
		if (end - q >= 2 && q[0] >= 0xC2 && q[0] <= 0xDF &&
		    (q[1] & 0xC0) == 0x80) {
			n = 2;
			cp = s->ws.two[(q[0] & 0x1Fu) << 6 | (q[1] & 0x3Fu)];
			k = cp != 0 ? SCAN_LETTER : SCAN_SEP;
		} else if (end - q >= 3 && (q[0] & 0xF0) == 0xE0) {
			n = 3;
			k = scan_three(&s->ws, q);
		} else
			break;
		if (k != SCAN_LETTER) {
			if (q == p && k == SCAN_SEP) {
				separator(s);
				q += n;
			}
			break;
		}
		if (s->toklen > SHINGLE_TOKMAX - 3)
			spill_token(s);
		if (n == 2)	/* folded: below U+0800 again */
			s->toklen += utf8_encode(cp, s->tok + s->toklen);
		else {		/* as it is */
			memcpy(s->tok + s->toklen, q, 3);
			s->toklen += 3;
		}
	}
	return (size_t)(q - p);
}

/* Decode from p, returning bytes used, or 0 if the sequence is unfinished. */
static size_t
put_high(struct shingler *s, const unsigned char *p, size_t len, int at_end)
{
	uint32_t cp;
	size_t r;

	if ((r = utf8_decode(p, len, at_end, &cp)) > 0)
		put_cp(s, cp);
	return r;
}

/*
 * Finish a sequence left unfinished by the previous block with the first
 * bytes of this one; returns how many bytes of buf were used.
 */
static size_t
finish_carry(struct shingler *s, const unsigned char *buf, size_t len)
{
	unsigned char tmp[8];
	size_t have = s->ncarry, take = len < 4 ? len : 4, pos = 0, r;

	memcpy(tmp, s->carry, have);
	memcpy(tmp + have, buf, take);
	while (pos < have) {
		r = put_high(s, tmp + pos, have + take - pos, 0);
		if (r == 0) {
			/* Still unfinished: all of buf joins the carry. */
			memmove(s->carry, tmp + pos, have + take - pos);
			s->ncarry = have + take - pos;
			return len;
		}
		pos += r;
	}
	s->ncarry = 0;
	return pos - have;
}

void
shingle_feed(struct shingler *s, const void *buf, size_t len)
{
	const unsigned char *p = buf, *end = p + len;
	const unsigned char *cls = s->cls, *start;
#ifdef CPU_BLOCK_SCAN
	const unsigned char *scalar_until = p;
#endif
	const unsigned char *fold = token_ascii(s->ws.keepcase);
	size_t r;

	if (s->ncarry > 0)
		p += finish_carry(s, p, len);
	if (s->chars) {
		for (; p < end; p++) {
#ifdef CPU_BLOCK_SCAN
			if (p >= scalar_until && s->wt == NULL &&
			    (p = scan_chars(s, p, end, &scalar_until)) ==
			    end)
				break;
#endif
			switch (cls[*p]) {
			case TOKEN_WORD:
			case TOKEN_UPPER:
				if (s->ws.pendsep && s->ws.anychar)
					push_char(s, ' ');
				s->ws.pendsep = 0;
				s->ws.anychar = 1;
				push_char(s, fold[*p]);
				break;
			case TOKEN_SEP:
				s->ws.pendsep = 1;
				break;
			default:
				if (end - p >= 2 && put_two(s, p) > 0)
					p++;
				else if ((r = put_high(s, p,
				    (size_t)(end - p), 0)) == 0)
					goto carry;
				else
					p += r - 1;
			}
		}
		return;
	}
	while (p < end) {
		if (s->toklen == 0 && !s->tokstream) {
#ifdef CPU_BLOCK_SCAN
			/*
			 * Between words, 64 bytes at a time: words are the
			 * runs of ones in a bitmap.  A block with non-ASCII
			 * bytes goes the scalar way.
			 */
			if (p >= scalar_until && s->wt == NULL)
				p = scan_words(s, p, end, &scalar_until);
			if (p == end)
				break;
#endif
			/*
			 * A word of plain lower-case ASCII that ends in this
			 * block is hashed where it lies.
			 */
			while (p < end && cls[*p] == TOKEN_SEP)
				p++;
			start = p;
			while (p < end && cls[*p] == TOKEN_WORD)
				p++;
			if (p < end && cls[*p] == TOKEN_SEP) {
				if (p > start)
					push_word(s, token_hash(start,
					    (size_t)(p - start), s->ws.seed));
				p++;
				continue;
			}
			add_tok(s, start, (size_t)(p - start));
			if (p == end)
				break;
		}
		switch (cls[*p]) {
		case TOKEN_WORD:
		case TOKEN_UPPER:
			if (s->toklen == SHINGLE_TOKMAX)
				spill_token(s);
			s->tok[s->toklen++] = fold[*p++];
			break;
		case TOKEN_SEP:
			if (s->toklen > 0 || s->tokstream)
				end_token(s);
			p++;
			break;
		default:
			if ((r = put_run(s, p, end)) > 0)
				p += r;
			else if ((r = put_high(s, p, (size_t)(end - p),
			    0)) == 0)
				goto carry;
			else
				p += r;
		}
	}
	return;
carry:
	s->ncarry = (size_t)(end - p);
	memcpy(s->carry, p, s->ncarry);
}

int
shingle_fd(struct shingler *s, int fd, void *buf, size_t size, size_t probe)
{
	size_t probed = 0, m;
	ssize_t n;
	int first = 1;

	for (;;) {
		n = read(fd, buf, size);
		if (n == 0)
			return 0;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		/*
		 * A file that fills the buffer is worth a larger read-ahead;
		 * the many that do not are spared the system call.
		 */
		if (first && (size_t)n == size)
			(void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
		first = 0;
		if (probed < probe) {
			m = probe - probed < (size_t)n ? probe - probed :
			    (size_t)n;
			if (memchr(buf, '\0', m) != NULL)
				return SHINGLE_BINARY;
			probed += m;
		}
		shingle_feed(s, buf, (size_t)n);
	}
}

void
shingle_end(struct shingler *s)
{
	size_t pos = 0;

	while (pos < s->ncarry)
		pos += put_high(s, s->carry + pos, s->ncarry - pos, 1);
	s->ncarry = 0;
	if (!s->chars && (s->toklen > 0 || s->tokstream))
		end_token(s);
	if (s->ws.seen > 0 && s->ws.seen < s->ws.n) {
		scan_window_plain(&s->ws);
		emit_window(s, (unsigned)s->ws.seen);
	}
	flush(s);
	s->ws.seen = 0;
	s->ws.pos = 0;
	s->ws.roll = 0;
	s->ws.winlin = 0;
	memset(s->ws.win, 0, s->ws.n * sizeof(*s->ws.win));
	s->ws.pendsep = s->ws.anychar = 0;
	if (s->counts.used > 0) {
		if (s->counts.cap > 65536) {
			free(s->counts.key);
			free(s->counts.count);
			memset(&s->counts, 0, sizeof(s->counts));
		} else {
			memset(s->counts.count, 0,
			    s->counts.cap * sizeof(*s->counts.count));
			s->counts.used = 0;
		}
	}
}

void
shingle_free(struct shingler *s)
{
	free(s->ws.cache);
	s->ws.cache = NULL;
	free(s->ws.three);
	s->ws.three = NULL;
	free(s->ws.threehash);
	s->ws.threehash = NULL;
	free(s->ws.twohash);
	s->ws.twohash = NULL;
	memset(s->ws.twoset, 0, sizeof(s->ws.twoset));
	free(s->counts.key);
	free(s->counts.count);
	if (s->st != NULL)
		XXH3_freeState(s->st);
	memset(&s->counts, 0, sizeof(s->counts));
	s->st = NULL;
}
