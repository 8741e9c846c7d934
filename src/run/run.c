/*
 * run.c - the experiment loop (contract in run.h).
 *
 * For each variant, baseline first: build through the backend (content-hash
 * cache), write JOB.json, start `evident __worker JOB.json` with fork+exec
 * under a wall-clock watchdog, collect its protocol lines, classify the
 * outcome (outcome_classify), summarise the samples and compare them with
 * the baseline's (stats.c), and commit the run record to the store.  A
 * variant that crashes, hangs or fails to build is recorded like any other
 * and the loop goes on.  After the last variant the batch record holds the
 * comparisons with Holm-adjusted p-values over the sweep.  Nothing is
 * written for a variant until its record is complete; a pending marker says
 * a run is under way (store.h).
 */
#include "run/run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backends/build.h"
#include "run/cost.h"
#include "cli/evident.h"
#include "run/outcome.h"
#include "backends/problem.h"
#include "run/provenance.h"
#include "base/runcmd.h"
#include "backends/sanitize.h"
#include "stats/stats.h"

/* What one variant produced, while it is being recorded. */
struct vres {
	const struct spec_variant *v;
	char *run_id;
	char *outcome;
	char *reason;
	char binary_sha[SHA256_HEX_LEN + 1];
	double *samples;
	size_t n_samples;
	int have_stats;
	struct stats_summary sum;
	int have_cmp;
	struct stats_comparison cmp;
	double wall_s, gpu_s;
	json_t *cost;            /* owned */
	json_t *no_effect;       /* array of notes, owned */
	int throttled;           /* the GPU reported throttling after the variant */
};

struct progress {
	int on;
	int i, n;
	const char *variant;
	double t_start;          /* of the batch */
	double per_variant;      /* mean seconds per finished variant */
	int seeds_done, seeds;
};

static void progress_show(struct progress *p, const char *phase)
{
	if (!p->on)
		return;
	char eta[32] = "";
	if (p->per_variant > 0) {
		int left = (int)(p->per_variant * (p->n - p->i + 1));
		snprintf(eta, sizeof(eta), ", ETA %d:%02d", left / 60, left % 60);
	}
	fprintf(stderr, "\r\033[K[%d/%d] %s: %s%s", p->i, p->n, p->variant, phase, eta);
	fflush(stderr);
}

static void progress_clear(struct progress *p)
{
	if (p->on) {
		fprintf(stderr, "\r\033[K");
		fflush(stderr);
	}
}

/* Collects the worker's protocol messages. */
struct wmsgs {
	json_t *device;
	json_t *kernel;          /* {name, compiled_params} */
	json_t *seeds;           /* array of seed messages (phase check) */
	json_t *rechecks;        /* array (phase recheck) */
	json_t *timing_method;
	double *samples;
	size_t n_samples;
	json_t *failure;
	json_t *ref_check;       /* the GPU reference vs the float64 CPU one */
	int done;
	struct strbuf stray;     /* non-protocol stdout */
	struct progress *prog;
};

static void on_worker_line(const char *line, void *ctx)
{
	struct wmsgs *w = ctx;
	json_t *m = line[0] == '{' ? json_loads(line, 0, NULL) : NULL;
	const char *kind = m ? json_string_value(json_object_get(m, "msg")) : NULL;
	if (!kind) {
		strbuf_addstr(&w->stray, line);
		strbuf_addch(&w->stray, '\n');
		json_decref(m);
		return;
	}
	if (!strcmp(kind, "device")) {
		json_decref(w->device);
		w->device = json_incref(json_object_get(m, "info"));
	} else if (!strcmp(kind, "compiled_params")) {
		json_decref(w->kernel);
		w->kernel = json_pack("{s:O, s:O}", "name", json_object_get(m, "name"),
				      "compiled_params", json_object_get(m, "value"));
	} else if (!strcmp(kind, "seed")) {
		const char *ph = json_string_value(json_object_get(m, "phase"));
		json_object_del(m, "msg");
		json_array_append(ph && !strcmp(ph, "recheck") ? w->rechecks : w->seeds, m);
		if (!ph || strcmp(ph, "recheck")) {
			w->prog->seeds_done++;
			char buf[64];
			snprintf(buf, sizeof(buf), "checked seed %d/%d", w->prog->seeds_done, w->prog->seeds);
			progress_show(w->prog, buf);
			if (w->prog->seeds_done == w->prog->seeds)
				progress_show(w->prog, "timing");
		}
	} else if (!strcmp(kind, "timing")) {
		json_decref(w->timing_method);
		w->timing_method = json_incref(json_object_get(m, "method"));
		json_t *arr = json_object_get(m, "samples_us");
		free(w->samples);
		w->n_samples = json_array_size(arr);
		w->samples = xcalloc(w->n_samples ? w->n_samples : 1, sizeof(double));
		for (size_t i = 0; i < w->n_samples; i++)
			w->samples[i] = json_number_value(json_array_get(arr, i));
	} else if (!strcmp(kind, "failure")) {
		if (!w->failure) { /* the first failure is the cause */
			json_object_del(m, "msg");
			w->failure = json_incref(m);
		}
	} else if (!strcmp(kind, "reference_check")) {
		json_object_del(m, "msg");
		json_decref(w->ref_check);
		w->ref_check = json_incref(m);
	} else if (!strcmp(kind, "done")) {
		w->done = 1;
	}
	json_decref(m);
}

