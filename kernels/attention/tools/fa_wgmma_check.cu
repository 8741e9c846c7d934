/*
 * fa_wgmma_check.cu - a quick, standalone check of every step of
 * kernels/attention/fa_wgmma3.cu (fa_wgmma.cu's steps, fa_wgmma2.cu's step 5
 * and PERSIST: with its knobs at 0, fa_wgmma3.cu compiles to fa_wgmma2.cu's
 * PTX; and its knobs OSTORE, SMX) on an H100 or H200, in well under a
 * minute a step, before any evident run: is each step right, how fast is
 * it, and can evident's sealed replay relocate its tensor maps.  (Until
 * 2026-11-29 it included fa_wgmma2.cu; the rows of data/gpu-evidence up to
 * then are that file's.)
 *
 * Build (from the repository root; one command, no library beyond cudart):
 *   nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Ikernels \
 *        -o fa_wgmma_check kernels/attention/tools/fa_wgmma_check.cu
 * Run:
 *   ./fa_wgmma_check            every step, both head dims, and the wide tiles
 *   ./fa_wgmma_check 4 5        only steps 4 and 5
 *   ./fa_wgmma_check 5 n176     step 5, and steps 4 and 5 with BLOCK_N=176 at
 *                               D=128 (rows "4n176", "5n176"; FA3's tile there)
 *   ./fa_wgmma_check 5 5p       step 5, and step 5 with PERSIST=1 (row "5p";
 *                               also 3p, 4p): persistent CTAs, checked at the
 *                               seed shapes, the tails, S4096 D128 and shapes
 *                               with several tiles per CTA, and its O
 *                               compared bit for bit with the step's own
 *   ./fa_wgmma_check 5p 6       step 5 with PERSIST=1, and fa_wgmma3.cu's
 *                               knobs on it (the rows after "p": k3 =
 *                               STAGES=3, o = OSTORE=1, s1/s2 = SMX=1/2):
 *                               5pok3s2 (wg6p in the specs) at D=64 and
 *                               128, then at D=128 5po, 5ps1, 5ps2, 5pok3,
 *                               5n176po, 5n176pos2; each persistent row's O
 *                               also compared bit for bit with the
 *                               non-persistent kernel of the same knobs,
 *                               and with SMX=0 an "o" row's O with the
 *                               kernel that stages O (OSTORE=0, not
 *                               persistent: the same bits, by design)
 * Exit: 0 every case ran and is correct, 1 not, 77 no usable GPU.
 * (The line "// evident: arch sm_90a" below is for make check-kernels, which
 * compiles every .cu under kernels/ and must build this one for sm_90a.)
 * The SASS it runs: cuobjdump -sass fa_wgmma_check | grep -cE 'HGMMA|UTMALDG'
 *
 * What it does.  The tensor-map case first: it encodes a map for one
 * buffer and for another (cuTensorMapEncodeTiled, as the kernel does) and
 * says which 8-byte words of the 128-byte map change with the address; a
 * single word holding the address (plus a constant smaller than the
 * buffer) is what evident's sealed replay relocates (it patches every
 * parameter word that points into a tensor, keeping its offset), so steps
 * 2-5 can run as trust: sealed; anything else means trust: host.
 * Then one child process per (step, head dim) - a crash or a hang ends only
 * that child (the parent kills it after 40 s) - which for each shape: draws
 * fp16 Q, K, V on the GPU (uniform in [-1, 1), and for the first shape also
 * "large": Q, K in [-8, 8), scores up to ~|50| that overflow exp() without
 * the row max), computes an fp32 reference on the GPU (exact expf, one
 * thread per query row, K/V tiles in shared memory), poisons O with 0xFFFF,
 * runs the kernel through its own init() and launch() (the evident ABI),
 * and compares: max |err|, relative L2 error, NaNs, unwritten elements, and
 * elements outside evident's fp16 tolerance |err| <= 5e-3 + 5e-3 |ref|
 * (problems/attention_fwd.c).  It launches once more with Q, K, V and O at
 * new addresses (the maps must be encoded per launch).  Correct cases of
 * the two timed shapes are then timed: 5 warm-up launches, then 50 launches
 * each between a pair of cudaEvents, hot L2 (back to back) and cold L2 (a
 * memset of twice the L2 before each launch, outside its events), medians
 * reported.  Events include launch overhead: expect them ~2 us above the
 * CUPTI kernel time evident prefers (iter2: fa_mma 12.67 us by CUPTI was
 * 15.12 us by events at B4 H8 S512 D64; cuDNN 9.92 us CUPTI, 14.35 events).
 *
 * Output: a header (device, driver), the tensor-map line, one row per
 * (step, shape): status, max |err|, rel L2, NaN / unwritten / out-of-
 * tolerance counts, the moved-pointer result, hot and cold medians in us
 * and cold TFLOP/s (4 B H S^2 D flops); then a legend.  Status is ok,
 * WRONG (outside tolerance), NAN, UNWRITTEN, INIT_REFUSED (with init's
 * reason), LAUNCH_FAILED / CRASHED (with the CUDA error), HANG (killed
 * after 40 s) or NOT_RUN (an earlier shape of the same child failed).
 */
