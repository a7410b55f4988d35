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
#include <stdlib.h>
#include <string.h>

#include "byteorder.h"
#include "shingle.h"
#include "utf8.h"
#include "weights.h"
#include "xmalloc.h"

/* The hot path calls XXH3 per word and per n-gram: inline it. */
#define XXH_INLINE_ALL
#include <xxhash.h>

/*
 * XXH3_64bits_withSeed, with its length dispatch done at compile time for
 * the short inputs that are almost all of our calls.  The same values as
 * the library's (test_shingle checks).
 */
static inline uint64_t
hash_bytes(const void *p, size_t len, uint64_t seed)
{
	if (len <= 16)
		return XXH3_len_0to16_64b(p, len, XXH3_kSecret, seed);
	return XXH3_64bits_withSeed(p, len, seed);
}

static inline uint64_t
hash_u64(uint64_t x, uint64_t seed)
{
	uint64_t le = le64(x);

	return XXH3_len_4to8_64b((const xxh_u8 *)&le, sizeof(le), XXH3_kSecret,
	    seed);
}

#if defined(__SSE2__) && !defined(NEARDUP_SCALAR)
#include <emmintrin.h>

/*
 * Bitmaps of 64 bytes at p: bytes that belong to words, ASCII capitals,
 * and non-ASCII bytes.  Also the 64 bytes with capitals folded, in low.
 */
static inline void
classify64(const unsigned char *p, int keeppunct, int fold, uint64_t *word,
    uint64_t *upper, uint64_t *high, unsigned char low[64])
{
	const __m128i k80 = _mm_set1_epi8((char)0x80);
	__m128i v, t, w, u;
	uint64_t mw = 0, mu = 0, mh = 0;
	unsigned i;

	for (i = 0; i < 4; i++) {
		v = _mm_loadu_si128((const __m128i *)(p + 16 * i));
		/* x in [lo, lo + n) as a signed compare, offset by 0x80. */
		u = _mm_cmplt_epi8(_mm_add_epi8(v, _mm_set1_epi8(0x80 - 'A')),
		    _mm_set1_epi8((char)(0x80 + 26)));
		if (keeppunct) {
			t = _mm_cmplt_epi8(_mm_add_epi8(v,
			    _mm_set1_epi8(0x80 - 9)), _mm_set1_epi8((char)(0x80 + 5)));
			t = _mm_or_si128(t, _mm_cmpeq_epi8(v, _mm_set1_epi8(' ')));
			w = _mm_andnot_si128(t, _mm_cmpeq_epi8(v, v));
		} else {
			t = _mm_cmplt_epi8(_mm_add_epi8(v,
			    _mm_set1_epi8(0x80 - '0')), _mm_set1_epi8((char)(0x80 + 10)));
			w = _mm_cmplt_epi8(_mm_add_epi8(_mm_or_si128(v,
			    _mm_set1_epi8(0x20)), _mm_set1_epi8(0x80 - 'a')),
			    _mm_set1_epi8((char)(0x80 + 26)));
			w = _mm_or_si128(w, t);
		}
		if (fold)
			v = _mm_or_si128(v, _mm_and_si128(u, _mm_set1_epi8(0x20)));
		_mm_storeu_si128((__m128i *)(low + 16 * i), v);
		mh |= (uint64_t)(unsigned)_mm_movemask_epi8(
		    _mm_and_si128(v, k80)) << (16 * i);
		mw |= (uint64_t)(unsigned)_mm_movemask_epi8(w) << (16 * i);
		mu |= (uint64_t)(unsigned)_mm_movemask_epi8(u) << (16 * i);
	}
	*word = mw & ~mh;
	*upper = mu;
	*high = mh;
}
#endif

#define CACHE_BITS 13

/*
 * The hash of a word of len bytes at p, of which at least 8 are readable.
 * Words of up to 8 bytes go through a direct-mapped cache: text reuses a
 * small vocabulary, and a hit costs less than XXH3's length dispatch.
 */