static void wmsgs_release(struct wmsgs *w)
{
	json_decref(w->device);
	json_decref(w->kernel);
	json_decref(w->seeds);
	json_decref(w->rechecks);
	json_decref(w->timing_method);
	json_decref(w->failure);
	json_decref(w->ref_check);
	free(w->samples);
	strbuf_release(&w->stray);
}

/* Path of this executable, for starting workers (caller frees). */
static char *self_exe(void)
{
	char buf[4096];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	if (n <= 0)
		return xstrdup("evident");
	buf[n] = '\0';
	return xstrdup(buf);
}

static json_t *params_json(const struct spec_variant *v)
{
	json_t *p = json_object();
	for (size_t i = 0; i < v->n_params; i++)
		json_object_set_new(p, v->params[i].name, json_string(v->params[i].value));
	return p;
}

/*
 * Compare the kernel's echoed "A=1 B=2" with the variant's parameters:
 * mismatched (echoed with another value) and not_echoed (given but never
 * echoed: the kernel may ignore it).
 */
static json_t *echo_check(const struct spec_variant *v, const char *echo)
{
	json_t *mism = json_array(), *silent = json_array();
	for (size_t i = 0; i < v->n_params; i++) {
		const char *name = v->params[i].name;
		const char *found = NULL;
		size_t nl = strlen(name);
		for (const char *p = echo ? echo : ""; *p;) {
			while (*p == ' ')
				p++;
			if (!strncmp(p, name, nl) && p[nl] == '=') {
				found = p + nl + 1;
				break;
			}
			while (*p && *p != ' ')
				p++;
		}
		if (!found) {
			json_array_append_new(silent, json_string(name));
			continue;
		}
		size_t vl = strcspn(found, " ");
		if (strlen(v->params[i].value) != vl || strncmp(found, v->params[i].value, vl))
			json_array_append_new(mism, json_pack("{s:s, s:s, s:s%}", "param", name, "spec",
							      v->params[i].value, "compiled", found, vl));
	}
	return json_pack("{s:o, s:o}", "mismatched", mism, "not_echoed", silent);
}

static json_t *sources_with_objects(struct store *st, json_t *sources)
{
	json_t *out = json_array();
	size_t i;
	json_t *s;
	json_array_foreach(sources, i, s)
	{
		const char *path = json_string_value(json_object_get(s, "path"));
		struct strbuf body = STRBUF_INIT;
		char hex[SHA256_HEX_LEN + 1] = "";
		json_t *e = json_deep_copy(s);
		if (path && read_file(path, &body) == 0 && store_put(st, strbuf_str(&body), body.len, hex) == 0)
			json_object_set_new(e, "object", json_string(hex));
		strbuf_release(&body);
		json_array_append_new(out, e);
	}
	return out;
}

static int put_text(struct store *st, const char *text, size_t n, json_t *where, const char *key)
{
	char hex[SHA256_HEX_LEN + 1];
	if (store_put(st, text, n, hex) < 0)
		return -1;
	json_object_set_new(where, key, json_string(hex));
	return 0;
}

static char *samples_text(const double *x, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, "# timing samples, microseconds, one per line, in the order taken\n");
	for (size_t i = 0; i < n; i++)
		strbuf_addf(&sb, "%.17g\n", x[i]);
	return strbuf_detach(&sb, NULL);
}

static void order_variants(const struct spec *s, const struct run_options *o,
			   const struct spec_variant **out, size_t *n)
{
	*n = 0;
	out[(*n)++] = spec_variant(s, s->baseline);
	for (size_t i = 0; i < s->n_variants; i++) {
		const struct spec_variant *v = &s->variants[i];
		if (v == out[0])
			continue;
		int keep = !o->only;
		for (size_t j = 0; o->only && o->only[j]; j++)
			keep |= !strcmp(o->only[j], v->name);
		if (keep)
			out[(*n)++] = v;
	}
}

static const char *col(const struct run_options *o, const char *outcome)
{
	if (!o->color)
		return "";
	return !strcmp(outcome, "ok") ? "\033[32m" : "\033[31m";
}

