/*
 * fa_s512.cu - the parameterised FlashAttention kernel of the study (CUDA
 * cores, no tensor cores), attention_fwd.
 *
 * This is the kernel the FlashAttention study tuned (DESIGN.md): one block
 * owns BLOCK_M query rows of one (b, h) and walks the keys BLOCK_N at a time
 * with an online softmax, so the S x S score matrix never reaches global
 * memory.  Shared memory holds the Q tile, STAGES buffers of the K and V
 * tiles and the BLOCK_M x BLOCK_N score tile (fp32, or fp16 with S_FP16=1):
 *
 *   smem_bytes = BLOCK_M*D*2 + STAGES*BLOCK_N*(D+8)*2 + STAGES*BLOCK_N*D*2
 *              + BLOCK_M*BLOCK_N*(S_FP16 ? 2 : 4)
 *
 * (K rows are padded by 8 halves so the 16-byte row reads of a warp hit
 * distinct banks).  Warp w owns rows [w*R, (w+1)*R), R = BLOCK_M/NUM_WARPS,
 * end to end: per tile it (1) computes its R x BLOCK_N scores, lane l taking
 * keys l, l+32, ..., with the K row in registers and Q broadcast from shared
 * memory; (2) does the online-softmax update of its rows (warp shuffles for
 * max and sum) and overwrites the scores with P = exp(s - m); (3) adds P V
 * into its fp32 accumulators, lane l owning output columns
 * [l*D/32, (l+1)*D/32).  Only K/V loads need the whole block to meet.  All
 * arithmetic is fp32; with S_FP16 the stored scores and P are rounded to
 * fp16 (the row sums use the rounded P, so the normalisation stays exact).
 *
 * Tensors: Q, K, V, O fp16, dense row-major [B, H, S, D], S a multiple of
 * BLOCK_M and of BLOCK_N, base pointers aligned to VEC_WIDTH*2 bytes; init
 * rejects anything else (and a tile set over the device's shared-memory
 * limit) with a one-line reason, it never computes on a launch it cannot do.
 *
 * Versions in this file:
 *   attention_fwd_kernel3  flash attention on CUDA cores, tunable tiles
 *
 * Tunables (-DNAME=VALUE, echoed in compiled_params; invalid combinations
 * are static_asserts, i.e. build failures with the reason):
 *   HEAD_DIM   D compiled for: 32, 64 or 128 (default 64)
 *   BLOCK_M    query rows per block, multiple of NUM_WARPS (default 64)
 *   BLOCK_N    keys per K/V tile, multiple of 32 (default 64)
 *   NUM_WARPS  warps per block, 1..32 (default 4)
 *   STAGES     1: plain loads, one K/V buffer; 2: cp.async double
 *              buffering, tile j+1 in flight while tile j is computed
 *              (needs VEC_WIDTH >= 2: cp.async moves 4, 8 or 16 bytes)
 *   S_FP16     0: fp32 score tile; 1: fp16 score tile (default 0)
 *   VEC_WIDTH  halves per global load (and cp.async): 1, 2, 4 or 8
 *              (default 8, i.e. 16-byte loads)
 */
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "../evident_kernel.h"

#ifndef HEAD_DIM
#define HEAD_DIM 64
#endif
#ifndef BLOCK_M
#define BLOCK_M 64
#endif
#ifndef BLOCK_N
#define BLOCK_N 64
#endif
#ifndef NUM_WARPS
#define NUM_WARPS 4
#endif
#ifndef STAGES
#define STAGES 1
#endif
#ifndef S_FP16
#define S_FP16 0
#endif
#ifndef VEC_WIDTH
#define VEC_WIDTH 8
#endif

static_assert(HEAD_DIM == 32 || HEAD_DIM == 64 || HEAD_DIM == 128,
	      "HEAD_DIM must be 32, 64 or 128");
static_assert(NUM_WARPS >= 1 && NUM_WARPS <= 32, "NUM_WARPS must be in [1, 32]");
static_assert(BLOCK_M >= 1 && BLOCK_M % NUM_WARPS == 0,
	      "BLOCK_M must be a positive multiple of NUM_WARPS (each warp owns BLOCK_M/NUM_WARPS rows)");
