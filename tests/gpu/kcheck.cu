/*
 * kcheck.cu - a standalone GPU checker for attention_fwd kernel objects,
 * independent of the evident runner.
 *
 * For each kernel .so on the command line it forks a child that dlopen()s
 * it, checks the ABI, and for each shape: uploads fp16 Q, K, V drawn from a
 * fixed-seed RNG (distribution below), poisons O with 0xFFFF (an fp16 NaN
 * pattern no kernel computes), calls init, launch, synchronises, and
 * compares O with a float64 CPU reference (computed once in the parent from
 * the same fp16-rounded inputs, heads in parallel with OpenMP): max |err|,
 * relative L2 error, NaNs, unwritten elements (still 0xFFFF).  A correct
 * launch is then timed (5 warm-up, N timed launches, one pair of cudaEvents
 * around each; median and min; with --cold, a memset of twice the L2 size
 * on the stream before each timed launch, outside its events, as evident's
 * `cache: cold` does) and re-run once with the inputs
 * moved: fresh copies of Q, K, V and a fresh poisoned O at new addresses,
 * the old inputs overwritten with NaNs.  A kernel that kept pointers from
 * init or an earlier launch then writes NaNs or nothing (status
 * stale_pointers); any other difference is noted as "output not bitwise
 * repeatable".  The child reports through a pipe; the parent enforces a
 * per-kernel timeout (kills the child: "timeout"), records crashes and
 * signals, and prints one table row per (kernel, shape) last.
 *
 * Input distributions (--dist, for the --shape options after it):
 *   uniform  Q, K, V uniform in [-1, 1) (the default)
 *   peaked   K, V uniform; Q row i = 8 * K row (7i+3) mod S of its head,
 *            so every row has one dominant key (score ~2.7*sqrt(D) over a
 *            spread of ~2.7)
 *   large    Q, K uniform in [-9, 9), V in [-1, 1): |scale*q.k| reaches
 *            ~150, which overflows exp() without the max subtraction
 *   bigv     Q, K in [-1, 1), V uniform in [-100, 100)
 * The max |err| tolerance scales with max |V|; the relative L2 one does
 * not.  The largest |scale*q.k| of each shape is printed before the table.
 * Shapes whose reference would cost more than 2^32 multiply-adds are
 * checked on a sample of rows (every head's last row and an even spread
 * of the others; NaNs and unwritten elements are counted everywhere).
 *
 * Usage: kcheck [--timeout SEC] [--iters N] [--cold] [--dist NAME] [--shape B,H,S,D]...
 *               KERNEL.so[=EXPECTED]...
 * EXPECTED is the status every shape that ran must have (ok, wrong_output,
 * nan, unwritten_output, stale_pointers, crashed, launch_failed,
 * init_refused, timeout); the default is ok.  Exit: 0 all as expected,
 * 1 some not, 2 usage error, 77 no GPU (prints "skip: no GPU").
 *
 * Build: nvcc -O2 -Xcompiler -fopenmp -o kcheck tests/gpu/kcheck.cu -Ikernels -ldl -lgomp
 * (without OpenMP the reference is computed on one core).
 */
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "evident_kernel.h"

#define MAX_SHAPES 32
#define REF_BUDGET 4294967296.0 /* multiply-adds per shape before rows are sampled */
#define MAX_KERNELS 256
#define POISON 0xFFFFu
#define TOL_REL_L2 2e-3
#define TOL_MAX_ABS 5e-3

enum dist { DIST_UNIFORM, DIST_PEAKED, DIST_LARGE, DIST_BIGV };
static const char *const dist_names[] = {"uniform", "peaked", "large", "bigv"};

struct shape {
	int B, H, S, D;
	int dist;                /* enum dist */
	size_t n;                /* elements per tensor */
	uint16_t *h_q, *h_k, *h_v; /* fp16 bits */
	double *ref;             /* float64 O; NaN in rows not sampled */
	double vmax;             /* max |V| */
	double max_score;        /* max |scale * q.k| over the checked rows */
	long long row_stride;    /* 1: every row checked */
};

struct result {
	char status[32];
	double max_err, rel_l2;
	long long nan, unwritten;
	double median_us, min_us;
	char note[160];
};

