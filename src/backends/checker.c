/*
 * checker.c - the judge: `evident __check CHECK.json`, a process that
 * never loads the kernel under test.  It runs after the worker has
 * exited, reads the outputs the parent captured from the worker's channel
 * (the parent's own file), regenerates each launch's inputs from the
 * parent's seeds, computes the reference only now - after the candidate's
 * output exists - and judges each output with the problem's tolerance rule
 * (or the spec's), telling an unwritten element from a wrong one by the
 * scramble bits the parent scheduled; where the problem names entries to
 * judge one by one (problems/evident_focus.h), it judges those too, each
 * against its own bound, under a key the kernel never sees.  It reports on its stdout, which
 * only the parent reads: one `check` line per output, a `reference_check`
 * of the GPU reference against the float64 one at the problem's small
 * shape when the backend has a GPU reference, then `done`.
 *
 * Every buffer that held a reference is cleared before it is freed, so no
 * later process on this machine can find one in recycled memory.
 *
 * Each capture is judged alone (its inputs from its own seed or key), so
 * where the checks are large it judges them in K processes (checker_jobs):
 * forked before anything here touches CUDA (the cross-check's reference
 * and every judge's open their own context; one does not survive a fork),
 * process c judging captures c, c + K, ... onto a pipe, the parent copying
 * their lines to stdout in capture order, so its reader sees byte for byte
 * what one process writes.  Processes rather than threads: the GPU
 * reference keeps one context in a static (cuda_worker.c cuda_reference)
 * and the problems' plug-ins were never promised to be thread-safe.  K = 1
 * is the one-process path, unchanged.  The `done` line says K.
 */
#include "backends/checker.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backends/backend.h"
#include "backends/fresh.h"
#include "backends/job.h"
#include "backends/problem.h"
#include "backends/scramble.h"

/* One line on stdout, m consumed; -1 when it could not be written (a
 * parallel judge's parent that stopped reading, EPIPE). */
static int emit(json_t *m)
{
	/* a message json_pack refused (a number it cannot write: an error that
	 * overflowed to inf) must not vanish: the merge would read the next
	 * capture's line in its place (red team 32, from the code).  An error
	 * line stands in for it, and the run fails as on any checker error. */
	if (!m)
		m = json_pack("{s:s, s:s}", "msg", "error", "reason",
			      "the checker could not write a message (a value json cannot hold)");
	char *s = m ? json_dumps(m, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(17)) : NULL;
	int rc = s ? 0 : -1;
	if (s) {
		if (fputs(s, stdout) < 0 || fputc('\n', stdout) == EOF)
			rc = -1;
		free(s);
	}
	if (fflush(stdout) != 0)
		rc = -1;
	json_decref(m);
	return rc;
}

static void fail(const char *why)
{
	emit(json_pack("{s:s, s:s}", "msg", "error", "reason", why));
}

struct refs {
	int n_in, n_out;
	size_t in_n[4], out_n[2];
	float *in[4];
	double *out[2];
};

static void refs_alloc(struct refs *r, const struct problem *p, const long long *shape)
{
	memset(r, 0, sizeof(*r));
	r->n_in = p->n_inputs;
	r->n_out = p->n_outputs;
	for (int t = 0; t < r->n_in; t++) {
		r->in_n[t] = problem_tensor_numel(p, t, shape);
		r->in[t] = xmalloc(r->in_n[t] * sizeof(float));
	}
	for (int o = 0; o < r->n_out; o++) {
		r->out_n[o] = problem_tensor_numel(p, r->n_in + o, shape);
		r->out[o] = xcalloc(r->out_n[o], sizeof(double));
	}
}

static void refs_release(struct refs *r)
{
	for (int t = 0; t < r->n_in; t++)
		clear_free(r->in[t], r->in_n[t] * sizeof(float));
	for (int o = 0; o < r->n_out; o++)
		clear_free(r->out[o], r->out_n[o] * sizeof(double));
	memset(r, 0, sizeof(*r));
}

/* The reference for inputs already in r->in: the backend's GPU one when it
 * has one, else the problem's float64 CPU reference. */
static int compute(const struct backend *be, const struct job *job, const struct problem *p,
		   const long long *shape, struct refs *r, const char **method)
{
	char err[512] = "";
	if (be && be->reference) {
		int rc = be->reference(job, shape, (const float *const *)r->in, r->out, method, err, sizeof(err));
		if (rc < 0) {
			fail(err);
			return -1;
		}
		if (rc == 0)
			return 0;
		/* rc 1: no GPU reference for this problem: the float64 one below */
	}
	double scalar = p->desc->scalar ? p->desc->scalar(shape) : 0;
	p->desc->reference(shape, scalar, (const float *const *)r->in, r->out);
	*method = "float64 CPU reference (the problem plug-in)";
	return 0;
}

