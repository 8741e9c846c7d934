/*
 * cublas_attn.cu - unfused attention_fwd reference through cuBLAS.
 *
 * The textbook three-step attention, as a vendor-library yardstick for the
 * fused kernels: (1) S = scale * Q K^T with one strided-batched GEMM per
 * (b, h) (fp16 in, fp32 accumulate, fp32 S in the workspace), (2) a
 * row-wise softmax kernel that turns S into P = softmax(S) in fp16, (3)
 * O = P V with a second strided-batched GEMM (fp16 in, fp32 accumulate,
 * fp16 out).  It moves the whole B*H*S*S score matrix through device memory
 * twice, which is exactly what flash attention avoids.
 *
 * cuBLAS is column-major; a row-major [rows][cols] matrix is its transpose
 * in column-major, so S^T = K Q^T is computed as gemm(T, N, m=S_k, n=S_q,
 * k=D, A=K, B=Q) and O^T = V^T P^T as gemm(N, N, m=D, n=S_q, k=S_k, A=V,
 * B=P).  init creates the cuBLAS handle and the workspace (B*H*S*S*(4+2)
 * bytes: fp32 scores, fp16 P), fini frees both.  Any S >= 1, any D <= 256.
 *
 * Versions in this file:
 *   attention_softmax_kernel1  one warp per row, fp32 in, fp16 P out
 *
 * Tunables: none.
 */
// evident: libs cublas
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "../evident_kernel.h"

#define SOFTMAX_WARPS 8 /* rows per softmax block */

/* What init creates and fini frees. */
struct cublas_attn_state {
	cublasHandle_t handle;
	float *d_s;  /* [B*H][S][S] fp32 scaled scores */
	__half *d_p; /* [B*H][S][S] fp16 probabilities */
};

/* One warp per row of n scores: P = exp(s - max) / sum. */
__global__ void __launch_bounds__(SOFTMAX_WARPS * 32)
attention_softmax_kernel1(const float *__restrict__ d_s, __half *__restrict__ d_p, long long rows, int n)
{
	const long long row = (long long)blockIdx.x * SOFTMAX_WARPS + threadIdx.x / 32;
	const int lane = threadIdx.x % 32;
	if (row >= rows)
		return;
	const float *s = d_s + row * n;
	__half *p = d_p + row * n;
	float mx = -INFINITY;
	for (int j = lane; j < n; j += 32)
		mx = fmaxf(mx, s[j]);
	for (int w = 16; w > 0; w /= 2)
		mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, w));
	float sum = 0.0f;
	for (int j = lane; j < n; j += 32)
		sum += __expf(s[j] - mx);
	for (int w = 16; w > 0; w /= 2)
		sum += __shfl_xor_sync(0xffffffffu, sum, w);
	const float inv = 1.0f / sum;
	for (int j = lane; j < n; j += 32)
		p[j] = __float2half_rn(__expf(s[j] - mx) * inv);
}

static void cublas_attn_fini(struct ev_launch *l)
{
	struct cublas_attn_state *st = (struct cublas_attn_state *)l->state;
	if (!st)
		return;
	if (st->handle)
		cublasDestroy(st->handle);
	cudaFree(st->d_s);
	cudaFree(st->d_p);
	free(st);
	l->state = NULL;
}