static double fmt_or_nan(int have, double x)
{
	return have ? x : NAN;
}

/* One variant, start to record.  Returns 0, or -1 if the store failed. */
static int run_variant(const struct spec *s, const struct run_options *o, struct store *st,
		       const struct backend *be, const char *batch_id, json_t *common,
		       struct vres *r, const struct vres *base, struct vres *all, size_t n_done,
		       struct progress *prog, unsigned long long seed0)
{
	const struct spec_variant *v = r->v;
	r->run_id = store_new_run_id(s->name);
	char started[40];
	utc_now_iso(started, sizeof(started));
	double t0 = mono_now();
	store_pending_begin(st, r->run_id, s->name, v->name);
	json_t *m = json_deep_copy(common);
	json_object_set_new(m, "format", json_string("evident-run/1"));
	json_object_set_new(m, "kind", json_string("variant"));
	json_object_set_new(m, "batch_id", json_string(batch_id));
	json_object_set_new(m, "variant", json_string(v->name));
	json_object_set_new(m, "is_baseline", json_boolean(!strcmp(v->name, s->baseline)));
	json_object_set_new(m, "is_reference", json_boolean(v->is_reference));
	json_object_set_new(m, "kernel", json_string(v->kernel));
	json_object_set_new(m, "params", params_json(v));
	json_object_set_new(m, "started_utc", json_string(started));
	json_t *code = json_object_get(m, "code");

	/* build */
	progress_show(prog, "building");
	struct build_request rq = { .kernel_path = v->kernel, .repo_root = ".", .params = v->params,
				    .n_params = v->n_params, .arch = s->arch, .cache_dir = o->cache_dir,
				    .extra_flags = (const char *const *)s->flags };
	struct build_result br = BUILD_RESULT_INIT;
	struct wmsgs w = { 0 };
	w.seeds = json_array();
	w.rechecks = json_array();
	w.prog = prog;
	prog->seeds = s->seeds;
	prog->seeds_done = 0;
	struct run_result rr = { 0 };
	json_t *before = NULL, *after = NULL, *sanitize = json_array();
	char *job_path = NULL, *exe = self_exe();
	int rc = -1;
	if (be->build(&rq, &br) < 0) {
		r->outcome = xstrdup("build_failed");
		r->reason = xstrdup("the build could not be attempted (compiler missing?)");
		json_object_set_new(m, "build", json_pack("{s:s}", "status", "not_attempted"));
		goto classify_done;
	}
	json_t *info = br.info;
	json_t *build = json_pack("{s:O, s:O, s:O, s:O, s:O}", "status", json_object_get(info, "status"),
				  "cached", json_object_get(info, "cached"), "seconds",
				  json_object_get(info, "seconds"), "reason", json_object_get(info, "reason"),
				  "resources", json_object_get(info, "resources"));
	if (json_object_get(info, "exit"))
		json_object_set(build, "exit", json_object_get(info, "exit"));
	put_text(st, br.log ? br.log : "", br.log ? strlen(br.log) : 0, build, "log_object");
	json_object_set_new(m, "build", build);
	json_object_set_new(code, "sources", sources_with_objects(st, json_object_get(info, "sources")));
	json_object_set(code, "build_key", json_object_get(info, "build_key"));
	json_object_set(code, "binary_sha256", json_object_get(info, "binary_sha256"));
	json_object_set_new(code, "compiler", json_pack("{s:O, s:O}", "argv", json_object_get(info, "argv"),
							 "version", json_object_get(info, "compiler_version")));
	if (!br.ok) {
		r->outcome = xstrdup("build_failed");
		const char *why = json_string_value(json_object_get(info, "reason"));
		r->reason = xstrdup(why ? why : "the compiler failed; see the build log");
		goto classify_done;
	}
	const char *bh = json_string_value(json_object_get(info, "binary_sha256"));
	snprintf(r->binary_sha, sizeof(r->binary_sha), "%s", bh ? bh : "");

