/*
 * kexec.c - the three kernel executors (kexec.h): in_process, the host
 * backend's parent_clock, and the CUDA backend's sealed path with its
 * planner.  Each prepare() runs in the parent before the worker starts.
 */
#include "run/kexec.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "backends/sanitize.h"
#include "backends/seal.h"
#include "backends/worker.h"
#include "base/sandbox.h"
#include "base/util.h"

/* ---- in_process ---------------------------------------------------------- */

static int in_process_prepare(struct run_ctx *c, struct wrun *w)
{
	(void)c;
	(void)w;
	return KEXEC_GO;
}

const struct kexec kexec_in_process = { .name = "in_process", .trust = "host", .view = SANDBOX_VIEW_SYSTEM,
				    .prepare = in_process_prepare };
const struct kexec kexec_planner = { .name = "in_process", .trust = "sealed", .view = SANDBOX_VIEW_COPIES,
				    .prepare = in_process_prepare };
/* a host kernel's untimed jobs (its seeds and extra shape): the timed
 * job's view, no live /proc, so that no box of a host kernel reads a
 * host-wide counter there (red team 267: stat("/proc/self/fd/3") gave the
 * runner's pipe inode, get_next_ino's, in 10 of 10 extra-shape boxes) */
const struct kexec kexec_host_in_process = { .name = "in_process", .trust = "host",
					 .view = SANDBOX_VIEW_COPIES_NO_PROC, .prepare = in_process_prepare };

/* ---- parent_clock: the host backend's timed job ---------------------------- */

/* The parent times the samples, in memory it shares with the worker
 * (host_clock.c).  The extra shape's job (untimed: w->job.timing 0) is
 * prepared the same way, its shared memory at its own shape, its worker
 * calibrated and handed that memory at HOST_SHM_FD; only its drive
 * differs, ending it at its timing_ready (host_clock_end).  Red team 282:
 * its worker had no descriptor 6 and ran no calibration, and a kernel
 * that asked fcntl(6, F_GETFD) in init was exact there alone (phasetail:
 * ok 18 of 18, validated supported 2 of 2, while wrong at 63 of every 64
 * values of C in every timed worker). */