static struct shape shapes[MAX_SHAPES];
static int n_shapes;
static int timeout_s = 30, iters = 50, cold = 0;

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static uint16_t f2h_bits(float f)
{
	__half h = __float2half_rn(f);
	uint16_t b;
	memcpy(&b, &h, 2);
	return b;
}

static float h2f_bits(uint16_t b)
{
	__half h;
	memcpy(&h, &b, 2);
	return __half2float(h);
}

/* 1: row i of head h is compared with the reference. */
static int row_checked(const struct shape *sh, size_t h, int i)
{
	return sh->row_stride == 1 || i == sh->S - 1 ||
	       ((long long)h * 131 + i) % sh->row_stride == 0;
}

/* Fills the inputs (fixed seed per shape) and the float64 reference. */
static int shape_prepare(struct shape *sh, uint64_t seed)
{
	sh->n = (size_t)sh->B * sh->H * sh->S * sh->D;
	sh->h_q = (uint16_t *)malloc(sh->n * 2);
	sh->h_k = (uint16_t *)malloc(sh->n * 2);
	sh->h_v = (uint16_t *)malloc(sh->n * 2);
	sh->ref = (double *)malloc(sh->n * sizeof(double));
	if (!sh->h_q || !sh->h_k || !sh->h_v || !sh->ref)
		return -1;
	const double amp[4][3] = {{1, 1, 1}, {1, 1, 1}, {9, 9, 1}, {1, 1, 100}}; /* Q, K, V per dist */
	uint16_t *t[3] = {sh->h_q, sh->h_k, sh->h_v};
	for (int k = 0; k < 3; k++)
		for (size_t i = 0; i < sh->n; i++) {
			double u = (double)(splitmix64(&seed) >> 11) * 0x1.0p-53;
			t[k][i] = f2h_bits((float)(amp[sh->dist][k] * (2.0 * u - 1.0)));
		}
	const int S = sh->S, D = sh->D;
	const size_t heads = (size_t)sh->B * sh->H;
	if (sh->dist == DIST_PEAKED) /* Q row i = 8 * K row (7i+3) mod S: exact in fp16 */
		for (size_t head = 0; head < heads; head++)
			for (int i = 0; i < S; i++)
				for (int d = 0; d < D; d++)
					sh->h_q[(head * S + i) * D + d] = f2h_bits(
						8.0f * h2f_bits(sh->h_k[(head * S + (7LL * i + 3) % S) * D + d]));
	sh->vmax = 0;
	for (size_t i = 0; i < sh->n; i++)
		sh->vmax = fmax(sh->vmax, fabs(h2f_bits(sh->h_v[i])));
	const double work = (double)heads * S * S * D * 2;
	sh->row_stride = work > REF_BUDGET ? (long long)ceil(work / REF_BUDGET) : 1;
	const double scale = 1.0 / sqrt((double)D);
	double max_score = 0;
	int oom = 0;
#pragma omp parallel for schedule(dynamic) reduction(max : max_score) reduction(| : oom)
	for (long long hh = 0; hh < (long long)heads; hh++) {
		const size_t head = (size_t)hh, base = head * S * D;
		double *qd = (double *)malloc((size_t)S * D * sizeof(double));
		double *kd = (double *)malloc((size_t)S * D * sizeof(double));
		double *vd = (double *)malloc((size_t)S * D * sizeof(double));
		double *p = (double *)malloc((size_t)S * sizeof(double));
		if (!qd || !kd || !vd || !p) {
			free(qd), free(kd), free(vd), free(p);
			oom = 1;
			continue;
		}
		for (size_t i = 0; i < (size_t)S * D; i++) {
			qd[i] = h2f_bits(sh->h_q[base + i]);
			kd[i] = h2f_bits(sh->h_k[base + i]);
			vd[i] = h2f_bits(sh->h_v[base + i]);
		}
		for (int i = 0; i < S; i++) {
			double *o = sh->ref + base + (size_t)i * D;
			if (!row_checked(sh, head, i)) {
				for (int d = 0; d < D; d++)
					o[d] = NAN;
				continue;
			}
			double mx = -INFINITY;
			for (int j = 0; j < S; j++) {
				double s = 0;
				for (int d = 0; d < D; d++)
					s += qd[(size_t)i * D + d] * kd[(size_t)j * D + d];
				p[j] = s * scale;
				if (p[j] > mx)
					mx = p[j];
				if (fabs(p[j]) > max_score)
					max_score = fabs(p[j]);
			}
			double sum = 0;
			for (int j = 0; j < S; j++)
				sum += (p[j] = exp(p[j] - mx));
			for (int d = 0; d < D; d++)
				o[d] = 0;
			for (int j = 0; j < S; j++)
				for (int d = 0; d < D; d++)
					o[d] += p[j] * vd[(size_t)j * D + d];
			for (int d = 0; d < D; d++)
				o[d] /= sum;
		}
		free(qd), free(kd), free(vd), free(p);
	}
	sh->max_score = max_score;
	return oom ? -1 : 0;
}

