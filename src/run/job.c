/*
 * job.c - one planned job, start to record (run_ctx.h).  Its phases, in
 * order, each a function below:
 *
 *   job_build        the variant's build (a cache hit after the prebuild;
 *                    the cache re-hashes the object it hands out)
 *   run_worker       `evident __worker`: the kernel's process; the parent
 *                    feeds its channel to the protocol state machine,
 *                    decides after each timed sample whether to have it
 *                    shipped, and keeps every shipped output in its own file
 *   run_checker      `evident __check`: another process judges the shipped
 *                    outputs against references computed only now
 *   extra_shape      worker + checker once more at the problem's extra
 *                    shape (correctness only): an init refusal there is a
 *                    "specialised" kernel, a wrong answer is wrong_output
 *   sanitize         compute-sanitizer tools the spec asks for
 *   tamper check     the kernel object must still be the one built
 *   classify         outcome.c, from the evidence alone
 *   record           the run record through the record module, committed
 * A crash, hang or sticky error kills only a worker; the job's record
 * says so and the batch goes on.
 */
#include "run/run_ctx.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backends/job.h"
#include "backends/protocol.h"
#include "backends/sanitize.h"
#include "base/runcmd.h"
#include "run/cost.h"
#include "run/health.h"
#include "run/outcome.h"
#include "stats/stats.h"

/* ---- one worker process ---------------------------------------------------- */

struct wrun {
	struct job job;              /* the parent's own copy */
	char *job_path, *cap_path;
	int cap_fd;
	struct proto proto;
	struct run_result rr;
	struct strbuf out, err;      /* the worker's stdout and stderr: logs only */
	/* which timed samples to have shipped */
	unsigned char *chosen;       /* fixed sample count: a bitmap drawn up front */
	long long n_fixed;
	uint64_t rng;
	int checks_wanted;
	struct progress *prog;
};