// evident: arch sm_90a
#include "../fa_wgmma3.cu"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <vector>

#define CHILD_TIMEOUT_S 40 /* 5p at D=128: S4096 twice more (the bit-for-bit comparison) */
#define TIMED_ITERS 50
#define WARMUP_ITERS 5
#define TOL_ABS 5e-3
#define TOL_REL 5e-3
#define POISON_BITS 0xFFFFu

struct shape {
	int B, H, S, D;
	bool timed;
};

/* A child's end: stdout may be a pipe, and _exit() does not flush it. */
static void child_exit(int code)
{
	fflush(stdout);
	_exit(code);
}

/* ---- inputs and reference ------------------------------------------------ */

__device__ __forceinline__ uint32_t hash32(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return (uint32_t)x;
}

/* x[i] = fp16 of a uniform draw in [-amp, amp), a pure function of (seed, i). */
__global__ void fill_kernel(__half *x, size_t n, uint64_t seed, float amp)
{
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
		const float u = (float)(hash32(seed * 0x9E3779B97F4A7C15ull + i) >> 8) * (1.0f / 16777216.0f);
		x[i] = __float2half_rn(amp * (2.0f * u - 1.0f));
	}
}

__global__ void poison_kernel(uint16_t *x, size_t n)
{
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
		x[i] = (uint16_t)POISON_BITS;
}

#define REF_ROWS 128 /* query rows per block, one per thread */
#define REF_KEYS 32  /* keys per shared-memory tile */

/*
 * fp32 reference: thread = one query row of one head; Q rows in shared
 * memory (stride D+1: conflict-free), K and V tiles as floats, online
 * softmax with expf and the running max, O accumulated in registers.
 * grid: (ceil(S / REF_ROWS), B*H); dynamic smem: ref_smem_bytes(D).
 */
template <int D>
__global__ void __launch_bounds__(REF_ROWS) ref_attention_kernel(const __half *q, const __half *k, const __half *v,
								 float *o, int S, float scale)
{
	extern __shared__ float ref_smem[];
	float *qs = ref_smem, *ks = qs + REF_ROWS * (D + 1), *vs = ks + REF_KEYS * D;
	const int tid = threadIdx.x, row0 = blockIdx.x * REF_ROWS, row = row0 + tid;
	const size_t head = (size_t)blockIdx.y * S * D;
	for (int i = tid; i < REF_ROWS * D; i += REF_ROWS) {
		const int r = i / D, c = i % D;
		qs[r * (D + 1) + c] = row0 + r < S ? __half2float(q[head + (size_t)(row0 + r) * D + c]) : 0.0f;
	}
	float acc[D];
#pragma unroll
	for (int d = 0; d < D; d++)
		acc[d] = 0.0f;
	float m = -INFINITY, l = 0.0f;
	for (int key0 = 0; key0 < S; key0 += REF_KEYS) {
		__syncthreads();
		for (int i = tid; i < REF_KEYS * D; i += REF_ROWS) {
			const int r = i / D, c = i % D;
			const bool ok = key0 + r < S;
			ks[i] = ok ? __half2float(k[head + (size_t)(key0 + r) * D + c]) : 0.0f;
			vs[i] = ok ? __half2float(v[head + (size_t)(key0 + r) * D + c]) : 0.0f;
		}
		__syncthreads();
		float s[REF_KEYS], mt = -INFINITY;
#pragma unroll
		for (int j = 0; j < REF_KEYS; j++) {
			float dot = 0.0f;
#pragma unroll 16
			for (int d = 0; d < D; d++)
				dot = fmaf(qs[tid * (D + 1) + d], ks[j * D + d], dot);
			s[j] = key0 + j < S ? dot * scale : -INFINITY;
			mt = fmaxf(mt, s[j]);
		}
		const float m_new = fmaxf(m, mt), corr = expf(m - m_new);
		l *= corr;
#pragma unroll
		for (int j = 0; j < REF_KEYS; j++) {
			s[j] = expf(s[j] - m_new);
			l += s[j];
		}
#pragma unroll
		for (int d = 0; d < D; d++) {
			float a = acc[d] * corr;
#pragma unroll
			for (int j = 0; j < REF_KEYS; j++)
				a = fmaf(s[j], vs[j * D + d], a);
			acc[d] = a;
		}
		m = m_new;
	}
	if (row < S)
#pragma unroll
		for (int d = 0; d < D; d++)
			o[head + (size_t)row * D + d] = acc[d] / l;
}

