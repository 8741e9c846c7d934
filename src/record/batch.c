/*
 * batch.c - the batch record (evident-batch/2; evident-batch/1 read only),
 * both directions, and the lookups on it every reader shares.  Contract in
 * record.h.  A batch is one `evident run`: its rows are the variants, each
 * with the run ids of its repeats, the statistics over all of them and the
 * comparison with the baseline whose p-value is Holm-adjusted over the
 * batch.  Its run id is its batch id (v1 stored two different ids; both
 * resolve).
 */
#include "record/record.h"
#include "record/json_get.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* shared with run.c */
void record_read_problem(json_t *m, struct rec_problem *p);
json_t *record_write_problem(const struct rec_problem *p);
void record_read_git(json_t *code, struct rec_git *g);
json_t *record_write_git(const struct rec_git *g);
void record_read_runner(json_t *code, struct rec_runner *rn);
json_t *record_write_runner(const struct rec_runner *rn);
/* throughput.c's */
void record_read_peak(json_t *tput, struct rec_peak *pk);
json_t *record_write_peak(const struct rec_peak *pk, json_t *into);
json_t *record_write_tput(const struct rec_tput *t, json_t *into);

static void read_row(json_t *r, struct batch_row *row)
{
	memset(row, 0, sizeof(*row));
	row->mde = NAN;
	row->event_median_us = NAN;
	row->stress_slow = NAN;
	row->variant = gs(r, "variant");
	row->kernel = gs(r, "kernel");
	json_t *p = go(r, "params");
	if (json_object_size(p)) {
		row->params = xcalloc(json_object_size(p), sizeof(*row->params));
		const char *k;
		json_t *v;
		json_object_foreach(p, k, v) if (json_is_string(v))
		{
			row->params[row->n_params].name = (char *)k;
			row->params[row->n_params].value = (char *)json_string_value(v);
			row->n_params++;
		}
	}
	row->outcome_text = gs(r, "outcome");
	if (!row->outcome_text || outcome_parse(row->outcome_text, &row->outcome) < 0)
		row->outcome = OUTCOME_UNKNOWN;
	row->reason = gs(r, "reason");
	row->expect = gs(r, "expect");
	row->is_reference = json_is_true(json_object_get(r, "is_reference"));
	row->run_id = gs(r, "run_id");
	json_t *runs = json_object_get(r, "runs");
	if (json_array_size(runs)) {
		row->runs = xcalloc(json_array_size(runs), sizeof(*row->runs));
		size_t i;
		json_t *id;
		json_array_foreach(runs, i, id) if (json_is_string(id)) row->runs[row->n_runs++] =
			json_string_value(id);
	} else if (row->run_id) {
		row->runs = xcalloc(1, sizeof(*row->runs));
		row->runs[row->n_runs++] = row->run_id;
	}
	row->n_ok_runs = (size_t)gi(r, "ok_runs", row->outcome == OUTCOME_OK ? (long long)row->n_runs : 0);
	row->clock = gs(r, "clock");
	row->have_stats = record_summary_read(go(r, "stats"), &row->stats) == 0;
	json_t *lv = go(r, "levels");
	if (lv) {
		row->have_levels = 1;
		row->levels.repeats = (int)gi(lv, "repeats", 0);
		row->levels.samples_per_repeat = gn(lv, "samples_per_repeat");
		row->levels.var_between = gn(lv, "var_between");
		row->levels.var_within = gn(lv, "var_within");
		row->levels.frac_between = gn(lv, "frac_between");
	}
	row->have_cmp = record_comparison_read(go(r, "comparison"), &row->cmp) == 0;
	row->mde = gn(r, "mde");
	row->event_median_us = gn(r, "event_median_us");
	row->health_note = gs(r, "health_note");
	row->timed_on = gs(r, "timed_on");
	if (json_is_number(json_object_get(r, "stress_slow")))
		row->stress_slow = gn(r, "stress_slow");
}

/* ---- the reproduction (record.h) ---- */

static const char *const repro_names[] = { "reproduced", "not_reproduced", "could_not_rebuild" };

const char *repro_verdict_name(enum repro_verdict v)
{
	return (unsigned)v < ARRAY_SIZE(repro_names) ? repro_names[v] : "unknown";
}

