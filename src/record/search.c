/*
 * search.c - the search record (evident-search/1), both directions; the
 * format and its ownership are in search.h, every field in README
 * "Searches".  Lenient where it can be (a missing field reads as absent)
 * and strict on kind and format, as run.c and batch.c are.
 */
#include "record/search.h"
#include "record/json_get.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* shared with run.c and batch.c */
struct param *record_read_params(json_t *o, size_t *n);
json_t *record_write_params(const struct param *p, size_t n);
void record_read_git(json_t *code, struct rec_git *g);
json_t *record_write_git(const struct rec_git *g);
void record_read_runner(json_t *code, struct rec_runner *rn);
json_t *record_write_runner(const struct rec_runner *rn);

int record_is_search(json_t *m)
{
	const char *k = gs(m, "kind");
	return k && !strcmp(k, "search");
}

/* [lo, hi] of finite numbers, or null */
static json_t *write_ci(const double ci[2])
{
	if (!isfinite(ci[0]) || !isfinite(ci[1]))
		return json_null();
	return json_pack("[f, f]", ci[0], ci[1]);
}

static void read_ci(json_t *a, double ci[2])
{
	ci[0] = ci[1] = NAN;
	if (json_array_size(a) == 2 && json_is_number(json_array_get(a, 0)) && json_is_number(json_array_get(a, 1))) {
		ci[0] = json_number_value(json_array_get(a, 0));
		ci[1] = json_number_value(json_array_get(a, 1));
	}
}

static json_t *write_candidate(const struct rec_candidate *c)
{
	json_t *o = json_object();
	json_object_set_new(o, "id", jstr(c->id));
	json_object_set_new(o, "role", jstr(c->role));
	json_object_set_new(o, "kernel", jstr(c->kernel));
	json_object_set_new(o, "params", record_write_params(c->params, c->n_params));
	json_object_set_new(o, "parent", jstr(c->parent));
	json_object_set_new(o, "parent_run", jstr(c->parent_run));
	json_object_set_new(o, "mutation", jstr(c->mutation));
	json_object_set_new(o, "outcome", jstr(c->outcome));
	json_object_set_new(o, "reason", jstr(c->reason));
	json_object_set_new(o, "run", jstr(c->run));
	json_object_set_new(o, "binary_sha256", jstr(c->binary_sha256));
	json_object_set_new(o, "median_us", jnum(c->median_us));
	json_object_set_new(o, "median_ci", write_ci(c->median_ci));
	if (c->have_cmp) {
		json_t *k = json_object();
		json_object_set_new(k, "speedup", jnum(c->speedup));
		json_object_set_new(k, "speedup_ci", write_ci(c->speedup_ci));
		json_object_set_new(k, "p_adjusted", jnum(c->p_adjusted));
		json_object_set_new(k, "verdict", jstr(c->verdict));
		json_object_set_new(k, "verdict_reason", jstr(c->verdict_reason));
		json_object_set_new(o, "comparison", k);
	} else {
		json_object_set_new(o, "comparison", json_null());
	}
	json_object_set_new(o, "no_effect", jstr(c->no_effect));
	json_object_set_new(o, "note", jstr(c->note));
	json_object_set_new(o, "promoted", json_boolean(c->promoted));
	return o;
}

static void read_candidate(json_t *o, struct rec_candidate *c)
{
	memset(c, 0, sizeof(*c));
	c->id = gs(o, "id");
	c->role = gs(o, "role");
	c->kernel = gs(o, "kernel");
	c->params = record_read_params(json_object_get(o, "params"), &c->n_params);
	c->parent = gs(o, "parent");
	c->parent_run = gs(o, "parent_run");
	c->mutation = gs(o, "mutation");
	c->outcome = gs(o, "outcome");
	c->reason = gs(o, "reason");
	c->run = gs(o, "run");
	c->binary_sha256 = gs(o, "binary_sha256");
	c->median_us = gn(o, "median_us");
	read_ci(json_object_get(o, "median_ci"), c->median_ci);
	json_t *k = go(o, "comparison");
	c->have_cmp = k != NULL;
	c->speedup = gn(k, "speedup");
	read_ci(json_object_get(k, "speedup_ci"), c->speedup_ci);
	c->p_adjusted = gn(k, "p_adjusted");
	c->verdict = gs(k, "verdict");
	c->verdict_reason = gs(k, "verdict_reason");
	c->no_effect = gs(o, "no_effect");
	c->note = gs(o, "note");
	c->promoted = gb(o, "promoted");
}

