/*
 * naive.c - gemm on the CPU, the obvious way: C[i][j] = sum over k of
 * A[i][k] B[k][j], i-k-j loop order (B and C rows read contiguously), fp32
 * throughout.  Versions: 1 (this file).  No tunables.
 *
 * The baseline of experiments/gemm-demo.yaml; tensors as problems/gemm.c
 * defines them (A [M,K], B [K,N], C [M,N], row-major).
 */
#include <stdio.h>
#include <string.h>

#include "evident_kernel.h"

static int gemm_naive_init(struct ev_launch *l, char *err, size_t errlen)
{
	const struct ev_tensor *a = &l->inputs[0], *b = &l->inputs[1], *c = &l->outputs[0];
	if (l->n_inputs != 2 || l->n_outputs != 1 || a->ndim != 2 || b->ndim != 2 || c->ndim != 2 ||
	    a->dtype != EV_F32 || b->dtype != EV_F32 || c->dtype != EV_F32) {
		snprintf(err, errlen, "gemm_naive_cpu needs fp32 A [M,K], B [K,N] and C [M,N]");
		return 1;
	}
	if (a->dims[1] != b->dims[0] || c->dims[0] != a->dims[0] || c->dims[1] != b->dims[1]) {
		snprintf(err, errlen, "inconsistent shapes A [%lld,%lld] B [%lld,%lld] C [%lld,%lld]",
			 (long long)a->dims[0], (long long)a->dims[1], (long long)b->dims[0],
			 (long long)b->dims[1], (long long)c->dims[0], (long long)c->dims[1]);
		return 1;
	}
	return 0;
}

static int gemm_naive_launch(struct ev_launch *l)
{
	const long long M = l->inputs[0].dims[0], K = l->inputs[0].dims[1], N = l->inputs[1].dims[1];
	const float *A = l->inputs[0].data, *B = l->inputs[1].data;
	float *C = l->outputs[0].data;
	for (long long i = 0; i < M; i++) {
		float *c = C + i * N;
		memset(c, 0, (size_t)N * sizeof(float));
		for (long long k = 0; k < K; k++) {
			const float a = A[i * K + k], *b = B + k * N;
			for (long long j = 0; j < N; j++)
				c[j] += a * b[j];
		}
	}
	return 0;
}

EVIDENT_DEFINE_KERNEL("gemm_naive_cpu", "host", "gemm", gemm_naive_init, gemm_naive_launch, NULL, "")