static_assert(BLOCK_N >= 32 && BLOCK_N % 32 == 0,
	      "BLOCK_N must be a positive multiple of 32 (each lane owns BLOCK_N/32 keys)");
static_assert(STAGES == 1 || STAGES == 2, "STAGES must be 1 or 2");
static_assert(S_FP16 == 0 || S_FP16 == 1, "S_FP16 must be 0 or 1");
static_assert(VEC_WIDTH == 1 || VEC_WIDTH == 2 || VEC_WIDTH == 4 || VEC_WIDTH == 8,
	      "VEC_WIDTH must be 1, 2, 4 or 8 halves");
static_assert(STAGES == 1 || VEC_WIDTH >= 2,
	      "STAGES=2 uses cp.async, which copies 4, 8 or 16 bytes: VEC_WIDTH must be >= 2");

#define THREADS (NUM_WARPS * 32)
#define ROWS (BLOCK_M / NUM_WARPS)  /* query rows per warp */
#define COLS (BLOCK_N / 32)         /* keys per lane in the score phase */
#define DPL (HEAD_DIM / 32)         /* output columns per lane */
#define K_LD (HEAD_DIM + 8)         /* padded K row, halves */

#if S_FP16
typedef __half score_t;
#else
typedef float score_t;
#endif

#define SMEM_Q_BYTES ((size_t)BLOCK_M * HEAD_DIM * 2)
#define SMEM_K_BYTES ((size_t)STAGES * BLOCK_N * K_LD * 2)
#define SMEM_V_BYTES ((size_t)STAGES * BLOCK_N * HEAD_DIM * 2)
#define SMEM_S_BYTES ((size_t)BLOCK_M * BLOCK_N * sizeof(score_t))
#define SMEM_BYTES (SMEM_Q_BYTES + SMEM_K_BYTES + SMEM_V_BYTES + SMEM_S_BYTES)

/* The global-load vector of VEC_WIDTH halves. */
template <int W> struct vec_of;
template <> struct vec_of<1> { typedef unsigned short t; };
template <> struct vec_of<2> { typedef unsigned int t; };
template <> struct vec_of<4> { typedef uint2 t; };
template <> struct vec_of<8> { typedef uint4 t; };
typedef vec_of<VEC_WIDTH>::t vec_t;

__device__ __forceinline__ float to_f(float x) { return x; }
__device__ __forceinline__ float to_f(__half x) { return __half2float(x); }
__device__ __forceinline__ void store_score(float *p, float x) { *p = x; }
__device__ __forceinline__ void store_score(__half *p, float x) { *p = __float2half_rn(x); }

/*
 * Copies a [rows][HEAD_DIM] tile from global memory (rows contiguous) into
 * shared memory with row stride ld halves.  STAGES=2: asynchronous
 * (cp.async), the caller commits and waits; STAGES=1: plain loads.
 */
template <int NROWS, int LD>
__device__ __forceinline__ void load_tile(__half *dst, const __half *__restrict__ src, int tid)
{
	constexpr int VPR = HEAD_DIM / VEC_WIDTH;
#pragma unroll 4
	for (int i = tid; i < NROWS * VPR; i += THREADS) {
		const int r = i / VPR, c = (i % VPR) * VEC_WIDTH;
#if STAGES == 2
		const unsigned saddr = (unsigned)__cvta_generic_to_shared(dst + r * LD + c);
		asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(saddr),
			     "l"(src + (size_t)r * HEAD_DIM + c), "n"(VEC_WIDTH * 2));
#else
		*(vec_t *)(dst + r * LD + c) = *(const vec_t *)(src + (size_t)r * HEAD_DIM + c);
#endif
	}
}

__device__ __forceinline__ void async_commit(void)
{
#if STAGES == 2
	asm volatile("cp.async.commit_group;\n" ::);
#endif
}

template <int N> __device__ __forceinline__ void async_wait(void)
{
#if STAGES == 2
	asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
#endif
}

