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
#include <errno.h>
#include <sys/mman.h>
#include <math.h>
#include <pthread.h>
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

/* -Werror=date-time: __DATE__, __TIME__ and __TIMESTAMP__ are refused, so
 * an object holds no time of its build: the build cache serves the first
 * build's bytes to every later run, and a kernel that compared the time
 * it was compiled at with the box's clock was slow once its object was
 * old, as the incumbent's always is (red team 52's build_clock: eval
 * promoted 10 of 12 candidates that were not faster, and a search
 * confirmed a 9.3x promotion) */
/* -s: linked stripped (no .symtab, .strtab or debug sections), as
 * backend_cuda.c links: an unstripped object keeps its source's name in
 * .symtab's STT_FILE symbol, which the loader never maps, so two copies of
 * one source under two names were two files (two load paths, named by
 * the file's hash: build.c publish_by_object) with one loaded image and
 * one code hash, which the code identity took as one program while the
 * kernel read which one it was from its own load path (red team 178's
 * pathtwin: a copy 4.9x faster than its twin, "an A/A pair"; an eval
 * incumbent's fast copy set its code's fastest and held every honest
 * challenger, 3 of 3).  Stripped, byte-identical sources under any names
 * build one file. */
static const char *const host_flags[] = { "-O2", "-std=c11", "-shared", "-fPIC", "-Werror=date-time", "-s", NULL };