/* GPU reference vs float64 at the small shape: does the judge itself hold? */
static void cross_check(const struct backend *be, const struct job *job, const struct problem *p,
			int dtype)
{
	long long small[JOB_MAX_DIMS];
	memcpy(small, job->shape, sizeof(small));
	if (p->desc->small_shape)
		p->desc->small_shape(job->shape, small);
	struct refs g, c;
	refs_alloc(&g, p, small);
	refs_alloc(&c, p, small);
	problem_fill_rounded(p, small, 0, job->seed0, dtype, g.in);
	for (int t = 0; t < g.n_in; t++)
		memcpy(c.in[t], g.in[t], g.in_n[t] * sizeof(float));
	const char *method = NULL;
	char err[512] = "";
	int grc = be->reference(job, small, (const float *const *)g.in, g.out, &method, err, sizeof(err));
	if (grc > 0)
		goto out; /* no GPU reference: the checker uses float64 throughout */
	if (grc < 0) {
		emit(json_pack("{s:s, s:b, s:b, s:s}", "msg", "reference_check", "done", 0, "pass", 0, "why", err));
		goto out;
	}
	p->desc->reference(small, p->desc->scalar ? p->desc->scalar(small) : 0, (const float *const *)c.in, c.out);
	double num = 0, den = 0, max_abs = 0;
	for (int o = 0; o < g.n_out; o++)
		for (size_t i = 0; i < g.out_n[o]; i++) {
			double d = fabs(g.out[o][i] - c.out[o][i]);
			max_abs = d > max_abs ? d : max_abs;
			num += d * d;
			den += c.out[o][i] * c.out[o][i];
		}
	double rel = den > 0 ? sqrt(num / den) : sqrt(num);
	json_t *sh = json_array();
	for (int i = 0; i < job->n_dims; i++)
		json_array_append_new(sh, json_integer(small[i]));
	/* fp32 against float64: 1e-5 relative is a generous bound for an
	 * honest fp32 reference; beyond it the judge is not to be trusted */
	emit(json_pack("{s:s, s:b, s:o, s:f, s:f, s:s, s:s, s:b}", "msg", "reference_check", "done", 1, "shape",
		       sh, "max_abs_diff", max_abs, "rel_l2", rel, "method", method ? method : "",
		       "against", "float64 CPU reference (the problem plug-in)", "pass", rel <= 1e-5));
out:
	refs_release(&g);
	refs_release(&c);
}

/*
 * The base pairs of graph-mode timed CUDA samples (batch > 1; a
 * stream-mode sample's inputs are fresh, fresh.h), kept across checks: each pair is
 * two full input sets drawn by the problem's fill (seeds timing_seed + 2
 * dist and + 2 dist + 1), the same for every sample of a distribution,
 * and drawing them per check cost two fills of every input per timed
 * check - at B4 H16 S4096 D128 about 2.3 s of a check's 4 and most of a
 * job's 87 s.  As many distributions' pairs as fit in a quarter of the
 * machine's memory are kept (least recently used out); at least one.
 * A parallel checker's processes each keep theirs, in a share of that
 * quarter.
 */
struct base_pair {
	int dist;          /* -1: empty */
	unsigned long age; /* last use */
	float *a[4], *b[4];
};
struct base_cache {
	struct base_pair *slot;
	int n;
	unsigned long clock;
};

static void base_cache_init(struct base_cache *bc, const struct refs *r, int n_dists, int jobs)
{
	size_t pair = 0;
	for (int t = 0; t < r->n_in; t++)
		pair += 2 * r->in_n[t] * sizeof(float);
	long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
	double budget = pages > 0 && psize > 0 ? (double)pages * (double)psize / 4 : 1e9;
	budget /= jobs; /* each of the checker's processes keeps its own pairs */
	int n = pair ? (int)(budget / (double)pair) : n_dists;
	bc->n = n < 1 ? 1 : n > n_dists ? n_dists : n;
	bc->slot = xcalloc((size_t)bc->n, sizeof(*bc->slot));
	for (int i = 0; i < bc->n; i++)
		bc->slot[i].dist = -1;
	bc->clock = 0;
}

static void base_pair_free(struct base_pair *bp, const struct refs *r)
{
	for (int t = 0; t < r->n_in; t++) {
		free(bp->a[t]);
		free(bp->b[t]);
		bp->a[t] = bp->b[t] = NULL;
	}
	bp->dist = -1;
}

static void base_cache_release(struct base_cache *bc, const struct refs *r)
{
	for (int i = 0; i < bc->n; i++)
		base_pair_free(&bc->slot[i], r);
	free(bc->slot);
	memset(bc, 0, sizeof(*bc));
}

