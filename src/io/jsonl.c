/*
 * Reading JSON Lines records with json-c.  json-c's strict mode refuses
 * what is not JSON (single quotes, trailing commas, text after the
 * object), keeps NUL bytes in strings, and turns a lone surrogate into
 * U+FFFD; its string lengths are kept, so nothing is cut at a NUL.
 */
#include <err.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "buf.h"
#include "jsonl.h"
#include "jsontext.h"
#include "xmalloc.h"

/*
 * A text this long is unescaped by jsontext.c, not json-c, which would
 * hold it twice besides the line (see jsontext.h).
 */
#define JSONL_LONG	(1 << 20)

struct jsonl {
	const struct jsonl_spec *spec;
	struct json_tokener *tok;
	struct json_object *obj;	/* the last object read, or NULL */
	struct buf text;	/* a long text, unescaped */
	struct buf skel;	/* its line without it, for json-c */
};

/* A message naming a field: "PRE"FIELD"POST", the name cut if long. */
static void
message(char *buf, const char *pre, const char *field, const char *post)
{
	(void)snprintf(buf, JSONL_WHY_MAX, "%s\"%.64s%s\"%s", pre, field,
	    strlen(field) > 64 ? "..." : "", post);
}

void
jsonl_spec_init(struct jsonl_spec *s, const char *field, const char *idfield)
{
	memset(s, 0, sizeof(*s));
	s->field = field;
	s->idfield = idfield;
	message(s->nofield, "no ", field, " field");
	message(s->badfield, "", field, " is not a string");
	if (idfield != NULL) {
		message(s->noid, "no ", idfield, " field for --id");
		message(s->badid, "", idfield, " is not a string or a number");
	}
}

struct jsonl *
jsonl_new(const struct jsonl_spec *spec)
{
	struct jsonl *j = xcalloc(1, sizeof(*j));

	j->spec = spec;
	j->tok = json_tokener_new_ex(JSON_TOKENER_DEFAULT_DEPTH);
	/* It fails only when memory is exhausted: as xmalloc(3) does. */
	if (j->tok == NULL)
		err(2, NULL);
	json_tokener_set_flags(j->tok, JSON_TOKENER_STRICT);
	return j;
}

/* Only white space: a blank line, which holds no record. */
static int
blank(const char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r')
			return 0;
	return 1;
}

/* Parse the line into j->obj: 0, or -1 with *why. */
static int
parse(struct jsonl *j, const char *line, size_t len, const char **why)
{
	if (j->obj != NULL) {
		json_object_put(j->obj);
		j->obj = NULL;
	}
	if (len > INT_MAX) {
		*why = "line too long for the JSON parser";
		return -1;
	}
	json_tokener_reset(j->tok);
	j->obj = json_tokener_parse_ex(j->tok, line, (int)len);
	if (j->obj == NULL || json_tokener_get_parse_end(j->tok) != len) {
		/* The whole line must be one value: EOF means it ended early. */
		*why = json_tokener_get_error(j->tok) == json_tokener_continue ?
		    "not JSON: the line ends inside a value" : "not JSON";
		return -1;
	}
	if (!json_object_is_type(j->obj, json_type_object)) {
		*why = "not a JSON object";
		return -1;
	}
	return 0;
}

/*
 * A line whose text is long: the text unescaped into j->text, the rest of
 * the line parsed by json-c with an empty string in its place.  1 if so,
 * 0 to parse the line whole (a short text, or anything unusual).
 */
static int
parse_long(struct jsonl *j, const char *line, size_t len)
{
	const struct jsonl_spec *s = j->spec;
	struct json_object *v;
	const char *why;
	size_t a, b;

	if (len < JSONL_LONG || (s->idfield != NULL &&
	    strcmp(s->idfield, s->field) == 0) ||
	    !jsontext_field(line, len, s->field, &a, &b) || b - a < JSONL_LONG)
		return 0;
	if (jsontext_unescape(line + a, b - a, &j->text) == 0) {
		buf_add(&j->skel, line, a);
		buf_add(&j->skel, line + b, len - b);
		if (parse(j, j->skel.data, j->skel.len, &why) == 0 &&
		    json_object_object_get_ex(j->obj, s->field, &v) &&
		    json_object_is_type(v, json_type_string) &&
		    json_object_get_string_len(v) == 0)
			return 1;
	}
	buf_free(&j->text);
	buf_free(&j->skel);
	return 0;
}

int
jsonl_read(struct jsonl *j, const char *line, size_t len, const char **text,
    size_t *tlen, const char **id, size_t *idlen, const char **why)
{
	const struct jsonl_spec *s = j->spec;
	struct json_object *v;

	if (blank(line, len))
		return 1;
	/* The last long text is no longer needed. */
	buf_free(&j->text);
	buf_free(&j->skel);
	if (parse_long(j, line, len)) {
		*text = j->text.data;
		*tlen = j->text.len;
	} else if (parse(j, line, len, why) != 0)
		return -1;
	else if (!json_object_object_get_ex(j->obj, s->field, &v)) {
		*why = s->nofield;
		return -1;
	} else if (!json_object_is_type(v, json_type_string)) {
		*why = s->badfield;
		return -1;
	} else {
		*text = json_object_get_string(v);
		*tlen = (size_t)json_object_get_string_len(v);
	}
	*id = NULL;
	*idlen = 0;
	if (s->idfield == NULL)
		return 0;
	if (!json_object_object_get_ex(j->obj, s->idfield, &v)) {
		*why = s->noid;
		return -1;
	}
	if (json_object_is_type(v, json_type_string))
		*idlen = (size_t)json_object_get_string_len(v);
	else if (json_object_is_type(v, json_type_int) ||
	    json_object_is_type(v, json_type_double))
		*idlen = strlen(json_object_get_string(v));
	else {
		*why = s->badid;
		return -1;
	}
	*id = json_object_get_string(v);
	return 0;
}

void
jsonl_free(struct jsonl *j)
{
	if (j == NULL)
		return;
	if (j->obj != NULL)
		json_object_put(j->obj);
	buf_free(&j->text);
	buf_free(&j->skel);
	json_tokener_free(j->tok);
	free(j);
}
