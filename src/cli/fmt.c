/*
 * Output helpers shared by the commands: JSON strings, TSV fields and the
 * colour decision.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "utf8.h"

void
fmt_json_string(FILE *fp, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len;
	uint32_t cp;
	size_t r;

	putc('"', fp);
	while (p < end) {
		if (*p >= 0x80) {
			/* Valid UTF-8 passes; each invalid byte is U+FFFD. */
			r = utf8_decode(p, (size_t)(end - p), 1, &cp);
			if (cp == UTF8_REPLACEMENT && r == 1 &&
			    !(end - p >= 3 && p[0] == 0xEF && p[1] == 0xBF &&
			    p[2] == 0xBD))
				fputs("\\ufffd", fp);
			else
				fwrite(p, 1, r, fp);
			p += r;
			continue;
		}
		switch (*p) {
		case '"':
			fputs("\\\"", fp);
			break;
		case '\\':
			fputs("\\\\", fp);
			break;
		case '\n':
			fputs("\\n", fp);
			break;
		case '\t':
			fputs("\\t", fp);
			break;
		case '\r':
			fputs("\\r", fp);
			break;
		default:
			if (*p < 0x20 || *p == 0x7F)
				fprintf(fp, "\\u%04x", *p);
			else
				putc(*p, fp);
		}
		p++;
	}
	putc('"', fp);
}

void
fmt_tsv_field(FILE *fp, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		switch (s[i]) {
		case '\\':
			fputs("\\\\", fp);
			break;
		case '\t':
			fputs("\\t", fp);
			break;
		case '\n':
			fputs("\\n", fp);
			break;
		case '\r':
			fputs("\\r", fp);
			break;
		default:
			putc(s[i], fp);
		}
	}
}

int
fmt_color_option(const char *arg)
{
	if (strcmp(arg, "always") == 0)
		return COLOR_ALWAYS;
	if (strcmp(arg, "never") == 0)
		return COLOR_NEVER;
	if (strcmp(arg, "auto") == 0)
		return COLOR_AUTO;
	return -1;
}

int
fmt_use_color(int when)
{
	const char *term;

	if (when != COLOR_AUTO)
		return when == COLOR_ALWAYS;
	if (getenv("NO_COLOR") != NULL && *getenv("NO_COLOR") != '\0')
		return 0;
	if ((term = getenv("TERM")) == NULL || strcmp(term, "dumb") == 0)
		return 0;
	return isatty(STDOUT_FILENO);
}