static inline uint64_t
word_hash(struct shingler *s, const unsigned char *p, unsigned len)
{
	struct shingle_cached *c;
	uint64_t key;

	if (len > 8)
		return hash_bytes(p, len, s->seed);
	memcpy(&key, p, sizeof(key));
	if (len < 8) {
		/* The top byte is free: it holds the length. */
		key &= ((uint64_t)1 << (8 * len)) - 1;
		key |= (uint64_t)len << 56;
	} else if ((key >> 56) < 8)
		return hash_bytes(p, len, s->seed);	/* looks like a length */
	c = &s->cache[(key * 0x9E3779B97F4A7C15ULL) >> (64 - CACHE_BITS)];
	if (c->key == key)
		return c->hash;
	c->key = key;
	return c->hash = hash_bytes(p, len, s->seed);
}

static inline uint64_t
rotl(uint64_t x, unsigned r)
{
	r &= 63;
	return r ? (x << r) | (x >> (64 - r)) : x;
}


enum { C_SEP, C_WORD, C_UPPER, C_HIGH };

/*
 * Byte classes: default normalization and --keep-punct, each with ASCII
 * capitals apart (they need folding) or not (--keep-case).
 */
static unsigned char cls_alnum[256], cls_nonspace[256];
static unsigned char cls_alnum_fold[256], cls_nonspace_fold[256];
static unsigned char fold_ascii[256], keep_ascii[256];

static void
tables_init(void)
{
	unsigned c;

	if (cls_nonspace['a'] == C_WORD)
		return;
	for (c = 0; c < 256; c++) {
		if (c >= 0x80) {
			cls_alnum[c] = cls_nonspace[c] = C_HIGH;
		} else {
			cls_alnum[c] = utf8_isalnum(c) ? C_WORD : C_SEP;
			cls_nonspace[c] = utf8_isspace(c) ? C_SEP : C_WORD;
		}
		cls_alnum_fold[c] = cls_alnum[c];
		cls_nonspace_fold[c] = cls_nonspace[c];
		if (c >= 'A' && c <= 'Z')
			cls_alnum_fold[c] = cls_nonspace_fold[c] = C_UPPER;
		keep_ascii[c] = (unsigned char)c;
		fold_ascii[c] = (unsigned char)(c < 0x80 ? utf8_fold(c) : c);
	}
}

uint64_t
shingle_token_hash(const void *tok, size_t len, uint64_t seed)
{
	return hash_bytes(tok, len, seed);
}

static uint64_t
char_hash(const struct shingler *s, uint32_t cp)
{
	uint32_t le = le32(cp);

	if (cp < 128)
		return s->ascii[cp];
	return hash_bytes(&le, sizeof(le), s->seed);
}

void
shingle_init(struct shingler *s, const struct scheme *sc,
    const struct weights *wt, shingle_sink *sink, void *ctx)
{
	uint32_t c, le;

	tables_init();
	memset(s, 0, sizeof(*s));
	s->n = sc->ngram;
	s->chars = sc->chars;
	s->keepcase = sc->keepcase;
	s->keeppunct = sc->keeppunct;
	s->multiset = sc->multiset;
	s->seed = sc->seed;
	s->wt = wt;
	s->sink = sink;
	s->ctx = ctx;
	s->cache = xcalloc((size_t)1 << CACHE_BITS, sizeof(*s->cache));
	for (c = 0; c < 128; c++) {
		le = le32(c);
		s->ascii[c] = hash_bytes(&le, sizeof(le), s->seed);
	}
	if (sc->keepcase)
		s->cls = sc->keeppunct ? cls_nonspace : cls_alnum;
	else
		s->cls = sc->keeppunct ? cls_nonspace_fold : cls_alnum_fold;
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
 * Hand the batch to the sink.  out[] holds the rolled XORs: finish each
 * with XXH3 here, in a loop of independent iterations, and label repeated
 * shingles under --multiset.
 */
static void
flush(struct shingler *s)
{
	uint64_t in[2];
	uint32_t occ;
	size_t i;

	for (i = 0; i < s->nout; i++)
		s->out[i] = hash_u64(s->out[i], s->seed);
	if (s->multiset) {
		for (i = 0; i < s->nout; i++) {
			if ((occ = occurrence(&s->counts, s->out[i])) > 1) {
				in[0] = le64(s->out[i]);
				in[1] = le64(occ);
				s->out[i] = hash_bytes(in, sizeof(in), s->seed);
			}
		}
	}
	if (s->nout > 0)
		s->sink(s->ctx, s->out, s->wt ? s->outw : NULL, s->nout);
	s->nout = 0;
}

/* Queue the n-gram of the m newest items (m <= n). */
static inline void
emit_window(struct shingler *s, unsigned m)
{
	unsigned i, j;
	double w = 0;

	if (s->wt != NULL) {
		/* Oldest to newest, so that the sum is the same every time. */
		for (i = 0, j = s->pos + s->n - m; i < m; i++, j++)
			w += s->wwin[j % s->n];
		s->outw[s->nout] = w / m;
	}
	s->out[s->nout] = s->roll;
	if (++s->nout == SHINGLE_BATCH)
		flush(s);
}

/* Slide the window by one item of hash t (and weight w). */
static inline void
push(struct shingler *s, uint64_t t, double w)
{
	unsigned j = s->pos;

	if (s->seen >= s->n)
		s->roll = rotl(s->roll, 1) ^ rotl(s->win[j], s->n) ^ t;
	else
		s->roll = rotl(s->roll, 1) ^ t;
	s->win[j] = t;
	s->wwin[j] = w;
	if (++s->pos == s->n)
		s->pos = 0;
	if (++s->seen >= s->n)
		emit_window(s, s->n);
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
		th = hash_bytes(s->tok, s->toklen, s->seed);
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
		XXH3_64bits_reset_withSeed(s->st, s->seed);
		s->tokstream = 1;
	}
	XXH3_64bits_update(s->st, s->tok, s->toklen);
	s->toklen = 0;
}

