/*
 * UTF-8 decoding, case folding and character classes.  Everything here is a
 * fixed table so that a fingerprint never depends on the locale or the C
 * library of the machine that computed it.
 */
#include "utf8.h"

size_t
utf8_decode(const unsigned char *s, size_t len, int at_end, uint32_t *cp)
{
	unsigned char b = s[0], lo = 0x80, hi = 0xBF;
	size_t need, i;
	uint32_t c;

	if (b < 0x80) {
		*cp = b;
		return 1;
	}
	if (b >= 0xC2 && b <= 0xDF) {
		need = 1;
		c = b & 0x1F;
	} else if (b >= 0xE0 && b <= 0xEF) {
		need = 2;
		c = b & 0x0F;
		if (b == 0xE0)
			lo = 0xA0;	/* overlong */
		else if (b == 0xED)
			hi = 0x9F;	/* surrogates */
	} else if (b >= 0xF0 && b <= 0xF4) {
		need = 3;
		c = b & 0x07;
		if (b == 0xF0)
			lo = 0x90;	/* overlong */
		else if (b == 0xF4)
			hi = 0x8F;	/* past U+10FFFF */
	} else {
		*cp = UTF8_REPLACEMENT;
		return 1;
	}
	for (i = 1; i <= need; i++) {
		if (i >= len) {
			if (!at_end)
				return 0;
			break;
		}
		if (s[i] < lo || s[i] > hi)
			break;
		c = (c << 6) | (s[i] & 0x3F);
		lo = 0x80;
		hi = 0xBF;
	}
	if (i <= need) {
		*cp = UTF8_REPLACEMENT;
		return 1;
	}
	*cp = c;
	return need + 1;
}

/*
 * The blocks below cover the scripts whose upper and lower case differ by a
 * fixed offset or alternate in pairs.  It is deliberately a closed list: it
 * is part of the fingerprint definition (format nd1) and may only grow with
 * a new format version.
 */
uint32_t
utf8_fold(uint32_t c)
{
	if (c < 0x80)
		return (c >= 'A' && c <= 'Z') ? c + 0x20 : c;
	if (c >= 0xC0 && c <= 0xDE && c != 0xD7)
		return c + 0x20;
	if (c >= 0x100 && c <= 0x17F) {
		if (c == 0x130)
			return 'i';
		if (c == 0x178)
			return 0xFF;
		if (c == 0x17F)
			return 's';
		if ((c >= 0x100 && c <= 0x12F) || (c >= 0x132 && c <= 0x137) ||
		    (c >= 0x14A && c <= 0x177))
			return c | 1;
		if ((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E))
			return (c & 1) ? c + 1 : c;
		return c;
	}
	if (c >= 0x370 && c <= 0x3FF) {
		if (c >= 0x391 && c <= 0x3AB && c != 0x3A2)
			return c + 0x20;
		if (c == 0x3C2)
			return 0x3C3;	/* final sigma */
		if (c == 0x386)
			return 0x3AC;
		if (c >= 0x388 && c <= 0x38A)
			return c + 0x25;
		if (c == 0x38C)
			return 0x3CC;
		if (c == 0x38E || c == 0x38F)
			return c + 0x3F;
		return c;
	}
	if (c >= 0x400 && c <= 0x4FF) {
		if (c <= 0x40F)
			return c + 0x50;
		if (c <= 0x42F)
			return c + 0x20;
		if ((c >= 0x460 && c <= 0x481) || (c >= 0x48A && c <= 0x4BF) ||
		    (c >= 0x4D0 && c <= 0x4FF))
			return c | 1;
		if (c == 0x4C0)
			return 0x4CF;
		if (c >= 0x4C1 && c <= 0x4CE)
			return (c & 1) ? c + 1 : c;
		return c;
	}
	if (c >= 0x531 && c <= 0x556)
		return c + 0x30;
	if ((c >= 0x1E00 && c <= 0x1E95) || (c >= 0x1EA0 && c <= 0x1EFF))
		return c | 1;
	if (c >= 0xFF21 && c <= 0xFF3A)
		return c + 0x20;
	return c;
}

int
utf8_isalnum(uint32_t c)
{
	if (c < 0x80)
		return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
		    (c >= 'A' && c <= 'Z');
	if (c <= 0xBF)
		return c == 0xAA || c == 0xB5 || c == 0xBA;
	if (c == 0xD7 || c == 0xF7 || c == 0xFEFF)
		return 0;
	if ((c >= 0x2000 && c <= 0x206F) || (c >= 0x3000 && c <= 0x303F) ||
	    (c >= 0xFFF0 && c <= 0xFFFC))
		return 0;
	return !utf8_isspace(c);
}

int
utf8_isspace(uint32_t c)
{
	switch (c) {
	case ' ': case '\t': case '\n': case '\v': case '\f': case '\r':
	case 0x85: case 0xA0: case 0x1680: case 0x2028: case 0x2029:
	case 0x202F: case 0x205F: case 0x3000:
		return 1;
	}
	return c >= 0x2000 && c <= 0x200A;
}