/* The pair of distribution dist, drawn now if it is not kept. */
static const struct base_pair *base_cache_get(struct base_cache *bc, const struct problem *pl,
					      const struct job *job, int dist, int dtype, const struct refs *r)
{
	struct base_pair *lru = &bc->slot[0];
	for (int i = 0; i < bc->n; i++) {
		if (bc->slot[i].dist == dist) {
			bc->slot[i].age = ++bc->clock;
			return &bc->slot[i];
		}
		if (bc->slot[i].dist < 0 || (lru->dist >= 0 && bc->slot[i].age < lru->age))
			lru = &bc->slot[i];
	}
	base_pair_free(lru, r);
	for (int t = 0; t < r->n_in; t++) {
		lru->a[t] = xmalloc(r->in_n[t] * sizeof(float) + 1);
		lru->b[t] = xmalloc(r->in_n[t] * sizeof(float) + 1);
	}
	problem_fill_rounded(pl, job->shape, dist, job->timing_seed + 2ULL * (unsigned long long)dist, dtype, lru->a);
	problem_fill_rounded(pl, job->shape, dist, job->timing_seed + 2ULL * (unsigned long long)dist + 1, dtype,
			     lru->b);
	lru->dist = dist;
	lru->age = ++bc->clock;
	return lru;
}

/*
 * The inputs of launch j of a timed CUDA sample (scramble.h): the pair of
 * base sets of distribution `dist` (seeds timing_seed + 2 dist and + 2
 * dist + 1), element by element as the launch's key's bit says (the
 * problem's fold: elements it relates share a bit, scramble.h
 * evs_mix_elem), as the harness mixed them on the device.  Into r->in.
 * 0, or -1 when the problem's fold is out of range.
 */
static int mix_inputs(struct base_cache *bc, const struct problem *pl, const struct job *job, int dist,
		       unsigned long long key, int dtype, struct refs *r)
{
	const struct base_pair *bp = base_cache_get(bc, pl, job, dist, dtype, r);
	for (int t = 0; t < r->n_in; t++) {
		const float *a = bp->a[t], *b = bp->b[t];
		float *x = r->in[t];
		uint64_t f[3];
		if (problem_mix_fold(pl, job->shape, dist, t, f) < 0)
			return -1;
		for (size_t k = 0; k < r->in_n[t]; k++)
			x[k] = evs_mix_bit(key, (uint32_t)t, evs_mix_elem(k, f[0], f[1], f[2])) ? b[k] : a[k];
	}
	return 0;
}

/*
 * What every capture's judgement reads, the same in the checker's every
 * process: the job, the problem, the parent's rule and secret, the
 * captured outputs (read before any fork, so shared, not copied).
 */
struct judge {
	const struct job *job;
	const struct backend *be;
	const struct problem *pl;
	int dtype;
	size_t elem;
	struct ev_tolerance tol;
	const struct strbuf *cap;
	size_t plan_at;       /* where the planner's captures begin in cap (its second file), or cap->len */
	uint64_t focus_secret;
	json_t *caps;
	int jobs;             /* processes judging: the base cache's share of memory is 1 / jobs */
	long long fault_kill; /* -1, or the capture whose child kills itself before judging it,
			       * or the number of captures: every child, after its last line
			       * (EVIDENT_CHECK_FAULT_KILL, for the tests; children only) */
};

/*
 * Judges captures first, first + stride, ... in order, each its own
 * reference, one line each on stdout: its `check` line, or an `error` line
 * and no more.  0, or -1 after an error line or a write nobody read.
 * Everything it allocates it frees (the references cleared) before it
 * returns.
 */
