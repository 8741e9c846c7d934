/*
 * plan.c - the plan of a batch (run_ctx.h): its one id, the variants and
 * their builds, the problem plug-in and the tolerance the checker will
 * apply, and the jobs - every variant once per repeat - in a seeded,
 * interleaved order (randomised blocks: each repeat is a fresh random
 * permutation of the variants, begun by the variant that ended the block
 * before it on its slot; with two variants a pair of repeats, four jobs,
 * so begun), so that drift over time (clocks, temperature, a
 * neighbour) is spread over the variants instead of being confounded with
 * one of them, and what one job leaves for the next falls on every
 * variant alike.
 */
#include "run/run_ctx.h"

#include "backends/cuda/evident_cuda.h"
#include "backends/peaks.h"
#include "run/provenance.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static uint64_t mix(uint64_t *st)
{
	uint64_t z = (*st += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int wanted(const struct run_options *o, const struct spec *s, const struct spec_variant *v)
{
	if (!o->only || !strcmp(v->name, s->baseline))
		return 1;
	for (size_t j = 0; o->only[j]; j++)
		if (!strcmp(o->only[j], v->name))
			return 1;
	return 0;
}

/* The tolerance: the problem's rule for the dtype, each field overridable. */
static void resolve_tolerance(struct run_ctx *c)
{
	struct plan *p = &c->plan;
	const struct spec *s = c->s;
	problem_tolerance(&p->problem, p->dtype, s->dims, &p->tol);
	p->tol_problem = p->tol;
	if (!isnan(s->k.atol))
		p->tol.atol = s->k.atol;
	if (!isnan(s->k.rtol))
		p->tol.rtol = s->k.rtol;
	if (!isnan(s->k.rel_l2))
		p->tol.rel_l2 = s->k.rel_l2;
}

/*
 * The problem's code for every record of the batch (record.h,
 * rec_problem.sources): the sources the plug-in's build hashed (the .c and
 * every header it includes from the repository), then those of the GPU
 * reference when one was built, each path once, with their bytes put into
 * the store so that `show --object` gives them back.  The bytes are read
 * again here; a file edited since the build hashed it gets no object (its
 * recorded hash stays the build's: the code that ran).  0, or -1 when the
 * store failed.
 */
static int problem_sources(struct run_ctx *c)
{
	struct plan *p = &c->plan;
	json_t *builds[] = { p->problem.build, p->problem.gpu_build };
	p->problem_sources = json_array();
	for (size_t b = 0; b < ARRAY_SIZE(builds); b++) {
		size_t i;
		json_t *e;
		json_array_foreach(json_object_get(builds[b], "sources"), i, e)
		{
			const char *path = json_string_value(json_object_get(e, "path"));
			const char *sha = json_string_value(json_object_get(e, "sha256"));
			int seen = 0;
			size_t k;
			json_t *x;
			json_array_foreach(p->problem_sources, k, x)
				seen |= path && !strcmp(json_string_value(json_object_get(x, "path")), path);
			if (!path || !sha || seen)
				continue;
			char hex[SHA256_HEX_LEN + 1] = "";
			struct strbuf body = STRBUF_INIT;
			int saved = util_quiet, got;
			util_quiet = 1;
			got = read_file(path, &body) == 0;
			util_quiet = saved;
			if (got && store_put(&c->st, strbuf_str(&body), body.len, hex) < 0) {
				strbuf_release(&body);
				return -1;
			}
			strbuf_release(&body);
			json_array_append_new(p->problem_sources,
					      json_pack("{s:s, s:s, s:s?}", "path", path, "sha256", sha, "object",
							got && !strcmp(hex, sha) ? hex : NULL));
		}
	}
	size_t n = json_array_size(p->problem_sources), i;
	json_t *e;
	p->problem_src = xcalloc(n + 1, sizeof(*p->problem_src));
	json_array_foreach(p->problem_sources, i, e)
	{
		p->problem_src[i].path = json_string_value(json_object_get(e, "path"));
		p->problem_src[i].sha256 = json_string_value(json_object_get(e, "sha256"));
		p->problem_src[i].object = json_string_value(json_object_get(e, "object"));
	}
	p->n_problem_src = n;
	return 0;
}

/*
 * Cold: enough input sets to total more than any cache they could stay in.
 * Hot: two sets, which stay in cache; they still differ in pointers and
 * contents from one sample to the next, so a kernel that remembers its
 * last inputs (or pointers) and skips its work leaves the scrambled
 * output behind.  Either way at least one set per launch of a sample
 * (`launches`: graph mode's batch on the GPU, else 1): the harness
 * rewrites each set once per sample, so two launches of one sample on one
 * set would read the same inputs, and the second could copy the first's
 * output (red team 4, rt4_batch_reuse: hot, batch 8, two sets, 6 launches
 * of 8 a copy, ok and near 4x "faster").
 */
int plan_rotation_sets(int cold, int launches, double rotation_bytes, double set_bytes)
{
	int n = 2;
	if (cold) {
		double want = set_bytes > 0 ? ceil(rotation_bytes / set_bytes) : 2;
		n = want < 2 ? 2 : want > 64 ? 64 : (int)want;
	}
	return launches > n ? launches : n;
}

long long plan_device_buffers(int n_sets, int launches, int n_inputs, int n_outputs, int n_dists)
{
	/* the live sets, each launch's outputs, a pair of base sets per input distribution */
	return (long long)n_sets * n_inputs + (long long)launches * n_outputs +
	       2LL * (n_dists > 0 ? n_dists : 1) * n_inputs;
}

static int rotation_sets(const struct run_ctx *c, int *n_sets)
{
	const struct problem *pr = &c->plan.problem;
	size_t elem = c->be->uses_gpu ? dtype_size(c->plan.dtype) : sizeof(float);
	double set_bytes = 0;
	for (int t = 0; t < pr->n_inputs; t++)
		set_bytes += (double)problem_tensor_numel(pr, t, c->s->dims) * (double)elem;
	/* graph mode (CUDA, batch > 1): every launch of a sample on a set of its own */
	int launches = c->be->uses_gpu && c->s->k.batch > 1 ? c->s->k.batch : 1;
	*n_sets = plan_rotation_sets(!strcmp(knob_values_cache[c->s->k.cache], "cold"), launches,
				     c->be->rotation_bytes, set_bytes);
	long long buffers = plan_device_buffers(*n_sets, launches, pr->n_inputs, pr->n_outputs, pr->desc->n_dists);
	if (c->be->uses_gpu && (*n_sets > EVC_MAX_SETS || buffers > EVC_MAX_BUFFERS))
		return error("%s: timing.batch %d needs %d input sets (one per launch of a sample) and %lld device "
			     "buffers in all, more than the CUDA harness holds (%d sets, %d buffers): use a smaller "
			     "batch",
			     c->s->path, c->s->k.batch, *n_sets, buffers, EVC_MAX_SETS, EVC_MAX_BUFFERS);
	return 0;
}

/*
 * Graph mode (CUDA, timing.batch > 1) times `batch` launches as one graph
 * and divides: every launch's inputs are written before the first launch
 * runs, so device code can do the later launches' work in the first one,
 * in one grid as wide as the GPU (red team 4, rt4_graph_batch: every
 * output right, "ok" and about 7x faster, sealed).  No plan check can see
 * that, so the sealed judge does not time graph mode: a variant must be
 * trust: host (a reference, or a kernel whose code its author vouches
 * for, which the record and the audit say) to be batched.  Under the
 * kernel clock (CUPTI) a launch's host overhead is not counted anyway,
 * which is what batching saves.
 */
int plan_graph_trust(const struct spec *s, const struct backend *be)
{
	if (!be->uses_gpu || s->k.batch <= 1)
		return 0;
	for (size_t i = 0; i < s->n_variants; i++) {
		const struct spec_variant *v = &s->variants[i];
		if (strcmp(spec_trust(s, v), "sealed"))
			continue;
		return error("%s: variant '%s': timing.batch %d (a CUDA graph of %d launches a sample) cannot be "
			     "judged sealed: every launch's inputs exist before the first launch runs, so its "
			     "device code could do the later launches' work in the first and the time / batch "
			     "would not be one launch's (red team 4, rt4_graph_batch); use timing.batch 1 (the "
			     "kernel clock does not count launch overhead), or `trust: host` on the variant if "
			     "you vouch for its code (the record and the audit say so)",
			     s->path, v->name, s->k.batch, s->k.batch);
	}
	return 0;
}

/*
 * p->judge_run_roles from the problem's answer at the spec's shape: the
 * judge by shape (problem_box.c run_fingerprint: "run", "small",
 * "extra").  Where the run's checks use the float64 reference at its
 * shape (a host run, or a GPU run without a GPU reference) and the
 * answer left that shape out for its cost, it is asked for
 * (problem_judge_run_full: red team 238's gemm bent at 512^3 only, over
 * the answer's FLOP cap, refuted an honest code for good), and the
 * combined judge_run_sha256 made again over the roles.
 */
static void plan_judge_roles(struct run_ctx *c, struct plan *p)
{
	const struct spec *s = c->s;
	json_decref(p->judge_run_roles);
	p->judge_run_roles = NULL;
	const struct pb_answer *a = p->problem.remote ? problem_remote_answer(&p->problem, s->dims, NULL) : NULL;
	if (!a || !a->n_judge_roles)
		return;
	json_t *roles = json_array();
	int have_run = 0;
	for (int i = 0; i < a->n_judge_roles; i++) {
		have_run |= !strcmp(a->judge_roles[i].role, "run");
		json_array_append_new(roles, json_pack("{s:s, s:s}", "role", a->judge_roles[i].role, "sha256",
						      a->judge_roles[i].sha256));
	}
	int cpu_judged = !c->be->uses_gpu || !p->problem.gpu_source;
	if (!have_run && cpu_judged) {
		char h[65];
		struct strbuf why = STRBUF_INIT;
		if (problem_judge_run_full(&p->problem, s->dims, h, &why) == 0) {
			json_array_insert_new(roles, 0, json_pack("{s:s, s:s}", "role", "run", "sha256", h));
			problem_judge_combine(roles, p->judge_run_sha256);
		} else {
			warning("problem '%s': no fingerprint of its judge at the run's shape (%s)", s->problem, why.buf);
		}
		strbuf_release(&why);
	}
	p->judge_run_roles = roles;
}

/*
 * The plug-in's object into the store, by its hash (the record's
 * problem.plugin_sha256), so that a later build of the problem can judge
 * this run's failures again by both objects (report/rejudge.c).  A copy
 * whose hash is not the build's (the file changed under the runner) is
 * left out with a warning; a store that cannot take it fails the run.
 * p->plugin_object names it (the record's problem.plugin_object, a
 * reference `evident verify` follows), "" where it is not kept.
 */
static int plan_keep_plugin(struct run_ctx *c, struct plan *p)
{
	const char *sha = json_string_value(json_object_get(p->problem.build, "binary_sha256"));
	p->plugin_object[0] = 0;
	if (!c->st.root || !p->problem.so_path || !sha)
		return 0;
	/* read and stored (store_put_checked) whether or not a file is at
	 * its name: one planted there before the run is what later re-judges
	 * would load (red team 249) */
	struct strbuf bytes = STRBUF_INIT;
	if (read_file(p->problem.so_path, &bytes) < 0) {
		strbuf_release(&bytes);
		warning("problem '%s': cannot read its object '%s' to keep it in the store", p->problem.name,
			p->problem.so_path);
		return 0;
	}
	char hex[SHA256_HEX_LEN + 1];
	int rc = store_put_checked(&c->st, bytes.buf ? bytes.buf : "", bytes.len, hex);
	if (rc == 0 && strcmp(hex, sha))
		warning("problem '%s': its object changed since its build (%.12s, built %.12s); a later build "
			"cannot judge this run's failures again by it", p->problem.name, hex, sha);
	else if (rc == 0)
		snprintf(p->plugin_object, sizeof(p->plugin_object), "%s", sha);
	strbuf_release(&bytes);
	return rc;
}

int plan_problem(struct run_ctx *c)
{
	const struct spec *s = c->s;
	struct plan *p = &c->plan;
	struct strbuf why = STRBUF_INIT;
	if (problem_load(s->problem, c->o->cache_dir, &p->problem, &why) < 0) {
		error("%s", why.buf);
		strbuf_release(&why);
		return -1;
	}
	strbuf_release(&why);
	p->dtype = dtype_from_name(s->dtype);
	const struct ev_problem_desc *d = p->problem.desc;
	char err[256] = "";
	/* a described plug-in (problem_box.c): its answers at the spec's
	 * shape, from its box, before anything reads them */
	if (p->problem.remote ? problem_remote_check(&p->problem, s->dims, err, sizeof(err)) != 0
			      : d->check && d->check(s->dims, err, sizeof(err)) != 0)
		return error("%s: problem '%s' refuses the shape: %s", s->path, s->problem, err);
	resolve_tolerance(c);
	p->flops = problem_flops(&p->problem, s->dims);
	const char *judge = problem_judge_sha256(&p->problem, s->dims);
	snprintf(p->judge_sha256, sizeof(p->judge_sha256), "%s", judge ? judge : "");
	judge = problem_judge_run_sha256(&p->problem, s->dims);
	snprintf(p->judge_run_sha256, sizeof(p->judge_run_sha256), "%s", judge ? judge : "");
	plan_judge_roles(c, p);
	p->min_bytes = problem_min_bytes(&p->problem, s->dims, c->be->uses_gpu ? dtype_size(p->dtype) : sizeof(float));
	if (rotation_sets(c, &p->n_sets) < 0)
		return -1;
	p->floor_us = NAN;
	if (c->be->uses_gpu) {
		/* the GPU reference the checker will use; without one it uses the
		 * float64 CPU reference (slow at large shapes, but right) */
		struct strbuf gw = STRBUF_INIT;
		if (p->problem.gpu_source &&
		    problem_build_gpu(&p->problem, ".", c->o->cache_dir, s->arch, &gw) < 0)
			warning("%s; the checker will use the float64 CPU reference", gw.buf);
		strbuf_release(&gw);
		/* the physical floor: every byte at peak bandwidth, every FLOP at peak */
		const char *gpu = json_string_value(json_object_get(json_object_get(c->machine, "gpu"), "name"));
		double tflops = NAN, gbps = NAN;
		if (gpu && peak_lookup(gpu, s->dtype, &tflops, &gbps, &p->peak_source) == 0) {
			double t_bw = gbps > 0 ? p->min_bytes / (gbps * 1e3) : NAN;
			double t_fl = tflops > 0 ? p->flops / (tflops * 1e6) : NAN;
			p->floor_us = isnan(t_bw) ? t_fl : isnan(t_fl) ? t_bw : (t_bw > t_fl ? t_bw : t_fl);
		}
	} else {
		/* host: every FLOP at the CPU's own upper bound (peaks.h) */
		double g = peak_host_gflops(p->host_peak_source, sizeof(p->host_peak_source));
		if (g > 0 && p->flops > 0) {
			p->floor_us = p->flops / (g * 1e3);
			p->peak_source = p->host_peak_source;
		}
	}
	if (plan_keep_plugin(c, p) < 0)
		return -1;
	return problem_sources(c);
}

void plan_order(uint64_t order_seed, size_t n_variants, int repeats, int slots, size_t *order)
{
	uint64_t st = order_seed ^ 0x3c6ef372fe94f82bULL;
	if (slots < 1)
		slots = 1;
	for (int r = 0; r < repeats; r++) {
		size_t *perm = order + (size_t)r * n_variants;
		if (n_variants == 2 && (r / slots) % 2 == 1)
			continue; /* the second block of a pair: filled with the first */
		if (n_variants == 2 && r + slots < repeats) {
			/* two variants: a pair of the slot's blocks (r, r + slots),
			 * four jobs, each variant twice, begun by the variant that
			 * ended the slot's block before (a random one for its
			 * first), the other three shuffled.  Chained blocks of one
			 * repeat left two orders, ABBA... or BAAB... (red team
			 * 126); a pair's shuffle keeps each variant after each
			 * about equally often (begun by x: xxyy, xyxy or xyyx,
			 * one of its three joins of a variant to itself on
			 * average, the join to the block before the other) */
			size_t *second = order + (size_t)(r + slots) * n_variants;
			size_t four[4];
			four[0] = r >= slots ? order[(size_t)(r - slots + 1) * n_variants - 1] : (size_t)(mix(&st) % 2);
			four[1] = four[0];
			four[2] = four[3] = 1 - four[0];
			for (size_t i = 4; i > 2; i--) {
				size_t j = 1 + (size_t)(mix(&st) % (i - 1));
				size_t t = four[i - 1];
				four[i - 1] = four[j];
				four[j] = t;
			}
			perm[0] = four[0];
			perm[1] = four[1];
			second[0] = four[2];
			second[1] = four[3];
			continue;
		}
		for (size_t i = 0; i < n_variants; i++)
			perm[i] = i;
		size_t first = 0; /* perm[0 .. first) fixed: the chained start */
		if (r >= slots && n_variants > 1) {
			size_t last = order[(size_t)(r - slots + 1) * n_variants - 1];
			perm[last] = 0;
			perm[0] = last;
			first = 1;
		}
		for (size_t i = n_variants; i > first + 1; i--) {
			size_t j = first + (size_t)(mix(&st) % (i - first));
			size_t t = perm[i - 1];
			perm[i - 1] = perm[j];
			perm[j] = t;
		}
	}
}

void plan_order_repeats(size_t n_variants, int repeats, int slots, const size_t *order, int *repeat_of)
{
	if (slots < 1)
		slots = 1;
	int *count = xcalloc(n_variants + 1, sizeof(int));
	for (int s = 0; s < slots && s < repeats; s++) {
		memset(count, 0, (n_variants + 1) * sizeof(int));
		for (int r = s; r < repeats; r += slots)
			for (size_t i = 0; i < n_variants; i++) {
				size_t k = (size_t)r * n_variants + i;
				repeat_of[k] = s + count[order[k]]++ * slots;
			}
	}
	free(count);
}

int plan_batch(struct run_ctx *c)
{
	const struct spec *s = c->s;
	struct plan *p = &c->plan;
	if (c->o->batch_id) {
		p->batch_id = xstrdup(c->o->batch_id);
	} else {
		char *id = store_new_run_id(s->name);
		p->batch_id = xstrfmt("%s-batch", id);
		free(id);
	}
	if (c->o->started_utc)
		snprintf(p->started_utc, sizeof(p->started_utc), "%s", c->o->started_utc);
	else
		utc_now_iso(p->started_utc, sizeof(p->started_utc));
	if (c->o->seed_fixed) {
		p->seed = c->o->seed;
	} else if (s->seed_given) {
		p->seed = s->seed;
	} else {
		char hx[13];
		random_hex(hx, 12);
		p->seed = strtoull(hx, NULL, 16);
	}
	p->order_seed = c->o->seed_fixed ? c->o->order_seed : random_secret_u64();
	p->repeats = c->o->repeats > 0 ? c->o->repeats : s->k.repeats;
	if (c->pool.n > p->repeats) {
		/* a slot per repeat at least (pool.c): none idle, every one fair */
		warning("%d slots and %d repeat%s: running %d repeats, so that every slot times every variant "
			"(repeat r on slot r %% %d)",
			c->pool.n, p->repeats, p->repeats == 1 ? "" : "s", c->pool.n, c->pool.n);
		p->repeats = c->pool.n;
	}

	p->variants = xcalloc(s->n_variants, sizeof(*p->variants));
	for (size_t i = 0; i < s->n_variants; i++) {
		if (!wanted(c->o, s, &s->variants[i]))
			continue;
		struct plan_variant *v = &p->variants[p->n_variants];
		v->v = &s->variants[i];
		v->is_baseline = !strcmp(v->v->name, s->baseline);
		if (v->is_baseline)
			p->baseline = p->n_variants;
		p->n_variants++;
	}

	/* randomised blocks: repeat r runs every variant once, in a fresh order
	 * drawn from the batch's secret order seed (the spec's seed fixes the
	 * inputs, seed0 and timing_seed, never the order).  A block begins
	 * with the variant that ended the block before it on the same slot
	 * (repeat r - slots: pool.c runs repeat r on slot r % slots), the rest
	 * of it shuffled: so every variant follows every variant, itself
	 * included, about equally often, and what a job leaves behind (a slow
	 * machine, a warm cache) falls on the next job whatever its variant.
	 * Free blocks made a job follow another variant's 3 times in 4 with 2
	 * variants and its own once in 4, so a candidate's leftover hit the
	 * baseline 72% of the time and itself 22% (red team 123, over 100,000
	 * order seeds at 8 repeats).  With two variants a block of one
	 * repeat so begun has one order left (ABBAABBA... or BAABBAAB...: red
	 * team 126), so there the slot's blocks go in pairs, four jobs each
	 * shuffled after its chained first (plan_order), and a job's repeat
	 * is its variant's count on the slot (plan_order_repeats) */
	p->n_jobs = p->n_variants * (size_t)p->repeats;
	p->jobs = xcalloc(p->n_jobs, sizeof(*p->jobs));
	size_t *order = xcalloc(p->n_jobs, sizeof(size_t));
	int *repeat_of = xcalloc(p->n_jobs, sizeof(int));
	plan_order(p->order_seed, p->n_variants, p->repeats, c->pool.n, order);
	plan_order_repeats(p->n_variants, p->repeats, c->pool.n, order, repeat_of);
	for (int b = 0, k = 0; b < p->repeats; b++) {
		for (size_t i = 0; i < p->n_variants; i++, k++) {
			struct plan_job *j = &p->jobs[k];
			int r = repeat_of[k];
			j->variant = order[k];
			j->repeat = r;
			/* every variant of a repeat sees the same inputs; each repeat fresh ones */
			j->seed0 = p->seed + 1000ULL * (unsigned long long)r;
			j->timing_seed = p->seed + 1000000ULL + 1000ULL * (unsigned long long)r;
			/* the output scramble's key and the first timed input set
			 * come from OS randomness of their own, never from the
			 * order seed's stream: a kernel reads its scramble back out
			 * of its output (the mixing is invertible), and from a key
			 * drawn after the order seed it had the batch's whole run
			 * order, so which variant ran before it and which runs
			 * next (red team 78, docs/redteam78-cuda.md).  Nothing
			 * needs them again but the job's own worker and checker,
			 * which read them from the job file */
			do
				j->scramble_seed = random_secret_u64();
			while (!j->scramble_seed);
			j->first_set = (int)(random_secret_u64() % (uint64_t)p->n_sets);
			j->outcome = OUTCOME_UNKNOWN;
		}
	}
	free(order);
	free(repeat_of);
	return 0;
}

void plan_peak(struct run_ctx *c)
{
	struct plan *p = &c->plan;
	if (c->be->uses_gpu) {
		record_peak_lookup(c->machine, NULL, 1, c->s->dtype, &p->peak);
		return;
	}
	/* the cache key is the CPU model as the records name it (machine.cpu) */
	const char *model = json_string_value(json_object_get(c->machine, "cpu"));
	const char *host = json_string_value(json_object_get(c->machine, "host"));
	char key[sizeof(p->cpu.model)];
	snprintf(key, sizeof(key), model ? "%s" : "host:%s", model ? model : host ? host : "?");
	struct strbuf why = STRBUF_INIT;
	int measured;
	if (cpu_peak_here(key, &p->cpu, &measured, &why) == 0) {
		record_peak_of_cpu(&p->cpu, &p->peak);
	} else {
		snprintf(p->peak_why, sizeof(p->peak_why), "this CPU's peak could not be measured: %s", why.buf);
		memset(&p->peak, 0, sizeof(p->peak));
		p->peak.state = PEAK_NONE;
		p->peak.gflops = p->peak.gbps = NAN;
		p->peak.why = p->peak_why;
		warning("%s; the records will have throughput without a fraction of peak", p->peak_why);
	}
	strbuf_release(&why);
}

int plan_make(struct run_ctx *c)
{
	memset(&c->plan, 0, sizeof(c->plan));
	return plan_problem(c) < 0 ? -1 : plan_batch(c);
}

void plan_batch_release(struct plan *p)
{
	for (size_t i = 0; i < p->n_variants; i++) {
		build_result_release(&p->variants[i].br);
		json_decref(p->variants[i].sources);
	}
	for (size_t i = 0; i < p->n_jobs; i++)
		free(p->jobs[i].run_id);
	free(p->variants);
	free(p->jobs);
	free(p->batch_id);
	p->variants = NULL;
	p->jobs = NULL;
	p->batch_id = NULL;
	p->n_variants = p->n_jobs = p->baseline = 0;
	p->started_utc[0] = 0;
	p->seed = 0;
	p->repeats = 0;
}

void plan_release(struct plan *p)
{
	json_decref(p->judge_run_roles);
	p->judge_run_roles = NULL;
	plan_batch_release(p);
	json_decref(p->problem_sources);
	free(p->problem_src);
	problem_release(&p->problem);
	memset(p, 0, sizeof(*p));
}

static void build_request_of(const struct run_ctx *c, const struct spec_variant *v, struct build_request *rq)
{
	memset(rq, 0, sizeof(*rq));
	rq->kernel_path = v->kernel;
	rq->repo_root = ".";
	rq->params = v->params;
	rq->n_params = v->n_params;
	rq->arch = c->s->arch;
	rq->cache_dir = c->o->cache_dir;
	rq->extra_flags = (const char *const *)c->s->flags;
	/* the kernel's compiler runs in the box its worker will (off under
	 * --unsandboxed, and where no box was opened: a slurm submission
	 * builds on the login node without one) */
	rq->sb = &c->sb;
	rq->view = &prov_view_ops;
}

/* plan_build, or with hit_only (build.h) only where the cache holds the
 * build: 1 then when it does not, nothing built or recorded */
static int build_variant(struct run_ctx *c, size_t vi, int hit_only)
{
	struct plan_variant *v = &c->plan.variants[vi];
	if (v->build_state)
		return v->build_state < 0 ? -1 : 0;
	struct build_request rq;
	build_request_of(c, v->v, &rq);
	rq.hit_only = hit_only;
	int rc = c->be->build(&rq, &v->br);
	if (hit_only && rc != 0) {
		/* not a hit (or it failed): left to a child and plan_build */
		build_result_release(&v->br);
		v->br.ok = 0;
		return 1;
	}
	if (rc < 0) {
		v->build_state = -1;
		return -1;
	}
	v->build_state = 1;
	const char *h = json_string_value(json_object_get(v->br.info, "so_sha256"));
	snprintf(v->so_sha256, sizeof(v->so_sha256), "%s", h ? h : "");
	return 0;
}

int plan_build(struct run_ctx *c, size_t vi)
{
	return build_variant(c, vi, 0);
}

/*
 * Build every variant first, `jobs` compilers at a time, each in a forked
 * child (this process is single-threaded, so a child may run anything);
 * plan_build then finds each build in the cache.  A child's failure is
 * only a cache miss: plan_build builds that variant again and records why.
 * A variant the cache holds already (a hit, checked here as plan_build
 * checks one: the object and every source re-hashed) is taken here, with
 * no child: a child for it re-hashed what plan_build re-hashed again after
 * it, and a fork of the runner cost 13 ms of CPU a variant on the
 * project's VM, 60 ms under ASan (2026-12-02).  The look is quiet, as a
 * child is: whatever it would say (an entry set aside as tampered or
 * stale, an error) comes of a miss, which a child and plan_build then
 * meet as before.  The host backend only: a GPU backend's build may warn
 * before it looks (no device to read the arch from).
 */
void plan_prebuild(struct run_ctx *c)
{
	struct plan *p = &c->plan;
	int jobs = c->o->jobs;
	if (jobs <= 1 || p->n_variants < 2)
		return;
	size_t misses = p->n_variants;
	if (!c->be->uses_gpu) {
		int quiet = util_quiet;
		util_quiet = 1;
		misses = 0;
		for (size_t i = 0; i < p->n_variants; i++)
			if (build_variant(c, i, 1) > 0)
				misses++;
		util_quiet = quiet;
	}
	if (!misses)
		return;
	char msg[64];
	snprintf(msg, sizeof(msg), "building %zu variants, %d at a time", p->n_variants, jobs);
	c->prog.variant = c->s->name;
	progress_show(&c->prog, msg);
	fflush(stdout);
	fflush(stderr);
	int running = 0;
	for (size_t i = 0; i < p->n_variants || running > 0;) {
		if (i < p->n_variants && p->variants[i].build_state) {
			i++; /* taken from the cache above */
			continue;
		}
		if (i < p->n_variants && running < jobs && !runcmd_interrupted) {
			pid_t pid = fork();
			if (pid == 0) {
				struct build_request rq;
				struct build_result br = BUILD_RESULT_INIT;
				build_request_of(c, p->variants[i].v, &rq);
				util_quiet = 1;
				int rc = c->be->build(&rq, &br);
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
