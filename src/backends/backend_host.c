/*
 * backend_host.c - the host (CPU) backend: kernels are C files compiled by
 * `cc -O2 -shared -fPIC` into the build cache and run in the worker process
 * on host memory, timed with the monotonic clock.
 *
 * The worker follows the same protocol as every backend (backend.h):
 * device, compiled_params, one `seed` message per correctness seed against
 * the float64 reference, `timing` with every sample, a `recheck` of the
 * output after timing, `done`.  A kernel that crashes kills only this
 * process; the parent classifies that from the exit status.
 */
#include <dlfcn.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backends/backend.h"
#include "backends/build.h"
#include "backends/problem.h"

static int host_probe(struct strbuf *why)
{
	(void)why;
	return 0;
}

/* First "error:" line of a gcc log, as the reason. */
static char *host_classify(const char *log)
{
	const char *e = strstr(log, "error:");
	if (!e)
		return NULL;
	const char *start = e;
	while (start > log && start[-1] != '\n')
		start--;
	const char *end = strchr(e, '\n');
	return xstrndup(start, end ? (size_t)(end - start) : strlen(start));
}

static const char *const host_flags[] = { "-O2", "-std=c11", "-shared", "-fPIC", NULL };

static int host_build(const struct build_request *rq, struct build_result *res)
{
	const char *cc = getenv("EVIDENT_HOST_CC");
	struct build_recipe r = {
		.compiler = cc && *cc ? cc : "cc",
		.base_flags = host_flags,
		.version_flag = "--version",
		.classify = host_classify,
	};
	return build_run(rq, &r, res);
}

/* Loads the kernel object and checks its description; emits a failure
 * and returns NULL when it is unusable.  The handle is never closed: the
 * worker exits when done. */
const struct ev_kernel_desc *worker_load_kernel(const struct job *job, const char *backend)
{
	void *h = dlopen(job->so_path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		emit_failure("launch_failed", "dlopen", dlerror());
		return NULL;
	}
	ev_kernel_fn fn = (ev_kernel_fn)(uintptr_t)dlsym(h, EVIDENT_KERNEL_SYMBOL);
	if (!fn) {
		emit_failure("launch_failed", "no_symbol",
			     "the kernel object does not export evident_kernel(); use EVIDENT_DEFINE_KERNEL");
		return NULL;
	}
	const struct ev_kernel_desc *k = fn();
	if (!k || k->abi_version != EVIDENT_ABI_VERSION ||
	    k->struct_size < offsetof(struct ev_kernel_desc, compiled_params)) {
		char *r = xstrfmt("kernel ABI version %u, runner expects %d: rebuild against kernels/evident_kernel.h",
				  k ? k->abi_version : 0, EVIDENT_ABI_VERSION);
		emit_failure("launch_failed", "abi_mismatch", r);
		free(r);
		return NULL;
	}
	if (!k->launch || (k->backend && strcmp(k->backend, backend)) ||
	    (k->problem && strcmp(k->problem, job->problem))) {
		char *r = xstrfmt("kernel '%s' is for backend '%s', problem '%s'; the spec asks for '%s', '%s'",
				  k->name ? k->name : "?", k->backend ? k->backend : "?",
				  k->problem ? k->problem : "?", backend, job->problem);
		emit_failure("launch_failed", "kernel_mismatch", r);
		free(r);
		return NULL;
	}
	emit_json(json_pack("{s:s, s:s, s:s}", "msg", "compiled_params", "value",
			    k->compiled_params ? k->compiled_params : "", "name", k->name ? k->name : ""));
	return k;
}

void emit_check(const char *phase, unsigned long long seed, const struct check_result *c)
{
	emit_json(json_pack("{s:s, s:s, s:I, s:f, s:f, s:I, s:I, s:I, s:I, s:b}", "msg", "seed",
			    "phase", phase, "seed", (json_int_t)seed, "max_abs_err", c->max_abs_err,
			    "rel_l2", c->rel_l2, "nan_count", (json_int_t)c->nan_count, "unwritten",
			    (json_int_t)c->unwritten, "first_mismatch", (json_int_t)c->first_mismatch,
			    "mismatches", (json_int_t)c->mismatches, "pass", c->pass));
}

static void flush_cache(volatile char *buf, size_t n)
{
	for (size_t i = 0; i < n; i += 64)
		buf[i] = (char)(buf[i] + 1);
}