static void read_repro_side(json_t *o, struct rec_repro_side *s)
{
	s->outcome_text = gs(o, "outcome");
	if (!s->outcome_text || outcome_parse(s->outcome_text, &s->outcome) < 0)
		s->outcome = OUTCOME_UNKNOWN;
	s->median_us = gn(o, "median_us");
	json_t *ci = json_object_get(o, "median_ci");
	s->ci[0] = json_is_number(json_array_get(ci, 0)) ? json_number_value(json_array_get(ci, 0)) : NAN;
	s->ci[1] = json_is_number(json_array_get(ci, 1)) ? json_number_value(json_array_get(ci, 1)) : NAN;
	s->have_stats = !isnan(s->median_us) && !isnan(s->ci[0]) && !isnan(s->ci[1]);
}

static void read_repro(json_t *o, struct rec_reproduction *r)
{
	memset(r, 0, sizeof(*r));
	r->threshold = NAN;
	if (!o)
		return;
	r->have = 1;
	r->of = gs(o, "of");
	r->commit = gs(o, "commit");
	r->diff_object = gs(o, "diff_object");
	r->threshold = gn(o, "threshold");
	r->reproduced = json_is_true(json_object_get(o, "reproduced"));
	r->warnings = json_object_get(o, "warnings");
	if (!json_is_array(r->warnings))
		r->warnings = NULL;
	json_t *rows = json_object_get(o, "variants");
	if (!json_array_size(rows))
		return;
	r->rows = xcalloc(json_array_size(rows), sizeof(*r->rows));
	size_t i;
	json_t *v;
	json_array_foreach(rows, i, v)
	{
		struct rec_repro_row *row = &r->rows[r->n_rows++];
		row->variant = gs(v, "variant");
		row->verdict_text = gs(v, "verdict");
		row->verdict = REPRO_UNKNOWN;
		for (unsigned k = 0; row->verdict_text && k < ARRAY_SIZE(repro_names); k++)
			if (!strcmp(row->verdict_text, repro_names[k]))
				row->verdict = (enum repro_verdict)k;
		row->reason = gs(v, "reason");
		read_repro_side(go(v, "recorded"), &row->recorded);
		read_repro_side(go(v, "now"), &row->now);
	}
}

static json_t *write_repro_side(const struct rec_repro_side *s)
{
	json_t *o = json_object();
	json_object_set_new(o, "outcome", s->outcome_text ? json_string(s->outcome_text)
							   : json_string(outcome_name(s->outcome)));
	json_object_set_new(o, "median_us", s->have_stats ? jnum(s->median_us) : json_null());
	json_object_set_new(o, "median_ci",
			    s->have_stats ? json_pack("[o, o]", jnum(s->ci[0]), jnum(s->ci[1])) : json_null());
	return o;
}

static json_t *write_repro(const struct rec_reproduction *r)
{
	json_t *o = json_object(), *rows = json_array();
	json_object_set_new(o, "of", jstr(r->of));
	json_object_set_new(o, "commit", jstr(r->commit));
	json_object_set_new(o, "diff_object", jstr(r->diff_object));
	json_object_set_new(o, "threshold", jnum(r->threshold));
	json_object_set_new(o, "reproduced", json_boolean(r->reproduced));
	for (size_t i = 0; i < r->n_rows; i++) {
		const struct rec_repro_row *row = &r->rows[i];
		json_t *v = json_object();
		json_object_set_new(v, "variant", jstr(row->variant));
		json_object_set_new(v, "verdict", json_string(repro_verdict_name(row->verdict)));
		json_object_set_new(v, "reason", jstr(row->reason));
		json_object_set_new(v, "recorded", write_repro_side(&row->recorded));
		json_object_set_new(v, "now", write_repro_side(&row->now));
		json_array_append_new(rows, v);
	}
	json_object_set_new(o, "variants", rows);
	json_object_set_new(o, "warnings", r->warnings ? json_incref(r->warnings) : json_array());
	return o;
}

