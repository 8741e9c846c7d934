/*
 * fa_wmma.cu - flash attention on tensor cores through nvcuda::wmma,
 * attention_fwd.
 *
 * The tensor-core counterpart of fa_s512.cu, portable to sm_80 and sm_90
 * (wmma lowers to HMMA; no wgmma here).  A block owns BLOCK_M query rows
 * of one (b, h) and walks the keys BLOCK_N at a time; warp w owns rows
 * [w*WM, (w+1)*WM), WM = BLOCK_M/NUM_WARPS (a multiple of 16), end to end:
 *   (1) S = Q K^T for its rows with 16x16x16 fp16 MMAs, fp32 accumulators,
 *       stored to a shared fp32 score tile;
 *   (2) online softmax of its rows (a lane per column, warp shuffles):
 *       P = exp(scale*S - m) rounded to fp16 into a shared P tile, the row
 *       sums taken over the rounded P, and the fp32 output tile in shared
 *       memory rescaled by exp(m_old - m_new);
 *   (3) O += P V with fp16 MMAs, fp32 accumulators loaded from and stored
 *       back to the shared output tile.
 * The output accumulator lives in shared memory because wmma's fragment
 * layout is opaque: the per-row rescale of step (2) needs to know which
 * element is which row, and shared memory is the documented way to find
 * out.  (A mma.sync version keeps it in registers; that is the next step.)
 *
 * Shared memory (dynamic, raised past 48 KB in init):
 *   Q, K, V tiles fp16, rows padded to D+8; S fp32 [BLOCK_M][BLOCK_N+4];
 *   P fp16 [BLOCK_M][BLOCK_N+8]; O fp32 [BLOCK_M][D+4]; m, l fp32 [BLOCK_M].
 *   64x64 tiles, D=64: 72,192 bytes.
 *
 * Tensors: Q, K, V, O fp16, dense row-major [B, H, S, D], S a multiple of
 * BLOCK_M and BLOCK_N, base pointers 16-byte aligned (16-byte loads); init
 * rejects anything else with a one-line reason.
 *
 * Versions in this file:
 *   attention_fwd_kernel4  wmma flash attention, fp32 S and O in smem
 *
 * Tunables (-DNAME=VALUE, echoed in compiled_params; invalid combinations
 * are static_asserts):
 *   HEAD_DIM   D compiled for: 32, 64 or 128 (default 64)
 *   BLOCK_M    query rows per block, a multiple of 16*NUM_WARPS (default 64)
 *   BLOCK_N    keys per K/V tile, a multiple of 16 (default 64)
 *   NUM_WARPS  warps per block (default 4)
 */
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <math.h>
#include <mma.h>
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

static_assert(HEAD_DIM == 32 || HEAD_DIM == 64 || HEAD_DIM == 128,
	      "HEAD_DIM must be 32, 64 or 128");
static_assert(NUM_WARPS >= 1 && NUM_WARPS <= 32, "NUM_WARPS must be in [1, 32]");
static_assert(BLOCK_M >= 16 && BLOCK_M % (16 * NUM_WARPS) == 0,
	      "BLOCK_M must be a multiple of 16*NUM_WARPS (each warp owns whole 16-row MMA tiles)");
static_assert(BLOCK_N >= 16 && BLOCK_N % 16 == 0, "BLOCK_N must be a positive multiple of 16");

#define THREADS (NUM_WARPS * 32)
#define WM (BLOCK_M / NUM_WARPS) /* rows per warp */
#define QK_LD (HEAD_DIM + 8)     /* Q, K, V rows, halves */
#define S_LD (BLOCK_N + 4)       /* fp32 scores */
#define P_LD (BLOCK_N + 8)       /* fp16 probabilities */
#define O_LD (HEAD_DIM + 4)      /* fp32 output accumulator */

#define ALIGN128(x) (((x) + 127) / 128 * 128)
#define OFF_K ALIGN128((size_t)BLOCK_M * QK_LD * 2)
#define OFF_V (OFF_K + ALIGN128((size_t)BLOCK_N * QK_LD * 2))
#define OFF_S (OFF_V + ALIGN128((size_t)BLOCK_N * QK_LD * 2))
#define OFF_P (OFF_S + ALIGN128((size_t)BLOCK_M * S_LD * 4))
#define OFF_O (OFF_P + ALIGN128((size_t)BLOCK_M * P_LD * 2))
#define OFF_ML (OFF_O + ALIGN128((size_t)BLOCK_M * O_LD * 4))
#define SMEM_BYTES (OFF_ML + ALIGN128((size_t)BLOCK_M * 2 * 4))