static void emit(int fd, int shape_idx, const struct result *r)
{
	char line[512];
	int n = snprintf(line, sizeof(line), "R %d %s %.6e %.6e %lld %lld %.3f %.3f %s\n", shape_idx,
			 r->status, r->max_err, r->rel_l2, r->nan, r->unwritten, r->median_us,
			 r->min_us, r->note[0] ? r->note : "-");
	if (write(fd, line, (size_t)n) != n)
		_exit(3);
}

static int cmp_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;
	return (x > y) - (x < y);
}

#define CK(call)                                                                                \
	do {                                                                                     \
		cudaError_t e_ = (call);                                                         \
		if (e_ != cudaSuccess) {                                                         \
			snprintf(r.status, sizeof(r.status), "crashed");                         \
			snprintf(r.note, sizeof(r.note), "%s at %s", cudaGetErrorName(e_), #call); \
			goto dead;                                                               \
		}                                                                                \
	} while (0)

/* Compares d_o (copied to h_o) with the reference; fills r. */
static void score_output(const struct shape *sh, const uint16_t *h_o, struct result *r)
{
	double num = 0, den = 0;
	r->max_err = 0;
	r->nan = r->unwritten = 0;
	for (size_t i = 0; i < sh->n; i++) {
		if (h_o[i] == POISON) {
			r->unwritten++;
			continue;
		}
		double x = h2f_bits(h_o[i]);
		if (isnan(x) || isinf(x)) {
			r->nan++;
			continue;
		}
		if (isnan(sh->ref[i]))
			continue; /* row not sampled */
		double e = fabs(x - sh->ref[i]);
		if (e > r->max_err)
			r->max_err = e;
		num += e * e;
		den += sh->ref[i] * sh->ref[i];
	}
	r->rel_l2 = den > 0 ? sqrt(num / den) : 0;
	if (r->unwritten)
		strcpy(r->status, "unwritten_output");
	else if (r->nan)
		strcpy(r->status, "nan");
	else if (r->rel_l2 > TOL_REL_L2 || r->max_err > TOL_MAX_ABS * fmax(1.0, sh->vmax))
		strcpy(r->status, "wrong_output");
	else
		strcpy(r->status, "ok");
}

/* The child: runs one kernel object on every shape, reports on fd. */
static int child_main(const char *path, int fd)
{
	struct result r;
	memset(&r, 0, sizeof(r));
	int si = 0;
	void *so = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!so) {
		strcpy(r.status, "load_failed");
		snprintf(r.note, sizeof(r.note), "%s", dlerror());
		for (si = 0; si < n_shapes; si++)
			emit(fd, si, &r);
		return 0;
	}
	ev_kernel_fn fn = (ev_kernel_fn)dlsym(so, EVIDENT_KERNEL_SYMBOL);
	const struct ev_kernel_desc *desc = fn ? fn() : NULL;
	if (!desc || desc->abi_version != EVIDENT_ABI_VERSION ||
	    desc->struct_size < sizeof(struct ev_kernel_desc) || !desc->launch ||
	    strcmp(desc->backend, "cuda") != 0 || strcmp(desc->problem, "attention_fwd") != 0) {
		strcpy(r.status, "load_failed");
		snprintf(r.note, sizeof(r.note), "no usable cuda attention_fwd evident_kernel()");
		for (si = 0; si < n_shapes; si++)
			emit(fd, si, &r);
		return 0;
	}
	printf("%s: %s [%s]\n", path, desc->name, desc->compiled_params);
	fflush(stdout);

	for (si = 0; si < n_shapes; si++) {
		const struct shape *sh = &shapes[si];
		const size_t bytes = sh->n * 2;
		__half *d_q = NULL, *d_k = NULL, *d_v = NULL, *d_o = NULL;
		__half *d_q2 = NULL, *d_k2 = NULL, *d_v2 = NULL, *d_o2 = NULL;
		cudaStream_t stream = NULL;
		cudaEvent_t ev[2] = {NULL, NULL};
		uint16_t *h_o = (uint16_t *)malloc(bytes), *h_o2 = (uint16_t *)malloc(bytes);
		float *ms = (float *)calloc((size_t)iters, sizeof(float));
		void *flush = NULL;
		size_t flush_bytes = 0;
		struct ev_launch l;
		char err[256] = "";
		int inited = 0;
		memset(&r, 0, sizeof(r));
		if (!h_o || !h_o2 || !ms) {
			fprintf(stderr, "kcheck: out of memory\n");
			_exit(3);
		}
		CK(cudaMalloc(&d_q, bytes));
		CK(cudaMalloc(&d_k, bytes));
		CK(cudaMalloc(&d_v, bytes));
		CK(cudaMalloc(&d_o, bytes));
		CK(cudaMemcpy(d_q, sh->h_q, bytes, cudaMemcpyHostToDevice));
		CK(cudaMemcpy(d_k, sh->h_k, bytes, cudaMemcpyHostToDevice));
		CK(cudaMemcpy(d_v, sh->h_v, bytes, cudaMemcpyHostToDevice));
		CK(cudaMemset(d_o, 0xFF, bytes));
		CK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
		CK(cudaEventCreate(&ev[0]));
		CK(cudaEventCreate(&ev[1]));
		CK(cudaDeviceSynchronize());

		memset(&l, 0, sizeof(l));
		l.abi_version = EVIDENT_ABI_VERSION;
		l.struct_size = sizeof(l);
		l.problem = "attention_fwd";
		l.n_inputs = 3;
		l.n_outputs = 1;
		{
			void *ptrs[4] = {d_q, d_k, d_v, d_o};
			for (int t = 0; t < 4; t++) {
				struct ev_tensor *tt = t < 3 ? &l.inputs[t] : &l.outputs[0];
				tt->data = ptrs[t];
				tt->dtype = EV_F16;
				tt->ndim = 4;
				tt->dims[0] = sh->B, tt->dims[1] = sh->H;
				tt->dims[2] = sh->S, tt->dims[3] = sh->D;
			}
		}
		l.scale = 1.0 / sqrt((double)sh->D);
		l.stream = stream;

		if (desc->init && desc->init(&l, err, sizeof(err)) != 0) {
			strcpy(r.status, "init_refused");
			snprintf(r.note, sizeof(r.note), "%s", err);
			/* a refusal may hide a sticky error: check before going on */
			if (cudaDeviceSynchronize() != cudaSuccess) {
				emit(fd, si, &r);
				for (si++; si < n_shapes; si++) {
					strcpy(r.status, "skipped");
					emit(fd, si, &r);
				}
				return 0;
			}
			goto release;
		}
		inited = 1;
		{
			int rc = desc->launch(&l);
			if (rc != 0) {
				strcpy(r.status, "launch_failed");
				snprintf(r.note, sizeof(r.note), "%s", cudaGetErrorName((cudaError_t)rc));
				if (cudaDeviceSynchronize() != cudaSuccess)
					goto dead;
				goto release;
			}
		}
		CK(cudaStreamSynchronize(stream));
		CK(cudaMemcpy(h_o, d_o, bytes, cudaMemcpyDeviceToHost));
		score_output(sh, h_o, &r);

		/* timing: warm-up, then one event pair around each launch */
		for (int i = 0; i < 5; i++)
			if (desc->launch(&l) != 0)
				break;
		if (cold) {
			int dev = 0, l2 = 0;
			CK(cudaGetDevice(&dev));
			CK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
			flush_bytes = 2 * (size_t)(l2 > 0 ? l2 : 64 << 20);
			CK(cudaMalloc(&flush, flush_bytes));
		}
		for (int i = 0; i < iters; i++) {
			if (flush)
				CK(cudaMemsetAsync(flush, i & 0xFF, flush_bytes, stream));
			CK(cudaEventRecord(ev[0], stream));
			/* only the timed launches, for Nsight Compute's --nvtx-include
			 * "kcheck:timed/" (scripts/clock-check): not the flush, not the warm-up */
			nvtxRangePushA("kcheck:timed");
			int rc = desc->launch(&l);
			nvtxRangePop();
			if (rc != 0) {
				snprintf(r.note, sizeof(r.note), "timing launch: %s",
					 cudaGetErrorName((cudaError_t)rc));
				break;
			}
			CK(cudaEventRecord(ev[1], stream));
			CK(cudaEventSynchronize(ev[1]));
			CK(cudaEventElapsedTime(&ms[i], ev[0], ev[1]));
		}
		qsort(ms, (size_t)iters, sizeof(float), cmp_float);
		r.median_us = 1000.0 * (iters % 2 ? ms[iters / 2] : 0.5 * (ms[iters / 2 - 1] + ms[iters / 2]));
		r.min_us = 1000.0 * ms[0];

		/*
		 * moved inputs: fresh copies at new addresses, the old inputs NaN,
		 * a fresh poisoned O; the output must be bitwise the first one
		 */
		CK(cudaMalloc(&d_q2, bytes));
		CK(cudaMalloc(&d_k2, bytes));
		CK(cudaMalloc(&d_v2, bytes));
		CK(cudaMalloc(&d_o2, bytes));
		CK(cudaMemcpy(d_q2, sh->h_q, bytes, cudaMemcpyHostToDevice));
		CK(cudaMemcpy(d_k2, sh->h_k, bytes, cudaMemcpyHostToDevice));
		CK(cudaMemcpy(d_v2, sh->h_v, bytes, cudaMemcpyHostToDevice));
		CK(cudaMemset(d_o2, 0xFF, bytes));
		CK(cudaMemset(d_q, 0xFF, bytes));
		CK(cudaMemset(d_k, 0xFF, bytes));
		CK(cudaMemset(d_v, 0xFF, bytes));
		CK(cudaMemset(d_o, 0xFF, bytes));
		CK(cudaDeviceSynchronize());
		l.inputs[0].data = d_q2, l.inputs[1].data = d_k2, l.inputs[2].data = d_v2;
		l.outputs[0].data = d_o2;
		if (desc->launch(&l) == 0) {
			CK(cudaStreamSynchronize(stream));
			CK(cudaMemcpy(h_o2, d_o2, bytes, cudaMemcpyDeviceToHost));
			if (memcmp(h_o, h_o2, bytes) != 0) {
				struct result r2;
				memset(&r2, 0, sizeof(r2));
				score_output(sh, h_o2, &r2);
				if (!strcmp(r.status, "ok") && strcmp(r2.status, "ok") != 0) {
					snprintf(r.status, sizeof(r.status), "stale_pointers");
					snprintf(r.note, sizeof(r.note),
						 "with the inputs moved: %s (%lld NaN, %lld unwritten)",
						 r2.status, r2.nan, r2.unwritten);
				} else if (!r.note[0]) {
					snprintf(r.note, sizeof(r.note), "output not bitwise repeatable");
				}
			}
		}
	release:
		if (inited && desc->fini)
			desc->fini(&l);
		emit(fd, si, &r);
		cudaEventDestroy(ev[0]);
		cudaEventDestroy(ev[1]);
		if (stream)
			cudaStreamDestroy(stream);
		cudaFree(d_q), cudaFree(d_k), cudaFree(d_v), cudaFree(d_o);
		cudaFree(d_q2), cudaFree(d_k2), cudaFree(d_v2), cudaFree(d_o2);
		cudaFree(flush);
		free(h_o), free(h_o2), free(ms);
		continue;
	dead:
		/* a sticky error: the context is gone, later shapes cannot run */
		emit(fd, si, &r);
		for (si++; si < n_shapes; si++) {
			memset(&r, 0, sizeof(r));
			strcpy(r.status, "skipped");
			strcpy(r.note, "context lost to an earlier error");
			emit(fd, si, &r);
		}
		return 0;
	}
	return 0;
}

