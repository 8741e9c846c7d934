/*
 * softmax.cu - the GPU reference of problems/softmax.c: Y = softmax(X) over
 * each row.  One block per row, three passes over the row (max, sum of
 * exp(x - max), divide); the sum is accumulated in double, so the only
 * fp32 rounding is in exp and in the final quotient.  No intermediate
 * buffers.  Returns 0 or a cudaError_t, with a one-line reason in err.
 */
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>

#include "evident_problem.h"

#define THREADS 256

__global__ void softmax_ref_kernel(const float *__restrict__ x, float *__restrict__ y, long long C)
{
	__shared__ double red[THREADS / 32];
	__shared__ float redm[THREADS / 32];
	const float *row = x + (long long)blockIdx.x * C;
	float *out = y + (long long)blockIdx.x * C;
	const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	float m = -INFINITY;
	double s = 0;

	for (long long j = threadIdx.x; j < C; j += THREADS)
		m = fmaxf(m, row[j]);
	for (int o = 16; o; o >>= 1)
		m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
	if (!lane)
		redm[warp] = m;
	__syncthreads();
	m = redm[0];
	for (int w = 1; w < THREADS / 32; w++)
		m = fmaxf(m, redm[w]);
	for (long long j = threadIdx.x; j < C; j += THREADS)
		s += exp((double)row[j] - (double)m);
	for (int o = 16; o; o >>= 1)
		s += __shfl_xor_sync(0xffffffffu, s, o);
	if (!lane)
		red[warp] = s;
	__syncthreads();
	s = 0;
	for (int w = 0; w < THREADS / 32; w++)
		s += red[w];
	for (long long j = threadIdx.x; j < C; j += THREADS)
		out[j] = (float)(exp((double)row[j] - (double)m) / s);
}

static int softmax_reference_gpu(const long long *shape, double scalar, const float *const *d_in,
				 float *const *d_out, void *stream, char *err, size_t errlen)
{
	const long long R = shape[0], C = shape[1];
	cudaError_t e;
	(void)scalar;
	if (R <= 0 || C <= 0 || R > 0x7fffffffLL) {
		snprintf(err, errlen, "softmax reference: shape out of range (R must fit a grid)");
		return (int)cudaErrorInvalidValue;
	}
	softmax_ref_kernel<<<(unsigned)R, THREADS, 0, (cudaStream_t)stream>>>(d_in[0], d_out[0], C);
	if ((e = cudaGetLastError()) != cudaSuccess ||
	    (e = cudaStreamSynchronize((cudaStream_t)stream)) != cudaSuccess) {
		snprintf(err, errlen, "softmax_ref_kernel: %s (%s)", cudaGetErrorString(e), cudaGetErrorName(e));
		return (int)e;
	}
	return 0;
}

static const struct ev_problem_gpu softmax_gpu = {
	EVIDENT_PROBLEM_ABI_VERSION,
	sizeof(struct ev_problem_gpu),
	"softmax",
	"one block per row: max, sum of exp(x - max) in double, divide",
	softmax_reference_gpu,
};

EVIDENT_DEFINE_PROBLEM_GPU(softmax_gpu)
