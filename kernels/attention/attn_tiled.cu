/*
 * attn_tiled.cu - attention_fwd with K/V tiles staged in shared memory.
 *
 * The step between the naive kernel (attn_naive.cu) and FlashAttention
 * (fa_s512.cu): a block owns BLOCK_M query rows of one (b, h), one thread
 * per row, query row and fp32 accumulator in registers as in the naive
 * kernel; the block walks the keys BLOCK_N at a time, loading each K and V
 * tile into shared memory once (16-byte loads, coalesced) so that the
 * BLOCK_M threads read it from shared memory (broadcast) instead of each
 * re-reading it from global memory.  Softmax is online (running max and sum)
 * and all arithmetic is fp32.
 *
 * Tensors: Q, K, V, O fp16, dense row-major [B, H, S, D]; S a multiple of
 * BLOCK_N (any S is fine for BLOCK_M: rows past S idle); base pointers
 * 16-byte aligned.  init rejects other launches with the reason.
 *
 * Versions in this file:
 *   attention_fwd_kernel2  K/V tiles in shared memory, one thread per row
 *
 * Tunables (-DNAME=VALUE, echoed in compiled_params):
 *   HEAD_DIM  D the object is compiled for (32, 64 or 128; default 64)
 *   BLOCK_M   query rows (= threads) per block, multiple of 32 up to 1024
 *             (default 64)
 *   BLOCK_N   keys per shared-memory tile (default 64); the K and V tiles
 *             take 2 * BLOCK_N * HEAD_DIM * 2 bytes of static shared memory,
 *             so a tile over 48 KB fails to compile (by design)
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

static_assert(HEAD_DIM == 32 || HEAD_DIM == 64 || HEAD_DIM == 128,
	      "HEAD_DIM must be 32, 64 or 128");
static_assert(BLOCK_M >= 32 && BLOCK_M <= 1024 && BLOCK_M % 32 == 0,
	      "BLOCK_M must be a multiple of 32 in [32, 1024]");
static_assert(BLOCK_N >= 1, "BLOCK_N must be positive");

#define VEC_PER_ROW (HEAD_DIM / 8) /* uint4 (8 halves) per row */

