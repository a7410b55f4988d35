/*
 * Unit tests of src/text/utf8.c: decoding (valid, invalid, unfinished), the
 * fixed case folding table and the character classes that define
 * neardup's normalization.
 */
#include <stddef.h>
#include <stdint.h>

#include "unit.h"
#include "utf8.h"

struct valid {
	const char *bytes;
	size_t	 len;
	uint32_t cp;
};

/* Every length, and the first and last code point of each length. */
static const struct valid valid[] = {
	{ "\x00", 1, 0x00 },
	{ "A", 1, 0x41 },
	{ "\x7f", 1, 0x7F },
	{ "\xc2\x80", 2, 0x80 },
	{ "\xc3\xa9", 2, 0xE9 },
	{ "\xce\xb1", 2, 0x3B1 },
	{ "\xdf\xbf", 2, 0x7FF },
	{ "\xe0\xa0\x80", 3, 0x800 },
	{ "\xe2\x82\xac", 3, 0x20AC },
	{ "\xed\x9f\xbf", 3, 0xD7FF },
	{ "\xee\x80\x80", 3, 0xE000 },
	{ "\xef\xbf\xbd", 3, 0xFFFD },
	{ "\xef\xbf\xbf", 3, 0xFFFF },
	{ "\xf0\x90\x80\x80", 4, 0x10000 },
	{ "\xf0\x9f\x98\x80", 4, 0x1F600 },
	{ "\xf4\x8f\xbf\xbf", 4, 0x10FFFF },
};

static void
test_decode_valid(void)
{
	unsigned char buf[8];
	size_t i, r;
	uint32_t cp;
	int at_end;

	for (i = 0; i < sizeof(valid) / sizeof(valid[0]); i++) {
		for (at_end = 0; at_end <= 1; at_end++) {
			/* Alone, then followed by more text. */
			memcpy(buf, valid[i].bytes, valid[i].len);
			cp = 0xDEADBEEF;
			r = utf8_decode(buf, valid[i].len, at_end, &cp);
			CHECK(r == valid[i].len && cp == valid[i].cp,
			    "U+%04X alone (at_end %d): got %zu bytes, U+%04X",
			    (unsigned)valid[i].cp, at_end, r, (unsigned)cp);
			buf[valid[i].len] = 'x';
			r = utf8_decode(buf, valid[i].len + 1, at_end, &cp);
			CHECK(r == valid[i].len && cp == valid[i].cp,
			    "U+%04X then x: got %zu bytes, U+%04X",
			    (unsigned)valid[i].cp, r, (unsigned)cp);
		}
	}
}

struct invalid {
	const char *what;
	const char *bytes;
	size_t	 len;
};

/*
 * Each is decoded with a following 'x' so that the decoder could read on:
 * the first byte must become U+FFFD and consume exactly one byte.
 */
static const struct invalid invalid[] = {
	{ "lone continuation 80", "\x80", 1 },
	{ "lone continuation bf", "\xbf", 1 },
	{ "overlong 2-byte c0 80", "\xc0\x80", 2 },
	{ "overlong 2-byte c1 bf", "\xc1\xbf", 2 },
	{ "overlong 3-byte e0 80 80", "\xe0\x80\x80", 3 },
	{ "overlong 3-byte e0 9f bf", "\xe0\x9f\xbf", 3 },
	{ "overlong 4-byte f0 80 80 80", "\xf0\x80\x80\x80", 4 },
	{ "overlong 4-byte f0 8f bf bf", "\xf0\x8f\xbf\xbf", 4 },
	{ "surrogate ed a0 80", "\xed\xa0\x80", 3 },
	{ "surrogate ed bf bf", "\xed\xbf\xbf", 3 },
	{ "past U+10FFFF f4 90 80 80", "\xf4\x90\x80\x80", 4 },
	{ "lead f5", "\xf5\x80\x80\x80", 4 },
	{ "lead f8", "\xf8\x88\x80\x80\x80", 5 },
	{ "lead fe", "\xfe", 1 },
	{ "lead ff", "\xff", 1 },
	{ "2-byte lead then ASCII", "\xc3" "A", 2 },
	{ "3-byte lead, 1 continuation, ASCII", "\xe2\x82" "A", 3 },
	{ "4-byte lead, 2 continuations, ASCII", "\xf0\x9f\x98" "A", 4 },
	{ "3-byte lead then lead", "\xe2\xe2\x82\xac", 4 },
	{ "2-byte lead then c0", "\xc3\xc0", 2 },
};

