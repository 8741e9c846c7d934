/*
 * cuda_worker.c - the CUDA backend's worker and its GPU reference.
 *
 * The worker (the process that loads the kernel under test) drives the
 * harness (cuda/evident_cuda.h, version 2) and speaks protocol.h:
 *   - correctness launches: fresh inputs of seed i and distribution i mod
 *     n (problem_fill_rounded, uploaded), outputs scrambled, one launch
 *     behind the blocking kernel, outputs shipped - never judged here;
 *   - timed samples: the harness's loop, inputs rotating through the
 *     parent's sets at different pointers, each rewritten before it is
 *     read: in stream mode with the problem's own fill of the sample's
 *     distribution under a seed of its own, both from the sample's key,
 *     filled ahead on a few host threads (fresh.h: red team 16), in graph
 *     mode and in the warm-up mixed on the device from the pair of base
 *     sets of the sample's distribution (scramble.h), outputs scrambled
 *     before every sample, the blocking kernel holding the stream while launch()
 *     enqueues, CUDA events and CUPTI's kernel clock; after each sample
 *     the callback reports it (with the escapes the harness saw and the
 *     SM clock and throttling NVML reports every few ms), asks the parent
 *     whether to ship it, and applies sampler.h's stop rule.
 * Warm-up samples count in the sample index (the scramble's i and the
 * rotation), so timed sample k is global sample warmup + k; the warmup
 * message tells the parent how many there were.
 *
 * The reference (backend.reference) runs in the checker process, which
 * never loads the kernel: the problem's GPU reference object (the job's
 * problem_gpu_so), fp32 on the device through the harness's memory calls.
 * Every device buffer is cleared before it is freed (harness free_buffer).
 */
#include "backends/cuda_worker.h"

#include <dlfcn.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/backend_cuda.h"
#include "backends/cuda/evident_cuda.h"
#include "backends/fresh.h"
#include "backends/gpu_nvml.h"
#include "backends/modwatch.h"
#include "backends/problem.h"
#include "backends/protocol.h"
#include "backends/sampler.h"
#include "backends/scramble.h"
#include "backends/seal.h"
#include "backends/sigseal.h"
#include "backends/worker.h"

/* ---- the harness ----------------------------------------------------------- */

/* Load the harness once per process; NULL with a reason in why. */
static const struct evc_api *harness(char **path_out, char *why, size_t whylen)
{
	static const struct evc_api *api;
	static char *path;
	if (api) {
		if (path_out)
			*path_out = path;
		return api;
	}
	path = cuda_harness_path();
	if (!path) {
		snprintf(why, whylen, "CUDA harness lib/libevident_cuda.so not found next to the executable "
				      "(build it with make where nvcc exists, or make dist)");
		return NULL;
	}
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		const char *e = dlerror();
		snprintf(why, whylen, "%s", e ? e : "dlopen failed");
		return NULL;
	}
	evc_api_fn fn;
	*(void **)&fn = dlsym(h, EVC_API_SYMBOL);
	const struct evc_api *a = fn ? fn() : NULL;
	if (!a || a->api_version != EVC_API_VERSION || a->struct_size < sizeof(struct evc_api)) {
		snprintf(why, whylen, "CUDA harness is of another version than this evident (rebuild both)");
		return NULL;
	}
	api = a;
	if (path_out)
		*path_out = path;
	return api;
}

/* ---- the worker --------------------------------------------------------------- */

struct cw {
	const struct job *job;
	const struct evc_api *api;
	struct evc_ctx *ctx;
	const struct ev_kernel_desc *desc;
	struct problem pr;
	struct ev_launch l;
	int dtype, n_in, n_out, batch, n_sets;
	size_t in_n[4], out_bytes[2], launch_bytes;
	void **sets;         /* n_sets x n_in device pointers */
	void **outs;         /* batch x n_out device pointers */
	void **base;         /* n_base x n_in: pristine sets the fresh inputs mix (scramble.h) */
	int n_base;
	unsigned char *h_out;/* batch x launch_bytes */
	float *h_in[4];
	char err[1024];
	/* the sample loop */
	struct sampler sm;
	double warm_t0, last_nvml;
	long long warm_samples;
	int warm_sent, stopped;
	int warm_over;               /* the warm-up has ended: samples from warm_samples on are timed */
	int n_dists;                 /* the problem's distributions and timing mask, for sample_key */
	unsigned timing_dists;
	long long keys_timing;       /* timed samples' keys drawn so far of a timing distribution (timed_key) */
	/* fresh timed inputs (fresh.h): stream mode; warm-up samples mix */
	int fresh;
	struct fresh_pool pool;
	struct fresh_set *cur;       /* the set the current timed sample's key came with */
	double upload_s;             /* the fresh sets' uploads, summed */
	int fresh_failed;            /* a fill or upload failed: the reason in w->err */
	double clock_mhz;
	int throttled;
	char uuid[64];       /* the device's, from the harness */
	int cc_major, cc_minor; /* its compute capability: the machine code a sealed kernel must hold */
	int nvml_index;      /* NVML's index of it: -2 not yet looked up */
	/* the planner: the modules its process loads, against the worker's (modwatch.h) */
	struct modwatch *mw; /* static: CUPTI's callback may come until the process ends */
	int mw_on;           /* the harness's callback feeds mw */
};

/* The NVML index of the worker's GPU: by its UUID (NVML ignores
 * CUDA_VISIBLE_DEVICES, so in a pool slot CUDA's device 0 is not NVML's
 * GPU 0), else the job's device as before. */
static int nvml_index(struct cw *w)
{
	if (w->nvml_index == -2) {
		int i = w->uuid[0] ? gpu_nvml_index_of(w->uuid) : -1;
		w->nvml_index = i >= 0 ? i : w->job->device;
	}
	return w->nvml_index;
}

static int fail_cuda(struct cw *w, int code, const char *phase)
{
	int kind = w->api->kind(code);
	const char *outcome = kind == EVC_LAUNCH ? "launch_failed" : kind == EVC_NO_DEVICE ? "no_device" : "crashed";
	proto_w_failure(outcome, w->api->error_name(code), w->err[0] ? w->err : w->api->error_string(code), phase);
	return 1;
}

static json_t *device_json(const struct evc_device_info *d, const char *harness_path)
{
	char cc[16];
	snprintf(cc, sizeof(cc), "%d.%d", d->cc_major, d->cc_minor);
	return json_pack("{s:i, s:s, s:s, s:s, s:s, s:i, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I,"
			 " s:i, s:i, s:b, s:i, s:i, s:i, s:s}",
			 "index", d->device, "name", d->name, "uuid", d->uuid, "pci_bus_id", d->pci_bus_id,
			 "compute_capability", cc, "sm_count", d->sm_count, "l2_bytes", (json_int_t)d->l2_bytes,
			 "persisting_l2_max_bytes", (json_int_t)d->persisting_l2_max_bytes,
			 "smem_per_block_bytes", (json_int_t)d->smem_per_block, "smem_per_block_optin_bytes",
			 (json_int_t)d->smem_per_block_optin, "smem_per_sm_bytes", (json_int_t)d->smem_per_sm,
			 "regs_per_block", (json_int_t)d->regs_per_block, "regs_per_sm", (json_int_t)d->regs_per_sm,
			 "memory_total_bytes", (json_int_t)d->global_mem_bytes, "max_threads_per_block",
			 d->max_threads_per_block, "warp_size", d->warp_size, "ecc_enabled", d->ecc_enabled,
			 "cuda_driver_version", d->driver_version, "cuda_runtime_version", d->runtime_version,
			 "cublas_version", d->cublas_version, "harness", harness_path);
}

