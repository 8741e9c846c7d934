/*
 * index.c - the one-line summary of a record that the store keeps in its
 * index (store.h's attrs), so that ls, paper, audit and export can find
 * runs, batches, outcomes and costs without opening every manifest.  The
 * store treats the line as opaque; this module writes and parses it, from
 * a manifest of any format it reads.  A batch of `evident reproduce`
 * carries the batch it reproduces and its verdict (query.h leaves such
 * batches out of "latest" from this line alone).
 */
#include "record/record.h"
#include "record/json_get.h"
#include "record/search.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const record_index_members[] = {
	"kind", "format", "run_id", "experiment", "variant", "repeat", "batch_id", "outcome",
	"started_utc", "code", "timing", "wall_s", "cost", "totals", "reproduction", "session", NULL,
};

char *record_index_attrs(json_t *m)
{
	json_t *a = json_object();
	if (record_is_batch(m)) {
		struct batch_record b;
		if (record_batch_read(m, &b) < 0) {
			batch_record_release(&b);
			json_decref(a);
			return NULL;
		}
		json_object_set_new(a, "kind", json_string("batch"));
		json_object_set_new(a, "experiment", jstr(b.experiment));
		json_object_set_new(a, "batch_id", jstr(b.batch_id));
		json_object_set_new(a, "started_utc", jstr(b.started_utc));
		json_object_set_new(a, "commit", jstr(b.git.commit));
		json_object_set_new(a, "dirty", json_boolean(b.git.dirty));
		json_object_set_new(a, "variants", json_integer(b.t_variants));
		json_object_set_new(a, "ok", json_integer(b.t_ok));
		json_object_set_new(a, "failed", json_integer(b.t_failed));
		json_object_set_new(a, "wall_s", jnum(b.t_wall_s));
		json_object_set_new(a, "gpu_s", jnum(b.t_gpu_s));
		json_object_set_new(a, "usd", b.t_have_usd ? jnum(b.t_usd) : json_null());
		if (b.session)
			json_object_set_new(a, "session", jstr(b.session));
		if (b.repro.have) {
			json_object_set_new(a, "reproduces", jstr(b.repro.of));
			json_object_set_new(a, "reproduced", json_boolean(b.repro.reproduced));
		}
		batch_record_release(&b);
	} else if (record_is_run(m)) {
		struct run_record r;
		if (record_run_read(m, &r) < 0) {
			run_record_release(&r);
			json_decref(a);
			return NULL;
		}
		json_object_set_new(a, "kind", json_string("run"));
		json_object_set_new(a, "experiment", jstr(r.experiment));
		json_object_set_new(a, "variant", jstr(r.variant));
		json_object_set_new(a, "repeat", json_integer(r.repeat));
		json_object_set_new(a, "batch_id", jstr(r.batch_id));
		json_object_set_new(a, "outcome", jstr(r.outcome_text));
		json_object_set_new(a, "started_utc", jstr(r.started_utc));
		json_object_set_new(a, "commit", jstr(r.git.commit));
		json_object_set_new(a, "dirty", json_boolean(r.git.dirty));
		json_object_set_new(a, "median_us", r.have_stats ? jnum(r.stats.median) : json_null());
		json_object_set_new(a, "wall_s", jnum(r.wall_s));
		json_object_set_new(a, "gpu_s", jnum(r.cost.gpu_s));
		json_object_set_new(a, "usd", r.cost.have_usd ? jnum(r.cost.usd) : json_null());
		run_record_release(&r);
	} else if (record_is_search(m)) {
		struct search_record r;
		if (record_search_read(m, &r) < 0) {
			search_record_release(&r);
			json_decref(a);
			return NULL;
		}
		json_object_set_new(a, "kind", json_string("search"));
		json_object_set_new(a, "experiment", jstr(r.experiment));
		json_object_set_new(a, "started_utc", jstr(r.started_utc));
		json_object_set_new(a, "commit", jstr(r.git.commit));
		json_object_set_new(a, "dirty", json_boolean(r.git.dirty));
		json_object_set_new(a, "variants", json_integer(r.t_candidates));
		json_object_set_new(a, "ok", json_integer(r.t_ok));
		json_object_set_new(a, "failed", json_integer(r.t_failed));
		json_object_set_new(a, "wall_s", jnum(r.t_wall_s));
		json_object_set_new(a, "gpu_s", jnum(r.t_gpu_s));
		json_object_set_new(a, "usd", jnum(r.t_usd));
		search_record_release(&r);
	} else {
		json_decref(a);
		return NULL;
	}
	char *s = json_dumps(a, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(17));
	json_decref(a);
	return s;
}