static int judge_captures(const struct judge *x, size_t first, size_t stride)
{
	const struct backend *be = x->be;
	int dtype = x->dtype;
	size_t elem = x->elem, n = json_array_size(x->caps);
	int rc = -1;
	/* one reference per distinct input (seed launch, or rotation set) */
	struct refs r;
	refs_alloc(&r, x->pl, x->job->shape);
	struct base_cache bc;
	base_cache_init(&bc, &r, x->pl->desc->n_dists, x->jobs);
	long long have = -2; /* key of the inputs in r: seed index, or -(set + 10) */
	size_t max_out = 0;
	for (int o = 0; o < r.n_out; o++)
		max_out = r.out_n[o] > max_out ? r.out_n[o] : max_out;
	unsigned char *bits = xmalloc(max_out * elem + 8);
	const char *method = NULL;
	/* the entries judged alone (evident_focus.h) of the inputs in r */
	long long *f_idx = xmalloc(EV_FOCUS_MAX * sizeof(long long)), f_n = 0;
	uint64_t f_key = 0; /* the focus's key of the inputs in r */
	double *f_val = xmalloc(EV_FOCUS_MAX * sizeof(double)), *f_bound = xmalloc(EV_FOCUS_MAX * sizeof(double));
	for (size_t i = first; i < n; i += stride) {
		json_t *c = json_array_get(x->caps, i);
		if (x->fault_kill == (long long)i)
			raise(SIGKILL); /* fault injection (EVIDENT_CHECK_FAULT_KILL): a child that dies */
		int timed = json_is_true(json_object_get(c, "timed"));
		long long index = json_integer_value(json_object_get(c, "index"));
		long long global = json_integer_value(json_object_get(c, "global"));
		long long set0 = json_integer_value(json_object_get(c, "set"));
		long long off = json_integer_value(json_object_get(c, "offset"));
		long long bytes = json_integer_value(json_object_get(c, "bytes"));
		long long batch = json_integer_value(json_object_get(c, "batch"));
		if (batch < 1 || !timed)
			batch = 1;
		/* a sealed planner's own seed launch (job.c run_checker_with):
		 * its seeds, scramble and captures file are its own */
		json_t *pc = json_object_get(c, "plan");
		int of_plan = json_is_object(pc);
		unsigned long long seed0 = x->job->seed0, scramble_seed = x->job->scramble_seed;
		if (of_plan) {
			if (timed) {
				fail("a planner's capture of a timed sample (a planner times nothing)");
				goto out_refs;
			}
			seed0 = (unsigned long long)json_integer_value(json_object_get(pc, "seed0"));
			scramble_seed = (unsigned long long)json_integer_value(json_object_get(pc, "scramble_seed"));
			if (off < 0 || (size_t)off > x->cap->len - x->plan_at) {
				fail("a planner's capture lies outside its capture file");
				goto out_refs;
			}
			off += (long long)x->plan_at;
		} else if (off >= 0 && bytes >= 0 && (size_t)(off + bytes) > x->plan_at) {
			fail("a capture lies outside the capture file");
			goto out_refs;
		}
		if (off < 0 || bytes < 0 || (size_t)(off + bytes) > x->cap->len) {
			fail("a capture lies outside the capture file");
			goto out_refs;
		}
		/* every launch of the sample (graph mode: launch j on set set0 + j) */
		size_t pos = 0;
		struct check_result agg;
		long long focus_n = 0, focus_out = 0;
		double focus_worst = 0;
		memset(&agg, 0, sizeof(agg));
		agg.first_mismatch = -1;
		agg.pass = 1;
		int dist = timed ? 0 : (int)(index % x->pl->desc->n_dists);
		unsigned long long seed = 0;
		long long set = -1;
		/* a parent-timed host sample: inputs of its own seed and distribution */
		json_t *fseed = json_object_get(c, "seed");
		int fresh = timed && json_is_integer(fseed);
		if (timed && !fresh && !strcmp(x->job->backend, "host")) {
			fail("a timed host capture without the parent's seed (the parent draws every host input)");
			goto out_refs;
		}
		/* a timed CUDA sample: its inputs from the sample's key, the problem's
		 * fill (stream mode, fresh.h) or, in graph mode, the pair of its
		 * distribution mixed under it */
		json_t *mk = json_object_get(c, "mix_key");
		unsigned long long mix_key = timed && json_is_integer(mk) ? (unsigned long long)json_integer_value(mk) : 0;
		if (fresh) {
			/* the parent's scramble key of the sample (never the
			 * worker's to read), where the capture names one */
			json_t *sk = json_object_get(c, "scramble");
			if (json_is_integer(sk))
				scramble_seed = (unsigned long long)json_integer_value(sk);
			dist = (int)json_integer_value(json_object_get(c, "dist"));
			if (dist < 0 || dist >= x->pl->desc->n_dists) {
				fail("a capture names an input distribution the problem does not have");
				goto out_refs;
			}
		}
		for (long long j = 0; j < batch; j++) {
			set = timed && !fresh && x->job->n_sets > 0 ? (set0 + j) % x->job->n_sets : -1;
			/* (a planner's seed i is not the worker's: keyed apart) */
			long long key = fresh || mix_key ? LLONG_MIN + (long long)i
					: timed	 ? -(set + 10)
					: of_plan ? LLONG_MIN / 2 + index
						  : index;
			seed = fresh ? (unsigned long long)json_integer_value(fseed)
			       : timed ? x->job->timing_seed + (unsigned long long)set : seed0 + (unsigned long long)index;
			/* the launch whose mix launch j read: with more launches than
			 * live sets, launch j read the set launch j % n_sets mixed
			 * (harness.cu run_sample; the plan no longer makes such a job,
			 * and the harness refuses one: red team 4, rt4_batch_reuse) */
			long long u = mix_key && x->job->n_sets > 0 ? j % x->job->n_sets : j;
			if (mix_key) /* the sample's distribution, from its key (scramble.h evs_sample_dist) */
				dist = evs_sample_dist(mix_key, x->pl->desc->n_dists, problem_timing_dists(x->pl));
			if (key != have || (mix_key && batch > 1)) {
				if (mix_key && fresh_job_timed(x->job)) {
					/* stream mode: the problem's own fill, of the
					 * distribution and seed the key gives (fresh.h),
					 * as the worker's pool filled it */
					uint64_t fs;
					if (fresh_inputs_fill(x->pl, x->job->shape, mix_key, (uint32_t)u, dtype, r.in, &fs) < 0) {
						fail("the problem's fill of a timed sample's inputs failed (a value not "
						     "finite at the dtype)");
						goto out_refs;
					}
					seed = fs;
				} else if (mix_key) {
					seed = x->job->timing_seed + 2ULL * (unsigned long long)dist;
					if (mix_inputs(&bc, x->pl, x->job, dist, evs_launch_key(mix_key, (uint32_t)u), dtype,
						       &r) < 0) {
						fail("the problem's mix_fold names no dimension of an input, or a "
						     "modulus outside 1 .. its extent");
						goto out_refs;
					}
				} else {
					problem_fill_rounded(x->pl, x->job->shape, dist, seed, dtype, r.in);
				}
				if (compute(be, x->job, x->pl, x->job->shape, &r, &method) < 0)
					goto out_refs;
				/* the focus's secret: the seed of the inputs, or for a
				 * device mix the launch's mixing key (one seed serves
				 * every mix of a distribution) */
				uint64_t fkey = mix_key && !fresh_job_timed(x->job)
							? evs_launch_key(mix_key, (uint32_t)u)
							: (uint64_t)seed;
				/* keyed by the parent's secret too, drawn after the
				 * worker ended (x->job->c): the seed alone is readable
				 * from the inputs (red team 20) */
				fkey = evs_key(x->focus_secret, fkey, 0x666f63u, 0);
				f_n = problem_focus(x->pl, x->job->shape, dist, dtype, fkey, (const float *const *)r.in, f_idx,
						    f_val, f_bound);
				f_key = fkey;
				if (f_n < 0) {
					fail("the problem's focus names an entry outside its output, or a value or bound "
					     "that is not finite");
					goto out_refs;
				}
				have = key;
			}
			/* all outputs of the launch are judged as one */
			for (int o = 0; o < r.n_out; o++) {
				size_t ob = r.out_n[o] * elem;
				if (pos + ob > (size_t)bytes) {
					fail("a capture's size does not match the problem's outputs");
					goto out_refs;
				}
				evs_fill(bits, ob, evs_key(scramble_seed,
							   timed ? (uint64_t)global : SCRAMBLE_SEED_LAUNCH((uint64_t)index),
							   (uint32_t)j, (uint32_t)o));
				struct check_result jd;
				problem_check_output(x->cap->buf + off + pos, bits, dtype, r.out[o], NULL, r.out_n[o], &x->tol,
						     &jd);
				if (o == 0 && f_n > 0) {
					double w = 0;
					focus_out += problem_focus_judge(x->cap->buf + off + pos, bits, dtype, r.out_n[o], f_idx,
									 f_val, f_bound, f_n, &jd, &w);
					focus_n += f_n;
					focus_worst = w > focus_worst ? w : focus_worst;
				}
				pos += ob;
				agg.max_abs_err = jd.max_abs_err > agg.max_abs_err ? jd.max_abs_err : agg.max_abs_err;
				agg.ref_scale = jd.ref_scale > agg.ref_scale ? jd.ref_scale : agg.ref_scale;
				agg.nan_count += jd.nan_count;
				agg.unwritten += jd.unwritten;
				agg.mismatches += jd.mismatches;
				if (agg.first_mismatch < 0 && jd.first_mismatch >= 0)
					agg.first_mismatch = jd.first_mismatch;
				agg.pass &= jd.pass;
				if (jd.rel_l2 > agg.rel_l2) /* the worst output's */
					agg.rel_l2 = jd.rel_l2;
			}
		}
		if (pos != (size_t)bytes) {
			fail("a capture's size does not match the problem's outputs");
			goto out_refs;
		}
		/* a host check's draw and reference, by hash (one launch a
		 * check): what a re-judge's box must give on the same draw
		 * (report/rejudge.c judged_as_it_computes) */
		char in_hex[SHA256_HEX_LEN + 1] = "", ref_hex[SHA256_HEX_LEN + 1] = "";
		if (batch == 1 && !strcmp(x->job->backend, "host"))
			problem_draw_sha256(r.in, r.in_n, r.n_in, r.out, r.out_n, r.n_out, in_hex, ref_hex);
		json_t *line = json_pack("{s:s, s:s, s:s?, s:I, s:I, s:s, s:I, s:I, s:f, s:f, s:f, s:I, s:I, s:I, s:I, s:b}", "msg",
			       "check", "reference", method, "phase", timed ? "timed" : of_plan ? "plan" : "seed", "index",
			       (json_int_t)index, "seed", (json_int_t)seed, "dist", x->pl->desc->dists[dist], "set",
			       (json_int_t)(timed ? set0 : -1), "launches", (json_int_t)batch, "max_abs_err",
			       agg.max_abs_err, "rel_l2", agg.rel_l2, "ref_scale", agg.ref_scale, "nan_count",
			       (json_int_t)agg.nan_count, "unwritten", (json_int_t)agg.unwritten, "mismatches",
			       (json_int_t)agg.mismatches, "first_mismatch", (json_int_t)agg.first_mismatch, "pass",
			       agg.pass);
		if (in_hex[0]) {
			json_object_set_new(line, "inputs_sha256", json_string(in_hex));
			json_object_set_new(line, "ref_sha256", json_string(ref_hex));
			if (f_n > 0) {
				/* the focus by hash and its key (the parent's secret
				 * keyed by the seed: told now that the worker is gone,
				 * so a re-judge's box can ask the same focus) */
				char fh[SHA256_HEX_LEN + 1], kh[17];
				problem_focus_sha256(f_idx, f_val, f_bound, f_n, fh);
				snprintf(kh, sizeof(kh), "%016llx", (unsigned long long)f_key);
				json_object_set_new(line, "focus_key", json_string(kh));
				json_object_set_new(line, "focus_sha256", json_string(fh));
			}
		}
		if (focus_n) /* the entries judged alone: how many, how many out, the worst error / bound */
			json_object_set_new(line, "focus", json_pack("{s:I, s:I, s:f}", "entries", (json_int_t)focus_n,
								   "out", (json_int_t)focus_out, "worst",
								   isfinite(focus_worst) ? focus_worst : 1e308));
		if (emit(line) < 0)
			goto out_refs; /* nobody reads: the parent stopped (an earlier error) */
	}
	if (x->fault_kill == (long long)n)
		raise(SIGKILL); /* fault injection: a child that dies after its last line */
	rc = 0;
out_refs:
	free(bits);
	clear_free(f_val, EV_FOCUS_MAX * sizeof(double));
	free(f_idx);
	free(f_bound);
	base_cache_release(&bc, &r);
	refs_release(&r);
	return rc;
}

