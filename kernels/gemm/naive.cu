/*
 * naive.cu - gemm, the naive CUDA kernel: one thread per element of C,
 * each walking the whole K dimension with an fp32 accumulator, inputs and
 * output in fp32, fp16 or bf16 (all three the same; the launch's dtype
 * picks the instantiation).  The floor faster gemm kernels are compared
 * against.
 *
 * Tensors as problems/gemm.c defines them: A [M,K], B [K,N], C [M,N],
 * row-major.
 *
 * Versions in this file:
 *   gemm_fwd_kernel1  one thread per C element, fp32 accumulation
 *
 * Tunables (-DNAME=VALUE, echoed in compiled_params):
 *   TILE  the block is TILE x TILE threads (8, 16 or 32; default 16)
 */
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>

#include "../evident_kernel.h"

#ifndef TILE
#define TILE 16
#endif
static_assert(TILE == 8 || TILE == 16 || TILE == 32, "TILE must be 8, 16 or 32");

__device__ __forceinline__ float to_f32(float x) { return x; }
__device__ __forceinline__ float to_f32(__half x) { return __half2float(x); }
__device__ __forceinline__ float to_f32(__nv_bfloat16 x) { return __bfloat162float(x); }
__device__ __forceinline__ void store(float *p, float v) { *p = v; }
__device__ __forceinline__ void store(__half *p, float v) { *p = __float2half_rn(v); }
__device__ __forceinline__ void store(__nv_bfloat16 *p, float v) { *p = __float2bfloat16_rn(v); }

/* grid: (ceil(N / TILE), ceil(M / TILE)); thread (x, y) owns C[row][col]. */
template <typename T>
__global__ void __launch_bounds__(TILE *TILE)
gemm_fwd_kernel1(const T *__restrict__ A, const T *__restrict__ B, T *__restrict__ C, int M, int N, int K)
{
	const int col = blockIdx.x * TILE + threadIdx.x, row = blockIdx.y * TILE + threadIdx.y;
	if (row >= M || col >= N)
		return;
	float acc = 0.0f;
	for (int k = 0; k < K; k++)
		acc = fmaf(to_f32(A[(size_t)row * K + k]), to_f32(B[(size_t)k * N + col]), acc);
	store(&C[(size_t)row * N + col], acc);
}

static int gemm_naive_init(struct ev_launch *l, char *err, size_t errlen)
{
	const struct ev_tensor *a = &l->inputs[0], *b = &l->inputs[1], *c = &l->outputs[0];
	if (l->n_inputs != 2 || l->n_outputs != 1 || a->ndim != 2 || b->ndim != 2 || c->ndim != 2) {
		snprintf(err, errlen, "gemm needs A [M,K], B [K,N] and C [M,N]");
		return 1;
	}
	if (a->dtype != b->dtype || a->dtype != c->dtype ||
	    (a->dtype != EV_F32 && a->dtype != EV_F16 && a->dtype != EV_BF16)) {
		snprintf(err, errlen, "A, B and C must share one dtype: fp32, fp16 or bf16");
		return 1;
	}
	if (a->dims[1] != b->dims[0] || c->dims[0] != a->dims[0] || c->dims[1] != b->dims[1]) {
		snprintf(err, errlen, "inconsistent shapes: A [M,K], B [K,N], C [M,N]");
		return 1;
	}
	if (a->dims[0] > 65535LL * TILE || b->dims[1] > INT32_MAX - TILE || a->dims[1] > INT32_MAX) {
		snprintf(err, errlen, "shape out of range for this kernel's grid");
		return 1;
	}
	return 0;
}

template <typename T>
static void launch_t(struct ev_launch *l, int M, int N, int K)
{
	const dim3 block(TILE, TILE), grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
	gemm_fwd_kernel1<T><<<grid, block, 0, (cudaStream_t)l->stream>>>(
		(const T *)l->inputs[0].data, (const T *)l->inputs[1].data, (T *)l->outputs[0].data, M, N, K);
}

static int gemm_naive_launch(struct ev_launch *l)
{
	const int M = (int)l->inputs[0].dims[0], K = (int)l->inputs[0].dims[1], N = (int)l->inputs[1].dims[1];
	switch (l->inputs[0].dtype) {
	case EV_F16: launch_t<__half>(l, M, N, K); break;
	case EV_BF16: launch_t<__nv_bfloat16>(l, M, N, K); break;
	default: launch_t<float>(l, M, N, K); break;
	}
	return (int)cudaGetLastError();
}

EVIDENT_DEFINE_KERNEL("gemm_naive", "cuda", "gemm", gemm_naive_init, gemm_naive_launch, NULL, EV_PARAM(TILE))
