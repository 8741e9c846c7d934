/*
 * rowsum.cu - the GPU reference of problems/rowsum.c: Y[r] = sum over c of
 * X[r][c].  One block per row, each thread accumulating a strided part of
 * the row in double, then a tree over the block in double; the sum is
 * rounded to fp32 once, so the cancelling distribution costs the reference
 * nothing.  No intermediate buffers.  Returns 0 or a cudaError_t, with a
 * one-line reason in err.
 */
#include <cuda_runtime.h>
#include <stdio.h>

#include "evident_problem.h"

#define THREADS 256

__global__ void rowsum_ref_kernel(const float *__restrict__ x, float *__restrict__ y, long long C)
{
	__shared__ double red[THREADS / 32];
	const float *row = x + (long long)blockIdx.x * C;
	const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	double s = 0;
	for (long long j = threadIdx.x; j < C; j += THREADS)
		s += row[j];
	for (int o = 16; o; o >>= 1)
		s += __shfl_xor_sync(0xffffffffu, s, o);
	if (!lane)
		red[warp] = s;
	__syncthreads();
	if (threadIdx.x == 0) {
		s = 0;
		for (int w = 0; w < THREADS / 32; w++)
			s += red[w];
		y[blockIdx.x] = (float)s;
	}
}

static int rowsum_reference_gpu(const long long *shape, double scalar, const float *const *d_in,
				float *const *d_out, void *stream, char *err, size_t errlen)
{
	const long long R = shape[0], C = shape[1];
	cudaError_t e;
	(void)scalar;
	if (R <= 0 || C <= 0 || R > 0x7fffffffLL) {
		snprintf(err, errlen, "rowsum reference: shape out of range (R must fit a grid)");
		return (int)cudaErrorInvalidValue;
	}
	rowsum_ref_kernel<<<(unsigned)R, THREADS, 0, (cudaStream_t)stream>>>(d_in[0], d_out[0], C);
	if ((e = cudaGetLastError()) != cudaSuccess ||
	    (e = cudaStreamSynchronize((cudaStream_t)stream)) != cudaSuccess) {
		snprintf(err, errlen, "rowsum_ref_kernel: %s (%s)", cudaGetErrorString(e), cudaGetErrorName(e));
		return (int)e;
	}
	return 0;
}

static const struct ev_problem_gpu rowsum_gpu = {
	EVIDENT_PROBLEM_ABI_VERSION,
	sizeof(struct ev_problem_gpu),
	"rowsum",
	"one block per row, strided sums and a block tree, all in double",
	rowsum_reference_gpu,
};

EVIDENT_DEFINE_PROBLEM_GPU(rowsum_gpu)
