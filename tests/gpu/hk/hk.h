/*
 * hk.h - shared code of the harness test kernels (tests/gpu/hk/*.cu), each
 * a tiny kernel object with the evident ABI (kernels/evident_kernel.h) that
 * behaves, or cheats, in one way for tests/gpu/harness_check.c.
 *
 * Their "problem" is "hk": inputs[0] = x, outputs[0] = y, fp32 vectors of
 * dims[0] elements; y[i] = x[i] after l->scale rounds of v = fma(v, 0.999,
 * 0.001) (the caller sets scale to the round count to set the duration).
 * fmaf is correctly rounded on both sides, so the checker recomputes y on
 * the CPU bit for bit.
 */
#ifndef HK_H
#define HK_H

#include <cuda_runtime.h>
#include <stdio.h>

#include "evident_kernel.h"

__global__ void hk_work_kernel(const float *__restrict__ x, float *__restrict__ y, long long n,
			       int iters)
{
	for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
	     i += (long long)gridDim.x * blockDim.x) {
		float v = x[i];
#pragma unroll 8
		for (int k = 0; k < iters; k++)
			v = fmaf(v, 0.999f, 0.001f);
		y[i] = v;
	}
}

static inline long long hk_n(const struct ev_launch *l)
{
	return l->inputs[0].dims[0];
}

static inline int hk_iters(const struct ev_launch *l)
{
	return (int)l->scale;
}

/* Elements [lo, hi) of y from x, on stream st; returns a cudaError_t. */
static inline int hk_launch_range(cudaStream_t st, const struct ev_launch *l, long long lo,
				  long long hi)
{
	long long n = hi - lo, blocks = (n + 255) / 256;
	if (n <= 0)
		return 0;
	if (blocks > 132 * 16)
		blocks = 132 * 16;
	hk_work_kernel<<<(unsigned)blocks, 256, 0, st>>>((const float *)l->inputs[0].data + lo,
							  (float *)l->outputs[0].data + lo, n,
							  hk_iters(l));
	return (int)cudaGetLastError();
}

static inline int hk_init_check(struct ev_launch *l, char *err, size_t errlen)
{
	if (l->n_inputs != 1 || l->n_outputs != 1 || l->inputs[0].dtype != EV_F32 ||
	    l->outputs[0].dtype != EV_F32) {
		snprintf(err, errlen, "hk kernels take one fp32 input and one fp32 output");
		return 1;
	}
	return 0;
}

#endif /* HK_H */