using namespace nvcuda;

/* Copies a [NROWS][HEAD_DIM] tile (rows contiguous) into smem rows of QK_LD. */
template <int NROWS>
__device__ __forceinline__ void load_tile(__half *dst, const __half *__restrict__ src, int tid)
{
	constexpr int VPR = HEAD_DIM / 8;
#pragma unroll 4
	for (int i = tid; i < NROWS * VPR; i += THREADS) {
		const int r = i / VPR, c = (i % VPR) * 8;
		*(uint4 *)(dst + r * QK_LD + c) = *(const uint4 *)(src + (size_t)r * HEAD_DIM + c);
	}
}

/*
 * grid: (S / BLOCK_M, H, B); block: THREADS; dynamic smem: SMEM_BYTES.
 * The min-blocks of 1 in __launch_bounds__ is deliberate: without it ptxas
 * 13.0 capped sm_90 at 40 registers and spilled 4 bytes.
 */
__global__ void __launch_bounds__(THREADS, 1)
attention_fwd_kernel4(const __half *__restrict__ d_q, const __half *__restrict__ d_k,
		      const __half *__restrict__ d_v, __half *__restrict__ d_o,
		      int H, int S, float scale_log2)
{
	extern __shared__ __align__(128) unsigned char smem[];
	__half *q_s = (__half *)smem;
	__half *k_s = (__half *)(smem + OFF_K);
	__half *v_s = (__half *)(smem + OFF_V);
	float *s_s = (float *)(smem + OFF_S);
	__half *p_s = (__half *)(smem + OFF_P);
	float *o_s = (float *)(smem + OFF_O);
	float *m_s = (float *)(smem + OFF_ML), *l_s = m_s + BLOCK_M;

	const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
	const int r0 = warp * WM;
	const size_t head = ((size_t)blockIdx.z * H + blockIdx.y) * (size_t)S * HEAD_DIM;
	const __half *k = d_k + head, *v = d_v + head;

	load_tile<BLOCK_M>(q_s, d_q + head + (size_t)blockIdx.x * BLOCK_M * HEAD_DIM, tid);
	for (int r = 0; r < WM; r++)
		for (int d = lane; d < HEAD_DIM; d += 32)
			o_s[(r0 + r) * O_LD + d] = 0.0f;
	if (lane == 0)
		for (int r = 0; r < WM; r++) {
			m_s[r0 + r] = -INFINITY;
			l_s[r0 + r] = 0.0f;
		}

	for (int j0 = 0; j0 < S; j0 += BLOCK_N) {
		if (j0 > 0)
			__syncthreads(); /* every warp is done with the previous K, V */
		load_tile<BLOCK_N>(k_s, k + (size_t)j0 * HEAD_DIM, tid);
		load_tile<BLOCK_N>(v_s, v + (size_t)j0 * HEAD_DIM, tid);
		__syncthreads();

		/* (1) S = Q K^T for this warp's rows */
		for (int i = 0; i < WM / 16; i++) {
#pragma unroll
			for (int j = 0; j < BLOCK_N / 16; j++) {
				wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
				wmma::fill_fragment(acc, 0.0f);
#pragma unroll
				for (int kk = 0; kk < HEAD_DIM / 16; kk++) {
					wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
					wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> b;
					wmma::load_matrix_sync(a, q_s + (r0 + 16 * i) * QK_LD + 16 * kk, QK_LD);
					wmma::load_matrix_sync(b, k_s + (16 * j) * QK_LD + 16 * kk, QK_LD);
					wmma::mma_sync(acc, a, b, acc);
				}
				wmma::store_matrix_sync(s_s + (r0 + 16 * i) * S_LD + 16 * j, acc, S_LD,
							wmma::mem_row_major);
			}
		}
		__syncwarp();

		/* (2) online softmax of this warp's rows: P, row stats, O rescale */
		for (int r = r0; r < r0 + WM; r++) {
			constexpr int CPL = (BLOCK_N + 31) / 32;
			float sv[CPL], mx = -INFINITY;
#pragma unroll
			for (int jj = 0; jj < CPL; jj++) {
				const int c = lane + 32 * jj;
				sv[jj] = c < BLOCK_N ? s_s[r * S_LD + c] * scale_log2 : -INFINITY;
				mx = fmaxf(mx, sv[jj]);
			}
#pragma unroll
			for (int w = 16; w > 0; w /= 2)
				mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, w));
			const float m_old = m_s[r];
			const float m_new = fmaxf(m_old, mx);
			const float alpha = exp2f(m_old - m_new); /* 0 on the first tile */
			float sum = 0.0f;
#pragma unroll
			for (int jj = 0; jj < CPL; jj++) {
				const int c = lane + 32 * jj;
				if (c < BLOCK_N) {
					const __half p = __float2half_rn(exp2f(sv[jj] - m_new));
					p_s[r * P_LD + c] = p;
					sum += __half2float(p);
				}
			}
#pragma unroll
			for (int w = 16; w > 0; w /= 2)
				sum += __shfl_xor_sync(0xffffffffu, sum, w);
			for (int d = lane; d < HEAD_DIM; d += 32)
				o_s[r * O_LD + d] *= alpha;
			__syncwarp(); /* every lane read m_s[r] before lane 0 updates it */
			if (lane == 0) {
				m_s[r] = m_new;
				l_s[r] = l_s[r] * alpha + sum;
			}
		}
		__syncwarp();

		/* (3) O += P V for this warp's rows */
		for (int i = 0; i < WM / 16; i++) {
#pragma unroll
			for (int j = 0; j < HEAD_DIM / 16; j++) {
				wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
				float *o_tile = o_s + (r0 + 16 * i) * O_LD + 16 * j;
				wmma::load_matrix_sync(acc, o_tile, O_LD, wmma::mem_row_major);
#pragma unroll
				for (int kk = 0; kk < BLOCK_N / 16; kk++) {
					wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
					wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b;
					wmma::load_matrix_sync(a, p_s + (r0 + 16 * i) * P_LD + 16 * kk, P_LD);
					wmma::load_matrix_sync(b, v_s + (16 * kk) * QK_LD + 16 * j, QK_LD);
					wmma::mma_sync(acc, a, b, acc);
				}
				wmma::store_matrix_sync(o_tile, acc, O_LD, wmma::mem_row_major);
			}
		}
		__syncwarp();
	}

	/* O = acc / l, this warp's rows */
	__half *out = d_o + head + ((size_t)blockIdx.x * BLOCK_M + r0) * HEAD_DIM;
	for (int r = 0; r < WM; r++) {
		const float inv_l = 1.0f / l_s[r0 + r];
		for (int d = 2 * lane; d < HEAD_DIM; d += 64)
			*(__half2 *)(out + r * HEAD_DIM + d) =
				__floats2half2_rn(o_s[(r0 + r) * O_LD + d] * inv_l,
						  o_s[(r0 + r) * O_LD + d + 1] * inv_l);
	}
}