static void
test_decode_invalid(void)
{
	unsigned char buf[16];
	size_t i, r;
	uint32_t cp;
	int at_end;

	for (i = 0; i < sizeof(invalid) / sizeof(invalid[0]); i++) {
		for (at_end = 0; at_end <= 1; at_end++) {
			memcpy(buf, invalid[i].bytes, invalid[i].len);
			buf[invalid[i].len] = 'x';
			cp = 0;
			r = utf8_decode(buf, invalid[i].len + 1, at_end, &cp);
			CHECK(r == 1 && cp == UTF8_REPLACEMENT,
			    "%s (at_end %d): got %zu bytes, U+%04X",
			    invalid[i].what, at_end, r, (unsigned)cp);
		}
	}
}

/* Decode a whole string at its end, counting code points and U+FFFDs. */
static void
decode_all(const char *s, size_t len, size_t *ncp, size_t *nrep)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t pos = 0, r;
	uint32_t cp;

	*ncp = *nrep = 0;
	while (pos < len) {
		r = utf8_decode(p + pos, len - pos, 1, &cp);
		if (r == 0 || r > len - pos)
			break;
		pos += r;
		(*ncp)++;
		*nrep += cp == UTF8_REPLACEMENT;
	}
}

/* Every invalid byte is one U+FFFD: a whole string gives as many. */
static void
test_decode_each_invalid_byte(void)
{
	static const struct {
		const char *s;
		size_t	 len, ncp, nrep;
	} t[] = {
		{ "\xff", 1, 1, 1 },
		{ "\xc0\x80", 2, 2, 2 },
		{ "a\xe2\x82", 3, 3, 2 },		/* truncated at the end */
		{ "\x80\x80\x80", 3, 3, 3 },
		{ "\xed\xa0\x80", 3, 3, 3 },		/* surrogate */
		{ "\xf4\x90\x80\x80", 4, 4, 4 },
		{ "\xe2\x82\xac\xe2\x82", 5, 3, 2 },
		{ "\xef\xbf\xbd", 3, 1, 1 },		/* a real U+FFFD */
	};
	size_t i, ncp, nrep;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		decode_all(t[i].s, t[i].len, &ncp, &nrep);
		CHECK(ncp == t[i].ncp && nrep == t[i].nrep,
		    "string %zu: %zu code points, %zu U+FFFD; want %zu, %zu",
		    i, ncp, nrep, t[i].ncp, t[i].nrep);
	}
}

static void
test_decode_unfinished(void)
{
	static const struct {
		const char *s;
		size_t	 len;
	} t[] = {
		{ "\xc3", 1 },
		{ "\xe2", 1 },
		{ "\xe2\x82", 2 },
		{ "\xe0\xa0", 2 },
		{ "\xed\x9f", 2 },
		{ "\xf0", 1 },
		{ "\xf0\x9f", 2 },
		{ "\xf0\x9f\x98", 3 },
		{ "\xf4\x8f\xbf", 3 },
	};
	/* Already invalid: no later byte can make these valid. */
	static const struct {
		const char *s;
		size_t	 len;
	} bad[] = {
		{ "\xc0", 1 },
		{ "\xc1", 1 },
		{ "\xf5", 1 },
		{ "\xff", 1 },
		{ "\x80", 1 },
		{ "\xe0\x80", 2 },
		{ "\xe0\x9f", 2 },
		{ "\xed\xa0", 2 },
		{ "\xf0\x8f", 2 },
		{ "\xf4\x90", 2 },
		{ "\xe2\x41", 2 },
	};
	size_t i, r;
	uint32_t cp;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		cp = 0x1234;
		r = utf8_decode((const unsigned char *)t[i].s, t[i].len, 0,
		    &cp);
		CHECK(r == 0, "unfinished sequence %zu (%zu bytes), !at_end: "
		    "got %zu bytes, U+%04X; want 0", i, t[i].len, r,
		    (unsigned)cp);
		r = utf8_decode((const unsigned char *)t[i].s, t[i].len, 1,
		    &cp);
		CHECK(r == 1 && cp == UTF8_REPLACEMENT, "unfinished sequence "
		    "%zu at the end: got %zu bytes, U+%04X; want 1, U+FFFD",
		    i, r, (unsigned)cp);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cp = 0;
		r = utf8_decode((const unsigned char *)bad[i].s, bad[i].len, 0,
		    &cp);
		CHECK(r == 1 && cp == UTF8_REPLACEMENT, "invalid prefix %zu "
		    "!at_end: got %zu bytes, U+%04X; want 1, U+FFFD", i, r,
		    (unsigned)cp);
	}
}