int record_batch_read(json_t *m, struct batch_record *b)
{
	memset(b, 0, sizeof(*b));
	b->t_wall_s = b->t_gpu_s = b->t_usd = NAN;
	if (!json_is_object(m) || !record_is_batch(m))
		return error("not a batch record (kind is not 'batch')");
	b->raw = json_incref(m);
	b->format = gs(m, "format");
	if (!b->format || (strcmp(b->format, "evident-batch/1") && strcmp(b->format, RECORD_BATCH_FORMAT)))
		return error("batch '%s' has format '%s', which this evident cannot read (it reads "
			     "evident-batch/1 and %s); upgrade evident",
			     gs(m, "run_id") ? gs(m, "run_id") : "?", b->format ? b->format : "none",
			     RECORD_BATCH_FORMAT);
	b->version = !strcmp(b->format, "evident-batch/1") ? 1 : 2;
	b->run_id = gs(m, "run_id");
	b->batch_id = gs(m, "batch_id");
	b->experiment = gs(m, "experiment");
	b->question = gs(m, "question");
	b->baseline = gs(m, "baseline");
	b->backend = gs(m, "backend");
	b->started_utc = gs(m, "started_utc");
	record_read_problem(m, &b->problem);
	record_read_git(go(m, "code"), &b->git);
	record_read_runner(go(m, "code"), &b->runner);
	b->machine = go(m, "machine");
	json_t *rows = json_object_get(m, "variants");
	if (json_array_size(rows)) {
		b->rows = xcalloc(json_array_size(rows), sizeof(*b->rows));
		size_t i;
		json_t *r;
		json_array_foreach(rows, i, r) read_row(r, &b->rows[b->n_rows++]);
	}
	b->notes = json_object_get(m, "notes");
	if (!json_is_array(b->notes))
		b->notes = NULL;
	b->interrupted = json_is_true(json_object_get(m, "interrupted"));
	b->session = json_string_value(json_object_get(m, "session"));
	json_t *h = go(m, "holm");
	b->holm_alpha = gn(h, "alpha");
	b->holm_threshold = gn(h, "threshold");
	/* rule 5 of the verdict table (stats.h) on rows written before it,
	 * with the band the batch's verdicts used */
	double band = isfinite(b->holm_threshold) && b->holm_threshold >= 0 && b->holm_threshold < 1
			      ? b->holm_threshold
			      : ((struct stats_opts)STATS_OPTS_INIT).threshold;
	for (size_t k = 0; k < b->n_rows; k++)
		if (b->rows[k].have_cmp)
			stats_verdict_settle(&b->rows[k].cmp, band);
	b->holm_comparisons = gi(h, "comparisons", 0);
	json_t *plan = go(m, "plan");
	b->repeats = (int)gi(plan, "repeats", 1);
	b->order = gs(plan, "order");
	b->plan_seed = (unsigned long long)gi(plan, "seed", 0);
	json_t *gpus = json_object_get(plan, "gpus");
	if (json_array_size(gpus)) {
		b->slots = xcalloc(json_array_size(gpus), sizeof(*b->slots));
		size_t i;
		json_t *g;
		json_array_foreach(gpus, i, g)
		{
			struct rec_slot *x = &b->slots[b->n_slots++];
			x->slot = (int)gi(g, "slot", (long long)i);
			x->device = (int)gi(g, "index", -1);
			x->uuid = gs(g, "uuid");
			x->name = gs(g, "name");
			x->host = gs(g, "host");
			x->runs = gi(g, "runs", 0);
		}
	}
	json_t *t = go(m, "totals");
	b->t_variants = gi(t, "variants", 0);
	b->t_ok = gi(t, "ok", 0);
	b->t_failed = gi(t, "failed", 0);
	b->t_wall_s = gn(t, "wall_s");
	b->t_gpu_s = gn(t, "gpu_s");
	b->t_usd = gn(t, "usd");
	b->t_have_usd = !isnan(b->t_usd);
	read_repro(go(m, "reproduction"), &b->repro);
	record_read_peak(json_object_get(m, "throughput"), &b->peak);
	b->prev = gs(m, "prev");
	b->digest = gs(m, "digest");
	return 0;
}

void batch_record_release(struct batch_record *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->n_rows; i++) {
		free(b->rows[i].params);
		free(b->rows[i].runs);
	}
	free(b->rows);
	free(b->slots);
	free(b->problem.sources);
	free(b->repro.rows);
	json_decref(b->raw);
	memset(b, 0, sizeof(*b));
}

double batch_notes_stress_slow(const json_t *notes, const char *variant)
{
	double worst = 0;
	size_t i, nl = variant ? strlen(variant) : 0;
	json_t *n;
	json_array_foreach((json_t *)notes, i, n)
	{
		const char *t = json_string_value(n), *x;
		double q;
		/* "NAME: DIST Q.QQx of TDIST's median: speed depends on the input" */
		if (!t || !nl || strncmp(t, variant, nl) || strncmp(t + nl, ": ", 2) ||
		    !strstr(t, "'s median: speed depends on the input") || !(x = strchr(t + nl + 2, ' ')) ||
		    sscanf(x, " %lfx of ", &q) != 1)
			continue;
		if (q > BATCH_STRESS_SLOW_RATIO && q > worst)
			worst = q;
	}
	return worst;
}