static int host_worker(const struct job *job)
{
	const struct ev_kernel_desc *k = worker_load_kernel(job, "host");
	if (!k)
		return 1;
	struct attn_shape sh = { job->B, job->H, job->S, job->D };
	size_t n = attn_numel(&sh);
	float *q = xmalloc(n * sizeof(float)), *kk = xmalloc(n * sizeof(float));
	float *v = xmalloc(n * sizeof(float)), *o = xmalloc(n * sizeof(float));
	double *ref = xmalloc(n * sizeof(double));
	emit_json(json_pack("{s:s, s:{s:s}}", "msg", "device", "info", "backend", "host"));

	struct ev_launch l;
	memset(&l, 0, sizeof(l));
	l.abi_version = EVIDENT_ABI_VERSION;
	l.struct_size = sizeof(l);
	l.problem = job->problem;
	l.n_inputs = 3;
	l.n_outputs = 1;
	float *bufs[4] = { q, kk, v, o };
	for (int i = 0; i < 4; i++) {
		struct ev_tensor *t = i < 3 ? &l.inputs[i] : &l.outputs[0];
		t->data = bufs[i];
		t->dtype = EV_F32;
		t->ndim = 4;
		t->dims[0] = job->B;
		t->dims[1] = job->H;
		t->dims[2] = job->S;
		t->dims[3] = job->D;
	}
	l.scale = 1.0 / sqrt((double)job->D);
	char err[512] = "";
	if (k->init && k->init(&l, err, sizeof(err)) != 0) {
		emit_failure("init_failed", "init", err[0] ? err : "init() returned non-zero");
		return 1;
	}
	int rc = 0;
	int seeds = job->sanitize ? 1 : job->seeds;
	unsigned long long seed = job->seed0;
	struct check_result c;
	for (int i = 0; i < seeds; i++) {
		seed = job->seed0 + (unsigned long long)i;
		attn_fill_inputs(&sh, seed, EV_F32, q, kk, v);
		attn_reference_cpu(&sh, q, kk, v, ref);
		poison_fill(o, EV_F32, n);
		if (k->launch(&l) != 0) {
			emit_failure("launch_failed", "launch", "launch() returned non-zero");
			return 1;
		}
		problem_check(o, EV_F32, ref, NULL, n, job->atol, job->rtol, &c);
		emit_check("check", seed, &c);
	}
	if (!job->sanitize) {
		size_t flush_n = strcmp(job->cache, "cold") ? 0 : (size_t)64 << 20;
		char *flush = flush_n ? xcalloc(flush_n, 1) : NULL;
		double t0 = mono_now();
		int warm = 0;
		while ((mono_now() - t0) * 1e3 < job->warmup_ms || warm < 1) {
			k->launch(&l);
			warm++;
		}
		size_t cap = job->samples > 0 ? (size_t)job->samples : 1024, ns = 0;
		double *s = xmalloc(cap * sizeof(double));
		double start = mono_now(), sum = 0, sumsq = 0, stdrel = 0;
		for (;;) {
			if (job->samples > 0 && ns >= (size_t)job->samples)
				break;
			double el = mono_now() - start;
			if (el >= job->max_seconds)
				break;
			if (job->samples == 0 && ns >= 10 && el >= job->min_seconds && stdrel <= job->stdrel)
				break;
			if (flush)
				flush_cache(flush, flush_n);
			double a = mono_now();
			k->launch(&l);
			double b = mono_now();
			if (ns == cap)
				s = xrealloc(s, (cap *= 2) * sizeof(double));
			double us = (b - a) * 1e6;
			s[ns++] = us;
			sum += us;
			sumsq += us * us;
			double mean = sum / (double)ns;
			double var = ns > 1 ? (sumsq - (double)ns * mean * mean) / (double)(ns - 1) : 0;
			stdrel = mean > 0 && var > 0 ? sqrt(var) / mean : 0;
		}
		json_t *arr = json_array();
		for (size_t i = 0; i < ns; i++)
			json_array_append_new(arr, json_real(s[i]));
		json_t *method = json_pack("{s:s, s:s, s:f, s:s, s:i, s:I, s:f, s:I, s:i}", "clock",
					   "clock_gettime(CLOCK_MONOTONIC)", "cache", job->cache,
					   "warmup_ms", job->warmup_ms, "mode",
					   job->samples > 0 ? "fixed" : "adaptive", "batch", 1,
					   "flush_bytes", (json_int_t)flush_n, "stdrel", stdrel,
					   "warmup_launches", (json_int_t)warm, "threads", 1);
		emit_json(json_pack("{s:s, s:o, s:o}", "msg", "timing", "method", method, "samples_us", arr));
		free(s);
		free(flush);
		/* the output must still be right after being launched many times */
		poison_fill(o, EV_F32, n);
		k->launch(&l);
		problem_check(o, EV_F32, ref, NULL, n, job->atol, job->rtol, &c);
		emit_check("recheck", seed, &c);
	}
	if (k->fini)
		k->fini(&l);
	emit_json(json_pack("{s:s}", "msg", "done"));
	free(q);
	free(kk);
	free(v);
	free(o);
	free(ref);
	return rc;
}

const struct backend backend_host = {
	.name = "host",
	.probe = host_probe,
	.build = host_build,
	.worker = host_worker,
};