/* utf8_encode and utf8_decode are inverses on every scalar value. */
static void
test_encode_roundtrip(void)
{
	unsigned char b[5];
	size_t n, r, bad = 0;
	uint32_t c, cp;

	for (c = 0; c <= 0x10FFFF; c++) {
		if (c >= 0xD800 && c <= 0xDFFF)
			continue;
		n = utf8_encode(c, b);
		b[n] = 'x';
		r = utf8_decode(b, n + 1, 0, &cp);
		if (r != n || cp != c || n != (c < 0x80 ? 1u : c < 0x800 ?
		    2u : c < 0x10000 ? 3u : 4u)) {
			if (bad++ == 0)
				CHECK(0, "U+%04X: encoded in %zu bytes, "
				    "decoded %zu bytes as U+%04X",
				    (unsigned)c, n, r, (unsigned)cp);
		}
	}
	CHECK(bad == 0, "%zu code points do not round-trip", bad);
}

static void
test_fold_table(void)
{
	static const uint32_t t[][2] = {
		/* ASCII */
		{ 'A', 'a' }, { 'Z', 'z' }, { 'a', 'a' }, { 'z', 'z' },
		{ '@', '@' }, { '[', '[' }, { '0', '0' }, { ' ', ' ' },
		/* Latin-1 */
		{ 0xC0, 0xE0 }, { 0xC9, 0xE9 }, { 0xD6, 0xF6 },
		{ 0xD7, 0xD7 }, { 0xD8, 0xF8 }, { 0xDE, 0xFE },
		{ 0xDF, 0xDF }, { 0xE9, 0xE9 }, { 0xF7, 0xF7 },
		{ 0xFF, 0xFF }, { 0xB5, 0xB5 }, { 0xAA, 0xAA },
		/* Latin Extended-A */
		{ 0x100, 0x101 }, { 0x101, 0x101 }, { 0x12E, 0x12F },
		{ 0x130, 'i' }, { 0x131, 0x131 }, { 0x132, 0x133 },
		{ 0x136, 0x137 }, { 0x138, 0x138 }, { 0x139, 0x13A },
		{ 0x13A, 0x13A }, { 0x141, 0x142 }, { 0x147, 0x148 },
		{ 0x149, 0x149 }, { 0x14A, 0x14B }, { 0x152, 0x153 },
		{ 0x160, 0x161 }, { 0x176, 0x177 }, { 0x178, 0xFF },
		{ 0x179, 0x17A }, { 0x17D, 0x17E }, { 0x17E, 0x17E },
		{ 0x17F, 's' },
		/* Greek */
		{ 0x386, 0x3AC }, { 0x388, 0x3AD }, { 0x389, 0x3AE },
		{ 0x38A, 0x3AF }, { 0x38C, 0x3CC }, { 0x38E, 0x3CD },
		{ 0x38F, 0x3CE }, { 0x391, 0x3B1 }, { 0x3A3, 0x3C3 },
		{ 0x3A9, 0x3C9 }, { 0x3AA, 0x3CA }, { 0x3AB, 0x3CB },
		{ 0x3B1, 0x3B1 }, { 0x3C2, 0x3C3 }, { 0x3C3, 0x3C3 },
		{ 0x3C9, 0x3C9 },
		/* Cyrillic */
		{ 0x400, 0x450 }, { 0x401, 0x451 }, { 0x40F, 0x45F },
		{ 0x410, 0x430 }, { 0x416, 0x436 }, { 0x42F, 0x44F },
		{ 0x430, 0x430 }, { 0x451, 0x451 }, { 0x462, 0x463 },
		{ 0x490, 0x491 }, { 0x4C0, 0x4CF }, { 0x4C1, 0x4C2 },
		{ 0x4D0, 0x4D1 }, { 0x4E8, 0x4E9 },
		/* No case */
		{ 0x4E2D, 0x4E2D }, { 0x2014, 0x2014 }, { 0xFFFD, 0xFFFD },
		{ 0x1F600, 0x1F600 },
	};
	size_t i;
	uint32_t got;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		got = utf8_fold(t[i][0]);
		CHECK(got == t[i][1], "fold U+%04X: got U+%04X, want U+%04X",
		    (unsigned)t[i][0], (unsigned)got, (unsigned)t[i][1]);
	}
}