/* Download launch j's outputs of the current sample into h_out + j * launch_bytes. */
static int fetch(struct cw *w, int j, void *const *outs)
{
	size_t off = (size_t)j * w->launch_bytes;
	for (int o = 0; o < w->n_out; o++) {
		int rc = w->api->download(w->ctx, w->h_out + off, outs[o], w->out_bytes[o], w->err, sizeof(w->err));
		if (rc)
			return rc;
		off += w->out_bytes[o];
	}
	return 0;
}

static int on_sample(void *ctx, const struct evc_sample *s)
{
	struct cw *w = ctx;
	const struct job *job = w->job;
	if (s->warmup) {
		w->warm_samples++;
		if (job->warmup_samples > 0) {
			/* phase "sanitize": as many warm-up samples as the main
			 * worker made, not warmup_ms of them (under the tool a
			 * launch is slower): every launch index the timed run
			 * reached is reached here (red team 57's count) */
			if (w->warm_samples < job->warmup_samples)
				return 0;
			w->warm_over = 1;
			return EVC_STOP;
		}
		/* the shared rule; and the SM clock must have settled (no change
		 * over the last reading) - up to twice warmup_ms */
		double now = mono_now();
		if (now - w->last_nvml > 0.005) {
			double mhz;
			int thr;
			if (gpu_nvml_clock(nvml_index(w), &mhz, &thr) == 0) {
				int settled = w->clock_mhz > 0 && fabs(mhz - w->clock_mhz) < 0.01 * mhz;
				w->clock_mhz = mhz;
				w->throttled = thr;
				if (!settled && (now - w->warm_t0) * 1e3 < 2 * job->k.warmup_ms)
					return 0;
			}
			w->last_nvml = now;
		}
		if (sampler_warming(&job->k, w->warm_t0, w->warm_samples))
			return 0;
		w->warm_over = 1; /* the next sample is the first timed one (sample_key) */
		return EVC_STOP;
	}
	if (!w->warm_sent) {
		w->warm_sent = 1;
		proto_w_send("warmup", json_pack("{s:I, s:f, s:f}", "samples", (json_int_t)w->warm_samples, "ms",
						 (mono_now() - w->warm_t0) * 1e3, "clock_mhz", w->clock_mhz));
		sampler_init(&w->sm, &job->k);
	}
	double now = mono_now();
	if (now - w->last_nvml > 0.02) {
		double mhz;
		int thr;
		if (gpu_nvml_clock(nvml_index(w), &mhz, &thr) == 0) {
			w->clock_mhz = mhz;
			w->throttled = thr;
		}
		w->last_nvml = now;
	}
	long long k = s->index - w->warm_samples;
	double us = isfinite(s->kernel_us) ? s->kernel_us : s->event_us;
	int stop = sampler_push(&w->sm, us);
	int threads = s->threads_after - (s->threads_start > 0 ? s->threads_start : s->threads_before);
	int other = s->other_stream_kernels > 0 ? s->other_stream_kernels : 0;
	json_t *msg = json_pack("{s:I, s:i, s:f, s:f, s:f, s:f, s:i, s:b, s:i, s:b, s:b, s:f, s:b, s:i, s:i}",
					  "i", (json_int_t)k, "set", s->set, "us", us, "event_us", s->event_us,
					  "kernel_us", isfinite(s->kernel_us) ? s->kernel_us : -1.0, "host_us",
					  s->host_launch_us, "other_stream", other + (s->stray > 0 ? s->stray : 0),
					  "late", s->late > 0, "threads_delta", threads > 0 ? threads : 0,
					  "block_timeout", s->block_timed_out, "throttled", w->throttled, "clock_mhz",
					  w->clock_mhz, "last", stop, "kernels", s->kernels, "early", s->early);
	/* records CUPTI did not give whole (dropped, or launch() made more
	 * API calls than the harness can attribute): what this sample's
	 * launch did on the device is not all known (red team 23) */
	if (s->flags & EVC_F_INCOMPLETE)
		json_object_set_new(msg, "incomplete", json_true());
	if (s->unrecorded > 0)
		json_object_set_new(msg, "unrecorded", json_integer(s->unrecorded));
	/* how long the device took to go idle after the stop event: work a
	 * trust: host launch() left running where CUPTI has no record of it
	 * (job.c job_escapes, red team 26) */
	if (isfinite(s->drain_us))
		json_object_set_new(msg, "drain_us", json_real(s->drain_us));
	/* the ruler (evident_cuda.h): the kernel clock's reading of an
	 * interval of the device's %globaltimer, and the register's */
	if (isfinite(s->ruler_us) && isfinite(s->ruler_gt_us)) {
		json_object_set_new(msg, "ruler_us", json_real(s->ruler_us));
		json_object_set_new(msg, "ruler_gt_us", json_real(s->ruler_gt_us));
	}
	/* the fresh inputs' key (as the signed 64-bit JSON integer of its bits) */
	if (s->key)
		json_object_set_new(msg, "key", json_integer((json_int_t)s->key));
	proto_w_send("sample", msg);
	/* every sample's outputs, checked or not: the parent draws its checks
	 * after they arrived and never says which (protocol.h), so nothing the
	 * kernel can time between launches depends on the draw */
	for (int j = 0; j < w->batch; j++)
		if (fetch(w, j, w->outs + (size_t)j * w->n_out))
			return EVC_ABORT;
	proto_w_output("timed", k, w->h_out, w->launch_bytes * (size_t)w->batch);
	if (proto_w_wait_go() < 0)
		_exit(3);
	w->stopped = stop;
	return stop ? EVC_STOP : 0;
}

/*
 * The bytes the planner keeps on each side of a tensor (PLAN_GUARD, a
 * multiple of cudaMalloc's 256-byte alignment): one past a tensor's end
 * then lies in the tensor's own allocation, never at the start of
 * another, so a [begin, end) pair over a tensor is one reading to the
 * plan (seal.cu classify); without them an allocation init() made right
 * after an input took the input's end for its own start, and the
 * replay, whose tensors move every sample, put the end elsewhere (red
 * team 246's endptr, the class for tensors).  Only the planner pads: the
 * processes that time keep cudaMalloc's own placement.
 */
#define PLAN_GUARD 512

/* One tensor of numel elements into *d: padded by PLAN_GUARD on each
 * side when `guard` (the harness frees the allocation with the process). */
static int alloc_tensor(struct cw *w, size_t numel, int guard, void **d)
{
	size_t es = dtype_size(w->dtype), pad = guard ? PLAN_GUARD / es : 0;
	int rc = w->api->alloc(w->ctx, w->dtype, numel + 2 * pad, d, w->err, sizeof(w->err));
	if (!rc && guard)
		*d = (char *)*d + PLAN_GUARD;
	return rc;
}

static int alloc_all(struct cw *w)
{
	int guard = !strcmp(w->job->phase, "plan");
	int rc;
	w->sets = xcalloc((size_t)w->n_sets * (size_t)w->n_in, sizeof(void *));
	w->outs = xcalloc((size_t)w->batch * (size_t)w->n_out, sizeof(void *));
	for (int s = 0; s < w->n_sets; s++)
		for (int t = 0; t < w->n_in; t++)
			if ((rc = alloc_tensor(w, w->in_n[t], guard, &w->sets[s * w->n_in + t])))
				return fail_cuda(w, rc, "alloc");
	for (int j = 0; j < w->batch; j++)
		for (int o = 0; o < w->n_out; o++)
			if ((rc = alloc_tensor(w, w->out_bytes[o] / dtype_size(w->dtype), guard,
					       &w->outs[j * w->n_out + o])))
				return fail_cuda(w, rc, "alloc");
	for (int t = 0; t < w->n_in; t++)
		w->h_in[t] = xmalloc(w->in_n[t] * sizeof(float));
	w->h_out = xmalloc(w->launch_bytes * (size_t)w->batch);
	return 0;
}