/* grid: (S / BLOCK_M, H, B); block: THREADS; dynamic smem: SMEM_BYTES. */
__global__ void __launch_bounds__(THREADS)
attention_fwd_kernel3(const __half *__restrict__ d_q, const __half *__restrict__ d_k,
		      const __half *__restrict__ d_v, __half *__restrict__ d_o,
		      int H, int S, float scale_log2)
{
	extern __shared__ __align__(16) unsigned char smem[];
	__half *q_s = (__half *)smem;
	__half *k_s = (__half *)(smem + SMEM_Q_BYTES);
	__half *v_s = (__half *)(smem + SMEM_Q_BYTES + SMEM_K_BYTES);
	score_t *s_s = (score_t *)(smem + SMEM_Q_BYTES + SMEM_K_BYTES + SMEM_V_BYTES);

	const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
	const int row0 = warp * ROWS; /* first row of this warp within the tile */
	const size_t head = ((size_t)blockIdx.z * H + blockIdx.y) * (size_t)S * HEAD_DIM;
	const __half *q = d_q + head + (size_t)blockIdx.x * BLOCK_M * HEAD_DIM;
	const __half *k = d_k + head;
	const __half *v = d_v + head;

	float o[ROWS][DPL], m[ROWS], lsum[ROWS];
#pragma unroll
	for (int r = 0; r < ROWS; r++) {
		m[r] = -INFINITY;
		lsum[r] = 0.0f;
#pragma unroll
		for (int d = 0; d < DPL; d++)
			o[r][d] = 0.0f;
	}

	const int ntiles = S / BLOCK_N;
	load_tile<BLOCK_M, HEAD_DIM>(q_s, q, tid);
#if STAGES == 2
	load_tile<BLOCK_N, K_LD>(k_s, k, tid);
	load_tile<BLOCK_N, HEAD_DIM>(v_s, v, tid);
	async_commit();
#endif
	for (int t = 0; t < ntiles; t++) {
#if STAGES == 2
		const int buf = t & 1;
		if (t + 1 < ntiles) {
			/* buffer buf^1 was last read in iteration t-1, which ended in a barrier */
			const size_t off = (size_t)(t + 1) * BLOCK_N * HEAD_DIM;
			load_tile<BLOCK_N, K_LD>(k_s + (buf ^ 1) * BLOCK_N * K_LD, k + off, tid);
			load_tile<BLOCK_N, HEAD_DIM>(v_s + (buf ^ 1) * BLOCK_N * HEAD_DIM, v + off, tid);
			async_commit();
			async_wait<1>(); /* tile t (and Q) landed, tile t+1 may be in flight */
		} else {
			async_wait<0>();
		}
		__syncthreads();
#else
		const int buf = 0;
		if (t > 0)
			__syncthreads(); /* every warp is done with tile t-1 */
		const size_t off = (size_t)t * BLOCK_N * HEAD_DIM;
		load_tile<BLOCK_N, K_LD>(k_s, k + off, tid);
		load_tile<BLOCK_N, HEAD_DIM>(v_s, v + off, tid);
		__syncthreads();
#endif
		const __half *kt = k_s + buf * BLOCK_N * K_LD;
		const __half *vt = v_s + buf * BLOCK_N * HEAD_DIM;

		/* (1) scores, in log2 units: s = scale*log2(e) * q.k */
#pragma unroll
		for (int jj = 0; jj < COLS; jj++) {
			const int c = lane + 32 * jj;
			float kf[HEAD_DIM];
#pragma unroll
			for (int i = 0; i < HEAD_DIM / 8; i++) {
				uint4 u = *(const uint4 *)(kt + c * K_LD + 8 * i);
				const __half2 *h = (const __half2 *)&u;
#pragma unroll
				for (int x = 0; x < 4; x++) {
					float2 f = __half22float2(h[x]);
					kf[8 * i + 2 * x] = f.x;
					kf[8 * i + 2 * x + 1] = f.y;
				}
			}
#pragma unroll
			for (int r = 0; r < ROWS; r++) {
				const uint4 *q4 = (const uint4 *)(q_s + (row0 + r) * HEAD_DIM);
				float s = 0.0f;
#pragma unroll
				for (int i = 0; i < HEAD_DIM / 8; i++) {
					uint4 u = q4[i]; /* same address in every lane: broadcast */
					const __half2 *h = (const __half2 *)&u;
#pragma unroll
					for (int x = 0; x < 4; x++) {
						float2 f = __half22float2(h[x]);
						s = fmaf(f.x, kf[8 * i + 2 * x], s);
						s = fmaf(f.y, kf[8 * i + 2 * x + 1], s);
					}
				}
				store_score(&s_s[(row0 + r) * BLOCK_N + c], s * scale_log2);
			}
		}
		__syncwarp();

		/* (2) online softmax of this warp's rows; P overwrites the scores */
#pragma unroll
		for (int r = 0; r < ROWS; r++) {
			score_t *srow = s_s + (row0 + r) * BLOCK_N;
			float sv[COLS], mx = -INFINITY;
#pragma unroll
			for (int jj = 0; jj < COLS; jj++) {
				sv[jj] = to_f(srow[lane + 32 * jj]);
				mx = fmaxf(mx, sv[jj]);
			}
#pragma unroll
			for (int w = 16; w > 0; w /= 2)
				mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, w));
			const float m_new = fmaxf(m[r], mx);
			const float alpha = exp2f(m[r] - m_new); /* 0 on the first tile */
			float sum = 0.0f;
#pragma unroll
			for (int jj = 0; jj < COLS; jj++) {
				score_t *dst = &srow[lane + 32 * jj];
				store_score(dst, exp2f(sv[jj] - m_new));
				sum += to_f(*dst); /* the P that PV will use */
			}
#pragma unroll
			for (int w = 16; w > 0; w /= 2)
				sum += __shfl_xor_sync(0xffffffffu, sum, w);
			lsum[r] = lsum[r] * alpha + sum;
			m[r] = m_new;
#pragma unroll
			for (int d = 0; d < DPL; d++)
				o[r][d] *= alpha;
		}
		__syncwarp();

		/* (3) o += P V; lane owns output columns lane*DPL .. +DPL-1 */
