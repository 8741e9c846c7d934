/*
 * json_get.h - the record module's small typed accessors of jansson
 * values, private to src/record/ (run.c and batch.c read and write records
 * with them).  A missing key or a value of another type reads as "absent":
 * NULL, NAN, the given default or 0, never a crash; the readers decide
 * which absences are errors.  Writers map absent values back to JSON null.
 */
#ifndef EVIDENT_RECORD_JSON_GET_H
#define EVIDENT_RECORD_JSON_GET_H

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A string member, or NULL (borrowed from o). */
static inline const char *gs(json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

/* A number member, or NAN. */
static inline double gn(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* An integer member, or def. */
static inline long long gi(json_t *o, const char *k, long long def)
{
	json_t *v = json_object_get(o, k);
	return json_is_integer(v) ? (long long)json_integer_value(v) : def;
}

/* 1 when the member is true. */
static inline int gb(json_t *o, const char *k)
{
	return json_is_true(json_object_get(o, k));
}

/* An array member, or NULL (borrowed). */
static inline json_t *ga(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);
	return json_is_array(v) ? v : NULL;
}

/* An object member, or NULL (borrowed). */
static inline json_t *go(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);
	return json_is_object(v) ? v : NULL;
}

/* New references for writers: a string or null, a finite number or null,
 * another reference to v or null.  A string that is not UTF-8 is written
 * with each byte past ASCII as '?' rather than lost (json_string refuses
 * it, and the key would be missing from the record). */
static inline json_t *jstr(const char *s)
{
	if (!s)
		return json_null();
	json_t *v = json_string(s);
	if (v)
		return v;
	size_t n = strlen(s);
	char *c = (char *)malloc(n + 1);
	if (!c)
		return json_null();
	for (size_t i = 0; i <= n; i++)
		c[i] = (unsigned char)s[i] >= 0x80 ? '?' : s[i];
	v = json_string(c);
	free(c);
	return v ? v : json_null();
}

static inline json_t *jnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static inline json_t *jref(json_t *v)
{
	return v ? json_incref(v) : json_null();
}

#endif