static json_t *write_generation(const struct rec_generation *g)
{
	json_t *o = json_object(), *cost = json_object(), *cs = json_array();
	json_object_set_new(o, "generation", json_integer(g->generation));
	json_object_set_new(o, "batch", jstr(g->batch));
	json_object_set_new(o, "best_in", jstr(g->best_in));
	json_object_set_new(o, "best_out", jstr(g->best_out));
	json_object_set_new(o, "promoted", json_boolean(g->promoted));
	json_object_set_new(o, "why", jstr(g->why));
	json_object_set_new(o, "best_median_us", jnum(g->best_median_us));
	json_object_set_new(o, "best_median_ci", write_ci(g->best_median_ci));
	json_object_set_new(cost, "runs", json_integer(g->runs));
	json_object_set_new(cost, "wall_s", jnum(g->wall_s));
	json_object_set_new(cost, "gpu_s", jnum(g->gpu_s));
	json_object_set_new(cost, "usd", jnum(g->usd));
	json_object_set_new(cost, "cpu_s", jnum(g->cpu_s));
	json_object_set_new(o, "cost", cost);
	for (size_t i = 0; i < g->n; i++)
		json_array_append_new(cs, write_candidate(&g->c[i]));
	json_object_set_new(o, "candidates", cs);
	if (g->have_confirm) {
		json_t *k = json_object(), *c = write_candidate(&g->confirm_c);
		json_object_set_new(k, "batch", jstr(g->confirm_batch));
		json_object_set_new(k, "challenger", jstr(g->confirm_challenger));
		json_object_set_new(k, "confirmed", json_boolean(g->confirmed));
		json_object_set(k, "outcome", json_object_get(c, "outcome"));
		json_object_set(k, "median_us", json_object_get(c, "median_us"));
		json_object_set_new(k, "incumbent_median_us", jnum(g->confirm_incumbent_median_us));
		json_object_set(k, "comparison", json_object_get(c, "comparison"));
		json_decref(c);
		json_t *tries = json_array();
		for (size_t i = 0; i < g->n_tries; i++) {
			const struct rec_confirm_try *t = &g->tries[i];
			json_t *tk = json_object(), *tc = write_candidate(&t->c);
			json_object_set_new(tk, "batch", jstr(t->batch));
			json_object_set_new(tk, "challenger", jstr(t->challenger));
			json_object_set_new(tk, "confirmed", json_false());
			json_object_set(tk, "outcome", json_object_get(tc, "outcome"));
			json_object_set(tk, "median_us", json_object_get(tc, "median_us"));
			json_object_set_new(tk, "incumbent_median_us", jnum(t->incumbent_median_us));
			json_object_set(tk, "comparison", json_object_get(tc, "comparison"));
			json_object_set_new(tk, "why", jstr(t->why));
			json_decref(tc);
			json_array_append_new(tries, tk);
		}
		json_object_set_new(k, "earlier_tries", tries);
		json_object_set_new(o, "confirmation", k);
	} else {
		json_object_set_new(o, "confirmation", json_null());
	}
	return o;
}