/* Checks the launch and raises the dynamic shared-memory limit. */
static int fa_wmma_init(struct ev_launch *l, char *err, size_t errlen)
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
		if ((uintptr_t)t->data % 16 != 0) {
			snprintf(err, errlen, "tensor %d is not 16-byte aligned (16-byte loads)", i);
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
	e = cudaFuncSetAttribute(attention_fwd_kernel4, cudaFuncAttributeMaxDynamicSharedMemorySize,
				 (int)SMEM_BYTES);
	if (e != cudaSuccess) {
		snprintf(err, errlen, "cannot allow %zu B of dynamic shared memory: %s",
			 (size_t)SMEM_BYTES, cudaGetErrorString(e));
		return 1;
	}
	return 0;
}

static int fa_wmma_launch(struct ev_launch *l)
{
	const int B = (int)l->inputs[0].dims[0], H = (int)l->inputs[0].dims[1];
	const int S = (int)l->inputs[0].dims[2];
	const dim3 grid(S / BLOCK_M, H, B);
	const float scale_log2 = (float)(l->scale * 1.4426950408889634);
	attention_fwd_kernel4<<<grid, THREADS, SMEM_BYTES, (cudaStream_t)l->stream>>>(
		(const __half *)l->inputs[0].data, (const __half *)l->inputs[1].data,
		(const __half *)l->inputs[2].data, (__half *)l->outputs[0].data, H, S, scale_log2);
	return (int)cudaGetLastError();
}

EVIDENT_DEFINE_KERNEL("fa_wmma", "cuda", "attention_fwd", fa_wmma_init, fa_wmma_launch, NULL,
		      EV_PARAM(HEAD_DIM) " " EV_PARAM(BLOCK_M) " " EV_PARAM(BLOCK_N) " "
		      EV_PARAM(NUM_WARPS))