/* ---- judging in parallel ----------------------------------------------------- */

/*
 * How many processes judge the captures.  Each capture is judged alone
 * (its own inputs, from its own seed or key), so K processes can share
 * them out: process c takes captures c, c + K, ...  K is
 * EVIDENT_CHECK_JOBS where set (1 .. 64), else the smallest of: the CPUs
 * this process may run on, 8, the captures, the processes whose buffers
 * (inputs as floats, references as doubles, the scramble bits, the GPU
 * reference's host copy, a base pair) fit in half of MemAvailable, and 4
 * on a GPU backend (each process opens its own CUDA context for the
 * reference: five contexts with the parent's cross-check, about 2 GiB of
 * GPU memory each at attention B4 H16 S4096 D128, the 1 GiB score chunk
 * included); and 1 where one check is too small to pay for a fork (under
 * CHECK_PAR_MIN_S by the estimate below), or where this process already
 * runs threads (a fork without exec is safe only from a single thread).
 * -1 with the reason in why for a bad EVIDENT_CHECK_JOBS.
 */
#define CHECK_JOBS_MAX 64
#define CHECK_PAR_MIN_S 0.005

static long long mem_available_bytes(void)
{
	struct strbuf sb = STRBUF_INIT;
	long long kb = -1;
	if (read_file("/proc/meminfo", &sb) == 0) {
		const char *m = strstr(sb.buf, "MemAvailable:");
		if (m && sscanf(m, "MemAvailable: %lld kB", &kb) != 1)
			kb = -1;
	}
	strbuf_release(&sb);
	if (kb >= 0)
		return kb * 1024;
	long pages = sysconf(_SC_AVPHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
	return pages > 0 && psize > 0 ? (long long)pages * psize : -1;
}

static int threads_of_self(void)
{
	struct strbuf sb = STRBUF_INIT;
	int n = -1;
	if (read_file("/proc/self/stat", &sb) == 0) {
		const char *p = strrchr(sb.buf, ')'); /* the name may hold spaces */
		/* after the name: state, then 16 fields to num_threads (field 20) */
		if (p && sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %d",
				&n) != 1)
			n = -1;
	}
	strbuf_release(&sb);
	return n;
}

