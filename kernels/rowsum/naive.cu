/*
 * naive.cu - rowsum, the naive CUDA kernel: one thread per row (one per
 * output element), an fp32 running sum left to right; tensors in fp32,
 * fp16 or bf16 (one dtype for X and Y).
 *
 * Tensors as problems/rowsum.c defines them: X [R,C], Y [R].
 *
 * Versions in this file:
 *   rowsum_fwd_kernel1  one thread per row
 *
 * Tunables (-DNAME=VALUE, echoed in compiled_params):
 *   BLOCK_THREADS  rows per block (32..1024, multiple of 32; default 128)
 */
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>

#include "../evident_kernel.h"

#ifndef BLOCK_THREADS
#define BLOCK_THREADS 128
#endif
static_assert(BLOCK_THREADS >= 32 && BLOCK_THREADS <= 1024 && BLOCK_THREADS % 32 == 0,
	      "BLOCK_THREADS must be a multiple of 32 in [32, 1024]");

__device__ __forceinline__ float to_f32(float x) { return x; }
__device__ __forceinline__ float to_f32(__half x) { return __half2float(x); }
__device__ __forceinline__ float to_f32(__nv_bfloat16 x) { return __bfloat162float(x); }
__device__ __forceinline__ void store(float *p, float v) { *p = v; }
__device__ __forceinline__ void store(__half *p, float v) { *p = __float2half_rn(v); }
__device__ __forceinline__ void store(__nv_bfloat16 *p, float v) { *p = __float2bfloat16_rn(v); }

template <typename T>
__global__ void __launch_bounds__(BLOCK_THREADS)
rowsum_fwd_kernel1(const T *__restrict__ X, T *__restrict__ Y, long long R, long long C)
{
	const long long r = (long long)blockIdx.x * BLOCK_THREADS + threadIdx.x;
	if (r >= R)
		return;
	const T *x = X + r * C;
	float acc = 0.0f;
	for (long long c = 0; c < C; c++)
		acc += to_f32(x[c]);
	store(&Y[r], acc);
}

static int rowsum_naive_init(struct ev_launch *l, char *err, size_t errlen)
{
	const struct ev_tensor *x = &l->inputs[0], *y = &l->outputs[0];
	if (l->n_inputs != 1 || l->n_outputs != 1 || x->ndim != 2 || y->ndim != 1 || y->dims[0] != x->dims[0]) {
		snprintf(err, errlen, "rowsum needs X [R,C] and Y [R]");
		return 1;
	}
	if (x->dtype != y->dtype || (x->dtype != EV_F32 && x->dtype != EV_F16 && x->dtype != EV_BF16)) {
		snprintf(err, errlen, "X and Y must share one dtype: fp32, fp16 or bf16");
		return 1;
	}
	if (x->dims[0] > (long long)INT32_MAX * BLOCK_THREADS / 2) {
		snprintf(err, errlen, "too many rows for this kernel's grid");
		return 1;
	}
	return 0;
}

template <typename T>
static void launch_t(struct ev_launch *l, long long R, long long C)
{
	const unsigned blocks = (unsigned)((R + BLOCK_THREADS - 1) / BLOCK_THREADS);
	rowsum_fwd_kernel1<T><<<blocks, BLOCK_THREADS, 0, (cudaStream_t)l->stream>>>(
		(const T *)l->inputs[0].data, (T *)l->outputs[0].data, R, C);
}

static int rowsum_naive_launch(struct ev_launch *l)
{
	const long long R = l->inputs[0].dims[0], C = l->inputs[0].dims[1];
	switch (l->inputs[0].dtype) {
	case EV_F16: launch_t<__half>(l, R, C); break;
	case EV_BF16: launch_t<__nv_bfloat16>(l, R, C); break;
	default: launch_t<float>(l, R, C); break;
	}
	return (int)cudaGetLastError();
}

EVIDENT_DEFINE_KERNEL("rowsum_naive", "cuda", "rowsum", rowsum_naive_init, rowsum_naive_launch, NULL,
		      EV_PARAM(BLOCK_THREADS))