	/* worker */
	struct job job = { .backend = s->backend, .so_path = br.so_path, .problem = s->problem,
			   .B = s->B, .H = s->H, .S = s->S, .D = s->D, .dtype = s->dtype,
			   .seeds = s->seeds, .seed0 = seed0, .atol = s->atol, .rtol = s->rtol,
			   .warmup_ms = s->warmup_ms, .samples = s->samples, .stdrel = s->stdrel,
			   .min_seconds = s->min_seconds, .max_seconds = s->max_seconds,
			   .cache = s->cache, .batch = s->batch, .sanitize = 0, .device = o->device };
	char rnd[17];
	random_hex(rnd, 16);
	job_path = xstrfmt("%s/tmp/job-%s.json", st->root, rnd);
	json_t *jj = job_to_json(&job);
	if (json_dump_file(jj, job_path, JSON_INDENT(1) | JSON_SORT_KEYS) < 0) {
		json_decref(jj);
		error("cannot write '%s'", job_path);
		goto out;
	}
	json_decref(jj);
	if (be->device_state)
		before = be->device_state(o->device);
	progress_show(prog, "checking");
	const char *argv[] = { exe, "__worker", job_path, NULL };
	struct strbuf err = STRBUF_INIT;
	struct run_opts ro = { .argv = argv, .timeout_s = s->timeout_s, .err = &err,
			       .on_line = on_worker_line, .ctx = &w };
	if (run_command(&ro, &rr) < 0) {
		strbuf_release(&err);
		goto out;
	}
	if (be->device_state)
		after = be->device_state(o->device);
	r->gpu_s = strcmp(s->backend, "host") ? rr.seconds : 0;
	struct strbuf wlog = STRBUF_INIT;
	strbuf_addf(&wlog, "# worker: %s __worker %s\n", exe, job_path);
	if (w.stray.len) {
		strbuf_addstr(&wlog, "# stdout (not protocol):\n");
		strbuf_addstr(&wlog, w.stray.buf);
	}
	strbuf_addstr(&wlog, "# stderr:\n");
	strbuf_addstr(&wlog, strbuf_str(&err));
	strbuf_release(&err);
	struct strbuf how = STRBUF_INIT;
	run_result_describe(&rr, &how);
	json_t *wj = json_pack("{s:s, s:f, s:b}", "exit", how.buf, "seconds", rr.seconds, "finished",
			       w.done);
	strbuf_release(&how);
	put_text(st, wlog.buf, wlog.len, wj, "log_object");
	strbuf_release(&wlog);
	json_object_set_new(m, "worker", wj);

	/* sanitizers: each tool runs the worker once more, one seed, no timing */
	char *tmpdir = xstrfmt("%s/tmp", st->root);
	for (char **t = s->sanitize; t && *t && !rr.timed_out && !runcmd_interrupted; t++) {
		char sphase[64];
		snprintf(sphase, sizeof(sphase), "compute-sanitizer %s", *t);
		progress_show(prog, sphase);
		json_t *verdict = NULL;
		double ts = mono_now();
		if (sanitize_job(*t, exe, &job, tmpdir, 10 * s->timeout_s, &verdict) == 0 && verdict) {
			json_t *rep = json_object_get(verdict, "report");
			if (json_is_string(rep)) {
				put_text(st, json_string_value(rep), json_string_length(rep), verdict,
					 "report_object");
				json_object_del(verdict, "report");
			}
			json_array_append_new(sanitize, verdict);
		}
		r->gpu_s += mono_now() - ts;
	}
	free(tmpdir);

	/* outcome */
	struct outcome_input oi = { .build_ok = 1, .failure = w.failure, .seeds = w.seeds,
				    .rechecks = w.rechecks, .done = w.done, .run = &rr,
				    .interrupted = runcmd_interrupted, .sanitize = sanitize };
	outcome_classify(&oi, &r->outcome, &r->reason);

classify_done:
	if (runcmd_interrupted && strcmp(r->outcome, "build_failed") && !w.done) {
		free(r->outcome);
		free(r->reason);
		r->outcome = xstrdup("aborted");
		r->reason = xstrdup("interrupted (SIGINT/SIGTERM) while this variant ran");
	}
	progress_show(prog, "recording");
	json_object_set_new(m, "outcome", json_string(r->outcome));
	json_object_set_new(m, "reason", r->reason ? json_string(r->reason) : json_null());
	json_object_set_new(m, "expect", v->expect ? json_string(v->expect) : json_null());
	json_object_set_new(m, "expect_met", v->expect ? json_boolean(!strcmp(v->expect, r->outcome))
						      : json_null());
	json_object_set_new(m, "kernel_echo", w.kernel ? json_deep_copy(w.kernel) : json_null());
	if (w.kernel) {
		json_t *ec = echo_check(v, json_string_value(json_object_get(w.kernel, "compiled_params")));
		json_object_update(json_object_get(m, "kernel_echo"), ec);
		json_decref(ec);
	}