static char *dup_or_null(json_t *o, const char *k)
{
	const char *s = gs(o, k);
	return s ? xstrdup(s) : NULL;
}

/* The general reader: any JSON object jansson reads. */
static int attrs_parse_json(const char *attrs, struct record_attrs *a)
{
	json_t *o = attrs ? json_loads(attrs, 0, NULL) : NULL;
	if (!json_is_object(o)) {
		json_decref(o);
		return -1;
	}
	const char *kind = json_string_value(json_object_get(o, "kind"));
	a->is_batch = kind && !strcmp(kind, "batch");
	a->is_search = kind && !strcmp(kind, "search");
	a->experiment = dup_or_null(o, "experiment");
	a->variant = dup_or_null(o, "variant");
	a->batch_id = dup_or_null(o, "batch_id");
	a->outcome = dup_or_null(o, "outcome");
	a->started_utc = dup_or_null(o, "started_utc");
	a->commit = dup_or_null(o, "commit");
	a->dirty = json_is_true(json_object_get(o, "dirty"));
	a->repeat = (int)json_integer_value(json_object_get(o, "repeat"));
	a->median_us = gn(o, "median_us");
	a->wall_s = gn(o, "wall_s");
	a->gpu_s = gn(o, "gpu_s");
	a->usd = gn(o, "usd");
	a->t_variants = json_integer_value(json_object_get(o, "variants"));
	a->t_ok = json_integer_value(json_object_get(o, "ok"));
	a->t_failed = json_integer_value(json_object_get(o, "failed"));
	a->reproduces = dup_or_null(o, "reproduces");
	a->reproduced = json_is_true(json_object_get(o, "reproduced"));
	a->session = dup_or_null(o, "session");
	json_decref(o);
	return 0;
}

/*
 * The fast reader, for the lines record_index_attrs writes: one flat JSON
 * object whose values are strings without escapes, numbers, true, false or
 * null.  query_open reads every line of the index, and at 10^5 records
 * jansson's general parser was two thirds of `evident ls`.  Returns 0, -1
 * for a line that is no such object, or 1 for a line it leaves to the
 * general reader (an escape, a nested value, an unknown key).
 */
static int attrs_parse_flat(const char *p, struct record_attrs *a)
{
	if (*p++ != '{')
		return -1;
	if (*p == '}')
		return p[1] ? -1 : 0;
	for (;;) {
		if (*p++ != '"')
			return -1;
		const char *k = p;
		while (*p && *p != '"' && *p != '\\')
			p++;
		if (*p != '"')
			return 1;
		size_t kn = (size_t)(p - k);
		if (*++p != ':')
			return -1;
		p++;
		const char *sv = NULL;
		size_t sn = 0;
		int isnull = 0, boolv = -1;
		double num = NAN;
		if (*p == '"') {
			sv = ++p;
			while (*p && *p != '"' && *p != '\\' && (unsigned char)*p >= 0x20)
				p++;
			if (*p != '"')
				return 1;
			sn = (size_t)(p - sv);
			p++;
		} else if (!strncmp(p, "null", 4)) {
			isnull = 1;
			p += 4;
		} else if (!strncmp(p, "true", 4) || !strncmp(p, "false", 5)) {
			boolv = *p == 't';
			p += boolv ? 4 : 5;
		} else if (*p == '-' || (*p >= '0' && *p <= '9')) {
			char *end;
			num = strtod(p, &end);
			if (end == p)
				return -1;
			p = end;
		} else {
			return 1;
		}
#define KEY(name) (kn == sizeof(name) - 1 && !memcmp(k, name, kn))
#define STR(field)                                                                                  \
	do {                                                                                        \
		if (!sv && !isnull)                                                                 \
			return 1;                                                                   \
		free(a->field);                                                             \
		a->field = sv ? xstrndup(sv, sn) : NULL;                                            \
	} while (0)
#define NUM(field)                                                                                  \
	do {                                                                                        \
		if (sv || boolv >= 0)                                                               \
			return 1;                                                                   \
		a->field = num;                                                                     \
	} while (0)
		if (KEY("kind")) {
			if (!sv)
				return 1;
			a->is_batch = sn == 5 && !memcmp(sv, "batch", 5);
			a->is_search = sn == 6 && !memcmp(sv, "search", 6);
		} else if (KEY("experiment"))
			STR(experiment);
		else if (KEY("variant"))
			STR(variant);
		else if (KEY("batch_id"))
			STR(batch_id);
		else if (KEY("outcome"))
			STR(outcome);
		else if (KEY("started_utc"))
			STR(started_utc);
		else if (KEY("commit"))
			STR(commit);
		else if (KEY("dirty"))
			a->dirty = boolv == 1;
		else if (KEY("repeat"))
			a->repeat = isfinite(num) ? (int)num : 0;
		else if (KEY("median_us"))
			NUM(median_us);
		else if (KEY("wall_s"))
			NUM(wall_s);
		else if (KEY("gpu_s"))
			NUM(gpu_s);
		else if (KEY("usd"))
			NUM(usd);
		else if (KEY("variants"))
			a->t_variants = isfinite(num) ? (long long)num : 0;
		else if (KEY("ok"))
			a->t_ok = isfinite(num) ? (long long)num : 0;
		else if (KEY("failed"))
			a->t_failed = isfinite(num) ? (long long)num : 0;
		else if (KEY("reproduces"))
			STR(reproduces);
		else if (KEY("session"))
			STR(session);
		else if (KEY("reproduced"))
			a->reproduced = boolv == 1;
		else
			return 1;
#undef KEY
#undef STR
#undef NUM
		if (*p == '}')
			return p[1] ? -1 : 0;
		if (*p++ != ',')
			return -1;
	}
}