static int checker_jobs(const struct judge *x, size_t n_caps, char *why, size_t whylen)
{
	const char *env = getenv("EVIDENT_CHECK_JOBS");
	if (env && *env) {
		char *end;
		errno = 0;
		long v = strtol(env, &end, 10);
		if (errno || *end || !isdigit((unsigned char)*env) || v < 1 || v > CHECK_JOBS_MAX) {
			snprintf(why, whylen, "EVIDENT_CHECK_JOBS is '%s', not a whole number from 1 to %d (unset it to "
					      "let the checker choose)",
				 env, CHECK_JOBS_MAX);
			return -1;
		}
		return n_caps < 2 ? 1 : (size_t)v > n_caps ? (int)n_caps : (int)v;
	}
	if (n_caps < 2 || threads_of_self() != 1)
		return 1;
	const struct problem *p = x->pl;
	double in_e = 0, out_e = 0, max_out = 0;
	for (int t = 0; t < p->n_inputs; t++)
		in_e += (double)problem_tensor_numel(p, t, x->job->shape);
	for (int o = 0; o < p->n_outputs; o++) {
		double e = (double)problem_tensor_numel(p, p->n_inputs + o, x->job->shape);
		out_e += e;
		max_out = e > max_out ? e : max_out;
	}
	/* one check's work, at the least: the problem's FLOPs at about
	 * 1 GFLOP/s (the float64 CPU reference; a GPU one is faster, but the
	 * fill below then dominates) and ~10 ns an element to fill the inputs
	 * and compare the outputs */
	double work_s = p->desc->flops(x->job->shape) / 1e9 + (in_e + out_e) * 1e-8;
	if (work_s < CHECK_PAR_MIN_S)
		return 1;
	cpu_set_t set;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) < cpus)
		cpus = CPU_COUNT(&set);
	long k = cpus < 1 ? 1 : cpus;
	k = k > 8 ? 8 : k;
	k = (size_t)k > n_caps ? (long)n_caps : k;
	if (x->be && x->be->uses_gpu && k > 4)
		k = 4;
	double per = in_e * 4 + out_e * 8 + max_out * (double)x->elem + 2 * in_e * 4;
	if (x->be && x->be->uses_gpu)
		per += out_e * 4;
	long long avail = mem_available_bytes();
	if (avail > 0 && per > 0) {
		double fit = (double)avail / 2 / per;
		k = fit < (double)k ? (long)fit : k;
	}
	return k < 1 ? 1 : (int)k;
}

