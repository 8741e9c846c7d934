/*
 * readers.c - small named readers over a typed run record, for the code
 * that shows and judges records (show, audit, paper): a run's checks
 * grouped by phase, its float64 reference check, the source of its
 * kernel, where a batch ran (reproduce).  They live here, next to the
 * reader that fills the struct, so that no file outside the record module
 * spells a key of the record or of a document the record documents
 * (record.h: reference_check, the machine).
 * Contracts in record.h.
 */
#include "record/record.h"

#include <math.h>
#include <string.h>

size_t record_check_phases(const struct run_record *r, struct rec_phase *out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < r->n_checks; i++) {
		const struct rec_check *c = &r->checks[i];
		const char *phase = c->phase ? c->phase : "seed";
		size_t k;
		for (k = 0; k < n && strcmp(out[k].phase, phase); k++)
			;
		if (k == n) {
			if (n == max)
				continue; /* more phases than the caller has room for: the first max */
			memset(&out[n], 0, sizeof(out[n]));
			out[n].phase = phase;
			out[n].first = c;
			out[n].max_abs_err = NAN;
			n++;
		}
		struct rec_phase *p = &out[k];
		p->n++;
		if (!c->pass && !p->failed++)
			p->first_failed = c;
		if (!isnan(c->max_abs_err) && (isnan(p->max_abs_err) || c->max_abs_err > p->max_abs_err))
			p->max_abs_err = c->max_abs_err;
	}
	return n;
}

void record_reference_check(const struct run_record *r, struct rec_refcheck *c)
{
	json_t *o = r->reference_check;
	memset(c, 0, sizeof(*c));
	c->max_abs_diff = c->rel_l2 = NAN;
	c->pass = -1;
	if (!json_is_object(o))
		return;
	c->have = 1;
	c->done = json_is_true(json_object_get(o, "done"));
	json_t *p = json_object_get(o, "pass");
	c->pass = json_is_boolean(p) ? json_is_true(p) : -1;
	json_t *v = json_object_get(o, "max_abs_diff");
	c->max_abs_diff = json_is_number(v) ? json_number_value(v) : NAN;
	v = json_object_get(o, "rel_l2");
	c->rel_l2 = json_is_number(v) ? json_number_value(v) : NAN;
	c->against = json_string_value(json_object_get(o, "against"));
	c->why = json_string_value(json_object_get(o, "why"));
}

const struct rec_source *run_kernel_source(const struct run_record *r)
{
	for (size_t i = 0; r->kernel && i < r->n_sources; i++)
		if (r->sources[i].path && !strcmp(r->sources[i].path, r->kernel))
			return &r->sources[i];
	return NULL;
}

void record_batch_env(const struct batch_record *b, struct rec_env *e)
{
	json_t *m = b->machine, *gpu = json_object_get(m, "gpu");
	memset(e, 0, sizeof(*e));
	e->cpu = json_string_value(json_object_get(m, "cpu"));
	e->gpu = json_string_value(json_object_get(gpu, "name"));
	e->driver = json_string_value(json_object_get(gpu, "driver_version"));
	e->cuda = json_string_value(json_object_get(json_object_get(m, "compilers"), "nvcc"));
}
