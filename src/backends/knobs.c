/*
 * knobs.c - the table behind knobs.h, and the functions that walk it: the
 * spec parser, JOB.json both ways and help all read knob_defs[], so a
 * knob's default and range exist once.
 */
#include "backends/knobs.h"

#include <stddef.h>
#include <string.h>

#include "base/util.h"

const char *const knob_values_cache[] = { "cold", "hot", NULL };
const char *const knob_values_clock[] = { "auto", "events", "cupti", NULL };

#define VALUES_KNOB_INT(name) NULL
#define VALUES_KNOB_DOUBLE(name) NULL
#define VALUES_KNOB_ENUM(name) knob_values_##name
#define KNOB_DEF_(section, name, type, def, lo, hi, doc) \
	{ #section, #name, type, def, lo, hi, doc, VALUES_##type(name), offsetof(struct knobs, name) },
const struct knob_def knob_defs[] = { KNOB_LIST(KNOB_DEF_) };
#undef KNOB_DEF_
const size_t knob_count = sizeof(knob_defs) / sizeof(knob_defs[0]);

void knob_set(struct knobs *k, const struct knob_def *d, double v)
{
	char *p = (char *)k + d->offset;
	if (d->type == KNOB_DOUBLE)
		*(double *)p = v;
	else
		*(int *)p = isnan(v) ? -1 : (int)v;
}

double knob_get(const struct knobs *k, const struct knob_def *d)
{
	const char *p = (const char *)k + d->offset;
	if (d->type == KNOB_DOUBLE)
		return *(const double *)p;
	return *(const int *)p;
}

void knobs_init(struct knobs *k)
{
	memset(k, 0, sizeof(*k));
	for (size_t i = 0; i < knob_count; i++)
		knob_set(k, &knob_defs[i], knob_defs[i].def);
}

void knobs_derive(struct knobs *k, int default_repeats)
{
	if (k->repeats < 1)
		k->repeats = default_repeats > 0 ? default_repeats : 1;
	if (isnan(k->timeout_s))
		k->timeout_s = 60 + 2 * k->max_seconds;
}

const struct knob_def *knob_find(const char *section, const char *name)
{
	for (size_t i = 0; i < knob_count; i++)
		if (!strcmp(knob_defs[i].name, name) && (!section || !strcmp(knob_defs[i].section, section)))
			return &knob_defs[i];
	return NULL;
}

const char *knob_enum_name(const struct knobs *k, const struct knob_def *d)
{
	int i = (int)knob_get(k, d);
	return d->values && i >= 0 ? d->values[i] : "?";
}

const char *const *knob_section_keys(const char *section)
{
	static const char *keys[4][32];
	static const char *const sections[] = { "top", "correctness", "timing", "limits" };
	for (size_t s = 0; s < ARRAY_SIZE(sections); s++) {
		if (strcmp(sections[s], section))
			continue;
		if (!keys[s][0]) {
			size_t n = 0;
			for (size_t i = 0; i < knob_count && n < 31; i++)
				if (!strcmp(knob_defs[i].section, section))
					keys[s][n++] = knob_defs[i].name;
		}
		return keys[s];
	}
	return NULL;
}

json_t *knobs_to_json(const struct knobs *k)
{
	json_t *o = json_object();
	for (size_t i = 0; i < knob_count; i++) {
		const struct knob_def *d = &knob_defs[i];
		double v = knob_get(k, d);
		if (d->type == KNOB_ENUM)
			json_object_set_new(o, d->name, json_string(knob_enum_name(k, d)));
		else if (d->type == KNOB_INT)
			json_object_set_new(o, d->name, json_integer((json_int_t)v));
		else
			json_object_set_new(o, d->name, isfinite(v) ? json_real(v) : json_null());
	}
	return o;
}

int knobs_from_json(json_t *o, struct knobs *k)
{
	knobs_init(k);
	for (size_t i = 0; i < knob_count; i++) {
		const struct knob_def *d = &knob_defs[i];
		json_t *v = json_object_get(o, d->name);
		if (!v || json_is_null(v))
			continue;
		if (d->type == KNOB_ENUM) {
			const char *s = json_string_value(v);
			int found = -1;
			for (int j = 0; s && d->values[j]; j++)
				if (!strcmp(d->values[j], s))
					found = j;
			if (found < 0)
				return error("job: '%s' is '%s', not one of its values", d->name, s ? s : "?");
			knob_set(k, d, found);
		} else if (json_is_number(v)) {
			knob_set(k, d, json_number_value(v));
		} else {
			return error("job: '%s' must be a number", d->name);
		}
	}
	return 0;
}