static int parent_clock_prepare(struct run_ctx *c, struct wrun *w)
{
	const struct problem *pr = &c->plan.problem;
	struct host_clock *hc = &w->hc;
	hc->pr = pr;
	hc->job = &w->job;
	hc->filler = NULL;
	if (pr->remote && w->job.timing) { /* the extra shape fills nothing here */
		/* a described problem's fill() runs in a box of its own
		 * (problem_box.c), the problem's for the run's timed jobs,
		 * started (on the first) before the worker, so that its start
		 * is not the worker's time */
		struct strbuf fw = STRBUF_INIT;
		hc->filler = problem_filler_for(pr, w->job.shape, w->job.k.timeout_s, &fw);
		if (!hc->filler && !runcmd_interrupted) /* else the stop is why: the job is recorded aborted */
			error("problem '%s': cannot start its fill box: %s", pr->name, fw.buf);
		strbuf_release(&fw);
		if (!hc->filler)
			return -1;
	}
	hc->shm_bytes = worker_shm_layout(pr, w->job.shape, hc->off);
	/* sealed at its size: a worker that shrinks it would kill the parent
	 * with SIGBUS at its next read (red team shm_truncate) */
	w->shm_fd = memfd_create("evident-host-io", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (w->shm_fd < 0 || ftruncate(w->shm_fd, (off_t)hc->shm_bytes) < 0 ||
	    fcntl(w->shm_fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) < 0 ||
	    (hc->shm = mmap(NULL, hc->shm_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, w->shm_fd, 0)) == MAP_FAILED) {
		hc->shm = NULL;
		return error("cannot make the worker's shared memory (%zu bytes): %s", hc->shm_bytes, strerror(errno));
	}
	hc->boxed = c->sb.on;
	hc->deadline = mono_now() + w->job.k.timeout_s;
	hc->handshake_us = NAN;
	hc->thread_cost_us = NAN;
	w->proto.calibrate = host_clock_calibrate;
	w->proto.drive = w->job.timing ? host_clock_drive : host_clock_end;
	w->proto.drive_ctx = hc;
	return KEXEC_GO;
}

const struct kexec kexec_parent_clock = { .name = "parent_clock", .trust = "host", .view = SANDBOX_VIEW_COPIES_NO_PROC,
				    .prepare = parent_clock_prepare };

/* ---- sealed: a planner, then a worker that replays its plan ------------------- */

/*
 * The planner is a worker of phase "plan" (in_process: the kernel's host
 * code runs there, in the box): it loads the kernel, runs init, captures
 * one launch, runs launch() as is on its seeds (the main phase's planner)
 * and sends the plan.  Its plan goes to the timing worker as a
 * memfd at SEAL_PLAN_FD; the worker checks it (backends/seal.h) before
 * replaying anything.  A planner that fails ends the job's worker part
 * with its own evidence (its failure message names the phase "plan").
 */
void kexec_planner_job(const struct job *of, int n_dists, struct job *out)
{
	*out = *of;
	out->phase = "plan";
	out->seeds = 0;
	out->timing = 0;
	out->seed0 = out->timing_seed = out->scramble_seed = 0;
	out->first_set = 0;
	/* the planner's watch over the modules its process loads (modwatch.h)
	 * is on unless the runner's own environment says EVIDENT_MODWATCH=off */
	const char *mw = getenv("EVIDENT_MODWATCH");
	out->modwatch_off = mw && !strcmp(mw, "off");
	/* the main phase's planner also runs launch() as is on seeds of its
	 * own, one a distribution as the main phase's, whose outputs the
	 * parent's checker judges with the run's (job.c job_planner_checks):
	 * what a capture holds is only what launch() put on its stream, and
	 * work it ran elsewhere, unseen (red team 67's cupti_off: a side
	 * kernel launched with CUPTI's records switched off, ok at 8.77 us
	 * sealed, wrong in its own process), shows in its own outputs.  Seeds
	 * and a scramble drawn here, not the main phase's: the planner runs
	 * the kernel's host code, which must learn nothing of the inputs the
	 * replay is checked on */
	if (of->phase && !strcmp(of->phase, "main") && of->seeds > 0) {
		/* at least one a distribution (seed i is of distribution i mod
		 * n): the main phase's timed samples rotate through them all,
		 * and these are the planner's only checks (red team 69's
		 * dist_spoil: spoiled only on positive inputs, which 2 seeds of
		 * rowsum's 3 distributions never drew) */
		out->seeds = of->seeds > n_dists ? of->seeds : n_dists;
		do
			out->seed0 = random_secret_u64() >> 2;
		while (out->seed0 == of->seed0);
		do
			out->scramble_seed = random_secret_u64();
		while (!out->scramble_seed || out->scramble_seed == of->scramble_seed);
	}
}

/*
 * The plan's identity (seal.h seal_plan_identity), in w->plan_identity,
 * from the plan parsed here as the sealed worker will parse it; "" when it
 * does not parse (the worker then refuses it with the reason).
 */
static void plan_identity(const struct run_ctx *c, struct wrun *w)
{
	const struct problem *pr = &c->plan.problem;
	size_t elem = dtype_size(c->plan.dtype), in_bytes[8], out_bytes[8];
	int n_in = 0, n_out = 0;
	w->plan_identity[0] = w->plan_launches[0] = '\0';
	w->plan_kernels = w->plan_marked = w->plan_devlaunch = 0;
	for (int t = 0; t < pr->desc->n_tensors && t < 8; t++) {
		size_t b = problem_tensor_numel(pr, t, w->job.shape) * elem;
		if (t < pr->n_inputs)
			in_bytes[n_in++] = b;
		else
			out_bytes[n_out++] = b;
	}
	struct seal_plan sp;
	char *why = NULL;
	if (seal_plan_parse(w->plan, in_bytes, n_in, out_bytes, n_out, &sp, &why) < 0) {
		free(why);
		return;
	}
	/* the parameter bytes its device code reads, from the object's PTX
	 * (seal_param_reads: a struct's padding is left out) */
	unsigned char *fat = NULL, **masks = xcalloc((size_t)sp.plan.n_steps + 1, sizeof(*masks));
	const void *imgs[16];
	size_t img_bytes[16];
	char *fwhy = NULL;
	int n_img = seal_fatbin_images(w->job.kernel_so, &fat, imgs, img_bytes, 16, &fwhy);
	free(fwhy);
	/* what a sanitized run's window counts (job.c sanitize_one): the
	 * grids one replayed launch makes, and whether one of them would be
	 * taken for the harness's by the tool's name filter */
	for (int i = 0; i < sp.plan.n_steps; i++) {
		const struct evc_step *st = &sp.plan.steps[i];
		if (st->kind != EVC_STEP_KERNEL)
			continue;
		w->plan_kernels++;
		if (st->name && strstr(st->name, SANITIZE_HARNESS_MARK))
			w->plan_marked = 1;
	}
	/* grids its device code launches (dynamic parallelism, which the
	 * replay allows under the events clock), or device code not readable
	 * here that could: then the plan's steps are not every grid of the
	 * kernel's, and one of those could carry the mark; the sanitizers
	 * filter nothing by name (job.c sanitize_one) */
	if (n_img > 0)
		w->plan_devlaunch = seal_fatbin_unnamed_grids(imgs, img_bytes, n_img);
	for (int i = 0; n_img > 0 && i < sp.plan.n_steps; i++) {
		const struct evc_step *st = &sp.plan.steps[i];
		if (st->kind != EVC_STEP_KERNEL || !st->args_bytes)
			continue;
		masks[i] = xmalloc(st->args_bytes);
		seal_param_reads(imgs, img_bytes, n_img, st->name, st->args_bytes, st->param_off, st->n_params,
				 masks[i]);
	}
	seal_plan_identity(&sp, w->plan_identity, w->plan_launches, (const unsigned char *const *)masks);
	for (int i = 0; i < sp.plan.n_steps; i++)
		free(masks[i]);
	free(masks);
	free(fat);
	seal_plan_release(&sp);
}

/*
 * Is w's plan the plan its kernel object made at this shape before, in
 * this runner?  A sealed kernel's host code runs only in the planner, so
 * the plan is the one place where anything it read of the host (a count
 * of its own runs kept in a counter the host shares: red teams 30-33 and
 * 52, 80's for host kernels; the time) can change what is timed; one code
 * at one shape must make one plan (its pointers aside).  1: the same, or
 * the first; 0: another, with the job failed (launch_failed, error
 * plan_unstable) and its reason in w->proto.failure.
 */
static int plan_same(struct run_ctx *c, struct wrun *w)
{
	if (!w->plan_identity[0])
		return 1;
	if (!c->plan_ids)
		c->plan_ids = json_object();
	struct strbuf key = STRBUF_INIT;
	strbuf_addf(&key, "%s|", w->job.kernel_so);
	for (int d = 0; d < w->job.n_dims; d++)
		strbuf_addf(&key, "%s%lld", d ? "x" : "", w->job.shape[d]);
	json_t *seen = json_object_get(c->plan_ids, strbuf_str(&key));
	if (!seen) {
		json_object_set_new(c->plan_ids, strbuf_str(&key),
				    json_pack("{s:s, s:s}", "identity", w->plan_identity, "launches", w->plan_launches));
		strbuf_release(&key);
		return 1;
	}
	strbuf_release(&key);
	const char *first = json_string_value(json_object_get(seen, "identity"));
	if (first && !strcmp(first, w->plan_identity))
		return 1;
	const char *launches = json_string_value(json_object_get(seen, "launches"));
	int same_launches = launches && !strcmp(launches, w->plan_launches);
	char *why = xstrfmt("sealed: this plan (identity %.16s) is not the plan the same kernel object made at this "
			    "shape earlier in this run (identity %.16s): %s, so the times would not be one kernel's.  "
			    "A sealed kernel's plan must follow from its code, its parameters and the shape alone "
			    "(%s); a kernel that chooses at run time (autotuning, a clock) runs with trust: host",
			    w->plan_identity, first ? first : "?",
			    same_launches ? "its launches are the same, but what init() left in device memory (scratch "
					    "or module globals) differs"
					  : "its host code chose other launches in another process (kernels, grids, "
					    "parameters or their attributes)",
			    same_launches ? "an init() whose results hang on the order of atomic operations leaves other "
					    "bytes in each process: make it deterministic"
					  : "a struct passed by value: fill every field, its padding bytes are in the plan");
	json_decref(w->proto.failure);
	w->proto.failure = json_pack("{s:s, s:s, s:s, s:s}", "outcome", "launch_failed", "error", "plan_unstable",
				     "reason", why, "phase", w->job.phase);
	free(why);
	return 0;
}

/*
 * A sealed kernel's object may load no library of the GPU driver's
 * (sandbox_driver_library): the worker provides the driver, and a box of
 * copies would hold what the object names, the driver's PTX JIT compiler
 * included (red team 58: `-Xlinker --no-as-needed
 * -l:libnvidia-ptxjitcompiler.so.1` put it in the planner's and the
 * timing worker's boxes).  1 with the job failed (launch_failed, error
 * sealed), before any box starts; else 0.  trust: host is not asked: its
 * box is the system's.
 */
static int sealed_driver_library(struct wrun *w)
{
	char *lib = w->job.kernel_so ? sandbox_driver_library(w->job.kernel_so) : NULL;
	if (!lib)
		return 0;
	char *why = xstrfmt("sealed: the kernel object loads a library of the GPU driver's, %s; a sealed kernel has "
			    "no use for one (the worker provides the driver), and its box would hold it (the driver's "
			    "PTX JIT compiler among them): drop it from the spec's flags or the kernel's libs, or "
			    "declare trust: host",
			    lib);
	json_decref(w->proto.failure);
	w->proto.failure = json_pack("{s:s, s:s, s:s, s:s}", "outcome", "launch_failed", "error", "sealed",
				     "reason", why, "phase", w->job.phase);
	free(why);
	free(lib);
	return 1;
}

static int sealed_prepare(struct run_ctx *c, struct wrun *w)
{
	struct wrun pw;
	if (sealed_driver_library(w))
		return KEXEC_ENDED;
	memset(&pw, 0, sizeof(pw));
	pw.cap_fd = pw.job_fd = pw.shm_fd = pw.plan_fd = -1;
	kexec_planner_job(&w->job, c->plan.problem.desc ? c->plan.problem.desc->n_dists : 0, &pw.job);
	pw.exec = &kexec_planner;
	pw.prog = w->prog;
	double t0 = mono_now();
	if (run_worker(c, &pw) < 0) {
		wrun_release(&pw);
		return -1;
	}
	w->plan_seconds = mono_now() - t0;
	/* the planner ran the kernel's host code: its OOM score is the job's */
	if (pw.oom_reads && (!w->oom_reads || pw.oom_score_adj < w->oom_score_adj)) {
		w->oom_score_adj = pw.oom_score_adj;
		w->oom_reads += pw.oom_reads;
	}
	struct strbuf how = STRBUF_INIT;
	run_result_describe(&pw.rr, &how);
	strbuf_addf(&w->err, "planner (phase plan, %s):\n%s", strbuf_str(&how), pw.err.buf ? pw.err.buf : "");
	strbuf_release(&how);
	if (pw.out.len)
		strbuf_addf(&w->err, "planner stdout:\n%s", pw.out.buf);
	/* planned once the plan is in: the parent then kills the planner's box
	 * (job.c on_chan, end_grace_s 0), its fini() and whatever else its
	 * kernel's code had left to run with it (red team 13, rt13_slot_hog) */
	int planned = pw.proto.plan && !pw.proto.violation && !pw.proto.failure;
	if (planned)
		w->planner_end = pw.rr.killed_at_end ? "killed when its plan arrived: no kernel code runs after it"
						     : "had ended by itself when its plan was read";
	if (!planned) {
		/* the planner's evidence is the job's: it ran the kernel's code */
		struct proto keep = w->proto;
		w->proto = pw.proto;
		w->proto.phase = keep.phase;
		w->proto.seeds = keep.seeds;
		w->proto.timed = keep.timed;
		memset(&pw.proto, 0, sizeof(pw.proto));
		proto_release(&keep);
		w->rr = pw.rr;
		if (w->proto.got_done && !w->proto.failure && !w->proto.violation)
			proto_violate(&w->proto, "the planner finished without sending a plan");
		wrun_release(&pw);
		return KEXEC_ENDED;
	}
	w->plan = json_incref(pw.proto.plan);
	if (pw.job.seeds > 0) {
		w->planner = xmalloc(sizeof(*w->planner));
		*w->planner = pw; /* its captures, job and protocol: judged by job.c job_judge */
		w->planner->proto.keep_ctx = w->planner;
	} else {
		wrun_release(&pw);
	}
	plan_identity(c, w);
	if (!plan_same(c, w))
		return KEXEC_ENDED;
	w->plan_fd = json_memfd(w->plan, "evident-plan");
	return w->plan_fd < 0 ? -1 : KEXEC_GO;
}

const struct kexec kexec_sealed = { .name = "sealed", .trust = "sealed", .view = SANDBOX_VIEW_COPIES,
				    .prepare = sealed_prepare };

/* ---- sealed_replay: the sanitizers' worker, on the main phase's plan ---------- */

/*
 * A sealed variant's compute-sanitizer runs (job.c job_sanitize) watch the
 * code that is timed: the sealed worker replaying the very plan the main
 * phase timed (w->plan, its identity in w->plan_identity, both set by the
 * caller from the main worker: the same plan, the same bytes).  The
 * kernel's host code does not run there at all, so nothing in it can tell
 * the sanitizer's run from the planner's (red team 56: a launch() that
 * enqueued a racy kernel under capture and a clean twin, or nothing, in
 * process).  No plan (the main phase's planner sent none): the worker's
 * part ends here, with that failure.
 */
static int replay_prepare(struct run_ctx *c, struct wrun *w)
{
	(void)c;
	if (!w->plan) {
		json_decref(w->proto.failure);
		w->proto.failure = json_pack("{s:s, s:s, s:s, s:s}", "outcome", "launch_failed", "error", "sealed",
					     "reason", "no plan to replay: the main phase's planner sent none",
					     "phase", w->job.phase);
		return KEXEC_ENDED;
	}
	w->plan_fd = json_memfd(w->plan, "evident-plan");
	return w->plan_fd < 0 ? -1 : KEXEC_GO;
}

/* The system view: compute-sanitizer (the box's program, which starts the
 * worker) needs the toolkit's own tree and the system's libraries it
 * injects into the worker; the worker loads no code of the kernel's but
 * its device code. */
const struct kexec kexec_replay = { .name = "sealed_replay", .trust = "sealed", .view = SANDBOX_VIEW_SYSTEM,
				    .prepare = replay_prepare };

/*
 * A sealed variant's extra shape is sealed too: planned at that shape and
 * replayed.  In process, launch() runs without stream capture, and a
 * launch() that asks cudaStreamIsCapturing could show the extra shape an
 * honest kernel while the plan that is timed holds another (red team 3,
 * rt3_capture_dispatch): the extra shape must check the code the judge
 * times.  So must the sanitizers (red team 56): their phase "sanitize"
 * replays the main phase's plan (kexec_replay).
 */
const struct kexec *kexec_for(const struct backend *be, const struct job *job, const char *trust)
{
	int main_phase = !strcmp(job->phase, "main");
	/* the host extra shape's worker is prepared as the timed one (red
	 * team 282, parent_clock_prepare) */
	if (!be->uses_gpu)
		return (main_phase && job->timing) || !strcmp(job->phase, "shape") ? &kexec_parent_clock
										     : &kexec_host_in_process;
	int sealed = trust && !strcmp(trust, "sealed");
	if ((main_phase || !strcmp(job->phase, "shape")) && sealed)
		return &kexec_sealed;
	if (!strcmp(job->phase, "sanitize") && sealed)
		return &kexec_replay;
	return &kexec_in_process;
}