static void point(struct cw *w, int set, int j)
{
	for (int t = 0; t < w->n_in; t++)
		w->l.inputs[t].data = w->sets[set * w->n_in + t];
	for (int o = 0; o < w->n_out; o++)
		w->l.outputs[o].data = w->outs[j * w->n_out + o];
}

static int upload_set(struct cw *w, int set)
{
	int rc;
	for (int t = 0; t < w->n_in; t++)
		if ((rc = w->api->upload_floats(w->ctx, w->sets[set * w->n_in + t], w->dtype, w->h_in[t], w->in_n[t],
						w->err, sizeof(w->err))))
			return fail_cuda(w, rc, "upload");
	return 0;
}

static int correctness(struct cw *w)
{
	const struct job *job = w->job;
	int rc;
	for (int i = 0; i < job->seeds; i++) {
		problem_fill_rounded(&w->pr, job->shape, i % w->pr.desc->n_dists, job->seed0 + (unsigned long long)i,
				     w->dtype, w->h_in);
		if ((rc = upload_set(w, 0)))
			return rc;
		point(w, 0, 0);
		for (int o = 0; o < w->n_out; o++)
			if ((rc = w->api->scramble(w->ctx, w->outs[o], w->out_bytes[o], job->scramble_seed,
						   SCRAMBLE_SEED_LAUNCH((uint64_t)i), 0, (uint32_t)o, w->err,
						   sizeof(w->err))))
				return fail_cuda(w, rc, "scramble");
		if ((rc = w->api->launch_sync(w->ctx, w->desc, &w->l, w->err, sizeof(w->err))))
			return fail_cuda(w, rc, "check");
		if ((rc = fetch(w, 0, w->outs)))
			return fail_cuda(w, rc, "check");
		proto_w_output("seed", i, w->h_out, w->launch_bytes);
	}
	return 0;
}

/* Each sample's mixing key: OS randomness, drawn as the sample starts (a
 * timed sample's by the fill threads, in order, ahead of it): the
 * sample's distribution (scramble.h evs_sample_dist) comes from it alone,
 * independently of every other sample's (red team 17: blocks of four with
 * one stress sample each told a kernel the rest of a block once it had
 * seen the stress one). */
static uint64_t draw_key(void)
{
	for (;;) {
		uint64_t key = random_secret_u64();
		if (key)
			return key;
	}
}

/* Timed sample k's key, drawn in sample order: draw_key's, redrawn while
 * it names a stress distribution where the last sample of a fixed count
 * must be a timing one (scramble.h evs_force_timing), so that the parent
 * and the checker, which read the distribution from the key alone, agree. */
static uint64_t timed_key(struct cw *w, long long k)
{
	int force = evs_force_timing(k, w->job->k.samples, w->keys_timing), timing;
	uint64_t key;
	do {
		key = draw_key();
		timing = evs_dist_timing(evs_sample_dist(key, w->n_dists, w->timing_dists), w->n_dists,
					 w->timing_dists);
	} while (force && !timing);
	w->keys_timing += timing;
	return key;
}

/* The pool's draw of timed sample k's key, ahead of the sample, in
 * sample order under the pool's lock (fresh.h): the same draw. */
static uint64_t pool_draw(void *ctx, long long k)
{
	return timed_key(ctx, k);
}

/* With fresh inputs a timed sample's key is the one its set was filled
 * under: taken from the pool here (in order), uploaded by fresh_inputs. */
static uint64_t sample_key(void *ctx, int index)
{
	struct cw *w = ctx;
	long long k = w->warm_over ? index - w->warm_samples : -1;
	if (k < 0)
		return draw_key();
	if (!w->fresh)
		return timed_key(w, k);
	w->cur = fresh_pool_take(&w->pool);
	if (!w->cur)
		return random_secret_u64() | 1; /* fresh_inputs says why */
	if (w->cur->k != k) {
		/* the harness asks for every sample in order; anything else
		 * would pair a key with another sample's inputs */
		fresh_pool_put(&w->pool, w->cur);
		w->cur = NULL;
		return random_secret_u64() | 1;
	}
	return w->cur->key;
}

/* Upload the current timed sample's fresh set into the set its launch
 * reads (evident_cuda.h fresh_inputs: stream mode, one launch). */
static int fresh_inputs(void *ctx, int index, uint64_t key, int j, void *const *d_inputs, char *err, size_t errlen)
{
	struct cw *w = ctx;
	(void)index;
	if (!w->cur || w->cur->key != key || j != 0) {
		snprintf(err, errlen, "%s",
			 w->pool.failed ? w->pool.why
					: "fresh inputs: the sample's set is not the one its key was drawn for "
					  "(an internal error)");
		w->fresh_failed = 1;
		return -1;
	}
	double t0 = mono_now();
	int rc = 0;
	for (int t = 0; t < w->n_in && !rc; t++)
		rc = w->api->upload(w->ctx, d_inputs[t], w->cur->data[t], w->pool.bytes[t], err, errlen);
	w->upload_s += mono_now() - t0;
	fresh_pool_put(&w->pool, w->cur);
	w->cur = NULL;
	return rc;
}

/* Host threads for the fresh fills: the CPUs this worker may use, less
 * one for the thread that drives the GPU (fresh_pool_size caps them). */
static int fill_threads(void)
{
	cpu_set_t cs;
	int n = sched_getaffinity(0, sizeof(cs), &cs) == 0 ? CPU_COUNT(&cs) : 2;
	return n - 1 < 1 ? 1 : n - 1;
}

