/*
 * layernorm.cu - the GPU reference of problems/layernorm.c: Y = (X - mean)
 * / sqrt(var + eps) * gamma + beta over each row.  One block per row, two
 * passes (mean, then the sum of squared deviations), both accumulated in
 * double, so that the large-offset distribution costs the reference
 * nothing; the output is rounded to fp32 once.  No intermediate buffers.
 * Returns 0 or a cudaError_t, with a one-line reason in err.
 */
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>

#include "evident_problem.h"

#define THREADS 256

/* Sum of v over the block (every thread gets it); red holds THREADS/32. */
__device__ double block_sum(double v, double *red)
{
	const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	for (int o = 16; o; o >>= 1)
		v += __shfl_xor_sync(0xffffffffu, v, o);
	__syncthreads(); /* red may still be read from the previous call */
	if (!lane)
		red[warp] = v;
	__syncthreads();
	v = 0;
	for (int w = 0; w < THREADS / 32; w++)
		v += red[w];
	return v;
}

__global__ void layernorm_ref_kernel(const float *__restrict__ x, const float *__restrict__ gamma,
				     const float *__restrict__ beta, float *__restrict__ y, long long C,
				     double eps)
{
	__shared__ double red[THREADS / 32];
	const float *row = x + (long long)blockIdx.x * C;
	float *out = y + (long long)blockIdx.x * C;
	double s = 0;
	for (long long j = threadIdx.x; j < C; j += THREADS)
		s += row[j];
	const double mean = block_sum(s, red) / (double)C;
	s = 0;
	for (long long j = threadIdx.x; j < C; j += THREADS)
		s += ((double)row[j] - mean) * ((double)row[j] - mean);
	const double rstd = 1.0 / sqrt(block_sum(s, red) / (double)C + eps);
	for (long long j = threadIdx.x; j < C; j += THREADS)
		out[j] = (float)(((double)row[j] - mean) * rstd * (double)gamma[j] + (double)beta[j]);
}

static int layernorm_reference_gpu(const long long *shape, double eps, const float *const *d_in,
				   float *const *d_out, void *stream, char *err, size_t errlen)
{
	const long long R = shape[0], C = shape[1];
	cudaError_t e;
	if (R <= 0 || C <= 0 || R > 0x7fffffffLL) {
		snprintf(err, errlen, "layernorm reference: shape out of range (R must fit a grid)");
		return (int)cudaErrorInvalidValue;
	}
	layernorm_ref_kernel<<<(unsigned)R, THREADS, 0, (cudaStream_t)stream>>>(d_in[0], d_in[1], d_in[2],
									       d_out[0], C, eps);
	if ((e = cudaGetLastError()) != cudaSuccess ||
	    (e = cudaStreamSynchronize((cudaStream_t)stream)) != cudaSuccess) {
		snprintf(err, errlen, "layernorm_ref_kernel: %s (%s)", cudaGetErrorString(e),
			 cudaGetErrorName(e));
		return (int)e;
	}
	return 0;
}

static const struct ev_problem_gpu layernorm_gpu = {
	EVIDENT_PROBLEM_ABI_VERSION,
	sizeof(struct ev_problem_gpu),
	"layernorm",
	"one block per row, two passes (mean, squared deviations) accumulated in double",
	layernorm_reference_gpu,
};

EVIDENT_DEFINE_PROBLEM_GPU(layernorm_gpu)