static size_t ref_smem_bytes(int D) { return sizeof(float) * ((size_t)REF_ROWS * (D + 1) + 2 * (size_t)REF_KEYS * D); }

struct cmp_out {
	double sum_sq_err, sum_sq_ref;
	unsigned int max_err_bits; /* a non-negative float's bits order as the float */
	unsigned long long nan, unwritten, outside;
};

__global__ void compare_kernel(const uint16_t *got, const float *ref, size_t n, cmp_out *out)
{
	double se = 0.0, sr = 0.0;
	float mx = 0.0f;
	unsigned long long nn = 0, nu = 0, no = 0;
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
		const float r = ref[i];
		sr += (double)r * r;
		if (got[i] == POISON_BITS) {
			nu++;
			continue;
		}
		const float g = __half2float(__ushort_as_half(got[i]));
		if (isnan(g)) {
			nn++;
			continue;
		}
		const float e = fabsf(g - r);
		se += (double)e * e;
		mx = fmaxf(mx, e);
		no += e > TOL_ABS + TOL_REL * fabsf(r);
	}
	for (int o = 16; o; o >>= 1) {
		se += __shfl_xor_sync(0xffffffffu, se, o);
		sr += __shfl_xor_sync(0xffffffffu, sr, o);
		mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, o));
		nn += __shfl_xor_sync(0xffffffffu, nn, o);
		nu += __shfl_xor_sync(0xffffffffu, nu, o);
		no += __shfl_xor_sync(0xffffffffu, no, o);
	}
	if (threadIdx.x % 32 == 0) {
		atomicAdd(&out->sum_sq_err, se);
		atomicAdd(&out->sum_sq_ref, sr);
		atomicMax(&out->max_err_bits, __float_as_uint(mx));
		atomicAdd(&out->nan, nn);
		atomicAdd(&out->unwritten, nu);
		atomicAdd(&out->outside, no);
	}
}

/* ---- one child: one (step, head dim), every shape of it --------------------- */

/* A harness CUDA call that fails ends the child: the case cannot be judged. */
#define CK(call)                                                                          \
	do {                                                                              \
		cudaError_t e_ = (call);                                                  \
		if (e_ != cudaSuccess) {                                                  \
			printf("  harness error: %s: %s (%s)\n", #call, cudaGetErrorString(e_), \
			       cudaGetErrorName(e_));                                     \
			child_exit(3);                                                    \
		}                                                                         \
	} while (0)

struct case_result {
	char status[200];
	double max_err, rel_l2;
	unsigned long long nan, unwritten, outside;
	char moved[24];
	double hot_us, cold_us;
};

static double median_of(std::vector<float> v)
{
	std::sort(v.begin(), v.end());
	return v.empty() ? NAN : (v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]));
}

/* The CUDA error of a failed launch as a status: sticky (the context is gone) or not. */
static void launch_status(char *status, size_t n, cudaError_t e)
{
	const bool sticky = cudaDeviceSynchronize() != cudaSuccess || cudaGetLastError() != cudaSuccess;
	snprintf(status, n, "%s (%s)", sticky ? "CRASHED" : "LAUNCH_FAILED", cudaGetErrorName(e));
}

/* Compares o with ref; fills the numbers and the status word. */
static void judge(const uint16_t *d_o, const float *d_ref, size_t n, cmp_out *d_cmp, case_result *r)
{
	CK(cudaMemset(d_cmp, 0, sizeof(cmp_out)));
	compare_kernel<<<1024, 256>>>(d_o, d_ref, n, d_cmp);
	CK(cudaGetLastError());
	cmp_out c;
	CK(cudaMemcpy(&c, d_cmp, sizeof(c), cudaMemcpyDeviceToHost));
	float mx;
	memcpy(&mx, &c.max_err_bits, 4);
	r->max_err = mx;
	r->rel_l2 = c.sum_sq_ref > 0 ? sqrt(c.sum_sq_err / c.sum_sq_ref) : NAN;
	r->nan = c.nan;
	r->unwritten = c.unwritten;
	r->outside = c.outside;
	if (c.unwritten)
		snprintf(r->status, sizeof(r->status), "UNWRITTEN");
	else if (c.nan)
		snprintf(r->status, sizeof(r->status), "NAN");
	else if (c.outside || !(r->rel_l2 <= TOL_REL))
		snprintf(r->status, sizeof(r->status), "WRONG");
	else
		snprintf(r->status, sizeof(r->status), "ok");
}

/*
 * A row's label: the step, "n<BLOCK_N>" unless 128, "p" for PERSIST=1, then
 * fa_wgmma3.cu's knobs where not their defaults: "k<STAGES>" unless 2, "o"
 * for OSTORE=1, "s<SMX>" (e.g. "5pok3s2": step 5, persistent, O from
 * registers, 3 stages, SMX=2).
 */