static void read_generation(json_t *o, struct rec_generation *g)
{
	memset(g, 0, sizeof(*g));
	g->generation = (int)gi(o, "generation", 0);
	g->batch = gs(o, "batch");
	g->best_in = gs(o, "best_in");
	g->best_out = gs(o, "best_out");
	g->promoted = gb(o, "promoted");
	g->why = gs(o, "why");
	g->best_median_us = gn(o, "best_median_us");
	read_ci(json_object_get(o, "best_median_ci"), g->best_median_ci);
	json_t *cost = go(o, "cost");
	g->runs = gi(cost, "runs", 0);
	g->wall_s = gn(cost, "wall_s");
	g->gpu_s = gn(cost, "gpu_s");
	g->usd = gn(cost, "usd");
	g->cpu_s = gn(cost, "cpu_s");
	json_t *cs = ga(o, "candidates");
	if (json_array_size(cs)) {
		g->c = xcalloc(json_array_size(cs), sizeof(*g->c));
		size_t i;
		json_t *c;
		json_array_foreach(cs, i, c) read_candidate(c, &g->c[g->n++]);
	}
	json_t *k = go(o, "confirmation"); /* records before red team 48 have none */
	g->have_confirm = k != NULL;
	g->confirm_incumbent_median_us = NAN;
	if (k) {
		read_candidate(k, &g->confirm_c); /* outcome, median_us, comparison: a candidate's keys */
		g->confirm_batch = gs(k, "batch");
		g->confirm_challenger = gs(k, "challenger");
		g->confirm_c.id = g->confirm_challenger;
		g->confirmed = gb(k, "confirmed");
		g->confirm_incumbent_median_us = gn(k, "incumbent_median_us");
		json_t *tries = ga(k, "earlier_tries"); /* records before red team 284 have none */
		if (json_array_size(tries)) {
			g->tries = xcalloc(json_array_size(tries), sizeof(*g->tries));
			size_t i;
			json_t *tk;
			json_array_foreach(tries, i, tk)
			{
				struct rec_confirm_try *t = &g->tries[g->n_tries++];
				read_candidate(tk, &t->c);
				t->batch = gs(tk, "batch");
				t->challenger = gs(tk, "challenger");
				t->c.id = t->challenger;
				t->why = gs(tk, "why");
				t->incumbent_median_us = gn(tk, "incumbent_median_us");
			}
		}
	}
}