#pragma unroll 2
		for (int c = 0; c < BLOCK_N; c++) {
			float vf[DPL];
#if DPL == 1
			vf[0] = __half2float(vt[c * HEAD_DIM + lane]);
#else
#pragma unroll
			for (int d = 0; d < DPL; d += 2) {
				float2 f = __half22float2(*(const __half2 *)(vt + c * HEAD_DIM + lane * DPL + d));
				vf[d] = f.x;
				vf[d + 1] = f.y;
			}
#endif
#pragma unroll
			for (int r = 0; r < ROWS; r++) {
				const float p = to_f(s_s[(row0 + r) * BLOCK_N + c]); /* broadcast */
#pragma unroll
				for (int d = 0; d < DPL; d++)
					o[r][d] = fmaf(p, vf[d], o[r][d]);
			}
		}
#if STAGES == 2
		__syncthreads(); /* buffer buf is refilled in iteration t+1 */
#endif
	}

	__half *out = d_o + head + ((size_t)blockIdx.x * BLOCK_M + row0) * HEAD_DIM;
#pragma unroll
	for (int r = 0; r < ROWS; r++) {
		const float inv_l = 1.0f / lsum[r];
#if DPL == 1
		out[r * HEAD_DIM + lane] = __float2half_rn(o[r][0] * inv_l);
#else
#pragma unroll
		for (int d = 0; d < DPL; d += 2)
			*(__half2 *)(out + r * HEAD_DIM + lane * DPL + d) =
				__floats2half2_rn(o[r][d] * inv_l, o[r][d + 1] * inv_l);
#endif
	}
}

/*
 * Checks the launch (shape, dtype, divisibility, alignment) and raises the
 * dynamic shared-memory limit when the tiles need more than 48 KB.
 */