static int timing(struct cw *w)
{
	const struct job *job = w->job;
	int rc;
	/* the base sets, a pair per input distribution of the problem
	 * (scramble.h, evs_sample_dist: the timed samples meet them all),
	 * and the live sets the launches read, rewritten from a pair every
	 * sample */
	int n_dists = w->pr.desc->n_dists > 0 ? w->pr.desc->n_dists : 1;
	w->n_base = 2 * n_dists;
	w->base = xcalloc((size_t)w->n_base * (size_t)w->n_in, sizeof(void *));
	size_t in_bytes[4];
	int in_elem[4];
	for (int t = 0; t < w->n_in; t++) {
		in_bytes[t] = w->in_n[t] * dtype_size(w->dtype);
		in_elem[t] = (int)dtype_size(w->dtype);
	}
	for (int s = 0; s < w->n_base; s++) {
		problem_fill_rounded(&w->pr, job->shape, s / 2, job->timing_seed + (unsigned long long)s, w->dtype,
				     w->h_in);
		for (int t = 0; t < w->n_in; t++) {
			void **b = &w->base[(size_t)s * w->n_in + t];
			if ((rc = w->api->alloc(w->ctx, w->dtype, w->in_n[t], b, w->err, sizeof(w->err))) ||
			    (rc = w->api->upload_floats(w->ctx, *b, w->dtype, w->h_in[t], w->in_n[t], w->err,
							sizeof(w->err))))
				return fail_cuda(w, rc, "upload");
		}
	}
	/* every live set starts as a base (each is rewritten before it is read) */
	for (int s = 0; s < w->n_sets; s++)
		for (int t = 0; t < w->n_in; t++)
			if ((rc = w->api->copy(w->ctx, w->sets[(size_t)s * w->n_in + t],
					       w->base[(size_t)(s % w->n_base) * w->n_in + t], in_bytes[t], w->err,
					       sizeof(w->err))))
				return fail_cuda(w, rc, "upload");
	point(w, 0, 0);
	struct evc_timing_opts o;
	struct evc_timing_result res;
	memset(&o, 0, sizeof(o));
	o.cold = !strcmp(knob_values_cache[job->k.cache], "cold");
	o.batch = w->batch;
	o.n_sets = w->n_sets;
	o.n_inputs = w->n_in;
	o.set_inputs = w->sets;
	o.first_set = job->first_set;
	o.n_outputs = w->n_out;
	o.outputs = w->outs;
	o.output_bytes = w->out_bytes;
	o.scramble_seed = job->scramble_seed;
	const char *clock = knob_values_clock[job->k.clock];
	/* phase "sanitize" (the main job's sequence under compute-sanitizer,
	 * its times thrown away): CUDA events only, CUPTI never begun (CUPTI
	 * and the sanitizer are both clients of the driver's tools interface;
	 * the events see the same launches) */
	int sanitize = !strcmp(job->phase, "sanitize");
	o.clock = sanitize || !strcmp(clock, "events") ? EVC_CLOCK_EVENTS
		  : !strcmp(clock, "cupti")	       ? EVC_CLOCK_CUPTI
						       : EVC_CLOCK_AUTO;
	o.block = 1;
	/* the launch's host code runs here (trust: host): CUPTI watches it
	 * whatever the clock (evident_cuda.h, red team 40); not under the
	 * sanitizer, which judges the run, not its times */
	o.watch = !sanitize && strcmp(job->exec, "sealed") != 0;
	o.max_seconds = job->k.warmup_ms * 2e-3 + job->k.max_seconds + 30;
	o.on_sample = on_sample;
	o.cb_ctx = w;
	o.base_inputs = w->base;
	o.n_base = w->n_base;
	o.input_bytes = in_bytes;
	o.input_elem = in_elem;
	o.sample_key = sample_key;
	o.n_dists = n_dists;
	o.timing_dists = problem_timing_dists(&w->pr);
	w->n_dists = n_dists;
	w->timing_dists = o.timing_dists;
	/* the problem's folds: elements a distribution relates share their
	 * mixing bit (red team 8, rt8_mix_cancel), on the device as in the
	 * checker */
	uint64_t *fold = xcalloc((size_t)n_dists * (size_t)(w->n_in > 0 ? w->n_in : 1) * 3, sizeof(uint64_t));
	for (int d = 0; d < n_dists; d++)
		for (int t = 0; t < w->n_in; t++)
			if (problem_mix_fold(&w->pr, job->shape, d, t, fold + ((size_t)d * w->n_in + t) * 3) < 0) {
				char *r = xstrfmt("the problem's mix_fold for distribution %d, input %d names no "
						  "dimension of the input, or a modulus outside 1 .. its extent",
						  d, t);
				proto_w_failure("init_failed", "problem", r, "timing");
				free(r);
				free(fold);
				return 1;
			}
	o.mix_fold = fold;
	/* stream mode: every timed sample's inputs fresh, filled ahead on a
	 * few threads, at most 8 sets and 2 GiB in flight (fresh.h); started
	 * before time_kernel counts the process's threads, stopped after */
	w->fresh = fresh_job_timed(job) && w->batch == 1;
	int nt = 0, ns = 0;
	if (w->fresh) {
		size_t set_bytes = 0, float_bytes = 0;
		for (int t = 0; t < w->n_in; t++) {
			set_bytes += in_bytes[t];
			float_bytes += w->in_n[t] * sizeof(float);
		}
		fresh_pool_size(set_bytes, float_bytes, w->dtype == EV_F32, fill_threads(), (size_t)2 << 30, &nt, &ns);
		if (fresh_pool_start(&w->pool, &w->pr, job->shape, w->dtype, nt, ns, pool_draw, w) < 0) {
			fresh_pool_stop(&w->pool);
			free(fold);
			proto_w_failure("init_failed", "fresh_inputs",
					"cannot start the fresh-input fill threads or their buffers", "timing");
			return 1;
		}
		o.fresh_inputs = fresh_inputs;
	}
	w->warm_t0 = mono_now();
	rc = w->api->time_kernel(w->ctx, w->desc, &w->l, &o, &res, w->err, sizeof(w->err));
	free(fold);
	long long fresh_taken = w->pool.taken;
	double fill_cpu_s = w->pool.fill_cpu_s, wait_s = w->pool.wait_s;
	if (w->fresh) {
		if (w->cur)
			fresh_pool_put(&w->pool, w->cur);
		w->cur = NULL;
		fresh_pool_stop(&w->pool);
	}
	if (rc && w->fresh_failed) {
		proto_w_failure("init_failed", "fresh_inputs", w->err, "timing");
		return 1;
	}
	if (rc == -1 && !w->err[0])
		snprintf(w->err, sizeof(w->err), "the sample callback stopped the timing");
	if (rc)
		return rc == -1 ? (proto_w_failure("crashed", "timing", w->err, "timing"), 1) : fail_cuda(w, rc, "timing");
	if (!sanitize && !strcmp(clock, "cupti") && !res.cupti_loaded) {
		proto_w_failure("init_failed", "cupti", res.cupti_why, "timing");
		return 1;
	}
	json_t *nodes = json_array();
	for (int g = 0; g < res.n_graphs && g < EVC_MAX_GRAPHS; g++)
		json_array_append_new(nodes, json_pack("{s:i, s:i}", "nodes", res.graph_nodes[g], "kernel_nodes",
						       res.graph_kernel_nodes[g]));
	json_t *method = json_pack("{s:s, s:s, s:f, s:I, s:I, s:f, s:s, s:s, s:i, s:I, s:i, s:b, s:s, s:I, s:b, s:i,"
				   " s:o, s:i, s:f, s:b, s:b}",
				   "clock", res.clock == EVC_CLOCK_CUPTI ? "cupti" : "cuda_events", "cache",
				   o.cold ? "cold" : "hot", "warmup_ms", job->k.warmup_ms, "warmup_samples",
				   (json_int_t)res.warmup_samples, "warmup_launches", (json_int_t)res.warmup_launches,
				   "sampling_seconds", res.sampling_seconds, "mode",
				   job->k.samples > 0 ? "fixed" : "adaptive", "launch", res.graph ? "graph" : "stream",
				   "batch", res.batch, "l2_flush_bytes", (json_int_t)res.l2_flush_bytes, "input_sets",
				   w->n_sets, "cupti", res.cupti_loaded, "cupti_detail", res.cupti_why, "cupti_dropped",
				   (json_int_t)res.cupti_dropped, "blocking_kernel", res.block, "block_timeouts",
				   res.block_timeouts, "graphs", nodes, "samples_requested", job->k.samples, "stdrel",
				   sampler_stdrel(&w->sm), "converged", w->sm.converged, "capped",
				   w->sm.capped || res.capped);
	/* what the kernel clock measures: since 2026-11-29 the window of the
	 * launch's device work (harness.cu); records without the key summed
	 * the durations, which a launch of several kernels reads lower */
	if (res.clock == EVC_CLOCK_CUPTI)
		json_object_set_new(method, "kernel_clock", json_string("window"));
	/* what the timed samples read (fresh.h) */
	json_object_set_new(method, "inputs", json_string(w->fresh ? "fresh" : "mixed"));
	if (w->fresh) {
		double n = fresh_taken > 0 ? (double)fresh_taken : 1;
		json_object_set_new(
			method, "fresh_inputs",
			json_pack("{s:s, s:i, s:i, s:I, s:f, s:f, s:f}", "how",
				  "every timed sample's inputs are the problem's fill of the sample's distribution "
				  "under a seed of its own, both from the sample's key (fresh.h), filled ahead on "
				  "host threads and uploaded before the sample; the warm-up mixes two base sets a "
				  "distribution on the device",
				  "fill_threads", nt, "sets_in_flight", ns, "sets", (json_int_t)fresh_taken,
				  "fill_cpu_s_per_sample", fill_cpu_s / n, "upload_s_per_sample", w->upload_s / n,
				  "wait_s_per_sample", wait_s / n));
	} else {
		json_object_set_new(method, "mixed_inputs",
				    json_string("graph mode: each launch's inputs mix, element by element under the "
						"sample's key, two base sets of the sample's distribution filled once a "
						"worker (scramble.h evs_mix_bit): a finite codebook a kernel can learn "
						"(docs/redteam16-cuda.md)"));
	}
	if (res.graph)
		json_object_set_new(method, "per_launch",
				    json_string("each sample is one replay of a CUDA graph of `batch` launches on "
						"rotating input sets, divided by batch; every launch's output is checked "
						"when the sample is"));
	proto_w_send("timing", json_pack("{s:i, s:o}", "n", res.n, "method", method));
	return 0;
}