int record_attrs_parse(const char *attrs, struct record_attrs *a)
{
	memset(a, 0, sizeof(*a));
	a->median_us = a->wall_s = a->gpu_s = a->usd = NAN;
	int rc = attrs ? attrs_parse_flat(attrs, a) : -1;
	if (rc == 0)
		return 0;
	record_attrs_release(a);
	a->median_us = a->wall_s = a->gpu_s = a->usd = NAN;
	return attrs_parse_json(attrs, a);
}

void record_attrs_release(struct record_attrs *a)
{
	if (!a)
		return;
	free(a->experiment);
	free(a->variant);
	free(a->batch_id);
	free(a->outcome);
	free(a->started_utc);
	free(a->commit);
	free(a->reproduces);
	free(a->session);
	memset(a, 0, sizeof(*a));
}

json_t *record_attrs_json(const char *run_id, const struct record_attrs *a)
{
	json_t *o = json_object();
	json_object_set_new(o, "run_id", jstr(run_id));
	json_object_set_new(o, "kind", json_string(a->is_batch ? "batch" : a->is_search ? "search" : "run"));
	json_object_set_new(o, "experiment", jstr(a->experiment));
	if (!a->is_batch && !a->is_search) {
		json_object_set_new(o, "variant", jstr(a->variant));
		json_object_set_new(o, "repeat", json_integer(a->repeat + 1));
		json_object_set_new(o, "outcome", jstr(a->outcome));
		json_object_set_new(o, "median_us", jnum(a->median_us));
	}
	json_object_set_new(o, "batch_id", jstr(a->batch_id));
	json_object_set_new(o, "started_utc", jstr(a->started_utc));
	json_object_set_new(o, "commit", jstr(a->commit));
	json_object_set_new(o, "dirty", json_boolean(a->dirty));
	json_object_set_new(o, "wall_s", jnum(a->wall_s));
	json_object_set_new(o, "gpu_s", jnum(a->gpu_s));
	json_object_set_new(o, "usd", jnum(a->usd));
	if (a->is_search) {
		json_object_set_new(o, "candidates", json_integer(a->t_variants));
		json_object_set_new(o, "ok", json_integer(a->t_ok));
		json_object_set_new(o, "failed", json_integer(a->t_failed));
	}
	if (a->is_batch) {
		json_object_set_new(o, "variants", json_integer(a->t_variants));
		json_object_set_new(o, "ok", json_integer(a->t_ok));
		json_object_set_new(o, "failed", json_integer(a->t_failed));
		json_object_set_new(o, "reproduces", jstr(a->reproduces));
		json_object_set_new(o, "reproduced", a->reproduces ? json_boolean(a->reproduced) : json_null());
		if (a->session)
			json_object_set_new(o, "session", jstr(a->session));
	}
	return o;
}