	/* compiled code identical to an earlier variant's: which knobs did nothing */
	r->no_effect = json_array();
	json_t *same = json_array();
	for (size_t i = 0; r->binary_sha[0] && i < n_done; i++) {
		if (strcmp(all[i].binary_sha, r->binary_sha))
			continue;
		json_array_append_new(same, json_string(all[i].v->name));
		for (size_t j = 0; j < v->n_params; j++) {
			const char *other = spec_param(all[i].v, v->params[j].name);
			if (!other || strcmp(other, v->params[j].value)) {
				char *note = xstrfmt("parameter %s has no effect on the compiled code (variants %s and %s differ in it, binaries identical)",
						     v->params[j].name, all[i].v->name, v->name);
				json_array_append_new(r->no_effect, json_string(note));
				free(note);
			}
		}
	}
	json_object_set_new(m, "same_binary_as", same);
	json_object_set(m, "no_effect_params", r->no_effect);

	/* device and its state */
	json_t *dev = json_object();
	if (w.device)
		json_object_update(dev, w.device);
	json_object_set_new(m, "device", dev);
	json_t *throttled = json_null();
	if (after && json_is_true(json_object_get(after, "throttled"))) {
		throttled = json_true();
		r->throttled = 1;
	}
	else if (after)
		throttled = json_false();
	json_object_set_new(m, "gpu_state", json_pack("{s:o, s:o, s:o}", "before",
						      before ? before : json_null(), "after",
						      after ? after : json_null(), "throttled", throttled));
	before = after = NULL;

	/* correctness */
	json_t *corr = json_pack("{s:i, s:I, s:f, s:f, s:O, s:O}", "seeds", s->seeds, "seed0",
				 (json_int_t)seed0, "atol", s->atol, "rtol", s->rtol, "results",
				 w.seeds, "recheck", w.rechecks);
	size_t k;
	json_t *sd;
	int all_pass = json_array_size(w.seeds) > 0;
	json_array_foreach(w.seeds, k, sd) all_pass &= json_is_true(json_object_get(sd, "pass"));
	json_array_foreach(w.rechecks, k, sd) all_pass &= json_is_true(json_object_get(sd, "pass"));
	json_object_set_new(corr, "pass", json_boolean(all_pass && !strcmp(r->outcome, "ok")));
	json_object_set_new(corr, "reference_check", w.ref_check ? json_incref(w.ref_check) : json_null());
	json_object_set_new(m, "correctness", corr);
	json_object_set_new(m, "sanitize", sanitize);
	sanitize = NULL;

	/* timing and statistics */
	struct stats_opts so = STATS_OPTS_INIT;
	if (w.n_samples && !strcmp(r->outcome, "ok")) {
		r->samples = w.samples;
		r->n_samples = w.n_samples;
		w.samples = NULL;
		r->have_stats = stats_summarize(r->samples, r->n_samples, &so, &r->sum) == 0;
		if (base && base != r && base->have_stats && r->have_stats)
			r->have_cmp = stats_compare(base->samples, base->n_samples, r->samples,
						    r->n_samples, &so, &r->cmp) == 0;
	}
	if (w.timing_method || r->n_samples) {
		const double *xs = r->samples ? r->samples : w.samples;
		size_t nx = r->samples ? r->n_samples : w.n_samples;
		char *txt = samples_text(xs, nx);
		json_t *t = json_pack("{s:O, s:s, s:I}", "method", w.timing_method ? w.timing_method : json_null(),
				      "unit", "us", "n", (json_int_t)nx);
		put_text(st, txt, strlen(txt), t, "samples_object");
		free(txt);
		json_object_set_new(t, "stats", r->have_stats ? stats_summary_json(&r->sum) : json_null());
		json_object_set_new(t, "stats_seed", json_integer((json_int_t)so.seed));
		json_object_set_new(t, "resamples", json_integer(so.resamples));
		json_object_set_new(m, "timing", t);
	} else {
		json_object_set_new(m, "timing", json_null());
	}
	if (r->have_cmp) {
		json_t *c = stats_comparison_json(&r->cmp);
		json_object_set_new(c, "baseline_run", json_string(base->run_id));
		json_object_set_new(c, "baseline", json_string(base->v->name));
		json_object_set_new(m, "comparison", c);
	} else {
		json_object_set_new(m, "comparison", json_null());
	}

	/* cost */
	r->wall_s = mono_now() - t0;
	const char *gpu = dev ? json_string_value(json_object_get(dev, "name")) : NULL;
	r->cost = cost_of_run(cost_price(o->price_table, strcmp(s->backend, "host") ? (gpu ? gpu : "unknown GPU") : NULL,
					 s->price_usd_per_h, s->price_source),
			      r->wall_s, r->gpu_s);
	json_object_set(m, "cost", r->cost);
	char finished[40];
	utc_now_iso(finished, sizeof(finished));
	json_object_set_new(m, "finished_utc", json_string(finished));
	json_object_set_new(m, "wall_s", json_real(r->wall_s));

