/*
 * naive.c - rowsum on the CPU: one fp32 running sum per row, left to
 * right.  Versions: 1 (this file).  No tunables.
 *
 * The baseline of experiments/rowsum-demo.yaml; tensors as
 * problems/rowsum.c defines them (X [R,C], Y [R]).
 */
#include <stdio.h>

#include "evident_kernel.h"

static int rowsum_naive_init(struct ev_launch *l, char *err, size_t errlen)
{
	const struct ev_tensor *x = &l->inputs[0], *y = &l->outputs[0];
	if (l->n_inputs != 1 || l->n_outputs != 1 || x->ndim != 2 || y->ndim != 1 ||
	    x->dtype != EV_F32 || y->dtype != EV_F32 || y->dims[0] != x->dims[0]) {
		snprintf(err, errlen, "rowsum_naive_cpu needs fp32 X [R,C] and Y [R]");
		return 1;
	}
	return 0;
}

static int rowsum_naive_launch(struct ev_launch *l)
{
	const long long R = l->inputs[0].dims[0], C = l->inputs[0].dims[1];
	const float *X = l->inputs[0].data;
	float *Y = l->outputs[0].data;
	for (long long r = 0; r < R; r++) {
		float acc = 0;
		for (long long c = 0; c < C; c++)
			acc += X[r * C + c];
		Y[r] = acc;
	}
	return 0;
}

EVIDENT_DEFINE_KERNEL("rowsum_naive_cpu", "host", "rowsum", rowsum_naive_init, rowsum_naive_launch, NULL,
		      "")