/* A kernel whose device code launches grids (what, the entry that does)
 * is not timed on the kernel clock: the failure message that says so. */
static void refuse_device_launch(const char *what)
{
	char *r = xstrfmt("the kernel's device code launches grids from the device ('%s': dynamic parallelism); the "
			  "kernel clock (CUPTI) has no record of them, so it would time less than ran: time it with "
			  "`timing: {clock: events}`, which counts them",
			  what);
	proto_w_failure("launch_failed", "device_launch", r, "load");
	free(r);
}

static int send_global_names(struct cw *w, const void *const *imgs, const size_t *img_bytes, int n,
			     const char *phase);

/*
 * The sealed path's device code: imgs[0..*n) reduced in place to the
 * cubins this GPU runs without the driver's JIT compiler
 * (seal_fatbin_machine_code), into *data (the caller frees it), *n their
 * count.  0, or 1 after the failure message in phase `phase` when the
 * object holds none (red team 58: a PTX-only object, compiled by the
 * driver, named no module global, and the replay dropped what init()
 * wrote there).
 */
static int machine_code(struct cw *w, const void **imgs, size_t *img_bytes, int *n, unsigned char **data,
			const char *phase)
{
	char held[512];
	int k = seal_fatbin_machine_code(imgs, img_bytes, *n, w->cc_major, w->cc_minor, data, imgs, img_bytes, held,
					 sizeof(held));
	if (k > 0) {
		*n = k;
		return 0;
	}
	char *r = k < 0 ? xstrfmt("its object holds device code a sealed worker would not load though the CUDA runtime "
				  "could run it (%s): the replay would run other code than the kernel's process does "
				  "(red team 72); build plain SASS for sm_%d%d (no -Xfatbin compression, no images of "
				  "its own) or declare trust: host",
				  held[0] ? held : "an entry it cannot read", w->cc_major, w->cc_minor)
			: xstrfmt("its object holds no machine code for sm_%d%d, this GPU's (it holds %s): the driver "
			  "would compile PTX where the sealed plan cannot see its module globals, so what init() "
			  "wrote there would be lost; build SASS for sm_%d%d (the backend's default -arch, without "
			  "the spec's -arch/-code flags) or declare trust: host",
			  w->cc_major, w->cc_minor, held[0] ? held : "no device code", w->cc_major, w->cc_minor);
	proto_w_failure("launch_failed", "sealed", r, phase);
	free(r);
	return 1;
}

/*
 * The sealed worker's kernel: the plan the parent handed over at
 * SEAL_PLAN_FD, checked (seal.h), replayed from the object's device code,
 * which is read as data: no host code of the kernel object runs here.
 * NULL after a failure message.  sp, *fat and *readable (the images as
 * loaded) stay alive with the kernel, and so does *machine (the cubins of
 * the device, machine_code); the caller frees *fat, *machine and *readable.
 */
static const struct ev_kernel_desc *sealed_kernel(struct cw *w, struct seal_plan *sp, unsigned char **fat,
						 unsigned char **machine, unsigned char **readable)
{
	char path[32], *why = NULL;
	json_error_t je;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", SEAL_PLAN_FD);
	json_t *pj = json_load_file(path, 0, &je);
	if (!pj) {
		char *r = xstrfmt("the sealed worker has no plan at fd %d: %s", SEAL_PLAN_FD, je.text);
		proto_w_failure("init_failed", "plan", r, "load");
		free(r);
		return NULL;
	}
	size_t in_bytes[4];
	for (int t = 0; t < w->n_in; t++)
		in_bytes[t] = w->in_n[t] * dtype_size(w->dtype);
	int bad = seal_plan_parse(pj, in_bytes, w->n_in, w->out_bytes, w->n_out, sp, &why);
	json_decref(pj);
	if (bad) {
		char *r = xstrfmt("the planner's plan is refused: %s", why);
		proto_w_failure("init_failed", "plan", r, "load");
		free(r);
		free(why);
		return NULL;
	}
	const void *imgs[16];
	size_t img_bytes[16];
	int n = seal_fatbin_images(w->job->kernel_so, fat, imgs, img_bytes, 16, &why);
	if (n < 0) {
		proto_w_failure("launch_failed", "fatbin", why, "load");
		free(why);
		return NULL;
	}
	/* grids launched from the device: the kernel clock has no record of
	 * them (red team 3, rt3_cdp_tail), the CUDA events do */
	const char *dl = NULL;
	if (w->job->timing && strcmp(knob_values_clock[w->job->k.clock], "events") &&
	    seal_fatbin_device_launch(imgs, img_bytes, n, &dl)) {
		refuse_device_launch(dl);
		return NULL;
	}
	/* the cubins this GPU runs, and nothing else: no PTX for the driver to
	 * compile (red team 58) */
	if (machine_code(w, imgs, img_bytes, &n, machine, "load"))
		return NULL;
	/* under the kernel clock, load only the entries the search above
	 * read: device code it could not read could launch grids that clock
	 * never sees (red team 4, rt4_cdp_packed: a compressed image it
	 * skipped and the driver loaded).  machine_code() hands over cubins
	 * it has read (decompressed), so none is dropped here; one that were
	 * would be a cubin the checks did not read, so the load is refused
	 * rather than noted (it was a note nobody could reach, review2).  The
	 * extra shape loads the same. */
	int dropped = 0;
	if (strcmp(knob_values_clock[w->job->k.clock], "events")) {
		n = seal_fatbin_readable(imgs, img_bytes, n, readable, imgs, img_bytes, &dropped);
		if (dropped) {
			char *r = xstrfmt("%d cubin(s) of the kernel object could not be read after its machine code "
					  "was chosen (compressed beyond libzstd/liblz4, or of an unknown kind): the "
					  "sealed worker loads only device code its checks have read",
					  dropped);
			proto_w_failure("launch_failed", "sealed", r, "load");
			free(r);
			return NULL;
		}
	}
	/* device code that calls the malloc heap: what init() or the warm-up
	 * left there outlives their launches, and this fresh context's heap
	 * holds none of it (red team 163's heap); the planner cannot read it */
	const char *heap = NULL;
	if (seal_fatbin_device_heap(imgs, img_bytes, n, &heap)) {
		char *r = xstrfmt("the kernel's device code calls the device heap ('%s': in-kernel malloc, free, new "
				  "or delete), whose blocks keep what init() or an earlier launch left in them; a "
				  "sealed replay runs in a fresh context whose heap holds none of it, and no plan can "
				  "carry it: run the variant with trust: host",
				  heap);
		proto_w_failure("launch_failed", "sealed", r, "load");
		free(r);
		return NULL;
	}
	/* the globals the loaded code defines, for the load's managed check */
	if (send_global_names(w, imgs, img_bytes, n, "load"))
		return NULL;
	const struct ev_kernel_desc *d = NULL;
	int rc = w->api->plan_load(w->ctx, imgs, img_bytes, n, &sp->plan, &d, w->err, sizeof(w->err));
	if (rc == -1) {
		proto_w_failure("launch_failed", "sealed", w->err, "load");
		return NULL;
	} else if (rc) {
		fail_cuda(w, rc, "load");
		return NULL;
	}
	proto_w_send("kernel", json_pack("{s:s, s:s, s:i, s:b, s:i}", "name", sp->kernel_name, "compiled_params",
					 sp->compiled_params, "threads", worker_thread_count(), "sealed", 1,
					 "plan_steps", sp->plan.n_steps));
	return d;
}