/*
 * Folding is a normalization: folding twice changes nothing, and it never
 * turns a letter into a boundary or back.
 */
static void
test_fold_properties(void)
{
	size_t notidem = 0, reclass = 0;
	uint32_t c, f;

	for (c = 0; c <= 0x10FFFF; c++) {
		f = utf8_fold(c);
		if (utf8_fold(f) != f && notidem++ == 0)
			CHECK(0, "fold(fold(U+%04X)) = U+%04X != U+%04X",
			    (unsigned)c, (unsigned)utf8_fold(f), (unsigned)f);
		if (utf8_isalnum(f) != utf8_isalnum(c) && reclass++ == 0)
			CHECK(0, "U+%04X and its fold U+%04X differ in class",
			    (unsigned)c, (unsigned)f);
	}
	CHECK(notidem == 0, "%zu code points fold twice", notidem);
	CHECK(reclass == 0, "%zu code points change class", reclass);
}

static void
test_isalnum(void)
{
	static const uint32_t yes[] = {
		'0', '9', 'a', 'z', 'A', 'Z', 0xAA, 0xB5, 0xBA, 0xC0, 0xD6,
		0xD8, 0xF6, 0xF8, 0xFF, 0x100, 0x3B1, 0x430, 0x1FFF, 0x2070,
		0x2FFF, 0x3040, 0x4E2D, 0xFEFE, 0xFF00, 0xFFFD, 0x1F600,
		0x10FFFF,
	};
	static const uint32_t no[] = {
		0, ' ', '\t', '\n', '!', '-', '/', ':', '@', '[', '_', '`',
		'{', '~', 0x7F, 0x80, 0x85, 0xA0, 0xA9, 0xAB, 0xB4, 0xBF,
		0xD7, 0xF7, 0x2000, 0x200B, 0x2014, 0x201C, 0x2026, 0x206F,
		0x3000, 0x3001, 0x300C, 0x303F, 0xFEFF, 0xFFF0, 0xFFFC,
	};
	size_t i;

	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		CHECK(utf8_isalnum(yes[i]), "U+%04X should be a letter/digit",
		    (unsigned)yes[i]);
	for (i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		CHECK(!utf8_isalnum(no[i]), "U+%04X should be a boundary",
		    (unsigned)no[i]);
}

static void
test_isspace(void)
{
	static const uint32_t yes[] = {
		' ', '\t', '\n', '\v', '\f', '\r', 0x85, 0xA0, 0x1680,
		0x2000, 0x2005, 0x200A, 0x2028, 0x2029, 0x202F, 0x205F,
		0x3000,
	};
	static const uint32_t no[] = {
		0, 'a', '0', '!', '-', '_', 0x1C, 0x1F, 0x7F, 0x80, 0xAD,
		0x180E, 0x200B, 0x200D, 0x2060, 0x3001, 0xFEFF, 0xFFFD,
	};
	size_t i;

	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		CHECK(utf8_isspace(yes[i]), "U+%04X should be space",
		    (unsigned)yes[i]);
	for (i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		CHECK(!utf8_isspace(no[i]), "U+%04X should not be space",
		    (unsigned)no[i]);
}

/*
 * What separates words under --keep-punct must separate them by default
 * too: default boundaries are white space and punctuation, so a space
 * that counted as a letter would make "a<SP>b" one word by default but
 * two with --keep-punct.
 */
static void
test_space_is_boundary(void)
{
	size_t n = 0;
	uint32_t c;

	for (c = 0; c <= 0x10FFFF; c++)
		if (utf8_isspace(c) && utf8_isalnum(c) && n++ < 4)
			CHECK(0, "U+%04X is white space (--keep-punct "
			    "separator) but a letter by default",
			    (unsigned)c);
	CHECK(n == 0, "%zu white space characters are letters", n);
}

int
main(void)
{
	RUN(test_decode_valid);
	RUN(test_decode_invalid);
	RUN(test_decode_each_invalid_byte);
	RUN(test_decode_unfinished);
	RUN(test_encode_roundtrip);
	RUN(test_fold_table);
	RUN(test_fold_properties);
	RUN(test_isalnum);
	RUN(test_isspace);
	RUN(test_space_is_boundary);
	return unit_status();
}