template <class C> static void cfg_label(char *label, size_t n)
{
	char bn[8] = "", st[8] = "", sm[8] = "";
	if (C::bn != 128)
		snprintf(bn, sizeof(bn), "n%d", C::bn);
	if (C::stages != 2)
		snprintf(st, sizeof(st), "k%d", C::stages);
	if (C::smx)
		snprintf(sm, sizeof(sm), "s%d", C::smx);
	snprintf(label, n, "%d%s%s%s%s%s", C::step, bn, C::persist ? "p" : "", st, C::ostore ? "o" : "", sm);
}

/*
 * Runs configuration Cb on l's inputs into d_other and compares its O with
 * d_o bit for bit; false (r's status says why) if it is refused, fails or
 * differs in any element.
 */
template <class Cb>
static bool same_bits(const struct ev_launch &l, const __half *d_o, __half *d_other, size_t n, int dist,
		      const char *what, case_result *r)
{
	char err[512];
	struct ev_launch lb = l;
	lb.outputs[0].data = d_other;
	if (fa_wgmma_init_t<Cb>(&lb, err, sizeof(err)) != 0) {
		snprintf(r->status, sizeof(r->status), "INIT_REFUSED (%s): %.150s", what, err);
		return false;
	}
	const int le = fa_wgmma_launch_t<Cb>(&lb);
	const cudaError_t se = le ? (cudaError_t)le : cudaDeviceSynchronize();
	if (se != cudaSuccess) {
		launch_status(r->status, sizeof(r->status), se);
		return false;
	}
	std::vector<uint16_t> h0(n), h1(n);
	CK(cudaMemcpy(h0.data(), d_o, n * 2, cudaMemcpyDeviceToHost));
	CK(cudaMemcpy(h1.data(), d_other, n * 2, cudaMemcpyDeviceToHost));
	size_t ndiff = 0;
	for (size_t i = 0; i < n; i++)
		ndiff += h0[i] != h1[i];
	if (ndiff) {
		snprintf(r->status, sizeof(r->status), "DIFFERS from %s in %zu of %zu elements (%s inputs)", what, ndiff, n,
			 dist ? "large" : "uniform");
		return false;
	}
	return true;
}