/*
 * The names of the module globals in the device code imgs[0..n) (read
 * from its cubins' symbol tables: seal_fatbin_globals), handed to the
 * harness (plan_globals): the planner's capture carries them (red team 3,
 * rt3_init_symbol), and the timing worker's load refuses one that is
 * managed memory (red team 47).  0, or 1 after a failure message in
 * phase `phase`: more names than a plan reads, or a name it cannot carry
 * (red team 47's longname: a global init() wrote, dropped without a word).
 */
#define PLAN_MAX_GLOBAL_NAMES 4096
static int send_global_names(struct cw *w, const void *const *imgs, const size_t *img_bytes, int n,
			     const char *phase)
{
	char **names = NULL, *refused = NULL;
	int unreadable = 0, rc = 0;
	int nn = seal_fatbin_globals(imgs, img_bytes, n, &names, PLAN_MAX_GLOBAL_NAMES, &unreadable, &refused);
	if (nn < 0 || refused) {
		char *r = nn < 0 ? xstrfmt("the kernel object's device code names more than %d module globals, more "
					   "than a sealed plan reads: run the variant with trust: host",
					   PLAN_MAX_GLOBAL_NAMES)
				 : xstrfmt("the kernel object's device code has module global %s, a name a sealed plan "
					   "cannot carry (1 to %d characters of A-Z, a-z, 0-9, _, $ and .), so what "
					   "init() writes there would be lost: give it a shorter name, or run the "
					   "variant with trust: host",
					   refused, EVC_PLAN_MAX_GLOBAL_NAME);
		proto_w_failure("launch_failed", "sealed", r, phase);
		free(r);
		free(refused);
		seal_names_free(names, nn);
		return 1;
	}
	if (unreadable)
		fprintf(stderr, "evident worker: %d cubins of the kernel object are unreadable here (compressed "
				"beyond libzstd/liblz4): module globals their init() writes are not carried\n",
			unreadable);
	if (w->api->plan_globals(w->ctx, (const char *const *)names, nn, w->err, sizeof(w->err))) {
		proto_w_failure("launch_failed", "sealed", w->err, phase);
		rc = 1;
	}
	seal_names_free(names, nn);
	return rc;
}

/*
 * The cubin sections that hold those globals (seal_fatbin_sections), to
 * the planner's capture (plan_sections), which refuses a plan when init()
 * changed a byte of one that no named global covers (red team 60: the
 * padding between two aligned globals, which the plan does not carry).
 * 0, or 1 after a failure message.
 */
#define PLAN_MAX_SECTIONS 256
static int send_global_sections(struct cw *w, const void *const *imgs, const size_t *img_bytes, int n)
{
	struct evc_section *secs = NULL;
	uint64_t gap_over = 0;
	int ns = seal_fatbin_sections(imgs, img_bytes, n, &secs, PLAN_MAX_SECTIONS, &gap_over), rc = 0;
	if (ns >= 0 && gap_over) {
		char *r = xstrfmt("a section of the kernel object's module globals has %llu bytes that no named "
				  "global covers (padding between aligned globals), more than the %llu a sealed "
				  "planner checks for what init() leaves there: run the variant with trust: host",
				  (unsigned long long)gap_over, (unsigned long long)EVC_SECTION_MAX_GAP_BYTES);
		proto_w_failure("launch_failed", "sealed", r, "plan");
		free(r);
		seal_sections_free(secs, ns);
		return 1;
	}
	if (ns < 0) {
		char *r = xstrfmt("the kernel object's device code has more than %d sections of module globals, "
				  "more than a sealed plan checks: run the variant with trust: host",
				  PLAN_MAX_SECTIONS);
		proto_w_failure("launch_failed", "sealed", r, "plan");
		free(r);
		seal_sections_free(secs, -1 - ns);
		return 1;
	}
	if (w->api->plan_sections(w->ctx, secs, ns, w->err, sizeof(w->err))) {
		proto_w_failure("launch_failed", "sealed", w->err, "plan");
		rc = 1;
	}
	seal_sections_free(secs, ns);
	return rc;
}

/* The planner's, before any code of the kernel's runs: the object must
 * hold machine code for this GPU (machine_code: the driver then runs a
 * cubin whose globals are named, and the replay loads it alone), and its
 * module globals, named from those cubins, go to the capture to carry
 * (send_global_names).  An object whose images cannot be read gives none
 * here (the worker then says why it cannot load them).  0, or 1 after a
 * failure message. */
static int plan_global_names(struct cw *w)
{
	const void *imgs[16];
	size_t img_bytes[16];
	unsigned char *fat = NULL, *mc = NULL;
	char *why = NULL;
	int n = seal_fatbin_images(w->job->kernel_so, &fat, imgs, img_bytes, 16, &why);
	free(why);
	if (n < 0) {
		free(fat);
		return 0;
	}
	const void *file[16];
	size_t file_bytes[16];
	int n_file = n;
	memcpy(file, imgs, sizeof(file));
	memcpy(file_bytes, img_bytes, sizeof(file_bytes));
	int rc = machine_code(w, imgs, img_bytes, &n, &mc, "plan") || send_global_names(w, imgs, img_bytes, n, "plan") ||
		 send_global_sections(w, imgs, img_bytes, n);
	/* what the worker will load, for the watch over the modules this
	 * process loads (modwatch.h), digested before any kernel code runs */
	if (!rc)
		modwatch_file(w->mw, file, file_bytes, n_file, imgs, img_bytes, n);
	free(mc);
	free(fat);
	return rc;
}

_Static_assert(PROTO_PLAN_DATA_MAX == EVC_PLAN_MAX_CONTENTS, "the plan_data frame carries a plan's contents");

/*
 * Take the plan's "contents" (lower-case hex, seal.cu) out of pj into
 * *data (malloc'd, the caller frees; NULL and 0 when there are none) for
 * the plan_data frame.  0, or -1 when they are not hex bytes of at most
 * PROTO_PLAN_DATA_MAX (pj then keeps them).
 */
static int plan_contents_take(json_t *pj, unsigned char **data, size_t *bytes)
{
	json_t *c = json_object_get(pj, "contents");
	*data = NULL;
	*bytes = 0;
	if (!c)
		return 0;
	const char *hx = json_string_value(c);
	size_t n = json_string_length(c);
	if (!hx || !n || n % 2 || n / 2 > PROTO_PLAN_DATA_MAX)
		return -1;
	unsigned char *d = xmalloc(n / 2);
	if (hex_decode(hx, n / 2, d) < 0) {
		free(d);
		return -1;
	}
	json_object_del(pj, "contents");
	*data = d;
	*bytes = n / 2;
	return 0;
}

/*
 * The planner's watch over the modules its process loaded (modwatch.h,
 * red team 74's reg_slow): every one that defines a function of plan pj
 * must be device code the sealed worker loads.  What it compared goes to
 * stderr (the planner's log, in the record's worker log).  0, or 1 after
 * the failure message (launch_failed, error "modules").
 */