struct judge_kid {
	pid_t pid; /* 0 once reaped */
	int fd;    /* the read end of its stdout, -1 once closed */
	FILE *in;
};

/*
 * Starts the process that judges captures c, c + K, ...: its stdout is a
 * pipe whose read end kids[c] gets.  Called before anything in this
 * process touches CUDA (a context does not survive fork), and only while
 * it runs one thread, so the child may run ordinary code (malloc, stdio,
 * the problem) without exec.  The child ends with _exit: no exit handler
 * of the parent's (cmocka's, the sanitizers') runs twice.  0, or -1 with
 * errno when no process could be started.
 */
static int judge_spawn(const struct judge *x, struct judge_kid *kids, int c, int K)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	fflush(stdout);
	fflush(stderr);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		close(p[0]);
		close(p[1]);
		errno = e;
		return -1;
	}
	if (pid == 0) {
		/* dies with the checker; a parent that already went: go too */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
			_exit(1);
		/* a parent that stopped reading (an earlier capture's error):
		 * the next line fails with EPIPE and the judge stops, freeing
		 * (and clearing) its references, instead of dying in SIGPIPE */
		signal(SIGPIPE, SIG_IGN);
		for (int k = 0; k < c; k++)
			close(kids[k].fd);
		close(p[0]);
		if (dup2(p[1], STDOUT_FILENO) < 0)
			_exit(1);
		close(p[1]);
		int rc = judge_captures(x, (size_t)c, (size_t)K);
		if (fflush(stdout) != 0)
			rc = -1;
		_exit(rc < 0 ? 1 : 0);
	}
	close(p[1]);
	kids[c].pid = pid;
	kids[c].fd = p[0];
	kids[c].in = NULL;
	return 0;
}

static void describe_status(int st, char *buf, size_t len)
{
	if (WIFSIGNALED(st))
		snprintf(buf, len, "was killed by signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
	else if (WIFEXITED(st))
		snprintf(buf, len, "exited with status %d", WEXITSTATUS(st));
	else
		snprintf(buf, len, "ended (wait status %#x)", (unsigned)st);
}

static int reap(struct judge_kid *k, int *st)
{
	pid_t r;
	do
		r = waitpid(k->pid, st, 0);
	while (r < 0 && errno == EINTR);
	k->pid = 0;
	return r < 0 ? -1 : 0;
}

/* Closes every read end (a judge still running stops at its next line)
 * and reaps every process: no zombie, no descriptor left. */
static void judge_kids_end(struct judge_kid *kids, int K)
{
	for (int c = 0; c < K; c++) {
		if (kids[c].in)
			fclose(kids[c].in);
		else if (kids[c].fd >= 0)
			close(kids[c].fd);
		kids[c].in = NULL;
		kids[c].fd = -1;
	}
	for (int c = 0; c < K; c++) {
		int st;
		if (kids[c].pid > 0)
			reap(&kids[c], &st);
	}
}

static int is_error_line(const char *line)
{
	json_t *m = json_loads(line, 0, NULL);
	const char *k = json_string_value(json_object_get(m, "msg"));
	int e = !k || strcmp(k, "check") != 0;
	json_decref(m);
	return e;
}

/*
 * The parent's part: each capture's line from the process that judged it,
 * in capture order, copied to stdout byte for byte, so the parent of the
 * checker reads what one process would have written.  The first error in
 * capture order ends it, as in one process; a process that ended without
 * a capture's line, or badly after its last, is an error line here.  0,
 * or -1 after an error line.
 */
static int judge_merge(struct judge_kid *kids, int K, size_t n)
{
	char *line = NULL, why[512];
	size_t cap = 0;
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		struct judge_kid *k = &kids[i % (size_t)K];
		ssize_t len = getline(&line, &cap, k->in);
		if (len <= 0 || line[len - 1] != '\n') {
			int st = 0;
			char how[128] = "ended";
			if (reap(k, &st) == 0)
				describe_status(st, how, sizeof(how));
			snprintf(why, sizeof(why),
				 "the checker's process %d of %d (captures %d, %d + %d, ...) %s before its line for "
				 "capture %zu",
				 (int)(i % (size_t)K) + 1, K, (int)(i % (size_t)K), (int)(i % (size_t)K), K, how, i);
			fail(why);
			rc = -1;
			break;
		}
		if (fputs(line, stdout) == EOF || fflush(stdout) != 0)
			rc = -1;
		if (is_error_line(line))
			rc = -1;
	}
	/* every process, its lines all read: nothing more, and a clean end */
	for (int c = 0; c < K && rc == 0; c++) {
		int st = 0, extra = getline(&line, &cap, kids[c].in) > 0;
		char how[128];
		if (reap(&kids[c], &st) < 0 || extra || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
			describe_status(st, how, sizeof(how));
			snprintf(why, sizeof(why), "the checker's process %d of %d %s after its last capture's line", c + 1,
				 K, extra ? "wrote more lines" : how);
			fail(why);
			rc = -1;
		}
	}
	free(line);
	return rc;
}