template <class C> static void run_child(const std::vector<shape> &shapes)
{
	char err[512];
	int l2_bytes = 0;
	CK(cudaSetDevice(0));
	CK(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, 0));
	void *d_flush = NULL;
	const size_t flush_bytes = 2 * (size_t)l2_bytes;
	CK(cudaMalloc(&d_flush, flush_bytes));
	cmp_out *d_cmp = NULL;
	CK(cudaMalloc((void **)&d_cmp, sizeof(cmp_out)));
	bool failed = false;
	for (const shape &sh : shapes) {
		case_result r;
		memset(&r, 0, sizeof(r));
		r.max_err = r.rel_l2 = r.hot_us = r.cold_us = NAN;
		snprintf(r.moved, sizeof(r.moved), "-");
		const size_t n = (size_t)sh.B * sh.H * sh.S * sh.D;
		if (failed) {
			snprintf(r.status, sizeof(r.status), "NOT_RUN (an earlier shape of this step failed)");
		} else {
			__half *d_in[2][3] = {}, *d_o[2] = {};
			float *d_ref = NULL;
			for (int set = 0; set < 2; set++) {
				for (int t = 0; t < 3; t++)
					CK(cudaMalloc((void **)&d_in[set][t], n * 2));
				CK(cudaMalloc((void **)&d_o[set], n * 2));
			}
			CK(cudaMalloc((void **)&d_ref, n * 4));
			const float scale = 1.0f / sqrtf((float)sh.D);
			const int n_dists = sh.timed && &sh == &shapes[0] ? 2 : 1;
			for (int dist = 0; dist < n_dists && !failed; dist++) {
				const float amp_qk = dist == 0 ? 1.0f : 8.0f;
				for (int set = 0; set < 2; set++)
					for (int t = 0; t < 3; t++) {
						fill_kernel<<<1024, 256>>>(d_in[set][t], n, 1000 + 10 * dist + t,
									   t < 2 ? amp_qk : 1.0f); /* both sets equal */
						CK(cudaGetLastError());
					}
				const dim3 rg((unsigned)((sh.S + REF_ROWS - 1) / REF_ROWS), (unsigned)(sh.B * sh.H));
				if (sh.D == 64) {
					CK(cudaFuncSetAttribute(ref_attention_kernel<64>,
								cudaFuncAttributeMaxDynamicSharedMemorySize, (int)ref_smem_bytes(64)));
					ref_attention_kernel<64><<<rg, REF_ROWS, ref_smem_bytes(64)>>>(d_in[0][0], d_in[0][1], d_in[0][2], d_ref, sh.S, scale);
				} else {
					CK(cudaFuncSetAttribute(ref_attention_kernel<128>,
								cudaFuncAttributeMaxDynamicSharedMemorySize, (int)ref_smem_bytes(128)));
					ref_attention_kernel<128><<<rg, REF_ROWS, ref_smem_bytes(128)>>>(d_in[0][0], d_in[0][1], d_in[0][2], d_ref, sh.S, scale);
				}
				CK(cudaGetLastError());
				CK(cudaDeviceSynchronize());

				struct ev_launch l;
				memset(&l, 0, sizeof(l));
				l.abi_version = EVIDENT_ABI_VERSION;
				l.struct_size = sizeof(l);
				l.problem = "attention_fwd";
				l.n_inputs = 3;
				l.n_outputs = 1;
				for (int t = 0; t < 4; t++) {
					struct ev_tensor *tt = t < 3 ? &l.inputs[t] : &l.outputs[0];
					tt->data = t < 3 ? (void *)d_in[0][t] : (void *)d_o[0];
					tt->dtype = EV_F16;
					tt->ndim = 4;
					tt->dims[0] = sh.B;
					tt->dims[1] = sh.H;
					tt->dims[2] = sh.S;
					tt->dims[3] = sh.D;
				}
				l.scale = scale;
				l.stream = NULL;
				err[0] = 0;
				if (fa_wgmma_init_t<C>(&l, err, sizeof(err)) != 0) {
					snprintf(r.status, sizeof(r.status), "INIT_REFUSED: %s", err);
					failed = true;
					break;
				}
				poison_kernel<<<1024, 256>>>((uint16_t *)d_o[0], n);
				CK(cudaGetLastError());
				int le = fa_wgmma_launch_t<C>(&l);
				cudaError_t se = le ? (cudaError_t)le : cudaDeviceSynchronize();
				if (se != cudaSuccess) {
					launch_status(r.status, sizeof(r.status), se);
					failed = true;
					break;
				}
				judge((const uint16_t *)d_o[0], d_ref, n, d_cmp, &r);
				if (strcmp(r.status, "ok")) {
					char s2[sizeof(r.status)];
					snprintf(s2, sizeof(s2), "%.150s (%s inputs)", r.status, dist ? "large" : "uniform");
					memcpy(r.status, s2, sizeof(s2));
					failed = true;
					break;
				}
				if constexpr (C::persist) {
					/* the persistent kernel's O is the 3-D grid's, bit for bit */
					if (!same_bits<typename C::base>(l, d_o[0], d_o[1], n, dist, "the non-persistent kernel", &r)) {
						failed = true;
						break;
					}
				}
				if constexpr (C::ostore && C::smx == 0) {
					/* OSTORE=1 stores the values OSTORE=0 stages: fa_wgmma2.cu's kernel, bit for bit */
					typedef fa_cfg<C::step, C::d, C::bn, C::nwg, C::stages> Cs;
					if (!same_bits<Cs>(l, d_o[0], d_o[1], n, dist, "OSTORE=0 (O staged)", &r)) {
						failed = true;
						break;
					}
				}
				/* the same inputs at new addresses, a fresh poisoned O */
				for (int t = 0; t < 3; t++)
					l.inputs[t].data = d_in[1][t];
				l.outputs[0].data = d_o[1];
				CK(cudaMemset(d_in[0][0], 0xFF, n * 2)); /* the old Q: NaNs */
				poison_kernel<<<1024, 256>>>((uint16_t *)d_o[1], n);
				CK(cudaGetLastError());
				le = fa_wgmma_launch_t<C>(&l);
				se = le ? (cudaError_t)le : cudaDeviceSynchronize();
				if (se != cudaSuccess) {
					launch_status(r.status, sizeof(r.status), se);
					failed = true;
					break;
				}
				case_result r2;
				judge((const uint16_t *)d_o[1], d_ref, n, d_cmp, &r2);
				snprintf(r.moved, sizeof(r.moved), "%s", strcmp(r2.status, "ok") ? "STALE" : "ok");
				if (strcmp(r2.status, "ok")) {
					snprintf(r.status, sizeof(r.status), "WRONG after the tensors moved (%.40s)", r2.status);
					failed = true;
					break;
				}
				if (!sh.timed || dist > 0)
					continue;
				/* timing, on the moved set */
				cudaEvent_t e0[TIMED_ITERS], e1[TIMED_ITERS];
				for (int i = 0; i < TIMED_ITERS; i++) {
					CK(cudaEventCreate(&e0[i]));
					CK(cudaEventCreate(&e1[i]));
				}
				for (int cold = 0; cold < 2; cold++) {
					for (int i = 0; i < WARMUP_ITERS; i++)
						if ((le = fa_wgmma_launch_t<C>(&l)) != 0)
							break;
					for (int i = 0; i < TIMED_ITERS && !le; i++) {
						if (cold)
							CK(cudaMemsetAsync(d_flush, i & 0xFF, flush_bytes, 0));
						CK(cudaEventRecord(e0[i], 0));
						le = fa_wgmma_launch_t<C>(&l);
						CK(cudaEventRecord(e1[i], 0));
					}
					se = le ? (cudaError_t)le : cudaDeviceSynchronize();
					if (se != cudaSuccess) {
						launch_status(r.status, sizeof(r.status), se);
						failed = true;
						break;
					}
					std::vector<float> ms(TIMED_ITERS);
					for (int i = 0; i < TIMED_ITERS; i++)
						CK(cudaEventElapsedTime(&ms[i], e0[i], e1[i]));
					(cold ? r.cold_us : r.hot_us) = 1000.0 * median_of(ms);
				}
				for (int i = 0; i < TIMED_ITERS; i++) {
					cudaEventDestroy(e0[i]);
					cudaEventDestroy(e1[i]);
				}
			}
			for (int set = 0; set < 2; set++) {
				for (int t = 0; t < 3; t++)
					cudaFree(d_in[set][t]);
				cudaFree(d_o[set]);
			}
			cudaFree(d_ref);
		}
		const double flops = 4.0 * sh.B * sh.H * (double)sh.S * sh.S * sh.D;
		char shape_txt[40];
		snprintf(shape_txt, sizeof(shape_txt), "B%d H%d S%d D%d", sh.B, sh.H, sh.S, sh.D);
		char label[24];
		cfg_label<C>(label, sizeof(label));
		printf("%-9s %-20s %-8.2e %-8.2e %-5llu %-5llu %-7llu %-6s %9.2f %9.2f %7.1f  %s\n", label, shape_txt,
		       r.max_err, r.rel_l2, r.nan, r.unwritten, r.outside, r.moved, r.hot_us, r.cold_us,
		       r.cold_us > 0 ? flops / (r.cold_us * 1e-6) / 1e12 : NAN, r.status);
		fflush(stdout);
	}
	child_exit(failed ? 1 : 0);
}