/* Runs one kernel in a child with a timeout; fills res[0..n_shapes). */
static void run_kernel(const char *path, struct result *res)
{
	for (int i = 0; i < n_shapes; i++) {
		memset(&res[i], 0, sizeof(res[i]));
		strcpy(res[i].status, "skipped");
	}
	int pfd[2];
	if (pipe(pfd) != 0) {
		perror("kcheck: pipe");
		exit(2);
	}
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0) {
		perror("kcheck: fork");
		exit(2);
	}
	if (pid == 0) {
		close(pfd[0]);
		_exit(child_main(path, pfd[1]));
	}
	close(pfd[1]);
	char buf[8192];
	size_t len = 0;
	int got = 0, timed_out = 0;
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &t1);
		double left = timeout_s - (t1.tv_sec - t0.tv_sec) - (t1.tv_nsec - t0.tv_nsec) * 1e-9;
		if (left <= 0) {
			timed_out = 1;
			break;
		}
		struct pollfd p = {pfd[0], POLLIN, 0};
		int pr = poll(&p, 1, (int)(left * 1000) + 1);
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr == 0)
			continue;
		ssize_t n = read(pfd[0], buf + len, sizeof(buf) - 1 - len);
		if (n <= 0)
			break;
		len += (size_t)n;
		buf[len] = 0;
		char *nl;
		while ((nl = strchr(buf, '\n'))) {
			*nl = 0;
			int idx;
			struct result r;
			memset(&r, 0, sizeof(r));
			char note[160] = "";
			if (sscanf(buf, "R %d %31s %lf %lf %lld %lld %lf %lf %159[^\n]", &idx, r.status,
				   &r.max_err, &r.rel_l2, &r.nan, &r.unwritten, &r.median_us,
				   &r.min_us, note) >= 8 &&
			    idx >= 0 && idx < n_shapes) {
				snprintf(r.note, sizeof(r.note), "%s", strcmp(note, "-") ? note : "");
				res[idx] = r;
				got = idx + 1;
			}
			memmove(buf, nl + 1, len - (size_t)(nl + 1 - buf) + 1);
			len -= (size_t)(nl + 1 - buf);
		}
	}
	if (timed_out)
		kill(pid, SIGKILL);
	int st = 0;
	waitpid(pid, &st, 0);
	close(pfd[0]);
	if (got < n_shapes) {
		if (timed_out) {
			strcpy(res[got].status, "timeout");
			snprintf(res[got].note, sizeof(res[got].note), "killed after %d s", timeout_s);
		} else {
			strcpy(res[got].status, "crashed");
			if (WIFSIGNALED(st))
				snprintf(res[got].note, sizeof(res[got].note), "child killed by signal %d",
					 WTERMSIG(st));
			else
				snprintf(res[got].note, sizeof(res[got].note), "child exited %d early",
					 WEXITSTATUS(st));
		}
	}
}