double batch_row_stress_slow(const struct batch_record *b, const struct batch_row *row)
{
	if (!row)
		return 0;
	if (isfinite(row->stress_slow))
		return row->stress_slow > BATCH_STRESS_SLOW_RATIO ? row->stress_slow : 0;
	return b ? batch_notes_stress_slow(b->notes, row->variant) : 0;
}

const struct batch_row *batch_find_row(const struct batch_record *b, const char *variant)
{
	for (size_t i = 0; b && variant && i < b->n_rows; i++)
		if (b->rows[i].variant && !strcmp(b->rows[i].variant, variant))
			return &b->rows[i];
	return NULL;
}

const char *row_param(const struct batch_row *row, const char *name)
{
	for (size_t i = 0; i < row->n_params; i++)
		if (!strcmp(row->params[i].name, name))
			return row->params[i].value;
	return NULL;
}

static json_t *write_row(const struct batch_row *r)
{
	json_t *o = json_object(), *p = json_object(), *runs = json_array();
	json_object_set_new(o, "variant", jstr(r->variant));
	json_object_set_new(o, "kernel", jstr(r->kernel));
	for (size_t i = 0; i < r->n_params; i++)
		json_object_set_new(p, r->params[i].name, json_string(r->params[i].value));
	json_object_set_new(o, "params", p);
	json_object_set_new(o, "expect", jstr(r->expect));
	json_object_set_new(o, "is_reference", json_boolean(r->is_reference));
	json_object_set_new(o, "outcome", json_string(outcome_name(r->outcome)));
	json_object_set_new(o, "reason", jstr(r->reason));
	json_object_set_new(o, "run_id", jstr(r->run_id));
	for (size_t i = 0; i < r->n_runs; i++)
		json_array_append_new(runs, json_string(r->runs[i]));
	json_object_set_new(o, "runs", runs);
	json_object_set_new(o, "ok_runs", json_integer((json_int_t)r->n_ok_runs));
	json_object_set_new(o, "clock", jstr(r->clock));
	json_object_set_new(o, "median_us", r->have_stats ? jnum(r->stats.median) : json_null());
	json_object_set_new(o, "stats", r->have_stats ? record_summary_json(&r->stats) : json_null());
	if (r->have_levels) {
		json_t *lv = json_object();
		json_object_set_new(lv, "repeats", json_integer(r->levels.repeats));
		json_object_set_new(lv, "samples_per_repeat", jnum(r->levels.samples_per_repeat));
		json_object_set_new(lv, "var_between", jnum(r->levels.var_between));
		json_object_set_new(lv, "var_within", jnum(r->levels.var_within));
		json_object_set_new(lv, "frac_between", jnum(r->levels.frac_between));
		json_object_set_new(o, "levels", lv);
	} else {
		json_object_set_new(o, "levels", json_null());
	}
	json_object_set_new(o, "comparison", r->have_cmp ? record_comparison_json(&r->cmp) : json_null());
	json_object_set_new(o, "mde", jnum(r->mde));
	json_object_set_new(o, "event_median_us", jnum(r->event_median_us));
	json_object_set_new(o, "health_note", jstr(r->health_note));
	if (r->timed_on)
		json_object_set_new(o, "timed_on", json_string(r->timed_on));
	if (isfinite(r->stress_slow))
		json_object_set_new(o, "stress_slow", json_real(r->stress_slow));
	return o;
}