/* grid: (ceil(S / BLOCK_M), H, B); block: BLOCK_M threads. */
__global__ void __launch_bounds__(BLOCK_M)
attention_fwd_kernel2(const __half *__restrict__ d_q, const __half *__restrict__ d_k,
		      const __half *__restrict__ d_v, __half *__restrict__ d_o,
		      int H, int S, float scale_log2)
{
	__shared__ __align__(16) __half k_s[BLOCK_N][HEAD_DIM];
	__shared__ __align__(16) __half v_s[BLOCK_N][HEAD_DIM];

	const int tid = threadIdx.x;
	const int row = blockIdx.x * BLOCK_M + tid;
	const bool active = row < S;
	const size_t head = ((size_t)blockIdx.z * H + blockIdx.y) * (size_t)S * HEAD_DIM;

	float qr[HEAD_DIM], acc[HEAD_DIM];
	{
		const uint4 *q4 = (const uint4 *)(d_q + head + (size_t)(active ? row : 0) * HEAD_DIM);
#pragma unroll
		for (int i = 0; i < VEC_PER_ROW; i++) {
			uint4 u = q4[i];
			const __half2 *h = (const __half2 *)&u;
#pragma unroll
			for (int t = 0; t < 4; t++) {
				float2 f = __half22float2(h[t]);
				qr[8 * i + 2 * t] = f.x * scale_log2;
				qr[8 * i + 2 * t + 1] = f.y * scale_log2;
			}
		}
	}
#pragma unroll
	for (int d = 0; d < HEAD_DIM; d++)
		acc[d] = 0.0f;
	float m = -INFINITY, l = 0.0f;

	const uint4 *k4 = (const uint4 *)(d_k + head);
	const uint4 *v4 = (const uint4 *)(d_v + head);
	for (int j0 = 0; j0 < S; j0 += BLOCK_N) {
		__syncthreads(); /* the previous tile is no longer read */
		for (int i = tid; i < BLOCK_N * VEC_PER_ROW; i += BLOCK_M) {
			((uint4 *)k_s)[i] = k4[(size_t)j0 * VEC_PER_ROW + i];
			((uint4 *)v_s)[i] = v4[(size_t)j0 * VEC_PER_ROW + i];
		}
		__syncthreads();
		for (int j = 0; j < BLOCK_N; j++) {
			float s = 0.0f;
#pragma unroll
			for (int d = 0; d < HEAD_DIM; d += 2) {
				float2 kf = __half22float2(*(const __half2 *)&k_s[j][d]);
				s = fmaf(qr[d], kf.x, s);
				s = fmaf(qr[d + 1], kf.y, s);
			}
			float m_new = fmaxf(m, s);
			float alpha = exp2f(m - m_new);
			float p = exp2f(s - m_new);
			l = l * alpha + p;
#pragma unroll
			for (int d = 0; d < HEAD_DIM; d += 2) {
				float2 vf = __half22float2(*(const __half2 *)&v_s[j][d]);
				acc[d] = fmaf(p, vf.x, acc[d] * alpha);
				acc[d + 1] = fmaf(p, vf.y, acc[d + 1] * alpha);
			}
			m = m_new;
		}
	}
	if (!active)
		return;
	const float inv_l = 1.0f / l;
	__half2 *o2 = (__half2 *)(d_o + head + (size_t)row * HEAD_DIM);
#pragma unroll
	for (int d = 0; d < HEAD_DIM; d += 2)
		o2[d / 2] = __floats2half2_rn(acc[d] * inv_l, acc[d + 1] * inv_l);
}

/* Checks shape, dtype, S % BLOCK_N and 16-byte alignment of every tensor. */
static int tiled_init(struct ev_launch *l, char *err, size_t errlen)
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
	if (t0->dims[3] != HEAD_DIM) {
		snprintf(err, errlen, "compiled for HEAD_DIM=%d, got D=%lld (rebuild with -DHEAD_DIM=%lld)",
			 HEAD_DIM, (long long)t0->dims[3], (long long)t0->dims[3]);
		return 1;
	}
	if (t0->dims[2] % BLOCK_N != 0) {
		snprintf(err, errlen, "S=%lld is not a multiple of BLOCK_N=%d",
			 (long long)t0->dims[2], BLOCK_N);
		return 1;
	}
	if (t0->dims[0] < 1 || t0->dims[1] < 1 || t0->dims[2] < 1 || t0->dims[0] > 65535 ||
	    t0->dims[1] > 65535 || t0->dims[2] > INT32_MAX / 2) {
		snprintf(err, errlen, "shape out of range for this kernel's grid");
		return 1;
	}
	return 0;
}

static int tiled_launch(struct ev_launch *l)
{
	const int B = (int)l->inputs[0].dims[0], H = (int)l->inputs[0].dims[1];
	const int S = (int)l->inputs[0].dims[2];
	const dim3 grid((S + BLOCK_M - 1) / BLOCK_M, H, B);
	const float scale_log2 = (float)(l->scale * 1.4426950408889634);
	attention_fwd_kernel2<<<grid, BLOCK_M, 0, (cudaStream_t)l->stream>>>(
		(const __half *)l->inputs[0].data, (const __half *)l->inputs[1].data,
		(const __half *)l->inputs[2].data, (__half *)l->outputs[0].data, H, S, scale_log2);
	return (int)cudaGetLastError();
}

EVIDENT_DEFINE_KERNEL("attn_tiled", "cuda", "attention_fwd", tiled_init, tiled_launch, NULL,
		      EV_PARAM(HEAD_DIM) " " EV_PARAM(BLOCK_M) " " EV_PARAM(BLOCK_N))