/* 1: a CUDA device is usable (probed in a child, the parent stays CUDA-free). */
static int gpu_present(void)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		int n = 0;
		_exit(cudaGetDeviceCount(&n) == cudaSuccess && n > 0 ? 0 : 1);
	}
	int st = 0;
	if (pid < 0 || waitpid(pid, &st, 0) < 0)
		return 0;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

int main(int argc, char **argv)
{
	const char *paths[MAX_KERNELS], *expect[MAX_KERNELS];
	const char *usage = "usage: kcheck [--timeout SEC] [--iters N] [--cold] [--dist uniform|peaked|large|bigv] "
			    "[--shape B,H,S,D]... KERNEL.so[=EXPECTED]...\n";
	int n = 0, cur_dist = DIST_UNIFORM;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--timeout") && i + 1 < argc) {
			timeout_s = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--iters") && i + 1 < argc) {
			iters = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--cold")) {
			cold = 1;
		} else if (!strcmp(argv[i], "--dist") && i + 1 < argc) {
			cur_dist = -1;
			for (int d = 0; d < 4; d++)
				if (!strcmp(argv[i + 1], dist_names[d]))
					cur_dist = d;
			if (cur_dist < 0) {
				fprintf(stderr, "kcheck: --dist wants uniform, peaked, large or bigv, got '%s'\n",
					argv[i + 1]);
				return 2;
			}
			i++;
		} else if (!strcmp(argv[i], "--shape") && i + 1 < argc) {
			if (n_shapes == MAX_SHAPES) {
				fprintf(stderr, "kcheck: at most %d shapes\n", MAX_SHAPES);
				return 2;
			}
			struct shape *s = &shapes[n_shapes++];
			if (sscanf(argv[++i], "%d,%d,%d,%d", &s->B, &s->H, &s->S, &s->D) != 4 || s->B < 1 ||
			    s->H < 1 || s->S < 1 || s->D < 1) {
				fprintf(stderr, "kcheck: --shape wants B,H,S,D (all >= 1), got '%s'\n", argv[i]);
				return 2;
			}
			s->dist = cur_dist;
		} else if (argv[i][0] == '-') {
			fputs(usage, stderr);
			return 2;
		} else if (n < MAX_KERNELS) {
			char *eq = strchr(argv[i], '=');
			if (eq)
				*eq = 0;
			paths[n] = argv[i];
			expect[n++] = eq ? eq + 1 : "ok";
		}
	}
	if (n == 0 || iters < 1 || timeout_s < 1) {
		fputs(usage, stderr);
		return 2;
	}
	if (!gpu_present()) {
		printf("skip: no GPU\n");
		return 77;
	}
	if (n_shapes == 0) {
		memset(shapes, 0, 2 * sizeof(shapes[0]));
		shapes[0].B = 1, shapes[0].H = 2, shapes[0].S = 128, shapes[0].D = 64;
		shapes[1].B = 4, shapes[1].H = 8, shapes[1].S = 512, shapes[1].D = 64;
		n_shapes = 2;
	}
	for (int s = 0; s < n_shapes; s++) {
		if (shape_prepare(&shapes[s], 0x5eedull + (uint64_t)s) != 0) {
			fprintf(stderr, "kcheck: out of memory preparing shape %d\n", s);
			return 2;
		}
		printf("shape %d,%d,%d,%d %s: max |scale*q.k| %.1f, max |V| %.1f, %s\n", shapes[s].B,
		       shapes[s].H, shapes[s].S, shapes[s].D, dist_names[shapes[s].dist],
		       shapes[s].max_score, shapes[s].vmax,
		       shapes[s].row_stride == 1 ? "every row checked" : "rows sampled");
	}

	static struct result res[MAX_KERNELS][MAX_SHAPES];
	for (int k = 0; k < n; k++)
		run_kernel(paths[k], res[k]);

	int bad = 0;
	printf("\n%-22s %-22s %-16s %10s %10s %7s %9s %10s %10s %-4s %s\n", "kernel", "shape",
	       "status", "max_err", "rel_l2", "nan", "unwritten", "median_us", "min_us", "exp", "note");
	for (int k = 0; k < n; k++) {
		const char *base = strrchr(paths[k], '/');
		base = base ? base + 1 : paths[k];
		for (int s = 0; s < n_shapes; s++) {
			const struct result *r = &res[k][s];
			char shp[48];
			snprintf(shp, sizeof(shp), "%d,%d,%d,%d%s%s", shapes[s].B, shapes[s].H, shapes[s].S,
				 shapes[s].D, shapes[s].dist ? "/" : "",
				 shapes[s].dist ? dist_names[shapes[s].dist] : "");
			int skipped = !strcmp(r->status, "skipped");
			int as_expected = skipped || !strcmp(r->status, expect[k]);
			if (!as_expected)
				bad = 1;
			printf("%-22.22s %-22s %-16s %10.3e %10.3e %7lld %9lld %10.2f %10.2f %-4s %s\n", base,
			       shp, r->status, r->max_err, r->rel_l2, r->nan, r->unwritten, r->median_us,
			       r->min_us, skipped ? "-" : as_expected ? "yes" : "NO", r->note);
		}
	}
	if (fflush(stdout) != 0)
		return 2;
	return bad;
}
