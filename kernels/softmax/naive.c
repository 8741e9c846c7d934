/*
 * naive.c - softmax over each row on the CPU: the row max, the sum of
 * exp(x - max), then each exp(x - max) / sum, fp32 throughout.
 * Versions: 1 (this file).  No tunables.
 *
 * The baseline of experiments/softmax-demo.yaml; tensors as
 * problems/softmax.c defines them (X, Y [R,C], row-major).
 */
#include <math.h>
#include <stdio.h>

#include "evident_kernel.h"

static int softmax_naive_init(struct ev_launch *l, char *err, size_t errlen)
{
	const struct ev_tensor *x = &l->inputs[0], *y = &l->outputs[0];
	if (l->n_inputs != 1 || l->n_outputs != 1 || x->ndim != 2 || y->ndim != 2 ||
	    x->dtype != EV_F32 || y->dtype != EV_F32 || x->dims[0] != y->dims[0] ||
	    x->dims[1] != y->dims[1]) {
		snprintf(err, errlen, "softmax_naive_cpu needs fp32 X and Y, both [R,C]");
		return 1;
	}
	return 0;
}

static int softmax_naive_launch(struct ev_launch *l)
{
	const long long R = l->inputs[0].dims[0], C = l->inputs[0].dims[1];
	for (long long r = 0; r < R; r++) {
		const float *x = (const float *)l->inputs[0].data + r * C;
		float *y = (float *)l->outputs[0].data + r * C, m = -INFINITY, sum = 0;
		for (long long c = 0; c < C; c++)
			m = fmaxf(m, x[c]);
		for (long long c = 0; c < C; c++) {
			y[c] = expf(x[c] - m);
			sum += y[c];
		}
		for (long long c = 0; c < C; c++)
			y[c] /= sum;
	}
	return 0;
}

EVIDENT_DEFINE_KERNEL("softmax_naive_cpu", "host", "softmax", softmax_naive_init, softmax_naive_launch,
		      NULL, "")