/* Checks the shape, creates the handle and the workspace (fini frees them). */
static int cublas_attn_init(struct ev_launch *l, char *err, size_t errlen)
{
	struct cublas_attn_state *st = NULL;
	cudaError_t ce;
	cublasStatus_t cs;
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
	const long long BH = t0->dims[0] * t0->dims[1], S = t0->dims[2], D = t0->dims[3];
	if (BH < 1 || S < 1 || D < 1 || D > 256 || S > INT32_MAX / 32 || BH > INT32_MAX) {
		snprintf(err, errlen, "shape B*H=%lld S=%lld D=%lld out of range", BH, S, D);
		return 1;
	}
	st = (struct cublas_attn_state *)calloc(1, sizeof(*st));
	if (!st) {
		snprintf(err, errlen, "out of memory");
		return 1;
	}
	l->state = st;
	if ((cs = cublasCreate(&st->handle)) != CUBLAS_STATUS_SUCCESS) {
		snprintf(err, errlen, "cublasCreate: %s", cublasGetStatusString(cs));
		goto fail;
	}
	if ((ce = cudaMalloc(&st->d_s, (size_t)BH * S * S * sizeof(float))) != cudaSuccess ||
	    (ce = cudaMalloc(&st->d_p, (size_t)BH * S * S * sizeof(__half))) != cudaSuccess) {
		snprintf(err, errlen, "cannot allocate the %lld-byte workspace: %s",
			 (long long)BH * S * S * 6, cudaGetErrorString(ce));
		goto fail;
	}
	return 0;
fail:
	cublas_attn_fini(l);
	return 1;
}

/* cuBLAS failures come back as cudaErrorUnknown, with the status on stderr. */
static int cublas_fail(const char *what, cublasStatus_t cs)
{
	fprintf(stderr, "cublas_attn: %s: %s\n", what, cublasGetStatusString(cs));
	return (int)cudaErrorUnknown;
}

static int cublas_attn_launch(struct ev_launch *l)
{
	struct cublas_attn_state *st = (struct cublas_attn_state *)l->state;
	const int BH = (int)(l->inputs[0].dims[0] * l->inputs[0].dims[1]);
	const int S = (int)l->inputs[0].dims[2], D = (int)l->inputs[0].dims[3];
	const long long sd = (long long)S * D, ss = (long long)S * S;
	const float alpha = (float)l->scale, one = 1.0f, zero = 0.0f;
	cublasStatus_t cs;
	if (!st)
		return (int)cudaErrorInvalidValue;
	if ((cs = cublasSetStream(st->handle, (cudaStream_t)l->stream)) != CUBLAS_STATUS_SUCCESS)
		return cublas_fail("cublasSetStream", cs);
	/* S^T (col-major, S_k x S_q) = K (op T of K^T) * Q^T */
	cs = cublasGemmStridedBatchedEx(st->handle, CUBLAS_OP_T, CUBLAS_OP_N, S, S, D, &alpha,
					l->inputs[1].data, CUDA_R_16F, D, sd, l->inputs[0].data,
					CUDA_R_16F, D, sd, &zero, st->d_s, CUDA_R_32F, S, ss, BH,
					CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
	if (cs != CUBLAS_STATUS_SUCCESS)
		return cublas_fail("gemm S = scale Q K^T", cs);
	const long long rows = (long long)BH * S;
	attention_softmax_kernel1<<<(unsigned)((rows + SOFTMAX_WARPS - 1) / SOFTMAX_WARPS),
				    SOFTMAX_WARPS * 32, 0, (cudaStream_t)l->stream>>>(st->d_s, st->d_p,
										 rows, S);
	cudaError_t ce = cudaGetLastError();
	if (ce != cudaSuccess)
		return (int)ce;
	/* O^T (col-major, D x S_q) = V^T (D x S_k) * P^T (S_k x S_q) */
	cs = cublasGemmStridedBatchedEx(st->handle, CUBLAS_OP_N, CUBLAS_OP_N, D, S, S, &one,
					l->inputs[2].data, CUDA_R_16F, D, sd, st->d_p, CUDA_R_16F, S,
					ss, &zero, l->outputs[0].data, CUDA_R_16F, D, sd, BH,
					CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
	if (cs != CUBLAS_STATUS_SUCCESS)
		return cublas_fail("gemm O = P V", cs);
	return (int)cudaGetLastError();
}

EVIDENT_DEFINE_KERNEL("cublas_attn", "cuda", "attention_fwd", cublas_attn_init, cublas_attn_launch,
		      cublas_attn_fini, "")