	rc = store_commit(st, r->run_id, m);
	if (rc == 0)
		store_pending_end(st, r->run_id);
out:
	if (job_path) {
		unlink(job_path);
		free(job_path);
	}
	free(exe);
	json_decref(before);
	json_decref(after);
	json_decref(sanitize);
	json_decref(m);
	wmsgs_release(&w);
	build_result_release(&br);
	return rc;
}

/*
 * Build every variant first, `jobs` compilers at a time, each in a forked
 * child (this process is single-threaded, so a child may run anything);
 * the loop below then finds each build in the cache.  A child's failure is
 * only a cache miss: the loop builds that variant again and records why.
 */
static void prebuild(const struct spec *s, const struct run_options *o, const struct backend *be,
		     const struct spec_variant **order, size_t n, struct progress *prog)
{
	int jobs = o->jobs;
	if (jobs <= 1 || n < 2)
		return;
	char msg[64];
	snprintf(msg, sizeof(msg), "building %zu variants, %d at a time", n, jobs);
	prog->variant = s->name;
	progress_show(prog, msg);
	fflush(stdout);
	fflush(stderr);
	int running = 0;
	for (size_t i = 0; i < n || running > 0;) {
		if (i < n && running < jobs && !runcmd_interrupted) {
			pid_t pid = fork();
			if (pid == 0) {
				struct build_request rq = { .kernel_path = order[i]->kernel, .repo_root = ".",
							    .params = order[i]->params,
							    .n_params = order[i]->n_params, .arch = s->arch,
							    .cache_dir = o->cache_dir,
							    .extra_flags = (const char *const *)s->flags };
				struct build_result br = BUILD_RESULT_INIT;
				util_quiet = 1;
				int rc = be->build(&rq, &br);
				build_result_release(&br);
				_exit(rc < 0);
			}
			i++;
			if (pid > 0)
				running++;
			continue;
		}
		int st;
		if (wait(&st) > 0)
			running--;
		else
			break;
	}
}

static void print_summary(const struct spec *s, const struct run_options *o, struct vres *rs,
			  size_t n, json_t *git, const char *batch_id, double wall, double gpu_s,
			  double usd, int have_usd)
{
	printf("\nexperiment %s: %s\n", s->name, s->question ? s->question : "");
	const char *commit = json_string_value(json_object_get(git, "commit"));
	printf("batch %s, commit %.12s%s, store %s\n\n", batch_id, commit ? commit : "(none)",
	       json_is_true(json_object_get(git, "dirty")) ? " (dirty)" : "", o->store_root);
	printf("%-24s %-16s %12s %23s %10s %10s %22s %10s  %s\n", "variant", "outcome", "median us",
	       "median 95% CI", "min us", "max us", "speedup [95% CI]", "p (Holm)", "verdict");
	for (size_t i = 0; i < n; i++) {
		struct vres *r = &rs[i];
		char ci[64] = "", sp[64] = "", p[32] = "", med[32] = "", mn[32] = "", mx[32] = "";
		if (r->have_stats) {
			snprintf(med, sizeof(med), "%.2f", r->sum.median);
			snprintf(ci, sizeof(ci), "[%.2f, %.2f]", r->sum.median_ci[0], r->sum.median_ci[1]);
			snprintf(mn, sizeof(mn), "%.2f", r->sum.min);
			snprintf(mx, sizeof(mx), "%.2f", r->sum.max);
		}
		if (r->have_cmp) {
			snprintf(sp, sizeof(sp), "%.3fx [%.3f, %.3f]", r->cmp.speedup, r->cmp.speedup_ci[0],
				 r->cmp.speedup_ci[1]);
			snprintf(p, sizeof(p), "%.2g", r->cmp.p_adjusted);
		} else if (!strcmp(r->v->name, s->baseline)) {
			snprintf(sp, sizeof(sp), "baseline");
		}
		printf("%-24s %s%-16s%s %12s %23s %10s %10s %22s %10s  %s%s\n", r->v->name, col(o, r->outcome),
		       r->outcome, o->color ? "\033[0m" : "", med, ci, mn, mx, sp, p,
		       r->have_cmp ? r->cmp.verdict : "",
		       r->have_cmp && r->cmp.small_n ? " (too few samples)" : "");
	}
	int notes = 0;
	for (size_t i = 0; i < n; i++) {
		struct vres *r = &rs[i];
		if (strcmp(r->outcome, "ok") || r->v->expect) {
			if (!notes++)
				printf("\nnotes:\n");
			printf("  - %s: %s%s%s", r->v->name, r->outcome, r->reason ? " - " : "",
			       r->reason ? r->reason : "");
			if (r->v->expect && !strcmp(r->v->expect, r->outcome))
				printf(" (expected)");
			else if (r->v->expect)
				printf(" (UNEXPECTED: expected %s)", r->v->expect);
			printf("\n");
		}
		if (r->throttled) {
			if (!notes++)
				printf("\nnotes:\n");
			printf("  - %s: WARNING: the GPU was throttling when this variant finished "
			       "(gpu_state.after in its record); its times may be slow\n", r->v->name);
		}
		size_t k;
		json_t *note;
		json_array_foreach(r->no_effect, k, note)
		{
			if (!notes++)
				printf("\nnotes:\n");
			printf("  - %s\n", json_string_value(note));
		}
	}
	printf("\n%zu variants; wall %.1f s; GPU %.1f s; cost %s", n, wall, gpu_s, have_usd ? "" : "n/a");
	if (have_usd)
		printf("$%.4f", usd);
	printf("\n");
}