static int plan_modules(struct cw *w, json_t *pj, const char *when)
{
	if (!w->mw_on)
		return 0;
	json_t *steps = json_object_get(pj, "steps");
	size_t ns = json_array_size(steps);
	const char **names = xcalloc(ns ? ns : 1, sizeof(char *));
	int nn = 0;
	for (size_t i = 0; i < ns; i++) {
		json_t *s = json_array_get(steps, i);
		const char *kind = json_string_value(json_object_get(s, "kind")),
			   *name = json_string_value(json_object_get(s, "name"));
		if (kind && !strcmp(kind, "kernel") && name)
			names[nn++] = name;
	}
	struct strbuf log = STRBUF_INIT;
	char *why = NULL;
	int rc = modwatch_check(w->mw, names, nn, when, &log, &why);
	/* said, not judged: code in this process that turned the callback
	 * off could as well turn it on again (red team 71's class) */
	int on = w->api->modules_watched(w->ctx);
	strbuf_addf(&log, "modwatch (%s): the harness's module callback is %s\n", when,
		    on > 0 ? "on" : on == 0 ? "OFF (turned off in this process)" : "in a state CUPTI does not say");
	fprintf(stderr, "%s", strbuf_str(&log));
	strbuf_release(&log);
	free(names);
	if (rc) {
		proto_w_failure("launch_failed", "modules", why, "plan");
		free(why);
	}
	return rc;
}

/* The planner: launch() captured and sent as a plan; with seeds (the
 * main phase's), launch() run as is on them first, its outputs shipped. */
static int plan_phase(struct cw *w)
{
	char *text = NULL;
	int rc = w->api->plan_capture(w->ctx, w->desc, &w->l, &text, w->err, sizeof(w->err));
	if (rc == -1) {
		proto_w_failure("launch_failed", "sealed", w->err, "plan");
		return 1;
	} else if (rc && w->api->kind(rc) == EVC_OTHER) {
		/* an error of the capture's own reading of the graph, not a fault
		 * of the kernel's (red team 4, rt4_pdl: CUDA_ERROR_LOSSY_QUERY was
		 * recorded as the honest kernel's crash) */
		proto_w_failure("launch_failed", w->api->error_name(rc), w->err, "plan");
		return 1;
	} else if (rc) {
		return fail_cuda(w, rc, "plan");
	}
	json_error_t je;
	json_t *pj = json_loads(text, 0, &je);
	free(text);
	if (!pj) {
		proto_w_failure("crashed", "plan", "the harness wrote a plan that is not JSON", "plan");
		return 1;
	}
	/* the modules the capture loaded: the device code the worker loads */
	if (plan_modules(w, pj, "after the capture")) {
		json_decref(pj);
		return 1;
	}
	/* the contents travel beside the line (protocol.h proto_w_plan_data) */
	unsigned char *data = NULL;
	size_t data_bytes = 0;
	if (plan_contents_take(pj, &data, &data_bytes)) {
		json_decref(pj);
		proto_w_failure("crashed", "plan", "the harness wrote plan contents that are not hex bytes", "plan");
		return 1;
	}
	json_t *msg = json_pack("{s:o}", "plan", pj);
	size_t line = proto_w_line_bytes("plan", msg);
	if (!line || line > PROTO_LINE_MAX) {
		char why[256];
		snprintf(why, sizeof(why),
			 "the plan is %zu bytes, over the %u a message may carry: what init() left in the "
			 "launch's memory and globals, or its parameters, are too large for a sealed replay: run the "
			 "variant with trust: host",
			 line, PROTO_LINE_MAX);
		json_decref(msg);
		free(data);
		proto_w_failure("launch_failed", "sealed", why, "plan");
		return 1;
	}
	/* the main phase's planner then runs launch() as is, uncaptured, on
	 * seeds of its own, and ships what it computed for the parent's
	 * checker (kexec.c sealed_prepare): a plan is a record of what
	 * launch() enqueues on its stream, and work it runs elsewhere (a
	 * stream of its own, with CUPTI's records switched off around it:
	 * red team 67's cupti_off, ok at 8.77 us sealed) is in no plan; what
	 * that work does to the outputs is judged here.  After the capture:
	 * a refusal of the plan comes before any seed output */
	if (w->job->seeds > 0 && (rc = correctness(w))) {
		json_decref(msg);
		free(data);
		return rc;
	}
	/* and what the seeds' launches loaded besides */
	if (w->job->seeds > 0 && plan_modules(w, pj, "after the seeds")) {
		json_decref(msg);
		free(data);
		return 1;
	}
	if (data_bytes)
		proto_w_plan_data(data, data_bytes);
	free(data);
	proto_w_send("plan", msg);
	return 0;
}

/*
 * A trust: host kernel timed on the kernel clock: its object's device code
 * must not launch grids from the device, which that clock has no record
 * of (red team 41: a tail or fire-and-forget child grid summing part of
 * the rows, its parent alone timed, fits under clock_disagree's 8 us + 5%
 * bound for a small kernel).  The sealed worker refuses the same
 * (sealed_kernel); here the kernel's host code loads its device code
 * itself, so what it loads other than its object's fatbin (an image
 * held as data) is beyond this check, and clock_disagree remains the
 * bound there.  0, or 1 after the failure message.
 */
static int host_kernel_device_launch(struct cw *w)
{
	const struct job *job = w->job;
	if (!job->timing || !strcmp(knob_values_clock[job->k.clock], "events") || !job->kernel_so)
		return 0;
	unsigned char *fat = NULL;
	char *why = NULL;
	const void *imgs[16];
	size_t img_bytes[16];
	int n = seal_fatbin_images(job->kernel_so, &fat, imgs, img_bytes, 16, &why);
	free(why);
	const char *dl = NULL;
	int found = n > 0 && seal_fatbin_device_launch(imgs, img_bytes, n, &dl);
	if (found) {
		refuse_device_launch(dl);
	}
	free(fat);
	return found;
}