static uint64_t rnd(uint64_t *st)
{
	uint64_t z = (*st += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * The parent's choice, made after sample i ran, with random numbers the
 * worker never sees: with a fixed count, checks_wanted indices drawn up
 * front among all but the last; adaptive, each sample with probability
 * checks_wanted / (i + 1); and always the last sample.
 */
static int keep_sample(void *ctx, long long i, int last)
{
	struct wrun *w = ctx;
	if (last)
		return 1;
	if (w->chosen)
		return i < w->n_fixed && (w->chosen[i / 8] >> (i % 8) & 1);
	double p = (double)w->checks_wanted / (double)(i + 1);
	return (double)(rnd(&w->rng) >> 11) * (1.0 / 9007199254740992.0) < p;
}

static void draw_fixed(struct wrun *w, long long n, int want)
{
	if (n <= 1)
		return;
	w->n_fixed = n;
	w->chosen = xcalloc((size_t)(n / 8 + 1), 1);
	long long pool = n - 1, picks = want < pool ? want : pool;
	for (long long k = 0; k < picks;) {
		long long i = (long long)(rnd(&w->rng) % (uint64_t)pool);
		if (!(w->chosen[i / 8] >> (i % 8) & 1)) {
			w->chosen[i / 8] |= (unsigned char)(1 << (i % 8));
			k++;
		}
	}
}

static void on_progress(void *ctx, const char *what)
{
	struct wrun *w = ctx;
	if (w->prog)
		progress_show(w->prog, what);
}

static int on_chan(const char *buf, size_t n, int reply_fd, void *ctx)
{
	struct wrun *w = ctx;
	return proto_feed(&w->proto, buf, n, reply_fd);
}

static void wrun_release(struct wrun *w)
{
	if (w->job_path) {
		unlink(w->job_path);
		free(w->job_path);
	}
	if (w->cap_fd >= 0)
		close(w->cap_fd);
	if (w->cap_path) {
		unlink(w->cap_path);
		free(w->cap_path);
	}
	proto_release(&w->proto);
	strbuf_release(&w->out);
	strbuf_release(&w->err);
	free(w->chosen);
	memset(w, 0, sizeof(*w));
	w->cap_fd = -1;
}

static int write_json_file(json_t *j, const char *path)
{
	if (json_dump_file(j, path, JSON_INDENT(1) | JSON_SORT_KEYS) < 0)
		return error("cannot write '%s' (is the store's tmp/ writable?)", path);
	return 0;
}

/*
 * In a Slurm task slurmd signals the deepest processes first: a worker or
 * the checker may die of SIGTERM a moment before this runner's own SIGTERM
 * arrives (docs/slurm.md).  Wait for it (at most a second), so that the job
 * is recorded aborted, as the interruption it is, not crashed.
 */
static void settle(const struct run_ctx *c, const struct run_result *rr)
{
	if (!c->slurm || !rr->signaled || rr->signo != SIGTERM)
		return;
	for (int i = 0; i < 100 && !runcmd_interrupted; i++) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
}

/* Run one worker process for w->job.  0 when it was started and waited
 * for (however it ended), -1 when it could not be started. */
static int run_worker(struct run_ctx *c, struct wrun *w)
{
	char r[17];
	random_hex(r, 16);
	w->job_path = xstrfmt("%s/job-%s.json", c->tmp_dir, r);
	w->cap_path = xstrfmt("%s/out-%s.bin", c->tmp_dir, r);
	w->cap_fd = open(w->cap_path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
	if (w->cap_fd < 0)
		return error("cannot create '%s': %s", w->cap_path, strerror(errno));
	json_t *jj = job_to_json(&w->job);
	int rc = write_json_file(jj, w->job_path);
	json_decref(jj);
	if (rc < 0)
		return -1;
	const struct problem *pr = &c->plan.problem;
	size_t elem = c->be->uses_gpu ? dtype_size(c->plan.dtype) : sizeof(float), out_bytes = 0;
	for (int t = pr->n_inputs; t < pr->desc->n_tensors; t++)
		out_bytes += problem_tensor_numel(pr, t, w->job.shape) * elem;
	proto_init(&w->proto);
	w->proto.phase = w->job.phase;
	w->proto.seeds = w->job.seeds;
	w->proto.timed = w->job.timing;
	w->proto.output_bytes = out_bytes;
	/* graph mode is the CUDA harness's; the host worker times one launch a sample */
	w->proto.batch = w->job.timing && c->be->uses_gpu && w->job.k.batch > 1 ? w->job.k.batch : 1;
	w->proto.capture_fd = w->cap_fd;
	w->proto.n_sets = w->job.n_sets;
	w->proto.first_set = w->job.first_set;
	w->proto.keep = keep_sample;
	w->proto.keep_ctx = w;
	w->proto.progress = on_progress;
	w->checks_wanted = w->job.k.timed_checks;
	if (w->job.timing && w->job.k.samples > 0)
		draw_fixed(w, w->job.k.samples, w->checks_wanted);
	const char *argv[] = { c->exe, "__worker", w->job_path, NULL };
	struct run_opts ro = { .argv = argv, .timeout_s = w->job.k.timeout_s, .out = &w->out,
			       .err = &w->err, .on_chan = on_chan, .ctx = w };
	if (run_command(&ro, &w->rr) < 0)
		return -1;
	settle(c, &w->rr);
	proto_finish(&w->proto, w->rr.exited && w->rr.exit_code == 0);
	return 0;
}

/* ---- the checker --------------------------------------------------------------- */

struct judged_set {
	json_t *msgs;                /* the checker's check messages (owned: strings borrowed below) */
	struct rec_check *checks;
	size_t n;
	json_t *reference_check;
	char *error;
	int ran;
};

static void judged_release(struct judged_set *j)
{
	json_decref(j->msgs);
	json_decref(j->reference_check);
	free(j->checks);
	free(j->error);
	memset(j, 0, sizeof(*j));
}

static void on_checker_line(const char *line, void *ctx)
{
	struct judged_set *j = ctx;
	json_t *m = json_loads(line, 0, NULL);
	const char *k = json_string_value(json_object_get(m, "msg"));
	if (k && !strcmp(k, "check")) {
		json_array_append(j->msgs, m);
	} else if (k && !strcmp(k, "reference_check")) {
		json_decref(j->reference_check);
		json_object_del(m, "msg");
		j->reference_check = json_incref(m);
	} else if (k && !strcmp(k, "error") && !j->error) {
		const char *r = json_string_value(json_object_get(m, "reason"));
		j->error = xstrdup(r ? r : "unknown error");
	}
	json_decref(m);
}

static int run_checker(struct run_ctx *c, struct wrun *w, int cross_check, struct judged_set *out)
{
	memset(out, 0, sizeof(*out));
	out->msgs = json_array();
	const struct plan *p = &c->plan;
	json_t *caps = json_array();
	for (size_t i = 0; i < w->proto.n_caps; i++) {
		const struct proto_capture *cp = &w->proto.caps[i];
		json_array_append_new(caps, json_pack("{s:b, s:I, s:I, s:i, s:i, s:I, s:I}", "timed", cp->timed, "index",
						      (json_int_t)cp->index, "global", (json_int_t)cp->global, "set",
						      cp->set, "batch", cp->batch, "offset", (json_int_t)cp->offset,
						      "bytes", (json_int_t)cp->bytes));
	}
	json_t *cj = json_pack("{s:o, s:{s:f, s:f, s:f}, s:s, s:o, s:b}", "job", job_to_json(&w->job),
			       "tolerance", "atol", p->tol.atol, "rtol", p->tol.rtol, "rel_l2", p->tol.rel_l2,
			       "captures_file", w->cap_path, "captures", caps, "cross_check", cross_check);
	char *path = xstrfmt("%s.check.json", w->job_path);
	int rc = write_json_file(cj, path);
	json_decref(cj);
	if (rc == 0) {
		const char *argv[] = { c->exe, "__check", path, NULL };
		struct strbuf err = STRBUF_INIT;
		struct run_result rr;
		struct run_opts ro = { .argv = argv, .timeout_s = 600 + 4 * w->job.k.timeout_s, .err = &err,
				       .on_line = on_checker_line, .ctx = out };
		if (run_command(&ro, &rr) < 0) {
			rc = -1;
		} else {
			settle(c, &rr);
			out->ran = 1;
			if (!out->error && (!rr.exited || rr.exit_code != 0)) {
				struct strbuf how = STRBUF_INIT;
				run_result_describe(&rr, &how);
				out->error = xstrfmt("the checker ended with %s: %s", how.buf, strbuf_str(&err));
				strbuf_release(&how);
			}
		}
		strbuf_release(&err);
	}
	unlink(path);
	free(path);
	/* typed checks borrowing the messages' strings */
	size_t n = json_array_size(out->msgs);
	out->checks = n ? xcalloc(n, sizeof(*out->checks)) : NULL;
	size_t i;
	json_t *m;
	json_array_foreach(out->msgs, i, m)
	{
		struct rec_check *k = &out->checks[out->n++];
		k->phase = json_string_value(json_object_get(m, "phase"));
		k->seed = (unsigned long long)json_integer_value(json_object_get(m, "seed"));
		k->dist = json_string_value(json_object_get(m, "dist"));
		int timed = k->phase && !strcmp(k->phase, "timed");
		k->sample = timed ? json_integer_value(json_object_get(m, "index")) : -1;
		k->max_abs_err = json_number_value(json_object_get(m, "max_abs_err"));
		k->rel_l2 = json_number_value(json_object_get(m, "rel_l2"));
		k->ref_scale = json_number_value(json_object_get(m, "ref_scale"));
		k->nan_count = json_integer_value(json_object_get(m, "nan_count"));
		k->unwritten = json_integer_value(json_object_get(m, "unwritten"));
		k->mismatches = json_integer_value(json_object_get(m, "mismatches"));
		k->first_mismatch = json_integer_value(json_object_get(m, "first_mismatch"));
		k->pass = json_is_true(json_object_get(m, "pass"));
	}
	return rc;
}

/* ---- the pieces of a job --------------------------------------------------- */

static void fill_job(const struct run_ctx *c, const struct plan_job *pj, const char *phase, struct job *j)
{
	const struct plan *p = &c->plan;
	memset(j, 0, sizeof(*j));
	j->phase = phase;
	j->backend = c->be->name;
	j->kernel_so = p->variants[pj->variant].br.so_path;
	j->problem = c->s->problem;
	j->problem_so = p->problem.so_path;
	j->problem_gpu_so = p->problem.gpu_so_path;
	j->n_dims = c->s->n_dims;
	memcpy(j->shape, c->s->dims, sizeof(long long) * (size_t)c->s->n_dims);
	j->dtype = c->s->dtype;
	j->k = c->s->k;
	j->seeds = c->s->k.seeds;
	j->seed0 = pj->seed0;
	j->timing = !strcmp(phase, "main");
	j->timing_seed = pj->timing_seed;
	j->n_sets = p->n_sets;
	j->first_set = pj->first_set;
	j->scramble_seed = pj->scramble_seed;
	j->device = c->o->device;
}

static char *shape_text(const struct spec *s, const long long *shape)
{
	struct strbuf sb = STRBUF_INIT;
	for (int i = 0; i < s->n_dims; i++)
		strbuf_addf(&sb, "%s%s=%lld", i ? " " : "", s->dim_names[i], shape[i]);
	return strbuf_detach(&sb, NULL);
}

static char *samples_text(const double *x, size_t n, const char *what)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "# %s, microseconds, one per line, in the order taken\n", what);
	for (size_t i = 0; i < n; i++)
		strbuf_addf(&sb, "%.17g\n", x[i]);
	return strbuf_detach(&sb, NULL);
}

static const char *put_text(struct run_ctx *c, const char *text, size_t n, char hex[SHA256_HEX_LEN + 1])
{
	return store_put(&c->st, text, n, hex) == 0 ? hex : NULL;
}

static json_t *read_load(void)
{
	struct strbuf sb = STRBUF_INIT;
	double l1 = NAN;
	int running = -1, total = -1;
	if (read_file("/proc/loadavg", &sb) == 0)
		sscanf(sb.buf, "%lf %*f %*f %d/%d", &l1, &running, &total);
	strbuf_release(&sb);
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	return json_pack("{s:f, s:i, s:i, s:I}", "loadavg_1m", isfinite(l1) ? l1 : -1.0, "runnable", running,
			 "processes", total, "cpus", (json_int_t)cpus);
}

/* The preferred clock of the samples: the kernel clock where every sample
 * has it, else CUDA events, else the host clock. */
/* The median of x[0..n) (n > 0), x left as it was. */
static double median_of(const double *x, size_t n)
{
	double *tmp = xmalloc(n * sizeof(double));
	memcpy(tmp, x, n * sizeof(double));
	stats_sort(tmp, n);
	double m = stats_median_sorted(tmp, n);
	free(tmp);
	return m;
}

static const char *pick_clock(const struct proto *p, const struct knobs *k, int uses_gpu)
{
	int all_kernel = p->n_samples > 0, all_event = p->n_samples > 0;
	for (size_t i = 0; i < p->n_samples; i++) {
		all_kernel &= isfinite(p->samples[i].kernel_us);
		all_event &= isfinite(p->samples[i].event_us);
	}
	const char *want = knob_values_clock[k->clock];
	if (!uses_gpu)
		return "host";
	if (!strcmp(want, "events"))
		return all_event ? "cuda_events" : "host";
	if (all_kernel)
		return "cupti";
	return all_event ? "cuda_events" : "host";
}

static double sample_of(const struct proto_sample *s, const char *clock)
{
	if (!strcmp(clock, "cupti"))
		return s->kernel_us;
	if (!strcmp(clock, "cuda_events"))
		return s->event_us;
	return s->us;
}

/* What every record of job pj says about itself: identity, where and how
 * it was executed, the problem, the spec, git and the machine (r's
 * outcome must be set: expect_met reads it). */
static void record_identity(const struct run_ctx *c, const struct plan_job *pj, const char *run_id,
			    const char *started, struct run_record *r)
{
	const struct spec *s = c->s;
	const struct plan *p = &c->plan;
	const struct plan_variant *pv = &p->variants[pj->variant];
	const struct spec_variant *v = pv->v;
	r->run_id = run_id;
	r->batch_id = p->batch_id;
	r->experiment = s->name;
	r->question = s->question;
	r->baseline = s->baseline;
	r->variant = v->name;
	r->repeat = pj->repeat;
	r->repeats = p->repeats;
	int local = !strcmp(c->slot.kind, "local");
	r->gpu_slot = !local ? c->slot.index : c->be->uses_gpu ? c->o->device : -1;
	r->exec.kind = c->slot.kind;
	r->exec.slot = c->slot.index;
	r->exec.slots = c->slot.n;
	r->exec.device = c->slot.device;
	r->exec.pinned = c->slot.pinned;
	r->slurm = c->slurm;
	r->is_baseline = pv->is_baseline;
	r->is_reference = v->is_reference;
	r->kernel = v->kernel;
	r->params = v->params;
	r->n_params = v->n_params;
	r->expect = v->expect;
	r->expect_met = v->expect && !strcmp(v->expect, outcome_name(r->outcome));
	r->started_utc = started;
	r->backend = s->backend;
	r->problem.name = s->problem;
	r->problem.dtype = s->dtype;
	r->problem.n_dims = (size_t)s->n_dims;
	for (int i = 0; i < s->n_dims; i++) {
		r->problem.dim_names[i] = s->dim_names[i];
		r->problem.dims[i] = s->dims[i];
	}
	r->problem.flops = p->flops;
	r->problem.min_bytes = p->min_bytes;
	r->problem.plugin_sha256 = json_string_value(json_object_get(p->problem.build, "binary_sha256"));
	r->spec_path = s->path;
	r->spec_object = c->spec_object;
	r->git = c->git;
	r->machine = c->machine;
}

/* ---- the job ----------------------------------------------------------------- */

int job_execute(struct run_ctx *c, struct plan_job *pj)
{
	const struct spec *s = c->s;
	struct plan *p = &c->plan;
	struct plan_variant *pv = &p->variants[pj->variant];
	const struct spec_variant *v = pv->v;
	struct run_record r;
	struct job_report jr;
	struct wrun main_w, shape_w;
	struct judged_set main_j, shape_j;
	memset(&r, 0, sizeof(r));
	r.event_median_us = r.host_median_us = NAN;
	memset(&jr, 0, sizeof(jr));
	memset(&main_w, 0, sizeof(main_w));
	memset(&shape_w, 0, sizeof(shape_w));
	memset(&main_j, 0, sizeof(main_j));
	memset(&shape_j, 0, sizeof(shape_j));
	main_w.cap_fd = shape_w.cap_fd = -1;
	main_w.rng = pj->scramble_seed ^ 0x243f6a8885a308d3ULL;
	main_w.prog = &c->prog;
	char *reason = NULL, *shape_str = NULL, *run_id = store_new_run_id(s->name);
	char started[40], finished[40];
	utc_now_iso(started, sizeof(started));
	double t0 = mono_now(), gpu_s = 0;
	int rc = -1;
	json_t *load = json_object(), *before = NULL, *after = NULL, *sanitize_docs = json_array();
	struct strbuf wlog = STRBUF_INIT;
	double *xs = NULL, *ev = NULL, *hs = NULL;
	size_t nx = 0;
	store_pending_begin(&c->st, run_id, s->name, v->name);

	/* build */
	progress_show(&c->prog, "building");
	jr.build_attempted = plan_build(c, pj->variant) == 0;
	jr.build_ok = jr.build_attempted && pv->br.ok;
	if (jr.build_attempted && !pv->br.ok)
		jr.build_reason = json_string_value(json_object_get(pv->br.info, "reason"));

	if (jr.build_ok) {
		/* worker, main phase */
		json_object_set_new(load, "before", read_load());
		if (c->be->device_state)
			before = c->be->device_state(c->slot.device);
		fill_job(c, pj, "main", &main_w.job);
		progress_show(&c->prog, "starting");
		if (run_worker(c, &main_w) < 0)
			goto out;
		gpu_s += c->be->uses_gpu ? main_w.rr.seconds : 0;
		if (c->be->device_state)
			after = c->be->device_state(c->slot.device);
		json_object_set_new(load, "after", read_load());
		jr.worker = &main_w.rr;
		jr.proto = &main_w.proto;
		jr.interrupted = runcmd_interrupted != 0;

		/* the judge */
		int worker_done = main_w.proto.got_done && !main_w.proto.violation;
		if (worker_done) {
			progress_show(&c->prog, "judging");
			double tc = mono_now();
			if (run_checker(c, &main_w, c->be->reference != NULL, &main_j) < 0)
				goto out;
			gpu_s += c->be->uses_gpu ? mono_now() - tc : 0;
			jr.checker_ran = main_j.ran;
			jr.checker_error = main_j.error;
			jr.checks = main_j.checks;
			jr.n_checks = main_j.n;
			if (main_j.reference_check && json_is_false(json_object_get(main_j.reference_check, "pass")))
				jr.reference_failed = "the GPU reference disagreed with the float64 reference at the "
						      "small shape (correctness.reference_check): the judge is wrong";
		}

		/* escapes and health over the samples */
		const struct proto *pr = &main_w.proto;
		for (size_t i = 0; i < pr->n_samples; i++) {
			jr.other_stream += pr->samples[i].other_stream > 0;
			jr.late += pr->samples[i].late;
			jr.host_threads += pr->samples[i].threads_delta > 0;
			jr.block_timeouts += pr->samples[i].block_timeout;
		}

		/* the extra shape, for a variant right so far */
		long long xshape[JOB_MAX_DIMS];
		memcpy(xshape, s->dims, sizeof(long long) * (size_t)s->n_dims);
		const struct ev_problem_desc *d = p->problem.desc;
		int have_x = worker_done && main_j.ran && !main_j.error && d->extra_shape &&
			     d->extra_shape(s->dims, xshape) == 0 &&
			     memcmp(xshape, s->dims, sizeof(long long) * (size_t)s->n_dims);
		int main_ok = 1;
		for (size_t i = 0; i < main_j.n; i++)
			main_ok &= main_j.checks[i].pass;
		if (!have_x) {
			r.extra_shape_status = "none";
		} else if (main_ok && main_j.n) {
			progress_show(&c->prog, "extra shape");
			shape_str = shape_text(s, xshape);
			jr.shape_text = shape_str;
			fill_job(c, pj, "shape", &shape_w.job);
			memcpy(shape_w.job.shape, xshape, sizeof(xshape));
			shape_w.job.seeds = d->n_dists; /* one launch per distribution */
			shape_w.job.timing = 0;
			shape_w.rng = pj->scramble_seed;
			if (run_worker(c, &shape_w) < 0)
				goto out;
			gpu_s += c->be->uses_gpu ? shape_w.rr.seconds : 0;
			const struct proto *sp = &shape_w.proto;
			const char *so = json_string_value(json_object_get(sp->failure, "outcome"));
			if (so && !strcmp(so, "init_failed")) {
				r.extra_shape_status = "specialised";
				r.extra_shape_reason = json_string_value(json_object_get(sp->failure, "reason"));
			} else if (!sp->got_done || sp->violation || sp->failure) {
				struct job_report sr = { .build_attempted = 1, .build_ok = 1, .worker = &shape_w.rr,
							 .proto = sp, .checker_ran = 1, .n_checks = 1 };
				static const struct rec_check dummy = { .phase = "shape", .pass = 1 };
				sr.checks = &dummy;
				char *why = NULL;
				outcome_classify(&sr, &jr.shape_outcome, &why);
				jr.shape_failure = why;
				r.extra_shape_status = "failed";
			} else {
				if (run_checker(c, &shape_w, 0, &shape_j) < 0)
					goto out;
				r.extra_shape_status = "checked";
				jr.shape_checks = shape_j.checks;
				jr.n_shape_checks = shape_j.n;
				for (size_t i = 0; i < shape_j.n; i++)
					shape_j.checks[i].phase = "shape";
				if (shape_j.error) {
					jr.shape_failure = shape_j.error;
					jr.shape_outcome = OUTCOME_REFERENCE_FAILED;
				}
			}
		} else {
			r.extra_shape_status = "none";
			r.extra_shape_reason = "not run: the spec's shape failed its checks";
		}
		if (shape_str) {
			r.extra_shape = json_object();
			for (int i = 0; i < s->n_dims; i++)
				json_object_set_new(r.extra_shape, s->dim_names[i], json_integer(xshape[i]));
		}

		/* sanitizers: each tool runs one more worker, one seed, no timing */
		for (char **t = s->sanitize; t && *t && !main_w.rr.timed_out && !runcmd_interrupted; t++) {
			char ph[64];
			snprintf(ph, sizeof(ph), "compute-sanitizer %s", *t);
			progress_show(&c->prog, ph);
			json_t *verdict = NULL;
			double ts = mono_now();
			if (sanitize_job(*t, c->exe, &main_w.job, c->tmp_dir, 10 * s->k.timeout_s, &verdict) == 0 &&
			    verdict)
				json_array_append_new(sanitize_docs, verdict);
			gpu_s += mono_now() - ts;
		}

		/* the object must still be the one that was built */
		char now[SHA256_HEX_LEN + 1];
		if (pv->so_sha256[0] && (sha256_file_hex(pv->br.so_path, now) < 0 || strcmp(now, pv->so_sha256)))
			jr.tampered = "kernel.so changed while the kernel ran: it is not the object that was built";

		/* samples and the median, for the floor check */
		if (pr->n_samples) {
			const char *clock = pick_clock(pr, &s->k, c->be->uses_gpu);
			nx = pr->n_samples;
			xs = xcalloc(nx, sizeof(double));
			ev = xcalloc(nx, sizeof(double));
			hs = xcalloc(nx, sizeof(double));
			for (size_t i = 0; i < nx; i++) {
				xs[i] = sample_of(&pr->samples[i], clock);
				ev[i] = pr->samples[i].event_us;
				hs[i] = pr->samples[i].host_us;
			}
			r.clock = clock;
		}
		jr.floor_us = p->floor_us;
		jr.median_us = NAN;
		if (nx)
			jr.median_us = median_of(xs, nx);
	}

	/* classify */
	jr.interrupted = jr.interrupted || runcmd_interrupted != 0;
	jr.interrupted_why = !runcmd_interrupted ? NULL
			     : c->why_interrupted && c->why_interrupted(c) ? c->why_interrupted(c)
									  : signal_name(runcmd_interrupted);
	outcome_classify(&jr, &r.outcome, &reason);
	r.reason = reason;

	/* ---- the record ---- */
	record_identity(c, pj, run_id, started, &r);

	/* code and build */
	char hex_log[SHA256_HEX_LEN + 1], hex_wlog[SHA256_HEX_LEN + 1], hex_s[SHA256_HEX_LEN + 1],
		hex_e[SHA256_HEX_LEN + 1], hex_h[SHA256_HEX_LEN + 1];
	struct rec_source *srcs = NULL;
	char (*src_objs)[SHA256_HEX_LEN + 1] = NULL;
	json_t *info = pv->br.info;
	if (pv->build_state > 0 && info) {
		r.have_build = 1;
		r.build_status = json_string_value(json_object_get(info, "status"));
		r.build_cached = json_is_true(json_object_get(info, "cached"));
		r.build_seconds = json_number_value(json_object_get(info, "seconds"));
		r.build_reason = json_string_value(json_object_get(info, "reason"));
		r.build_resources = json_object_get(info, "resources");
		r.build_log_object = put_text(c, pv->br.log ? pv->br.log : "", pv->br.log ? strlen(pv->br.log) : 0,
					      hex_log);
		r.build_key = json_string_value(json_object_get(info, "build_key"));
		r.binary_sha256 = json_string_value(json_object_get(info, "binary_sha256"));
		json_t *src = json_object_get(info, "sources");
		srcs = xcalloc(json_array_size(src) + 1, sizeof(*srcs));
		src_objs = xcalloc(json_array_size(src) + 1, sizeof(*src_objs));
		size_t i;
		json_t *e;
		json_array_foreach(src, i, e)
		{
			struct rec_source *x = &srcs[r.n_sources++];
			x->path = json_string_value(json_object_get(e, "path"));
			x->sha256 = json_string_value(json_object_get(e, "sha256"));
			struct strbuf body = STRBUF_INIT;
			if (x->path && read_file(x->path, &body) == 0 &&
			    store_put(&c->st, strbuf_str(&body), body.len, src_objs[i]) == 0)
				x->object = src_objs[i];
			strbuf_release(&body);
		}
		r.sources = srcs;
		r.compiler = json_pack("{s:O, s:O}", "argv", json_object_get(info, "argv"), "version",
				       json_object_get(info, "compiler_version"));
	}
	/* what the kernel said */
	json_t *echo_missing = json_array(), *echo_mism = json_array();
	const char *echo = json_string_value(json_object_get(main_w.proto.kernel, "compiled_params"));
	r.compiled_params = echo;
	for (size_t i = 0; i < v->n_params && echo; i++) {
		const char *name = v->params[i].name, *found = NULL;
		size_t nl = strlen(name);
		for (const char *q = echo; *q;) {
			while (*q == ' ')
				q++;
			if (!strncmp(q, name, nl) && q[nl] == '=') {
				found = q + nl + 1;
				break;
			}
			while (*q && *q != ' ')
				q++;
		}
		if (!found) {
			json_array_append_new(echo_missing, json_string(name));
			continue;
		}
		size_t vl = strcspn(found, " ");
		if (strlen(v->params[i].value) != vl || strncmp(found, v->params[i].value, vl))
			json_array_append_new(echo_mism, json_pack("{s:s, s:s, s:s%}", "param", name, "spec",
								   v->params[i].value, "compiled", found, vl));
	}
	r.not_echoed = echo_missing;
	r.mismatched = echo_mism;

	/* worker */
	strbuf_addf(&wlog, "# worker: %s __worker (job %s, phase main)\n", c->exe, run_id);
	if (main_w.out.len) {
		strbuf_addstr(&wlog, "# stdout (a log: never evidence):\n");
		strbuf_addstr(&wlog, main_w.out.buf);
	}
	strbuf_addstr(&wlog, "# stderr:\n");
	strbuf_addstr(&wlog, strbuf_str(&main_w.err));
	if (shape_w.job.phase) {
		strbuf_addstr(&wlog, "# extra shape worker, stdout:\n");
		strbuf_addstr(&wlog, strbuf_str(&shape_w.out));
		strbuf_addstr(&wlog, "# extra shape worker, stderr:\n");
		strbuf_addstr(&wlog, strbuf_str(&shape_w.err));
	}
	r.worker_log_object = put_text(c, wlog.buf ? wlog.buf : "", wlog.len, hex_wlog);
	struct strbuf how = STRBUF_INIT;
	if (main_w.rr.started)
		run_result_describe(&main_w.rr, &how);
	r.worker_exit = main_w.rr.started ? how.buf : NULL;
	r.worker_seconds = main_w.rr.seconds;
	if (main_w.proto.violation)
		r.protocol = json_pack("{s:s}", "violation", main_w.proto.violation);

	/* where */
	r.device = main_w.proto.device;
	r.gpu_state = json_pack("{s:o?, s:o?}", "before", before, "after", after);
	before = after = NULL;
	r.throttled = !c->be->throttled ? -1 : c->be->throttled(json_object_get(r.gpu_state, "after"));
	r.load = load;

	r.settings = knobs_to_json(&s->k);
	json_object_set_new(r.settings, "atol", json_real(p->tol.atol));
	json_object_set_new(r.settings, "rtol", json_real(p->tol.rtol));
	json_object_set_new(r.settings, "rel_l2", json_real(p->tol.rel_l2));
	json_object_set_new(r.settings, "repeats", json_integer(p->repeats));

	/* correctness: every check, the seeds', the timed launches', the extra shape's */
	r.atol = p->tol.atol;
	r.rtol = p->tol.rtol;
	r.rel_l2 = p->tol.rel_l2;
	r.n_checks = main_j.n + shape_j.n;
	r.checks = r.n_checks ? xcalloc(r.n_checks, sizeof(*r.checks)) : NULL;
	for (size_t i = 0; i < main_j.n; i++)
		r.checks[i] = main_j.checks[i];
	for (size_t i = 0; i < shape_j.n; i++)
		r.checks[main_j.n + i] = shape_j.checks[i];
	r.reference_check = main_j.reference_check;
	r.correctness_pass = r.outcome == OUTCOME_OK;
	if (!r.extra_shape_status && r.outcome != OUTCOME_OK)
		r.extra_shape_status = "none";

	/* timing */
	struct stats_opts so = STATS_OPTS_INIT;
	if (main_w.proto.method || nx) {
		r.have_timing = 1;
		r.cache = knob_values_cache[s->k.cache];
		r.timing_method = main_w.proto.method;
		r.n_samples = (long long)nx;
		char *t = samples_text(xs, nx, r.clock ? r.clock : "samples");
		r.samples_object = put_text(c, t, strlen(t), hex_s);
		free(t);
		if (r.clock && strcmp(r.clock, "cuda_events") && nx && isfinite(ev[0])) {
			t = samples_text(ev, nx, "CUDA-event times");
			r.event_samples_object = put_text(c, t, strlen(t), hex_e);
			free(t);
			r.event_median_us = median_of(ev, nx);
		}
		if (nx && isfinite(hs[0]) && (!r.clock || strcmp(r.clock, "host"))) {
			t = samples_text(hs, nx, "host time of each launch() call");
			r.host_samples_object = put_text(c, t, strlen(t), hex_h);
			free(t);
			r.host_median_us = median_of(hs, nx);
		}
		health_assess(&main_w.proto, xs, nx, &r.health);
		r.escapes.other_stream = jr.other_stream;
		r.escapes.late = jr.late;
		r.escapes.host_threads = jr.host_threads;
		r.escapes.block_timeouts = jr.block_timeouts;
		if (r.outcome == OUTCOME_OK && nx)
			r.have_stats = stats_summarize(xs, nx, &so, &r.stats) == 0;
		r.stats_seed = so.seed;
		r.stats_resamples = so.resamples;
	}

	/* sanitizers */
	r.n_sanitize = json_array_size(sanitize_docs);
	r.sanitize = r.n_sanitize ? xcalloc(r.n_sanitize, sizeof(*r.sanitize)) : NULL;
	char san_hex[8][SHA256_HEX_LEN + 1];
	for (size_t i = 0; i < r.n_sanitize; i++) {
		json_t *d = json_array_get(sanitize_docs, i);
		struct rec_sanitize *z = &r.sanitize[i];
		z->doc = d;
		z->tool = json_string_value(json_object_get(d, "tool"));
		json_t *pass = json_object_get(d, "passed");
		z->passed = json_is_boolean(pass) ? json_is_true(pass) : -1;
		z->errors = json_integer_value(json_object_get(d, "errors"));
		json_t *rep = json_object_get(d, "report");
		if (json_is_string(rep) && i < 8)
			z->report_object = put_text(c, json_string_value(rep), json_string_length(rep), san_hex[i]);
		json_object_del(d, "report");
	}

	/* cost and time */
	r.wall_s = mono_now() - t0;
	const char *gpu = r.device ? json_string_value(json_object_get(r.device, "name")) : NULL;
	json_t *cost = cost_of_run(cost_price(c->o->price_table, c->be->uses_gpu ? (gpu ? gpu : "unknown GPU") : NULL,
					      s->price_usd_per_h, s->price_source),
				   r.wall_s, gpu_s);
	record_read_cost(cost, &r.cost);
	utc_now_iso(finished, sizeof(finished));
	r.finished_utc = finished;

	json_t *m = record_run_json(&r);
	rc = store_commit(&c->st, run_id, m);
	json_decref(m);
	json_decref(cost);
	if (rc == 0) {
		store_pending_end(&c->st, run_id);
		pj->run_id = run_id;
		run_id = NULL;
		pj->outcome = r.outcome;
		pj->done = 1;
	}
	json_decref(echo_missing);
	json_decref(echo_mism);
	json_decref(r.compiler);
	json_decref(r.protocol);
	json_decref(r.gpu_state);
	json_decref(r.extra_shape);
	json_decref(r.settings);
	free(srcs);
	free(src_objs);
	free(r.checks);
	free(r.sanitize);
	strbuf_release(&how);
out:
	if (jr.shape_failure && jr.shape_failure != shape_j.error)
		free((char *)jr.shape_failure);
	json_decref(load);
	json_decref(before);
	json_decref(after);
	json_decref(sanitize_docs);
	strbuf_release(&wlog);
	judged_release(&main_j);
	judged_release(&shape_j);
	wrun_release(&main_w);
	wrun_release(&shape_w);
	free(xs);
	free(ev);
	free(hs);
	free(reason);
	free(shape_str);
	free(run_id);
	return rc;
}

int job_record_aborted(struct run_ctx *c, struct plan_job *pj, const char *why)
{
	struct run_record r;
	memset(&r, 0, sizeof(r));
	char *run_id = store_new_run_id(c->s->name);
	char now[40];
	utc_now_iso(now, sizeof(now));
	r.outcome = OUTCOME_ABORTED;
	r.reason = why;
	record_identity(c, pj, run_id, now, &r);
	r.finished_utc = now;
	r.wall_s = 0;
	r.throttled = -1;
	r.extra_shape_status = "none";
	r.atol = r.rtol = r.rel_l2 = NAN;
	json_t *cost = cost_of_run(cost_price(c->o->price_table, c->be->uses_gpu ? "unknown GPU" : NULL,
					      c->s->price_usd_per_h, c->s->price_source),
				   0, 0);
	record_read_cost(cost, &r.cost);
	json_t *m = record_run_json(&r);
	int rc = store_commit(&c->st, run_id, m);
	json_decref(m);
	json_decref(cost);
	if (rc == 0) {
		free(pj->run_id);
		pj->run_id = run_id;
		pj->outcome = OUTCOME_ABORTED;
		pj->done = 1;
	} else {
		free(run_id);
	}
	return rc;
}
