/*
 * attention_fwd.cu - the GPU reference of problems/attention_fwd.c:
 * O = softmax(scale Q K^T) V in fp32 on the device, for shapes where the
 * float64 CPU reference would take too long.  Method: cuBLAS SGEMM in
 * pedantic math mode (true fp32, never TF32), strided-batched over the
 * B*H heads, for the scores and for P V; between them a row softmax kernel
 * that subtracts the row maximum before exp (so large_scores cannot
 * overflow).  The S x S score matrices dominate memory, so heads go in
 * chunks of at most 2^28 scores (1 GiB); the buffer is cleared before it is
 * freed (evident_problem.h: no reference data is left behind).
 *
 * Inputs and outputs are device floats (the runner converts the kernel's
 * dtype, already rounded, to float).  Returns 0, a cudaError_t, or a
 * cublasStatus_t + 1000, with a one-line reason in err.
 */
// evident: libs cublas
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>

#include "evident_problem.h"

/* Row-wise softmax in place: one block per row of n floats. */
__global__ void attn_softmax_rows_kernel(float *x, long long n)
{
	__shared__ float red[32];
	float *row = x + (long long)blockIdx.x * n;
	const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nw = blockDim.x >> 5;
	float m = -INFINITY, s = 0.0f;

	for (long long j = threadIdx.x; j < n; j += blockDim.x)
		m = fmaxf(m, row[j]);
	for (int o = 16; o; o >>= 1)
		m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
	if (!lane)
		red[warp] = m;
	__syncthreads();
	m = red[0];
	for (int w = 1; w < nw; w++)
		m = fmaxf(m, red[w]);
	__syncthreads();
	for (long long j = threadIdx.x; j < n; j += blockDim.x) {
		float e = expf(row[j] - m);
		row[j] = e;
		s += e;
	}
	for (int o = 16; o; o >>= 1)
		s += __shfl_xor_sync(0xffffffffu, s, o);
	if (!lane)
		red[warp] = s;
	__syncthreads();
	s = 0.0f;
	for (int w = 0; w < nw; w++)
		s += red[w];
	for (long long j = threadIdx.x; j < n; j += blockDim.x)
		row[j] = row[j] / s;
}

#define CK(call, what)                                                                  \
	do {                                                                            \
		cudaError_t e_ = (call);                                                \
		if (e_ != cudaSuccess) {                                                \
			snprintf(err, errlen, "%s: %s (%s)", what, cudaGetErrorString(e_), \
				 cudaGetErrorName(e_));                                  \
			rc = (int)e_;                                                   \
			goto out;                                                       \
		}                                                                       \
	} while (0)
#define CKB(call, what)                                                                 \
	do {                                                                            \
		cublasStatus_t s_ = (call);                                             \
		if (s_ != CUBLAS_STATUS_SUCCESS) {                                      \
			snprintf(err, errlen, "%s: %s", what, cublasGetStatusString(s_));  \
			rc = 1000 + (int)s_;                                            \
			goto out;                                                       \
		}                                                                       \
	} while (0)

static int attn_reference_gpu(const long long *shape, double scalar, const float *const *d_in,
			      float *const *d_out, void *stream, char *err, size_t errlen)
{
	const long long B = shape[0], H = shape[1], S = shape[2], D = shape[3];
	const long long BH = B * H, per = S * D;
	const float alpha = (float)scalar, one = 1.0f, zero = 0.0f;
	cudaStream_t st = (cudaStream_t)stream;
	cublasHandle_t h = NULL;
	float *d_p = NULL;
	long long chunk;
	int rc = 0;

	if (BH <= 0 || S <= 0 || D <= 0 || S > 0x7fffffffLL || D > 0x7fffffffLL) {
		snprintf(err, errlen, "attention reference: shape out of range");
		return (int)cudaErrorInvalidValue;
	}
	chunk = (1LL << 28) / (S * S);
	if (chunk < 1)
		chunk = 1;
	if (chunk > BH)
		chunk = BH;
	CKB(cublasCreate(&h), "cublasCreate");
	/* pedantic: true fp32 SGEMM, never TF32 or other reduced precision */
	CKB(cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH), "cublasSetMathMode");
	CKB(cublasSetStream(h, st), "cublasSetStream");
	CK(cudaMalloc((void **)&d_p, (size_t)(chunk * S * S) * sizeof(float)), "cudaMalloc scores");
	for (long long b0 = 0; b0 < BH; b0 += chunk) {
		const long long nb = BH - b0 < chunk ? BH - b0 : chunk;
		/*
		 * Row-major X[S][D] is the column-major D x S matrix Xc.  The
		 * scores, row-major P[i][j] = q_i . k_j, seen column-major are
		 * Pc(j, i) = (Kc^T Qc)(j, i): gemm(T, N, m = S, n = S, k = D).
		 */
		CKB(cublasSgemmStridedBatched(h, CUBLAS_OP_T, CUBLAS_OP_N, (int)S, (int)S, (int)D, &alpha,
					      d_in[1] + b0 * per, (int)D, per, d_in[0] + b0 * per, (int)D,
					      per, &zero, d_p, (int)S, S * S, (int)nb),
		    "cublasSgemmStridedBatched Q K^T");
		attn_softmax_rows_kernel<<<(unsigned)(nb * S), 256, 0, st>>>(d_p, S);
		CK(cudaGetLastError(), "attn_softmax_rows_kernel launch");
		/* O row-major S x D = Oc (D x S) = Vc (D x S) Pc (S x S) */
		CKB(cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, (int)D, (int)S, (int)S, &one,
					      d_in[2] + b0 * per, (int)D, per, d_p, (int)S, S * S, &zero,
					      d_out[0] + b0 * per, (int)D, per, (int)nb),
		    "cublasSgemmStridedBatched P V");
	}
	CK(cudaMemsetAsync(d_p, 0, (size_t)(chunk * S * S) * sizeof(float), st), "clear scores");
	CK(cudaStreamSynchronize(st), "cudaStreamSynchronize");
out:
	if (d_p) {
		if (rc) /* the stream may be broken: clear synchronously */
			cudaMemset(d_p, 0, (size_t)(chunk * S * S) * sizeof(float));
		cudaFree(d_p);
	}
	if (h)
		cublasDestroy(h);
	return rc;
}

static const struct ev_problem_gpu attention_fwd_gpu = {
	EVIDENT_PROBLEM_ABI_VERSION,
	sizeof(struct ev_problem_gpu),
	"attention_fwd",
	"cuBLAS SGEMM (pedantic fp32, no TF32) strided-batched, row softmax with max subtraction",
	attn_reference_gpu,
};

EVIDENT_DEFINE_PROBLEM_GPU(attention_fwd_gpu)