static int host_build(const struct build_request *rq, struct build_result *res)
{
	const char *cc = getenv("EVIDENT_HOST_CC");
	struct build_recipe r = {
		.compiler = cc && *cc ? cc : "cc",
		.base_flags = host_flags,
		.version_flag = "--version",
		.classify = host_classify,
		/* a variant with parameters: its echo-neutral identity, the
		 * hash of its own compile's relocatable object with its EV_PARAM
		 * echo's bytes cut out (build.h, echo_mask.h): two variants of one file
		 * whose parameters reach only the echo share it.  No second
		 * build with a header forced in, which a kernel could tell apart
		 * and compile otherwise (red team 125) */
		.echo_mask = 1,
	};
	return build_run(rq, &r, res);
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
 * The timed samples, timed by the parent (worker.h, run/host_clock.c):
 * this process only maps the parent's shared memory, points the launch at
 * it, says timing_ready and then launches once per HOST_GO, answering
 * HOST_DONE_LINE.  It keeps no clock, draws no input and ships nothing:
 * the parent stops it between samples, writes the inputs, reads the
 * outputs and times the round trip.  0, or -1 after a failure message.
 */
static int parent_timed(const struct problem *pl, const struct job *job, struct ev_launch *l,
			const struct ev_kernel_desc *k, unsigned char *shm)
{
	size_t off[8];
	size_t bytes = worker_shm_layout(pl, job->shape, off);
	if (shm == MAP_FAILED) {
		proto_w_failure("launch_failed", "shm", "cannot map the parent's shared memory (fd 6)", "timing");
		return -1;
	}
	for (int t = 0; t < pl->n_inputs; t++)
		l->inputs[t].data = shm + off[t];
	for (int o = 0; o < pl->n_outputs; o++)
		l->outputs[o].data = shm + off[pl->n_inputs + o];
	proto_w_send("timing_ready", json_pack("{s:I}", "bytes", (json_int_t)bytes));
	static const char done[] = HOST_DONE_LINE;
	for (;;) {
		char c;
		ssize_t r = read(PROTO_IN_FD, &c, 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r != 1 || c == HOST_END)
			return r == 1 ? 0 : -1;
		if (c == HOST_GO && k->launch(l) != 0) {
			proto_w_failure("launch_failed", "launch", "launch() returned non-zero", "timing");
			return -1;
		}
		if (write(PROTO_OUT_FD, done, sizeof(done) - 1) != (ssize_t)(sizeof(done) - 1))
			return -1;
	}
}

/*
 * The handshake's calibration (protocol.h calibrate_ready, run/host_clock.c
 * host_clock_calibrate): before anything of the problem's or the kernel's
 * loads, answer the parent's null rounds until HOST_END, the HOST_POOL
 * ones with HOST_CAL_THREADS threads parked beside it (ended and joined at
 * HOST_END, before the kernel loads).  0, or -1 when the channel says
 * anything else.
 */
static void *parked(void *arg)
{
	int fd = *(const int *)arg;
	char c;
	while (read(fd, &c, 1) < 0 && errno == EINTR)
		;
	return NULL;
}

/* The calibration's parked threads (HOST_POOL): started once, ended and
 * joined by pool_end.  0, or -1 when they do not start. */
static int pool_fd[2] = { -1, -1 };
static pthread_t pool_t[HOST_CAL_THREADS];
static int pool_n;

static int pool_start(void)
{
	if (pool_fd[0] >= 0)
		return 0;
	if (pipe(pool_fd) < 0)
		return -1;
	for (pool_n = 0; pool_n < HOST_CAL_THREADS; pool_n++)
		if (pthread_create(&pool_t[pool_n], NULL, parked, &pool_fd[0]) != 0)
			return -1;
	return 0;
}

static void pool_end(void)
{
	if (pool_fd[0] < 0)
		return;
	close(pool_fd[1]); /* every parked read() ends */
	for (int i = 0; i < pool_n; i++)
		pthread_join(pool_t[i], NULL);
	close(pool_fd[0]);
	pool_fd[0] = pool_fd[1] = -1;
	pool_n = 0;
}

static int serve_null_rounds(void)
{
	static const char done[] = HOST_DONE_LINE;
	proto_w_send("calibrate_ready", NULL);
	for (;;) {
		char c;
		ssize_t r = read(PROTO_IN_FD, &c, 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r != 1 || (c != HOST_NULL && c != HOST_POOL && c != HOST_END)) {
			pool_end();
			return -1;
		}
		if (c == HOST_END) {
			pool_end();
			return 0;
		}
		if (c == HOST_POOL && pool_start() < 0) {
			pool_end();
			return -1;
		}
		if (write(PROTO_OUT_FD, done, sizeof(done) - 1) != (ssize_t)(sizeof(done) - 1)) {
			pool_end();
			return -1;
		}
	}
}

/*
 * The host worker (protocol.h): correctness launches on fresh inputs,
 * every output scrambled before its launch and shipped, then the timed
 * samples the parent drives (parent_timed).  It never sees a reference.
 */
static int host_worker(const struct job *job)
{
	char err[512] = "";
	struct problem pl;
	struct strbuf why = STRBUF_INIT;
	if (proto_w_open() < 0)
		return 2;
	/* first: what its box is, before any object but the worker's loads */
	proto_w_send("hello", json_pack("{s:i, s:i, s:o}", "protocol", PROTOCOL_VERSION, "pid", (int)getpid(), "box",
					worker_box_seen(1)));
	/* and nothing more until the parent has judged that box (protocol.h) */
	if (proto_w_wait_go() < 0)
		return 2;
	if (job->timing && serve_null_rounds() < 0)
		return 2;
	if (problem_open_so(job->problem_so, job->problem, &pl, &why) < 0) {
		proto_w_send("device", json_pack("{s:s}", "backend", "host"));
		proto_w_failure("init_failed", "problem", why.buf, "load");
		strbuf_release(&why);
		return 1;
	}
	strbuf_release(&why);
	proto_w_send("device", json_pack("{s:s, s:i}", "backend", "host", "threads", worker_thread_count()));
	/* the parent's shared memory, mapped before the kernel's object loads:
	 * the worker's filter then refuses every shared mapping (sandbox.h
	 * sandbox_no_exec) */
	unsigned char *shm = MAP_FAILED;
	if (job->timing) {
		size_t off[8];
		shm = mmap(NULL, worker_shm_layout(&pl, job->shape, off), PROT_READ | PROT_WRITE, MAP_SHARED,
			   HOST_SHM_FD, 0);
	}
	const struct ev_kernel_desc *k = worker_no_exec(1) < 0 ? NULL : worker_load_kernel(job, "host");
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
	int n_sets = 1;
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

	if (job->timing && parent_timed(&pl, job, &l, k, shm) < 0)
		goto out;
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
	/* as on cuda: one process a side decides nothing (stats.h, rule 0) */
	.default_repeats = 3,
	.rotation_bytes = 128.0 * (1 << 20),
	.probe = host_probe,
	.build = host_build,
	.worker = host_worker,
};
