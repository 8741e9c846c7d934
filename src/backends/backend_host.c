/*
 * backend_host.c - the host (CPU) backend: kernels are C files compiled by
 * `cc -O2 -shared -fPIC` into the build cache and run in the worker process
 * on host memory, timed with the monotonic clock.
 *
 * The worker speaks the protocol of protocol.h: it ships the outputs of
 * its correctness launches and of the timed samples the parent asks for,
 * and never sees a reference (the checker, another process, judges).  Its
 * inputs rotate through the parent's sets, its outputs are scrambled
 * before every launch, and the one stop rule is sampler.h's.  A kernel
 * that crashes kills only this process; the parent classifies that from
 * the exit status.
 */
#include <dlfcn.h>
#include <math.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "backends/backend.h"
#include "backends/build.h"
#include "backends/protocol.h"
#include "backends/sampler.h"
#include "backends/scramble.h"
#include "backends/worker.h"

static int host_probe(struct strbuf *why)
{
	(void)why;
	return 0;
}

/* First "error:" line of a gcc log, as the reason. */
static char *host_classify(const char *log)
{
	return line_with(log, "error:");
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

static void flush_cache(volatile char *buf, size_t n)
{
	for (size_t i = 0; i < n; i += 64)
		buf[i] = (char)(buf[i] + 1);
}

/* Point l's inputs at set s and its outputs at out[]. */
static void point(struct ev_launch *l, float **set, float **out, int n_in, int n_out)
{
	for (int t = 0; t < n_in; t++)
		l->inputs[t].data = set[t];
	for (int o = 0; o < n_out; o++)
		l->outputs[o].data = out[o];
}

static void scramble_outputs(float **out, const size_t *bytes, int n_out, uint64_t seed, int timed,
			     long long i)
{
	for (int o = 0; o < n_out; o++)
		evs_fill(out[o], bytes[o], evs_key(seed, timed ? (uint64_t)i : SCRAMBLE_SEED_LAUNCH((uint64_t)i), 0,
						  (uint32_t)o));
}

/* Ship the outputs of one launch as one frame (outputs concatenated). */
static void ship(const char *phase, long long i, float **out, const size_t *bytes, int n_out,
		 struct strbuf *buf)
{
	strbuf_reset(buf);
	for (int o = 0; o < n_out; o++)
		strbuf_add(buf, out[o], bytes[o]);
	proto_w_output(phase, i, buf->buf, buf->len);
}

/*
 * The host worker (protocol.h): correctness launches on fresh inputs, then
 * timed samples on inputs rotating through the parent's sets, every output
 * scrambled before its launch, each sample shipped when the parent asks
 * for it after the sample ran.  It never sees a reference.
 */
static int host_worker(const struct job *job)
{
	char err[512] = "";
	struct problem pl;
	struct strbuf why = STRBUF_INIT;
	if (proto_w_open() < 0)
		return 2;
	proto_w_send("hello", json_pack("{s:i, s:i}", "protocol", PROTOCOL_VERSION, "pid", (int)getpid()));
	if (problem_open_so(job->problem_so, job->problem, &pl, &why) < 0) {
		proto_w_send("device", json_pack("{s:s}", "backend", "host"));
		proto_w_failure("init_failed", "problem", why.buf, "load");
		strbuf_release(&why);
		return 1;
	}
	strbuf_release(&why);
	proto_w_send("device", json_pack("{s:s, s:i}", "backend", "host", "threads", worker_thread_count()));
	const struct ev_kernel_desc *k = worker_load_kernel(job, "host");
	if (!k) {
		problem_release(&pl);
		return 1;
	}
	const int n_in = pl.n_inputs, n_out = pl.n_outputs;
	const long long *shape = job->shape;
	size_t in_n[4], out_bytes[2];
	for (int t = 0; t < n_in; t++)
		in_n[t] = problem_tensor_numel(&pl, t, shape);
	for (int o = 0; o < n_out; o++)
		out_bytes[o] = problem_tensor_numel(&pl, n_in + o, shape) * sizeof(float);
	int n_sets = job->timing ? job->n_sets : 1;
	float **sets = xcalloc((size_t)n_sets * (size_t)n_in, sizeof(float *));
	for (int s = 0; s < n_sets; s++)
		for (int t = 0; t < n_in; t++)
			sets[s * n_in + t] = xmalloc(in_n[t] * sizeof(float));
	float *out[2] = { NULL, NULL };
	for (int o = 0; o < n_out; o++)
		out[o] = xmalloc(out_bytes[o]);
	struct strbuf frame = STRBUF_INIT;
	struct ev_launch l;
	worker_launch_setup(&l, &pl, job, shape, EV_F32);
	point(&l, sets, out, n_in, n_out);
	int rc = 1;
	if (k->init && k->init(&l, err, sizeof(err)) != 0) {
		proto_w_failure("init_failed", "init", err[0] ? err : "init() returned non-zero", "init");
		goto out;
	}

	/* correctness launches: seed i, distribution i mod n */
	for (int i = 0; i < job->seeds; i++) {
		problem_fill_rounded(&pl, shape, i % pl.desc->n_dists, job->seed0 + (unsigned long long)i, EV_F32,
				     sets);
		point(&l, sets, out, n_in, n_out);
		scramble_outputs(out, out_bytes, n_out, job->scramble_seed, 0, i);
		if (k->launch(&l) != 0) {
			proto_w_failure("launch_failed", "launch", "launch() returned non-zero", "check");
			goto out;
		}
		ship("seed", i, out, out_bytes, n_out, &frame);
	}

	if (job->timing) {
		for (int s = 0; s < n_sets; s++)
			problem_fill_rounded(&pl, shape, 0, job->timing_seed + (unsigned long long)s, EV_F32,
					     sets + (size_t)s * n_in);
		int cold = !strcmp(knob_values_cache[job->k.cache], "cold");
		size_t flush_n = cold ? (size_t)64 << 20 : 0;
		char *flush = flush_n ? xcalloc(flush_n, 1) : NULL;
		long long warm = 0;
		double t0 = mono_now();
		while (sampler_warming(&job->k, t0, warm)) {
			int s = (int)((job->first_set + warm) % n_sets);
			point(&l, sets + (size_t)s * n_in, out, n_in, n_out);
			k->launch(&l);
			warm++;
		}
		proto_w_send("warmup", json_pack("{s:I, s:I, s:f}", "samples", (json_int_t)warm, "launches",
						 (json_int_t)warm, "ms", (mono_now() - t0) * 1e3));
		struct sampler sm;
		sampler_init(&sm, &job->k);
		int tid0[256], tid1[256];
		for (long long i = 0;; i++) {
			long long g = warm + i; /* the global sample index: warm-up first */
			int s = (int)((job->first_set + g) % n_sets);
			point(&l, sets + (size_t)s * n_in, out, n_in, n_out);
			scramble_outputs(out, out_bytes, n_out, job->scramble_seed, 1, g);
			if (flush)
				flush_cache(flush, flush_n);
			/* a thread that launch() started and left running: a thread id
			 * after the launch that was not there before it (a thread pool
			 * an honest kernel made in an earlier launch is not new) */
			int n0 = worker_thread_ids(tid0, 256);
			double a = mono_now();
			int lr = k->launch(&l);
			double b = mono_now();
			int n1 = worker_thread_ids(tid1, 256);
			int fresh = n0 >= 0 && n1 >= 0 ? worker_new_threads(tid0, n0, tid1, n1) : 0;
			if (lr != 0) {
				proto_w_failure("launch_failed", "launch", "launch() returned non-zero", "timing");
				free(flush);
				goto out;
			}
			double us = (b - a) * 1e6;
			int stop = sampler_push(&sm, us);
			proto_w_send("sample", json_pack("{s:I, s:i, s:f, s:f, s:i, s:b}", "i", (json_int_t)i, "set", s,
							  "us", us, "host_us", us, "threads_delta", fresh,
							  "last", stop));
			int keep = proto_w_decision();
			if (keep < 0)
				_exit(3);
			if (keep)
				ship("timed", i, out, out_bytes, n_out, &frame);
			if (stop)
				break;
		}
		proto_w_send("timing", json_pack("{s:I, s:{s:s, s:s, s:f, s:s, s:i, s:I, s:f, s:I, s:i, s:b, s:b}}",
						 "n", (json_int_t)sm.n, "method", "clock",
						 "clock_gettime(CLOCK_MONOTONIC)", "cache",
						 knob_values_cache[job->k.cache], "warmup_ms", job->k.warmup_ms, "mode",
						 job->k.samples > 0 ? "fixed" : "adaptive", "batch", 1, "flush_bytes",
						 (json_int_t)flush_n, "stdrel", sampler_stdrel(&sm), "warmup_launches",
						 (json_int_t)warm, "input_sets", n_sets, "converged", sm.converged,
						 "capped", sm.capped));
		free(flush);
	}
	if (k->fini)
		k->fini(&l);
	proto_w_send("fini", NULL);
	proto_w_send("done", NULL);
	rc = 0;
out:
	for (int i = 0; i < n_sets * n_in; i++)
		free(sets[i]);
	free(sets);
	for (int o = 0; o < n_out; o++)
		free(out[o]);
	strbuf_release(&frame);
	problem_release(&pl);
	return rc;
}

static const char *const host_dtypes[] = { "fp32", NULL };
static const char *const host_compilers[] = { "cc", NULL };

const struct backend backend_host = {
	.name = "host",
	.source_ext = ".c",
	.default_dtype = "fp32",
	.dtypes = host_dtypes,
	.compilers = host_compilers,
	.uses_gpu = 0,
	.default_repeats = 1,
	.rotation_bytes = 128.0 * (1 << 20),
	.probe = host_probe,
	.build = host_build,
	.worker = host_worker,
};
