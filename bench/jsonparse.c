/*
 * bench/jsonparse.c: how fast each C JSON library of Debian 12 reads JSON
 * Lines and takes one string field out of each object, the work of
 * neardup --jsonl.  Built and run by bench/jsonparse.sh, not by make.
 *
 *	jsonparse FIELD < FILE.jsonl
 *
 * Built once per library (their names clash): -DWITH_JANSSON, -DWITH_JSONC
 * or -DWITH_CJSON.
 * Prints "LIB lines bytes-of-field checksum"; the time and peak memory are
 * measured around it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(WITH_JANSSON)
#include <jansson.h>
#define LIB	"jansson"
#define parse	with_jansson
#elif defined(WITH_JSONC)
#include <json-c/json.h>
#define LIB	"json-c"
#define parse	with_jsonc
#else
#include <cjson/cJSON.h>
#define LIB	"cjson"
#define parse	with_cjson
#endif

static uint64_t total, sum;

static void
use(const char *s, size_t len)
{
	total += len;
	if (len > 0)
		sum += (unsigned char)s[len / 2];
}

#if defined(WITH_JANSSON)
static int
with_jansson(const char *line, size_t len, const char *field)
{
	json_error_t e;
	json_t *o, *v;

	if ((o = json_loadb(line, len, JSON_ALLOW_NUL, &e)) == NULL)
		return -1;
	v = json_object_get(o, field);
	if (!json_is_string(v)) {
		json_decref(o);
		return -1;
	}
	use(json_string_value(v), json_string_length(v));
	json_decref(o);
	return 0;
}

#elif defined(WITH_JSONC)
static int
with_jsonc(const char *line, size_t len, const char *field)
{
	static struct json_tokener *tok;
	struct json_object *o, *v;

	if (tok == NULL)
		tok = json_tokener_new_ex(JSON_TOKENER_DEFAULT_DEPTH);
	json_tokener_reset(tok);
	o = json_tokener_parse_ex(tok, line, (int)len);
	if (o == NULL || json_tokener_get_parse_end(tok) != len)
		return -1;
	if (!json_object_object_get_ex(o, field, &v) ||
	    !json_object_is_type(v, json_type_string)) {
		json_object_put(o);
		return -1;
	}
	use(json_object_get_string(v), (size_t)json_object_get_string_len(v));
	json_object_put(o);
	return 0;
}

#else
static int
with_cjson(const char *line, size_t len, const char *field)
{
	cJSON *o, *v;

	if ((o = cJSON_ParseWithLength(line, len)) == NULL)
		return -1;
	v = cJSON_GetObjectItemCaseSensitive(o, field);
	if (!cJSON_IsString(v)) {
		cJSON_Delete(o);
		return -1;
	}
	use(v->valuestring, strlen(v->valuestring));
	cJSON_Delete(o);
	return 0;
}

#endif

int
main(int argc, char *argv[])
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	uint64_t lines = 0, bad = 0;

	if (argc != 2)
		return 2;
	while ((n = getline(&line, &cap, stdin)) > 0) {
		if (line[n - 1] == '\n')
			n--;
		lines++;
		if (parse(line, (size_t)n, argv[1]) != 0)
			bad++;
	}
	printf("%s %llu lines %llu bad %llu bytes %llu\n", LIB,
	    (unsigned long long)lines, (unsigned long long)bad,
	    (unsigned long long)total, (unsigned long long)sum);
	free(line);
	return 0;
}