/* Append bytes already normalized to the current token. */
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
		s->pendsep = 1;
	else if (s->toklen > 0 || s->tokstream)
		end_token(s);
}

/* One code point of any kind (the slow path). */
static void
put_cp(struct shingler *s, uint32_t cp)
{
	unsigned char u[4];
	size_t len, i;

	if (s->keeppunct ? utf8_isspace(cp) : !utf8_isalnum(cp)) {
		separator(s);
		return;
	}
	if (!s->keepcase)
		cp = utf8_fold(cp);
	if (s->chars) {
		if (s->pendsep && s->anychar)
			push_char(s, ' ');
		s->pendsep = 0;
		s->anychar = 1;
		push_char(s, cp);
		return;
	}
	len = utf8_encode(cp, u);
	for (i = 0; i < len; i++) {
		if (s->toklen == SHINGLE_TOKMAX)
			spill_token(s);
		s->tok[s->toklen++] = u[i];
	}
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

#if defined(__SSE2__) && !defined(NEARDUP_SCALAR)
/*
 * Between words, 64 bytes at a time: words are the runs of ones in a
 * bitmap.  The window state lives in locals here, where the compiler can
 * keep it in registers.  Stops at the end (less than 64 bytes left),
 * before a block with non-ASCII bytes (*scalar_until is then set past it,
 * for the scalar path), or after a block whose last word goes on into the
 * next (s->toklen > 0).  Unweighted only: push() is the general way.
 */
static const unsigned char *
scan_ascii(struct shingler *s, const unsigned char *p,
    const unsigned char *end, const unsigned char **scalar_until)
{
	unsigned char low[64 + 8] = { 0 };	/* + 8: word_hash reads 8 */
	uint64_t mw, mu, mh, st, en, carry, t;
	uint64_t roll = s->roll, seen = s->seen, *win = s->win;
	unsigned b, e, n = s->n, pos = s->pos;
	size_t nout = s->nout;

	for (; end - p >= 64; p += 64) {
		classify64(p, s->keeppunct, !s->keepcase, &mw, &mu, &mh, low);
		if (mh != 0) {
			*scalar_until = p + 64;
			break;
		}
		/*
		 * Word starts and last bytes, each word one bit of each.  A
		 * word that reaches the end of the block may go on: it is
		 * kept aside.  Walking the two masks by clearing their lowest
		 * bits keeps the loop's dependency chain one cycle long.
		 */
		st = mw & ~(mw << 1);
		en = mw & ~(mw >> 1);
		carry = 0;
		if (mw >> 63) {
			b = 63 - (unsigned)__builtin_clzll(st);
			carry = (uint64_t)1 << b;
			st &= ~carry;
			en &= ~((uint64_t)1 << 63);
		}
		for (; st != 0; st &= st - 1, en &= en - 1) {
			b = (unsigned)__builtin_ctzll(st);
			e = (unsigned)__builtin_ctzll(en) + 1;
			t = word_hash(s, low + b, e - b);
			roll = rotl(roll, 1) ^ t;
			if (seen >= n)
				roll ^= rotl(win[pos], n);
			win[pos] = t;
			if (++pos == n)
				pos = 0;
			if (++seen >= n) {
				s->out[nout++] = roll;
				if (nout == SHINGLE_BATCH) {
					s->nout = nout;
					flush(s);
					nout = 0;
				}
			}
		}
		if (carry != 0) {
			/* The word goes on past the block. */
			b = (unsigned)__builtin_ctzll(carry);
			add_tok(s, low + b, 64 - b);
		}
		if (s->toklen > 0) {
			p += 64;
			break;
		}
	}
	s->roll = roll;
	s->seen = seen;
	s->pos = pos;
	s->nout = nout;
	return p;
}
#endif

void
shingle_feed(struct shingler *s, const void *buf, size_t len)
{
	const unsigned char *p = buf, *end = p + len;
	const unsigned char *cls = s->cls, *start;
#if defined(__SSE2__) && !defined(NEARDUP_SCALAR)
	const unsigned char *scalar_until = p;
#endif
	const unsigned char *fold = s->keepcase ? keep_ascii : fold_ascii;
	size_t r;

	if (s->ncarry > 0)
		p += finish_carry(s, p, len);
	if (s->chars) {
		for (; p < end; p++) {
			switch (cls[*p]) {
			case C_WORD:
			case C_UPPER:
				if (s->pendsep && s->anychar)
					push_char(s, ' ');
				s->pendsep = 0;
				s->anychar = 1;
				push_char(s, fold[*p]);
				break;
			case C_SEP:
				s->pendsep = 1;
				break;
			default:
				if ((r = put_high(s, p, (size_t)(end - p), 0)) == 0)
					goto carry;
				p += r - 1;
			}
		}
		return;
	}
	while (p < end) {
		if (s->toklen == 0 && !s->tokstream) {
#if defined(__SSE2__) && !defined(NEARDUP_SCALAR)
			/*
			 * Between words, 64 bytes at a time: words are the
			 * runs of ones in a bitmap.  A block with non-ASCII
			 * bytes goes the scalar way.
			 */
			if (p >= scalar_until && s->wt == NULL)
				p = scan_ascii(s, p, end, &scalar_until);
			if (p == end || s->toklen > 0)
				continue;
#endif
			/*
			 * A word of plain lower-case ASCII that ends in this
			 * block is hashed where it lies.
			 */
			while (p < end && cls[*p] == C_SEP)
				p++;
			start = p;
			while (p < end && cls[*p] == C_WORD)
				p++;
			if (p < end && cls[*p] == C_SEP) {
				if (p > start)
					push_word(s, hash_bytes(start,
					    (size_t)(p - start), s->seed));
				p++;
				continue;
			}
			add_tok(s, start, (size_t)(p - start));
			if (p == end)
				break;
		}
		switch (cls[*p]) {
		case C_WORD:
		case C_UPPER:
			if (s->toklen == SHINGLE_TOKMAX)
				spill_token(s);
			s->tok[s->toklen++] = fold[*p++];
			break;
		case C_SEP:
			if (s->toklen > 0 || s->tokstream)
				end_token(s);
			p++;
			break;
		default:
			if ((r = put_high(s, p, (size_t)(end - p), 0)) == 0)
				goto carry;
			p += r;
		}
	}
	return;
carry:
	s->ncarry = (size_t)(end - p);
	memcpy(s->carry, p, s->ncarry);
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
	if (s->seen > 0 && s->seen < s->n)
		emit_window(s, (unsigned)s->seen);
	flush(s);
	s->seen = 0;
	s->pos = 0;
	s->roll = 0;
	s->pendsep = s->anychar = 0;
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
	free(s->cache);
	s->cache = NULL;
	free(s->counts.key);
	free(s->counts.count);
	if (s->st != NULL)
		XXH3_freeState(s->st);
	memset(&s->counts, 0, sizeof(s->counts));
	s->st = NULL;
}