int run_experiment(const struct spec *s, const struct run_options *o, struct run_totals *t)
{
	memset(t, 0, sizeof(*t));
	const struct backend *be = backend_find(s->backend);
	if (!be)
		return error("backend '%s' is not built into this evident", s->backend), -EV_ENV;
	struct strbuf why = STRBUF_INIT;
	if (be->probe(&why) < 0) {
		error("no_device: experiment '%s' needs the %s backend, which cannot run here: %s",
		      s->name, s->backend, why.buf);
		strbuf_release(&why);
		return -EV_NO_DEVICE;
	}
	strbuf_release(&why);

	struct store st = STORE_INIT;
	if (store_open(&st, o->store_root, 1) < 0) {
		store_release(&st);
		return -EV_STORE;
	}
	int rc = 0;
	/* provenance shared by every record of this batch */
	char *store_prefix = NULL;
	if (o->store_root[0] != '/' && strncmp(o->store_root, "..", 2))
		store_prefix = xstrfmt("%s/", o->store_root);
	struct prov_git g;
	if (prov_git(store_prefix, &g) < 0) {
		free(store_prefix);
		store_release(&st);
		return -EV_ENV;
	}
	free(store_prefix);
	json_t *gitj = json_pack("{s:b, s:s?, s:s?, s:b, s:I, s:O?, s:s?}", "is_repo", g.is_repo,
				 "commit", g.commit, "branch", g.branch, "dirty", g.dirty, "n_changed",
				 (json_int_t)g.n_changed, "untracked", g.untracked, "note", g.why);
	if (g.diff)
		put_text(&st, g.diff, g.diff_len, gitj, "diff_object");
	else
		json_object_set_new(gitj, "diff_object", json_null());
	prov_git_release(&g);

	const char *compilers_host[] = { "cc", NULL };
	const char *compilers_cuda[] = { "cc", "nvcc", NULL };
	json_t *machine = prov_machine(strcmp(s->backend, "cuda") ? compilers_host : compilers_cuda);
	if (be->device_info) {
		json_t *di = be->device_info(o->device);
		json_object_set_new(machine, "gpu", di ? di : json_null());
	}
	json_t *spec_j = json_pack("{s:s}", "path", s->path);
	put_text(&st, s->text, strlen(s->text), spec_j, "object");
	unsigned long long seed0 = s->seed;
	if (!s->seed_given) {
		char hx[13];
		random_hex(hx, 12);
		seed0 = strtoull(hx, NULL, 16);
	}
	struct attn_shape sh = { s->B, s->H, s->S, s->D };
	json_t *common = json_pack(
		"{s:s, s:s?, s:s, s:{s:s, s:{s:I, s:I, s:I, s:I}, s:s, s:f, s:f}, s:s, s:o, s:{s:o}, s:o}",
		"experiment", s->name, "question", s->question, "baseline", s->baseline, "problem",
		"name", s->problem, "shape", "B", (json_int_t)s->B, "H", (json_int_t)s->H, "S",
		(json_int_t)s->S, "D", (json_int_t)s->D, "dtype", s->dtype, "flops", attn_flops(&sh),
		"min_bytes", attn_min_bytes(&sh, dtype_size(dtype_from_name(s->dtype))), "backend",
		s->backend, "spec", spec_j, "code", "git", gitj, "machine", machine);

	char stamp[32], rnd[9];
	utc_now_compact(stamp, sizeof(stamp));
	random_hex(rnd, 8);
	t->batch_id = xstrfmt("%s-%s-%s-batch", stamp, s->name, rnd);

	const struct spec_variant **order = xcalloc(s->n_variants, sizeof(*order));
	size_t n = 0;
	order_variants(s, o, order, &n);
	struct vres *rs = xcalloc(n, sizeof(*rs));
	struct progress prog = { .on = o->progress, .n = (int)n, .t_start = mono_now() };
	runcmd_trap_signals();
	prebuild(s, o, be, order, n, &prog);
	size_t done = 0;
	for (size_t i = 0; i < n; i++) {
		rs[i].v = order[i];
		prog.i = (int)i + 1;
		prog.variant = order[i]->name;
		double tv = mono_now();
		if (run_variant(s, o, &st, be, t->batch_id, common, &rs[i], &rs[0], rs, i, &prog, seed0) < 0) {
			rc = -EV_STORE;
			break;
		}
		done = i + 1;
		prog.per_variant = (mono_now() - prog.t_start) / (double)done;
		(void)tv;
		if (runcmd_interrupted) {
			t->interrupted = 1;
			break;
		}
	}
	progress_clear(&prog);

	/* Holm over the sweep's comparisons, then the batch record */
	size_t nc = 0;
	for (size_t i = 0; i < done; i++)
		nc += rs[i].have_cmp;
	struct stats_comparison *cs = xcalloc(nc ? nc : 1, sizeof(*cs));
	for (size_t i = 0, j = 0; i < done; i++)
		if (rs[i].have_cmp)
			cs[j++] = rs[i].cmp;
	struct stats_opts so = STATS_OPTS_INIT;
	stats_holm_comparisons(cs, nc, so.alpha, so.threshold);
	for (size_t i = 0, j = 0; i < done; i++)
		if (rs[i].have_cmp)
			rs[i].cmp = cs[j++];
	free(cs);

	double wall = mono_now() - prog.t_start, gpu_s = 0, usd = 0;
	int have_usd = 1;
	json_t *rows = json_array(), *notes = json_array();
	for (size_t i = 0; i < done; i++) {
		struct vres *r = &rs[i];
		gpu_s += r->gpu_s;
		json_t *u = json_object_get(r->cost, "usd");
		if (json_is_number(u))
			usd += json_number_value(u);
		else if (r->gpu_s > 0)
			have_usd = 0;
		json_t *row = json_pack("{s:s, s:s, s:s, s:o, s:s?, s:o, s:s?, s:b}", "variant", r->v->name,
					"run_id", r->run_id, "outcome", r->outcome, "params", params_json(r->v),
					"reason", r->reason, "median_us",
					r->have_stats ? json_real(r->sum.median) : json_null(), "expect",
					r->v->expect, "is_reference", r->v->is_reference);
		json_object_set_new(row, "stats", r->have_stats ? stats_summary_json(&r->sum) : json_null());
		json_object_set_new(row, "comparison", r->have_cmp ? stats_comparison_json(&r->cmp) : json_null());
		json_array_append_new(rows, row);
		json_array_extend(notes, r->no_effect);
		t->variants++;
		if (!strcmp(r->outcome, "ok"))
			t->ok++;
		else
			t->failed++;
		const char *want = r->v->expect ? r->v->expect : "ok";
		if (strcmp(want, r->outcome))
			t->unexpected++;
		else if (r->v->expect && strcmp(r->outcome, "ok"))
			t->expected_failures++;
	}
	if (rc == 0 && done) {
		json_t *b = json_deep_copy(common);
		json_object_set_new(b, "format", json_string("evident-batch/1"));
		json_object_set_new(b, "kind", json_string("batch"));
		json_object_set_new(b, "batch_id", json_string(t->batch_id));
		json_object_set_new(b, "variants", rows);
		rows = NULL;
		json_object_set(b, "notes", notes);
		json_object_set_new(b, "interrupted", json_boolean(t->interrupted));
		json_object_set_new(b, "holm", json_pack("{s:f, s:f, s:I}", "alpha", so.alpha, "threshold",
							 so.threshold, "comparisons", (json_int_t)nc));
		json_object_set_new(b, "totals", json_pack("{s:i, s:i, s:i, s:f, s:f, s:o}", "variants",
							   t->variants, "ok", t->ok, "failed", t->failed,
							   "wall_s", wall, "gpu_s", gpu_s, "usd",
							   have_usd && gpu_s > 0 ? json_real(usd) : json_null()));
		char *bid = store_new_run_id(s->name);
		char *full = xstrfmt("%s-batch", bid);
		if (store_commit(&st, full, b) < 0)
			rc = -EV_STORE;
		free(bid);
		free(full);
		json_decref(b);
	}
	json_decref(rows);
	json_decref(notes);
	if (done)
		print_summary(s, o, rs, done, gitj, t->batch_id, wall, gpu_s, usd, have_usd && gpu_s > 0);
	for (size_t i = 0; i < n; i++) {
		free(rs[i].run_id);
		free(rs[i].outcome);
		free(rs[i].reason);
		free(rs[i].samples);
		json_decref(rs[i].cost);
		json_decref(rs[i].no_effect);
	}
	free(rs);
	free(order);
	json_decref(common);
	store_release(&st);
	(void)fmt_or_nan;
	return rc;
}