/* ---- the tensor-map case ------------------------------------------------------ */

static void tensormap_child(void)
{
	CK(cudaSetDevice(0));
	char err[256];
	void *a = NULL, *b = NULL;
	CK(cudaMalloc(&a, 1 << 20));
	CK(cudaMalloc(&b, 1 << 20));
	/* init's path to the driver's encoder, through a launch it accepts */
	struct ev_launch l;
	memset(&l, 0, sizeof(l));
	l.n_inputs = 3;
	l.n_outputs = 1;
	for (int t = 0; t < 4; t++) {
		struct ev_tensor *tt = t < 3 ? &l.inputs[t] : &l.outputs[0];
		tt->data = a;
		tt->dtype = EV_F16;
		tt->ndim = 4;
		tt->dims[0] = 1;
		tt->dims[1] = 2;
		tt->dims[2] = 512;
		tt->dims[3] = 64;
	}
	l.scale = 0.125;
	typedef fa_cfg<2, 64, 128, 2, 2> C;
	if (fa_wgmma_init_t<C>(&l, err, sizeof(err))) {
		printf("tensor map: not checked: init refused: %s\n", err);
		child_exit(1);
	}
	CUtensorMap ma, mb;
	if (fa_wgmma_tensor_map(&ma, a, 2, 512, 64, 128) || fa_wgmma_tensor_map(&mb, b, 2, 512, 64, 128)) {
		printf("tensor map: not checked: cuTensorMapEncodeTiled failed\n");
		child_exit(1);
	}
	uint64_t wa[16], wb[16];
	memcpy(wa, &ma, 128);
	memcpy(wb, &mb, 128);
	/* the seal relocates a word v in [base, base + bytes) as new_base + (v - base) */
	const uint64_t pa = (uint64_t)(uintptr_t)a, pb = (uint64_t)(uintptr_t)b;
	int n_diff = 0, reloc = -1;
	uint64_t off = 0;
	char diffs[200] = "";
	for (int i = 0; i < 16; i++)
		if (wa[i] != wb[i]) {
			n_diff++;
			size_t len = strlen(diffs);
			snprintf(diffs + len, sizeof(diffs) - len, "%s%d", len ? "," : "", 8 * i);
			if (wa[i] - pa == wb[i] - pb && wa[i] - pa < (1u << 20)) {
				reloc = 8 * i;
				off = wa[i] - pa;
			}
		}
	if (n_diff == 1 && reloc >= 0)
		printf("tensor map: the global address is the 64-bit word at byte %d (address + %llu), the only word "
		       "that changes with it: evident's sealed replay relocates it, steps 2-5 can run as trust: sealed\n",
		       reloc, (unsigned long long)off);
	else
		printf("tensor map: the address is not one relocatable word (words that change with it at bytes %s): "
		       "a sealed replay would keep the planner's address; run steps 2-5 as trust: host\n",
		       diffs);
	fflush(stdout);
	child_exit(0);
}