int cuda_worker(const struct job *job)
{
	struct cw w;
	struct evc_device_info di;
	struct strbuf why = STRBUF_INIT;
	char *hpath = NULL;
	int rc = 1, sealed = !strcmp(job->exec, "sealed");
	struct seal_plan sp;
	unsigned char *fat = NULL, *machine = NULL, *readable = NULL;

	memset(&sp, 0, sizeof(sp));
	static struct modwatch planner_mw;
	memset(&w, 0, sizeof(w));
	modwatch_init(&planner_mw);
	w.mw = &planner_mw;
	w.job = job;
	w.pr = (struct problem)PROBLEM_INIT;
	if (proto_w_open() < 0)
		return 2;
	/* first: what its box is, before any object but the worker's loads */
	proto_w_send("hello", json_pack("{s:i, s:i, s:o}", "protocol", PROTOCOL_VERSION, "pid", (int)getpid(), "box",
					worker_box_seen(strcmp(job->phase, "sanitize") != 0)));
	/* and nothing more until the parent has judged that box (protocol.h) */
	if (proto_w_wait_go() < 0)
		return 2;
	w.api = harness(&hpath, w.err, sizeof(w.err));
	if (!w.api) {
		proto_w_send("device", json_pack("{s:s}", "backend", "cuda"));
		proto_w_failure(strstr(w.err, "libcuda") ? "no_device" : "init_failed", "harness", w.err, "load");
		return 1;
	}
	rc = w.api->open(job->device, &w.ctx, &di, w.err, sizeof(w.err));
	if (rc) {
		proto_w_send("device", json_pack("{s:s}", "backend", "cuda"));
		rc = fail_cuda(&w, rc, "open");
		goto out;
	}
	proto_w_send("device", json_pack("{s:o}", "info", device_json(&di, hpath)));
	snprintf(w.uuid, sizeof(w.uuid), "%s", di.uuid);
	w.cc_major = di.cc_major;
	w.cc_minor = di.cc_minor;
	w.nvml_index = -2;
	/* the driver is up (cuInit read CUDA_VISIBLE_DEVICES at open) and no
	 * kernel code is loaded yet: from here no other program may take this
	 * process's place (the harness's later dlopen of libcupti, and NVML's,
	 * run no program: the strict box has refused them new processes all
	 * along) */
	if (worker_no_exec(0) < 0) {
		rc = 1;
		goto out;
	}
	if (problem_open_so(job->problem_so, job->problem, &w.pr, &why) < 0) {
		proto_w_failure("init_failed", "problem", why.buf, "load");
		goto out;
	}
	w.dtype = worker_dtype(job);
	w.n_in = w.pr.n_inputs;
	w.n_out = w.pr.n_outputs;
	w.batch = job->timing && job->k.batch > 1 ? job->k.batch : 1;
	w.n_sets = job->timing ? job->n_sets : 1;
	for (int t = 0; t < w.n_in; t++)
		w.in_n[t] = problem_tensor_numel(&w.pr, t, job->shape);
	for (int o = 0; o < w.n_out; o++) {
		w.out_bytes[o] = problem_tensor_numel(&w.pr, w.n_in + o, job->shape) * dtype_size(w.dtype);
		w.launch_bytes += w.out_bytes[o];
	}
	/* the harness thread takes no signal outside the kernel's own calls
	 * (sigseal.h): blocked before its object's constructors run, and
	 * again after them */
	sigseal_block_all();
	/* the planner's device code and global names, before its host code
	 * loads: a sealed kernel must hold machine code for this GPU */
	if (!sealed && !strcmp(job->phase, "plan") && plan_global_names(&w))
		goto out;
	/* the planner watches the modules its process loads from here on,
	 * before the kernel object's constructors run (modwatch.h) */
	if (!sealed && !strcmp(job->phase, "plan")) {
		if (job->modwatch_off)
			fprintf(stderr, "modwatch: off (the runner's environment has EVIDENT_MODWATCH=off)\n");
		else if (w.api->watch_modules(w.ctx, modwatch_loaded, w.mw, w.err, sizeof(w.err)))
			fprintf(stderr, "modwatch: off: %s\n", w.err);
		else
			w.mw_on = 1;
		w.err[0] = 0;
	}
	w.desc = sealed			     ? sealed_kernel(&w, &sp, &fat, &machine, &readable)
		 : host_kernel_device_launch(&w) ? NULL
						 : worker_load_kernel(job, "cuda");
	sigseal_block_all();
	if (!w.desc)
		goto out;
	worker_launch_setup(&w.l, &w.pr, job, job->shape, w.dtype);
	w.l.stream = w.api->stream(w.ctx);
	if ((rc = alloc_all(&w)))
		goto out;
	point(&w, 0, 0);
	rc = w.api->kernel_init(w.ctx, w.desc, &w.l, w.err, sizeof(w.err));
	if (rc == -1) {
		proto_w_failure("init_failed", "init", w.err, "init");
		rc = 1;
		goto out;
	} else if (rc) {
		rc = fail_cuda(&w, rc, "init");
		goto out;
	}
	if (!strcmp(job->phase, "plan")) {
		if ((rc = plan_phase(&w)))
			goto out;
	} else if ((rc = correctness(&w))) {
		goto out;
	}
	if (job->timing && (rc = timing(&w)))
		goto out;
	if (w.desc->fini)
		w.desc->fini(&w.l);
	proto_w_send("fini", NULL);
	proto_w_send("done", NULL);
	rc = 0;
out:
	if (w.api && w.ctx)
		w.api->close(w.ctx); /* clears every buffer before freeing it */
	for (int t = 0; t < 4; t++)
		free(w.h_in[t]);
	free(w.h_out);
	free(w.sets);
	free(w.outs);
	free(w.base);
	problem_release(&w.pr);
	strbuf_release(&why);
	seal_plan_release(&sp);
	free(fat);
	free(machine);
	free(readable);
	/* the harness and the problem stay loaded: CUDA's exit handlers may run in them */
	return rc;
}

/* ---- the reference, in the checker ---------------------------------------------- */

struct gpu_ref {
	const struct evc_api *api;
	struct evc_ctx *ctx;
	const struct ev_problem_gpu *gpu;
	char path[4096];
};

int cuda_reference(const struct job *job, const long long *shape, const float *const *inputs,
		   double *const *outputs, const char **method, char *err, size_t errlen)
{
	static struct gpu_ref g;
	if (!job->problem_gpu_so) {
		snprintf(err, errlen, "problem '%s' has no GPU reference built (problems/%s.cu)", job->problem,
			 job->problem);
		return 1; /* the checker falls back to the float64 CPU reference */
	}
	if (!g.api) {
		struct evc_device_info di;
		g.api = harness(NULL, err, errlen);
		if (!g.api)
			return -1;
		int rc = g.api->open(job->device, &g.ctx, &di, err, errlen);
		if (rc) {
			g.api = NULL;
			return -1;
		}
		void *h = dlopen(job->problem_gpu_so, RTLD_NOW | RTLD_LOCAL);
		ev_problem_gpu_fn fn = NULL;
		if (h)
			*(void **)&fn = dlsym(h, EVIDENT_PROBLEM_GPU_SYMBOL);
		g.gpu = fn ? fn() : NULL;
		if (!g.gpu || g.gpu->abi_version != EVIDENT_PROBLEM_ABI_VERSION || !g.gpu->reference) {
			snprintf(err, errlen, "cannot load the GPU reference '%s': %s", job->problem_gpu_so,
				 h ? "no valid evident_problem_gpu()" : dlerror());
			return -1;
		}
	}
	struct problem pr = PROBLEM_INIT;
	struct strbuf why = STRBUF_INIT;
	int rc = -1;
	void *d_in[4] = { 0 }, *d_out[2] = { 0 };
	size_t n_out[2] = { 0 }, h_n = 0;
	float *h = NULL;
	if (problem_open_so(job->problem_so, job->problem, &pr, &why) < 0) {
		snprintf(err, errlen, "%s", why.buf);
		goto out;
	}
	for (int t = 0; t < pr.n_inputs; t++) {
		size_t n = problem_tensor_numel(&pr, t, shape);
		int e = g.api->alloc(g.ctx, EV_F32, n, &d_in[t], err, errlen);
		if (!e)
			e = g.api->upload_floats(g.ctx, d_in[t], EV_F32, inputs[t], n, err, errlen);
		if (e)
			goto out;
	}
	for (int o = 0; o < pr.n_outputs; o++) {
		n_out[o] = problem_tensor_numel(&pr, pr.n_inputs + o, shape);
		if (g.api->alloc(g.ctx, EV_F32, n_out[o], &d_out[o], err, errlen))
			goto out;
	}
	double scalar = pr.desc->scalar ? pr.desc->scalar(shape) : 0;
	if (g.gpu->reference(shape, scalar, (const float *const *)d_in, (float *const *)d_out,
			     g.api->stream(g.ctx), err, errlen))
		goto out;
	/* one host copy for every output (a realloc could free a reference
	 * uncleared), cleared before it is freed below */
	for (int o = 0; o < pr.n_outputs; o++)
		h_n = n_out[o] > h_n ? n_out[o] : h_n;
	h = xmalloc(h_n * sizeof(float));
	for (int o = 0; o < pr.n_outputs; o++) {
		if (g.api->download(g.ctx, h, d_out[o], n_out[o] * sizeof(float), err, errlen))
			goto out;
		for (size_t i = 0; i < n_out[o]; i++)
			outputs[o][i] = h[i];
	}
	*method = g.gpu->method ? g.gpu->method : "the problem's GPU reference";
	rc = 0;
out:
	for (int t = 0; t < 4; t++)
		if (d_in[t])
			g.api->free_buffer(g.ctx, d_in[t]);
	for (int o = 0; o < 2; o++)
		if (d_out[o])
			g.api->free_buffer(g.ctx, d_out[o]);
	clear_free(h, h_n * sizeof(float));
	problem_release(&pr);
	strbuf_release(&why);
	return rc;
}