json_t *record_batch_json(const struct batch_record *b)
{
	json_t *m = json_object();
	json_object_set_new(m, "format", json_string(RECORD_BATCH_FORMAT));
	json_object_set_new(m, "kind", json_string("batch"));
	json_object_set_new(m, "run_id", jstr(b->run_id));
	json_object_set_new(m, "batch_id", jstr(b->batch_id));
	json_object_set_new(m, "experiment", jstr(b->experiment));
	json_object_set_new(m, "question", jstr(b->question));
	json_object_set_new(m, "baseline", jstr(b->baseline));
	json_object_set_new(m, "backend", jstr(b->backend));
	json_object_set_new(m, "started_utc", jstr(b->started_utc));
	json_object_set_new(m, "problem", record_write_problem(&b->problem));
	json_t *code = json_object();
	json_object_set_new(code, "git", record_write_git(&b->git));
	if (b->runner.have) /* records before red team 279's fix have none */
		json_object_set_new(code, "runner", record_write_runner(&b->runner));
	json_object_set_new(m, "code", code);
	json_object_set_new(m, "machine", b->machine ? json_incref(b->machine) : json_null());
	json_t *plan = json_object();
	json_object_set_new(plan, "repeats", json_integer(b->repeats));
	json_object_set_new(plan, "order", jstr(b->order));
	json_object_set_new(plan, "seed", json_integer((json_int_t)b->plan_seed));
	json_t *gpus = json_array();
	for (size_t i = 0; i < b->n_slots; i++) {
		const struct rec_slot *x = &b->slots[i];
		json_t *g = json_object();
		json_object_set_new(g, "slot", json_integer(x->slot));
		json_object_set_new(g, "index", x->device >= 0 ? json_integer(x->device) : json_null());
		json_object_set_new(g, "uuid", jstr(x->uuid));
		json_object_set_new(g, "name", jstr(x->name));
		json_object_set_new(g, "host", jstr(x->host));
		json_object_set_new(g, "runs", json_integer(x->runs));
		json_array_append_new(gpus, g);
	}
	json_object_set_new(plan, "gpus", gpus);
	json_object_set_new(m, "plan", plan);
	json_t *rows = json_array();
	for (size_t i = 0; i < b->n_rows; i++) {
		const struct batch_row *r = &b->rows[i];
		json_t *o = write_row(r);
		struct rec_tput tp;
		record_throughput(&b->problem, r->have_stats ? r->stats.median : NAN, &b->peak, &tp);
		json_object_set_new(o, "throughput", record_write_tput(&tp, NULL));
		json_array_append_new(rows, o);
	}
	json_object_set_new(m, "variants", rows);
	json_object_set_new(m, "notes", b->notes ? json_incref(b->notes) : json_array());
	json_object_set_new(m, "interrupted", json_boolean(b->interrupted));
	if (b->session)
		json_object_set_new(m, "session", json_string(b->session));
	json_t *h = json_object();
	json_object_set_new(h, "alpha", jnum(b->holm_alpha));
	json_object_set_new(h, "threshold", jnum(b->holm_threshold));
	json_object_set_new(h, "comparisons", json_integer(b->holm_comparisons));
	json_object_set_new(m, "holm", h);
	json_t *t = json_object();
	json_object_set_new(t, "variants", json_integer(b->t_variants));
	json_object_set_new(t, "ok", json_integer(b->t_ok));
	json_object_set_new(t, "failed", json_integer(b->t_failed));
	json_object_set_new(t, "wall_s", jnum(b->t_wall_s));
	json_object_set_new(t, "gpu_s", jnum(b->t_gpu_s));
	json_object_set_new(t, "usd", b->t_have_usd ? jnum(b->t_usd) : json_null());
	json_object_set_new(m, "totals", t);
	/* the peak its rows' throughput is held against (the runs' own) */
	json_object_set_new(m, "throughput", record_write_peak(&b->peak, NULL));
	/* only a reproduction has one: other batches stay as they were written */
	if (b->repro.have)
		json_object_set_new(m, "reproduction", write_repro(&b->repro));
	return m;
}

void batch_row_from_run(const struct run_record *r, struct batch_row *row)
{
	memset(row, 0, sizeof(*row));
	row->mde = NAN;
	row->stress_slow = NAN;
	row->event_median_us = r->event_median_us;
	row->variant = r->variant;
	row->kernel = r->kernel;
	if (r->n_params) {
		row->params = xcalloc(r->n_params, sizeof(*row->params));
		memcpy(row->params, r->params, r->n_params * sizeof(*row->params));
		row->n_params = r->n_params;
	}
	row->outcome = r->outcome;
	row->outcome_text = r->outcome_text;
	row->reason = r->reason;
	row->expect = r->expect;
	row->is_reference = r->is_reference;
	row->run_id = r->run_id;
	row->runs = xcalloc(1, sizeof(*row->runs));
	row->runs[row->n_runs++] = r->run_id;
	row->n_ok_runs = r->outcome == OUTCOME_OK;
	row->clock = r->clock;
	row->have_stats = r->have_stats;
	row->stats = r->stats;
	row->have_cmp = r->have_comparison;
	row->cmp = r->comparison;
}

void batch_row_release(struct batch_row *row)
{
	if (!row)
		return;
	free(row->params);
	free(row->runs);
	memset(row, 0, sizeof(*row));
}