/* ---- the parent ---------------------------------------------------------------- */

/* Runs fn in a child, kills it after CHILD_TIMEOUT_S; 0 exited 0, 1 otherwise. */
template <class F> static int in_child(const char *what, F fn)
{
	fflush(stdout);
	const pid_t pid = fork();
	if (pid < 0) {
		printf("%s: fork failed: %s\n", what, strerror(errno));
		return 1;
	}
	if (pid == 0) {
		fn();
		child_exit(0);
	}
	const time_t t0 = time(NULL);
	int status = 0;
	for (;;) {
		const pid_t w = waitpid(pid, &status, WNOHANG);
		if (w == pid)
			break;
		if (time(NULL) - t0 > CHILD_TIMEOUT_S) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			printf("%-9s %-20s HANG: killed after %d s (%s)\n", "", "", CHILD_TIMEOUT_S, what);
			return 1;
		}
		poll(NULL, 0, 20);
	}
	if (WIFSIGNALED(status)) {
		printf("%-9s %-20s CRASHED: the process died of signal %d (%s)\n", "", "", WTERMSIG(status), what);
		return 1;
	}
	return WEXITSTATUS(status) != 0;
}

static const std::vector<shape> s128 = {{4, 16, 4096, 128, true}, {1, 2, 397, 128, false}};
/* PERSIST=1 also: shapes with several tiles per CTA (on 132 SMs), tails in
 * both directions, and one K/V tile per query tile (the ring's count then
 * moves by one per tile) */
static const std::vector<shape> s128p = {{4, 16, 4096, 128, true}, {1, 2, 397, 128, false},
					 {3, 40, 397, 128, false}, {1, 300, 77, 128, false}};

template <class C> static int run_d128(bool want)
{
	if (!want)
		return 0;
	char what[64];
	char label[24];
	cfg_label<C>(label, sizeof(label));
	snprintf(what, sizeof(what), "%s (step %d%s BLOCK_N=%d), D=128", label, C::step, C::persist ? " PERSIST" : "",
		 C::bn);
	return in_child(what, [&] { run_child<C>(C::persist ? s128p : s128); });
}

template <class C64, class C128> static int run_step(bool want)
{
	if (!want)
		return 0;
	std::vector<shape> s64 = {{4, 8, 512, 64, true}, {1, 2, 397, 64, false}, {1, 1, 77, 64, false}};
	if (C64::persist) {
		s64.push_back({2, 16, 1000, 64, false});
		s64.push_back({1, 300, 77, 64, false});
		s64.push_back({4, 32, 2048, 64, false});
	}
	char what[64], label[24];
	cfg_label<C64>(label, sizeof(label));
	snprintf(what, sizeof(what), "%s (step %d%s), D=64", label, C64::step, C64::persist ? " PERSIST" : "");
	int bad = in_child(what, [&] { run_child<C64>(s64); });
	return bad | run_d128<C128>(true);
}
template <int ST> using fa_p64 = fa_cfg_persist<fa_cfg<ST, 64, 128, 2, 2>>;
template <int ST> using fa_p128 = fa_cfg_persist<fa_cfg<ST, 128, 128, 2, 2>>;
/* "6": fa_wgmma3.cu's knobs on step 5 with PERSIST=1 (rows 5po.., 5n176po..):
 * BN keys a tile, ST stages, OSTORE OS, SMX SM */
template <int D, int BN, int ST, int OS, int SM> using fa_p6 = fa_cfg_persist<fa_cfg_opt<fa_cfg<5, D, BN, 2, ST>, OS, SM>>;