int checker_main(const char *path)
{
	json_error_t je;
	json_t *cj = json_load_file(path, 0, &je);
	struct job job;
	struct problem pl = PROBLEM_INIT;
	struct strbuf pwhy = STRBUF_INIT;
	struct strbuf cap = STRBUF_INIT;
	struct judge_kid kids[CHECK_JOBS_MAX];
	int rc = 1, K = 1;
	if (!cj) {
		fprintf(stderr, "evident checker: cannot read '%s': %s\n", path, je.text);
		return 2;
	}
	if (job_from_json(json_object_get(cj, "job"), &job) < 0)
		goto out;
	const struct backend *be = backend_find(job.backend);
	if (problem_open_so(job.problem_so, job.problem, &pl, &pwhy) < 0) {
		fail(pwhy.buf);
		strbuf_release(&pwhy);
		goto out;
	}
	strbuf_release(&pwhy);
	struct judge x = { .job = &job, .be = be, .pl = &pl, .cap = &cap, .fault_kill = -1 };
	x.dtype = dtype_from_name(job.dtype);
	json_t *t = json_object_get(cj, "tolerance");
	x.tol.atol = json_number_value(json_object_get(t, "atol"));
	x.tol.rtol = json_number_value(json_object_get(t, "rtol"));
	x.tol.rel_l2 = json_number_value(json_object_get(t, "rel_l2"));
	x.elem = dtype_size(x.dtype);
	const char *cap_path = json_string_value(json_object_get(cj, "captures_file"));
	if (!cap_path || read_file(cap_path, &cap) < 0) {
		fail("cannot read the captured outputs");
		goto out;
	}
	/* a sealed planner's own seed outputs (job.c run_checker_with): after
	 * the worker's, in the same buffer */
	x.plan_at = cap.len;
	const char *plan_path = json_string_value(json_object_get(cj, "plan_captures_file"));
	if (plan_path) {
		struct strbuf pcap = STRBUF_INIT;
		if (read_file(plan_path, &pcap) < 0) {
			strbuf_release(&pcap);
			fail("cannot read the planner's captured outputs");
			goto out;
		}
		strbuf_add(&cap, pcap.buf, pcap.len);
		strbuf_release(&pcap);
	}
	x.focus_secret = (uint64_t)json_integer_value(json_object_get(cj, "focus_secret"));
	x.caps = json_object_get(cj, "captures");
	size_t n = json_array_size(x.caps);
	char why[256];
	K = checker_jobs(&x, n, why, sizeof(why));
	if (K < 0) {
		fail(why);
		goto out;
	}
	x.jobs = K;
	if (K > 1) {
		/* the processes start before this one touches CUDA (the cross
		 * check's reference below opens a context) */
		const char *fk = getenv("EVIDENT_CHECK_FAULT_KILL");
		x.fault_kill = fk && *fk ? atoll(fk) : -1;
		for (int c = 0; c < K; c++) {
			kids[c].pid = 0;
			kids[c].fd = -1;
			kids[c].in = NULL;
		}
		for (int c = 0; c < K; c++)
			if (judge_spawn(&x, kids, c, K) < 0) {
				/* no more processes: those started stop at their
				 * first line, and one process judges everything */
				fprintf(stderr, "evident checker: cannot start judge %d of %d (%s): judging in one process\n",
					c + 1, K, strerror(errno));
				judge_kids_end(kids, c);
				K = x.jobs = 1;
				x.fault_kill = -1;
				break;
			}
		for (int c = 0; c < K && K > 1; c++)
			if (!(kids[c].in = fdopen(kids[c].fd, "r")))
				die("cannot read the checker's process %d: %s", c + 1, strerror(errno));
	}
	if (be && be->reference && json_is_true(json_object_get(cj, "cross_check")))
		cross_check(be, &job, &pl, x.dtype);
	int jr = K > 1 ? judge_merge(kids, K, n) : judge_captures(&x, 0, 1);
	if (K > 1)
		judge_kids_end(kids, K);
	if (jr == 0) {
		/* jobs: how many processes judged (the record's judge.checker_jobs) */
		emit(json_pack("{s:s, s:i}", "msg", "done", "jobs", K));
		rc = 0;
	}
out:
	strbuf_release(&cap);
	problem_release(&pl);
	json_decref(cj);
	return rc;
}