json_t *record_search_json(const struct search_record *r)
{
	json_t *m = json_object();
	json_object_set_new(m, "format", json_string(RECORD_SEARCH_FORMAT));
	json_object_set_new(m, "kind", json_string("search"));
	json_object_set_new(m, "run_id", jstr(r->run_id));
	json_object_set_new(m, "experiment", jstr(r->experiment));
	json_object_set_new(m, "question", jstr(r->question));
	json_object_set_new(m, "backend", jstr(r->backend));
	json_object_set_new(m, "started_utc", jstr(r->started_utc));
	json_object_set_new(m, "finished_utc", jstr(r->finished_utc));
	json_t *spec = json_object();
	json_object_set_new(spec, "path", jstr(r->spec_path));
	json_object_set_new(spec, "object", jstr(r->spec_object));
	json_object_set_new(m, "spec", spec);
	json_t *code = json_object();
	json_object_set_new(code, "git", record_write_git(&r->git));
	if (r->runner.have) /* records before red team 279's fix have none */
		json_object_set_new(code, "runner", record_write_runner(&r->runner));
	json_object_set_new(m, "code", code);

	json_t *set = json_object(), *tun = json_array(), *ks = json_array();
	json_object_set_new(set, "population", json_integer(r->population));
	json_object_set_new(set, "generations", json_integer(r->generations));
	json_object_set_new(set, "elite", json_integer(r->elite));
	json_object_set_new(set, "mutations", json_integer(r->mutations));
	json_object_set_new(set, "seed", json_integer((json_int_t)r->seed));
	json_object_set_new(set, "seed_given", json_boolean(r->seed_given));
	for (size_t i = 0; i < r->n_tunables; i++) {
		const struct rec_search_tunable *t = &r->tunables[i];
		json_t *o = json_object();
		json_object_set_new(o, "name", jstr(t->name));
		if (t->is_range) {
			json_object_set_new(o, "range", json_pack("[I, I]", (json_int_t)t->lo, (json_int_t)t->hi));
			json_object_set_new(o, "step", json_integer(t->step));
			json_object_set_new(o, "choices", json_null());
		} else {
			json_t *a = json_array();
			for (size_t k = 0; k < t->n_choices; k++)
				json_array_append_new(a, jstr(t->choices[k]));
			json_object_set_new(o, "range", json_null());
			json_object_set_new(o, "step", json_null());
			json_object_set_new(o, "choices", a);
		}
		json_array_append_new(tun, o);
	}
	json_object_set_new(set, "tunables", tun);
	for (size_t i = 0; i < r->n_kernels; i++)
		json_array_append_new(ks, jstr(r->kernels[i]));
	json_object_set_new(set, "kernels", ks);
	if (r->budget_unit) {
		json_t *b = json_object();
		json_object_set_new(b, "unit", json_string(r->budget_unit));
		json_object_set_new(b, "limit", jnum(r->budget_limit));
		json_object_set_new(set, "budget", b);
	} else {
		json_object_set_new(set, "budget", json_null());
	}
	json_object_set_new(m, "settings", set);

	json_t *gens = json_array();
	for (size_t i = 0; i < r->n_gens; i++)
		json_array_append_new(gens, write_generation(&r->gens[i]));
	json_object_set_new(m, "generations", gens);
	if (r->best_id) {
		json_t *b = json_object();
		json_object_set_new(b, "id", json_string(r->best_id));
		json_object_set_new(b, "run", jstr(r->best_run));
		json_object_set_new(b, "generation", r->best_generation >= 0 ? json_integer(r->best_generation) : json_null());
		json_object_set_new(b, "median_us", jnum(r->best_median_us));
		json_object_set_new(b, "median_ci", write_ci(r->best_median_ci));
		json_object_set_new(m, "best", b);
	} else {
		json_object_set_new(m, "best", json_null());
	}
	if (r->budget_unit) {
		json_t *b = json_object();
		json_object_set_new(b, "unit", json_string(r->budget_unit));
		json_object_set_new(b, "limit", jnum(r->budget_limit));
		json_object_set_new(b, "spent", jnum(r->budget_spent));
		json_object_set_new(b, "stopped", json_boolean(r->budget_stopped));
		json_object_set_new(m, "budget", b);
	} else {
		json_object_set_new(m, "budget", json_null());
	}
	json_object_set_new(m, "stopped", jstr(r->stopped));
	json_object_set_new(m, "stop_reason", jstr(r->stop_reason));
	json_t *t = json_object();
	json_object_set_new(t, "candidates", json_integer(r->t_candidates));
	json_object_set_new(t, "ok", json_integer(r->t_ok));
	json_object_set_new(t, "failed", json_integer(r->t_failed));
	json_object_set_new(t, "wall_s", jnum(r->t_wall_s));
	json_object_set_new(t, "gpu_s", jnum(r->t_gpu_s));
	json_object_set_new(t, "usd", jnum(r->t_usd));
	json_object_set_new(m, "totals", t);
	json_object_set_new(m, "notes", r->notes ? json_incref(r->notes) : json_array());
	return m;
}