int main(int argc, char **argv)
{
	bool want[6] = {false, argc == 1, argc == 1, argc == 1, argc == 1, argc == 1}, wide = argc == 1;
	bool want_p[6] = {false, false, false, argc == 1, argc == 1, argc == 1}, six = argc == 1;
	for (int i = 1; i < argc; i++) {
		const int s = atoi(argv[i]);
		if (!strcmp(argv[i], "n176")) {
			wide = true;
			continue;
		}
		if (!strcmp(argv[i], "6")) {
			six = true;
			continue;
		}
		const bool p = s >= 3 && s <= 5 && argv[i][1] == 'p' && argv[i][2] == 0;
		if (!p && (s < 1 || s > 5 || argv[i][1] != 0)) {
			fprintf(stderr, "usage: %s [STEP...] [3p|4p|5p...] [n176] [6]   (steps 1..5; Np: step N with "
				"PERSIST=1; n176: steps 4 and 5 with BLOCK_N=176 at D=128; 6: fa_wgmma3.cu's knobs "
				"on 5p; none: all)\n", argv[0]);
			return 2;
		}
		(p ? want_p : want)[s] = true;
	}
	/* the device, asked in a child: the parent stays without a CUDA context (fork) */
	const int dev_rc = in_child("device", [] {
		int n = 0;
		if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
			printf("skip: no GPU\n");
			child_exit(77);
		}
		cudaDeviceProp p;
		int drv = 0;
		CK(cudaGetDeviceProperties(&p, 0));
		CK(cudaDriverGetVersion(&drv));
		printf("fa_wgmma_check: %s, sm_%d%d, %d SMs, L2 %d MB, driver CUDA %d.%d\n", p.name, p.major, p.minor,
		       p.multiProcessorCount, p.l2CacheSize >> 20, drv / 1000, drv % 1000 / 10);
		if (p.major != 9 || p.minor != 0) {
			printf("skip: fa_wgmma is sm_90a code; this device is sm_%d%d\n", p.major, p.minor);
			child_exit(77);
		}
		child_exit(0);
	});
	if (dev_rc)
		return 77;
	int bad = in_child("tensor map", tensormap_child);
	printf("configuration of every step: BLOCK_N=128 NUM_WG=2 (BLOCK_M=128) STAGES=2 (rows \"4n176\", \"5n176\": "
	       "BLOCK_N=176; \"3p\", \"4p\", \"5p\": PERSIST=1, its O also compared bit for bit with the step's; "
	       "after p: k3 = STAGES=3, o = OSTORE=1, s1/s2 = SMX=1/2, its O compared bit for bit with the "
	       "non-persistent kernel of the same knobs, and an o row's without s with OSTORE=0's)\n");
	printf("%-9s %-20s %-8s %-8s %-5s %-5s %-7s %-6s %9s %9s %7s  %s\n", "step", "shape", "max_err", "rel_l2",
	       "nan", "unwr", "outside", "moved", "hot_us", "cold_us", "TFLOP/s", "status");
	bad |= run_step<fa_cfg<1, 64, 128, 2, 2>, fa_cfg<1, 128, 128, 2, 2>>(want[1]);
	bad |= run_step<fa_cfg<2, 64, 128, 2, 2>, fa_cfg<2, 128, 128, 2, 2>>(want[2]);
	bad |= run_step<fa_cfg<3, 64, 128, 2, 2>, fa_cfg<3, 128, 128, 2, 2>>(want[3]);
	bad |= run_step<fa_cfg<4, 64, 128, 2, 2>, fa_cfg<4, 128, 128, 2, 2>>(want[4]);
	bad |= run_step<fa_cfg<5, 64, 128, 2, 2>, fa_cfg<5, 128, 128, 2, 2>>(want[5]);
	bad |= run_step<fa_p64<3>, fa_p128<3>>(want_p[3]);
	bad |= run_step<fa_p64<4>, fa_p128<4>>(want_p[4]);
	bad |= run_step<fa_p64<5>, fa_p128<5>>(want_p[5]);
	bad |= run_d128<fa_cfg<4, 128, 176, 2, 2>>(wide);
	bad |= run_d128<fa_cfg<5, 128, 176, 2, 2>>(wide);
	/* "6" (wg6p in the specs: 5pok3s2), both head dims; then, at D=128, each
	 * knob alone (5po, 5ps1, 5ps2), the stages (5pok3) and FA3's tile (5n176po, 5n176pos2) */
	bad |= run_step<fa_p6<64, 128, 3, 1, 2>, fa_p6<128, 128, 3, 1, 2>>(six);
	bad |= run_d128<fa_p6<128, 128, 2, 1, 0>>(six);
	bad |= run_d128<fa_p6<128, 128, 2, 0, 1>>(six);
	bad |= run_d128<fa_p6<128, 128, 2, 0, 2>>(six);
	bad |= run_d128<fa_p6<128, 128, 3, 1, 0>>(six);
	bad |= run_d128<fa_p6<128, 176, 2, 1, 0>>(six);
	bad |= run_d128<fa_p6<128, 176, 2, 1, 2>>(six);
	printf("\nlegend: max_err = max |O - ref| over all elements (fp32 reference, exact expf); rel_l2 = ||O - ref|| / "
	       "||ref||;\n  nan / unwr = NaN / never-written outputs; outside = elements beyond evident's fp16 tolerance "
	       "|err| <= 5e-3 + 5e-3 |ref|;\n  moved = the same inputs at new addresses give the right answer (maps "
	       "encoded per launch);\n  hot_us / cold_us = median of %d launches by cudaEvents, L2 warm / flushed before "
	       "each; TFLOP/s = 4 B H S^2 D / cold_us.\n  The timed shapes' first check also used 'large' inputs "
	       "(|scale q.k| up to ~50). '-' = not timed.\n",
	       TIMED_ITERS);
	printf("fa_wgmma_check: %s\n", bad ? "SOME CASES FAILED (rows above)" : "every case correct");
	return bad ? 1 : 0;
}
