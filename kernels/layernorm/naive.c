/*
 * naive.c - layernorm over each row on the CPU, two passes: the mean, then
 * the mean squared deviation (population variance), then
 * (x - mean) / sqrt(var + eps) * gamma + beta with eps = ev_launch.scale;
 * fp32 throughout.  Versions: 1 (this file).  No tunables.
 *
 * The baseline of experiments/layernorm-demo.yaml; tensors as
 * problems/layernorm.c defines them (X, Y [R,C], gamma, beta [C]).
 */
#include <math.h>
#include <stdio.h>

#include "evident_kernel.h"

static int layernorm_naive_init(struct ev_launch *l, char *err, size_t errlen)
{
	const struct ev_tensor *x = &l->inputs[0], *g = &l->inputs[1], *b = &l->inputs[2],
			       *y = &l->outputs[0];
	if (l->n_inputs != 3 || l->n_outputs != 1 || x->ndim != 2 || y->ndim != 2 || g->ndim != 1 ||
	    b->ndim != 1 || x->dtype != EV_F32 || g->dtype != EV_F32 || b->dtype != EV_F32 ||
	    y->dtype != EV_F32 || y->dims[0] != x->dims[0] || y->dims[1] != x->dims[1] ||
	    g->dims[0] != x->dims[1] || b->dims[0] != x->dims[1]) {
		snprintf(err, errlen, "layernorm_naive_cpu needs fp32 X [R,C], gamma [C], beta [C], Y [R,C]");
		return 1;
	}
	return 0;
}

static int layernorm_naive_launch(struct ev_launch *l)
{
	const long long R = l->inputs[0].dims[0], C = l->inputs[0].dims[1];
	const float *gamma = l->inputs[1].data, *beta = l->inputs[2].data, eps = (float)l->scale;
	for (long long r = 0; r < R; r++) {
		const float *x = (const float *)l->inputs[0].data + r * C;
		float *y = (float *)l->outputs[0].data + r * C, mean = 0, var = 0;
		for (long long c = 0; c < C; c++)
			mean += x[c];
		mean /= (float)C;
		for (long long c = 0; c < C; c++)
			var += (x[c] - mean) * (x[c] - mean);
		var /= (float)C;
		const float rstd = 1.0f / sqrtf(var + eps);
		for (long long c = 0; c < C; c++)
			y[c] = (x[c] - mean) * rstd * gamma[c] + beta[c];
	}
	return 0;
}

EVIDENT_DEFINE_KERNEL("layernorm_naive_cpu", "host", "layernorm", layernorm_naive_init,
		      layernorm_naive_launch, NULL, "")
