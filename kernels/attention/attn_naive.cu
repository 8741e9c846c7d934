/*
 * attn_naive.cu - attention_fwd, the naive kernel: one thread per query row.
 *
 * The simplest correct CUDA version of O = softmax(scale * Q K^T) V, the
 * floor every faster kernel in kernels/attention/ is compared against.  Each
 * thread keeps its query row and its output accumulator in registers and
 * walks every key of its (b, h) with an online softmax (running max m and
 * running sum l, rescaling the accumulator when the max grows), all in fp32.
 * K and V are read straight from global memory (the L1/L2 caches do the
 * sharing that attn_tiled.cu does by hand).
 *
 * Tensors: Q, K, V, O fp16, dense row-major [B, H, S, D]; any S >= 1.
 *
 * Versions in this file:
 *   attention_fwd_kernel1  one thread per query row, online softmax, fp32
 *
 * Tunables (-DNAME=VALUE, echoed in compiled_params):
 *   HEAD_DIM       D the object is compiled for (32, 64 or 128; default 64);
 *                  init rejects any other D of the launch
 *   BLOCK_THREADS  threads (query rows) per block (32..1024, multiple of 32;
 *                  default 128)
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
#ifndef BLOCK_THREADS
#define BLOCK_THREADS 128
#endif

static_assert(HEAD_DIM == 32 || HEAD_DIM == 64 || HEAD_DIM == 128,
	      "HEAD_DIM must be 32, 64 or 128");
static_assert(BLOCK_THREADS >= 32 && BLOCK_THREADS <= 1024 && BLOCK_THREADS % 32 == 0,
	      "BLOCK_THREADS must be a multiple of 32 in [32, 1024]");

/* grid: (ceil(S / BLOCK_THREADS), H, B); one thread owns query row `row`. */
__global__ void __launch_bounds__(BLOCK_THREADS)
attention_fwd_kernel1(const __half *__restrict__ d_q, const __half *__restrict__ d_k,
		      const __half *__restrict__ d_v, __half *__restrict__ d_o,
		      int H, int S, float scale_log2)
{
	const int row = blockIdx.x * BLOCK_THREADS + threadIdx.x;
	if (row >= S)
		return;
	const size_t head = ((size_t)blockIdx.z * H + blockIdx.y) * (size_t)S * HEAD_DIM;
	const __half *q = d_q + head + (size_t)row * HEAD_DIM;
	const __half *k = d_k + head;
	const __half *v = d_v + head;

	float qr[HEAD_DIM], acc[HEAD_DIM];
#pragma unroll
	for (int d = 0; d < HEAD_DIM; d++) {
		qr[d] = __half2float(q[d]) * scale_log2; /* fold scale*log2(e) in */
		acc[d] = 0.0f;
	}
	float m = -INFINITY, l = 0.0f;
	for (int j = 0; j < S; j++) {
		const __half *kj = k + (size_t)j * HEAD_DIM;
		float s = 0.0f;
#pragma unroll
		for (int d = 0; d < HEAD_DIM; d++)
			s = fmaf(qr[d], __half2float(kj[d]), s);
		/* s is in log2 units: exp2(s - m) == exp(scale * (q.k) - max) */
		float m_new = fmaxf(m, s);
		float alpha = exp2f(m - m_new); /* 0 on the first key (m = -inf) */
		float p = exp2f(s - m_new);
		l = l * alpha + p;
		const __half *vj = v + (size_t)j * HEAD_DIM;
#pragma unroll
		for (int d = 0; d < HEAD_DIM; d++)
			acc[d] = fmaf(p, __half2float(vj[d]), acc[d] * alpha);
		m = m_new;
	}
	const float inv_l = 1.0f / l;
	__half *o = d_o + head + (size_t)row * HEAD_DIM;
#pragma unroll
	for (int d = 0; d < HEAD_DIM; d++)
		o[d] = __float2half_rn(acc[d] * inv_l);
}

/* Checks that the launch is attention_fwd with fp16 [B, H, S, HEAD_DIM]. */
static int naive_init(struct ev_launch *l, char *err, size_t errlen)
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
	}
	if (t0->dims[3] != HEAD_DIM) {
		snprintf(err, errlen, "compiled for HEAD_DIM=%d, got D=%lld (rebuild with -DHEAD_DIM=%lld)",
			 HEAD_DIM, (long long)t0->dims[3], (long long)t0->dims[3]);
		return 1;
	}
	if (t0->dims[0] < 1 || t0->dims[1] < 1 || t0->dims[2] < 1 || t0->dims[0] > 65535 ||
	    t0->dims[1] > 65535 || t0->dims[2] > INT32_MAX / 2) {
		snprintf(err, errlen, "shape out of range for this kernel's grid");
		return 1;
	}
	return 0;
}

static int naive_launch(struct ev_launch *l)
{
	const int B = (int)l->inputs[0].dims[0], H = (int)l->inputs[0].dims[1];
	const int S = (int)l->inputs[0].dims[2];
	const dim3 grid((S + BLOCK_THREADS - 1) / BLOCK_THREADS, H, B);
	const float scale_log2 = (float)(l->scale * 1.4426950408889634);
	attention_fwd_kernel1<<<grid, BLOCK_THREADS, 0, (cudaStream_t)l->stream>>>(
		(const __half *)l->inputs[0].data, (const __half *)l->inputs[1].data,
		(const __half *)l->inputs[2].data, (__half *)l->outputs[0].data, H, S, scale_log2);
	return (int)cudaGetLastError();
}

EVIDENT_DEFINE_KERNEL("attn_naive", "cuda", "attention_fwd", naive_init, naive_launch, NULL,
		      EV_PARAM(HEAD_DIM) " " EV_PARAM(BLOCK_THREADS))