int record_search_read(json_t *m, struct search_record *r)
{
	memset(r, 0, sizeof(*r));
	r->best_generation = -1;
	r->best_median_us = r->t_wall_s = r->t_gpu_s = r->t_usd = NAN;
	r->best_median_ci[0] = r->best_median_ci[1] = NAN;
	if (!json_is_object(m) || !record_is_search(m))
		return error("not a search record (kind is not 'search')");
	r->raw = json_incref(m);
	r->format = gs(m, "format");
	if (!r->format || strcmp(r->format, RECORD_SEARCH_FORMAT))
		return error("search '%s' has format '%s', which this evident cannot read (it reads %s); upgrade evident",
			     gs(m, "run_id") ? gs(m, "run_id") : "?", r->format ? r->format : "none",
			     RECORD_SEARCH_FORMAT);
	r->run_id = gs(m, "run_id");
	r->experiment = gs(m, "experiment");
	r->question = gs(m, "question");
	r->backend = gs(m, "backend");
	r->started_utc = gs(m, "started_utc");
	r->finished_utc = gs(m, "finished_utc");
	json_t *spec = go(m, "spec");
	r->spec_path = gs(spec, "path");
	r->spec_object = gs(spec, "object");
	record_read_git(go(m, "code"), &r->git);
	record_read_runner(go(m, "code"), &r->runner);

	json_t *set = go(m, "settings");
	r->population = gi(set, "population", 0);
	r->generations = gi(set, "generations", 0);
	r->elite = gi(set, "elite", 0);
	r->mutations = gi(set, "mutations", 0);
	r->seed = (unsigned long long)gi(set, "seed", 0);
	r->seed_given = gb(set, "seed_given");
	json_t *tun = ga(set, "tunables");
	if (json_array_size(tun)) {
		r->tunables = xcalloc(json_array_size(tun), sizeof(*r->tunables));
		size_t i;
		json_t *o;
		json_array_foreach(tun, i, o)
		{
			struct rec_search_tunable *t = &r->tunables[r->n_tunables++];
			t->name = gs(o, "name");
			json_t *range = ga(o, "range"), *ch = ga(o, "choices");
			t->is_range = range != NULL;
			t->lo = json_integer_value(json_array_get(range, 0));
			t->hi = json_integer_value(json_array_get(range, 1));
			t->step = gi(o, "step", 1);
			if (json_array_size(ch)) {
				t->choices = xcalloc(json_array_size(ch), sizeof(char *));
				size_t k;
				json_t *v;
				json_array_foreach(ch, k, v) if (json_is_string(v)) t->choices[t->n_choices++] = json_string_value(v);
			}
		}
	}
	json_t *ks = ga(set, "kernels");
	if (json_array_size(ks)) {
		r->kernels = xcalloc(json_array_size(ks), sizeof(char *));
		size_t i;
		json_t *v;
		json_array_foreach(ks, i, v) if (json_is_string(v)) r->kernels[r->n_kernels++] = json_string_value(v);
	}
	json_t *gens = ga(m, "generations");
	if (json_array_size(gens)) {
		r->gens = xcalloc(json_array_size(gens), sizeof(*r->gens));
		size_t i;
		json_t *g;
		json_array_foreach(gens, i, g) read_generation(g, &r->gens[r->n_gens++]);
	}
	json_t *best = go(m, "best");
	r->best_id = gs(best, "id");
	r->best_run = gs(best, "run");
	r->best_generation = (int)gi(best, "generation", -1);
	r->best_median_us = gn(best, "median_us");
	read_ci(json_object_get(best, "median_ci"), r->best_median_ci);
	json_t *b = go(m, "budget");
	r->budget_unit = gs(b, "unit");
	r->budget_limit = gn(b, "limit");
	r->budget_spent = gn(b, "spent");
	r->budget_stopped = gb(b, "stopped");
	r->stopped = gs(m, "stopped");
	r->stop_reason = gs(m, "stop_reason");
	json_t *t = go(m, "totals");
	r->t_candidates = gi(t, "candidates", 0);
	r->t_ok = gi(t, "ok", 0);
	r->t_failed = gi(t, "failed", 0);
	r->t_wall_s = gn(t, "wall_s");
	r->t_gpu_s = gn(t, "gpu_s");
	r->t_usd = gn(t, "usd");
	r->notes = ga(m, "notes");
	r->prev = gs(m, "prev");
	r->digest = gs(m, "digest");
	return 0;
}

void search_record_release(struct search_record *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n_gens; i++) {
		for (size_t k = 0; k < r->gens[i].n; k++)
			free(r->gens[i].c[k].params);
		free(r->gens[i].c);
		free(r->gens[i].confirm_c.params);
		for (size_t k = 0; k < r->gens[i].n_tries; k++)
			free(r->gens[i].tries[k].c.params);
		free(r->gens[i].tries);
	}
	free(r->gens);
	for (size_t i = 0; i < r->n_tunables; i++)
		free(r->tunables[i].choices);
	free(r->tunables);
	free(r->kernels);
	json_decref(r->raw);
	memset(r, 0, sizeof(*r));
}

const struct rec_candidate *search_candidate(const struct search_record *r, size_t g, const char *id)
{
	if (!r || g >= r->n_gens || !id)
		return NULL;
	for (size_t i = 0; i < r->gens[g].n; i++)
		if (r->gens[g].c[i].id && !strcmp(r->gens[g].c[i].id, id))
			return &r->gens[g].c[i];
	return NULL;
}
