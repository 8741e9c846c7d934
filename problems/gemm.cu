/*
 * gemm.cu - the GPU reference of problems/gemm.c: C = A B in fp32 on the
 * device with cuBLAS SGEMM in pedantic math mode (true fp32, never TF32).
 * Row-major C [M,N] = A [M,K] B [K,N] is, column-major, C^T = B^T A^T: one
 * cublasSgemm(N, N, m = N, n = M, k = K) with no transposes.  No
 * intermediate buffers.  Returns 0, a cudaError_t, or a cublasStatus_t +
 * 1000, with a one-line reason in err.
 */
// evident: libs cublas
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdio.h>

#include "evident_problem.h"

static int gemm_reference_gpu(const long long *shape, double scalar, const float *const *d_in,
			      float *const *d_out, void *stream, char *err, size_t errlen)
{
	const long long M = shape[0], N = shape[1], K = shape[2];
	const float one = 1.0f, zero = 0.0f;
	cublasHandle_t h = NULL;
	cublasStatus_t s;
	cudaError_t e;
	int rc = 0;
	(void)scalar;

	if (M <= 0 || N <= 0 || K <= 0 || M > 0x7fffffffLL || N > 0x7fffffffLL || K > 0x7fffffffLL) {
		snprintf(err, errlen, "gemm reference: shape out of range for cuBLAS (int dimensions)");
		return (int)cudaErrorInvalidValue;
	}
	if ((s = cublasCreate(&h)) != CUBLAS_STATUS_SUCCESS) {
		snprintf(err, errlen, "cublasCreate: %s", cublasGetStatusString(s));
		return 1000 + (int)s;
	}
	if ((s = cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH)) != CUBLAS_STATUS_SUCCESS ||
	    (s = cublasSetStream(h, (cudaStream_t)stream)) != CUBLAS_STATUS_SUCCESS ||
	    (s = cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, (int)N, (int)M, (int)K, &one, d_in[1], (int)N,
			     d_in[0], (int)K, &zero, d_out[0], (int)N)) != CUBLAS_STATUS_SUCCESS) {
		snprintf(err, errlen, "cublasSgemm: %s", cublasGetStatusString(s));
		rc = 1000 + (int)s;
	} else if ((e = cudaStreamSynchronize((cudaStream_t)stream)) != cudaSuccess) {
		snprintf(err, errlen, "cudaStreamSynchronize: %s (%s)", cudaGetErrorString(e),
			 cudaGetErrorName(e));
		rc = (int)e;
	}
	cublasDestroy(h);
	return rc;
}

static const struct ev_problem_gpu gemm_gpu = {
	EVIDENT_PROBLEM_ABI_VERSION,
	sizeof(struct ev_problem_gpu),
	"gemm",
	"cuBLAS SGEMM (pedantic fp32, no TF32)",
	gemm_reference_gpu,
};

EVIDENT_DEFINE_PROBLEM_GPU(gemm_gpu)