static int fa_init(struct ev_launch *l, char *err, size_t errlen)
{
	if (l->n_inputs != 3 || l->n_outputs != 1) {
		snprintf(err, errlen, "attention_fwd needs 3 inputs and 1 output, got %d and %d",
			 l->n_inputs, l->n_outputs);
		return 1;
	}
	const struct ev_tensor *t0 = &l->inputs[0];
	for (int i = 0; i < 4; i++) {
		const struct ev_tensor *t = i < 3 ? &l->inputs[i] : &l->outputs[0];
		if (t->dtype != EV_F16 || t->ndim != 4) {
			snprintf(err, errlen, "tensor %d must be fp16 with 4 dims", i);
			return 1;
		}
		for (int d = 0; d < 4; d++)
			if (t->dims[d] != t0->dims[d]) {
				snprintf(err, errlen, "Q, K, V and O must all be [B, H, S, D]");
				return 1;
			}
		if ((uintptr_t)t->data % (VEC_WIDTH * 2) != 0) {
			snprintf(err, errlen, "tensor %d is not %d-byte aligned (VEC_WIDTH=%d loads)",
				 i, VEC_WIDTH * 2, VEC_WIDTH);
			return 1;
		}
	}
	const long long B = t0->dims[0], H = t0->dims[1], S = t0->dims[2], D = t0->dims[3];
	if (D != HEAD_DIM) {
		snprintf(err, errlen, "compiled for HEAD_DIM=%d, got D=%lld (rebuild with -DHEAD_DIM=%lld)",
			 HEAD_DIM, D, D);
		return 1;
	}
	if (S < 1 || S % BLOCK_M != 0 || S % BLOCK_N != 0) {
		snprintf(err, errlen, "S=%lld must be a multiple of BLOCK_M=%d and BLOCK_N=%d",
			 S, BLOCK_M, BLOCK_N);
		return 1;
	}
	if (B < 1 || H < 1 || B > 65535 || H > 65535 || S > INT32_MAX / 2) {
		snprintf(err, errlen, "shape B=%lld H=%lld S=%lld out of range for the grid", B, H, S);
		return 1;
	}
	int dev = 0, optin = 0;
	cudaError_t e = cudaGetDevice(&dev);
	if (e == cudaSuccess)
		e = cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
	if (e != cudaSuccess) {
		snprintf(err, errlen, "cannot query the device: %s", cudaGetErrorString(e));
		return 1;
	}
	if (SMEM_BYTES > (size_t)optin) {
		snprintf(err, errlen, "tiles need %zu B of shared memory, the device allows %d B per block",
			 (size_t)SMEM_BYTES, optin);
		return 1;
	}
	e = cudaFuncSetAttribute(attention_fwd_kernel3, cudaFuncAttributeMaxDynamicSharedMemorySize,
				 (int)SMEM_BYTES);
	if (e != cudaSuccess) {
		snprintf(err, errlen, "cannot allow %zu B of dynamic shared memory: %s",
			 (size_t)SMEM_BYTES, cudaGetErrorString(e));
		return 1;
	}
	return 0;
}

static int fa_launch(struct ev_launch *l)
{
	const int B = (int)l->inputs[0].dims[0], H = (int)l->inputs[0].dims[1];
	const int S = (int)l->inputs[0].dims[2];
	const dim3 grid(S / BLOCK_M, H, B);
	const float scale_log2 = (float)(l->scale * 1.4426950408889634);
	attention_fwd_kernel3<<<grid, THREADS, SMEM_BYTES, (cudaStream_t)l->stream>>>(
		(const __half *)l->inputs[0].data, (const __half *)l->inputs[1].data,
		(const __half *)l->inputs[2].data, (__half *)l->outputs[0].data, H, S, scale_log2);
	return (int)cudaGetLastError();
}

EVIDENT_DEFINE_KERNEL("fa_s512", "cuda", "attention_fwd", fa_init, fa_launch, NULL,
		      EV_PARAM(HEAD_DIM) " " EV_PARAM(BLOCK_M) " " EV_PARAM(BLOCK_N) " "
		      EV_PARAM(NUM_WARPS) " " EV_PARAM(STAGES) " " EV_PARAM(S_FP16) " "
		      EV_PARAM(VEC_WIDTH))
