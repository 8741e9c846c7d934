/*
 * attn_naive.c - attention_fwd on the CPU, the obvious way: for each query
 * row, all scores into a row buffer, softmax, then the weighted sum of V.
 * fp32 throughout.  Versions: 1 (this file).  No tunables.
 *
 * It is the baseline of experiments/cpu-demo.yaml; attn_blocked.c is the
 * cache-blocked candidate.
 */
#include <math.h>
#include <stdlib.h>

#include "evident_kernel.h"

static int naive_init(struct ev_launch *l, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	l->state = malloc((size_t)l->inputs[0].dims[2] * sizeof(float));
	return l->state == NULL;
}

static int attention_fwd_cpu1(struct ev_launch *l)
{
	const long long BH = l->inputs[0].dims[0] * l->inputs[0].dims[1];
	const long long S = l->inputs[0].dims[2], D = l->inputs[0].dims[3];
	const float *q = l->inputs[0].data, *k = l->inputs[1].data, *v = l->inputs[2].data;
	float *o = l->outputs[0].data, *p = l->state;
	const float scale = (float)l->scale;
	for (long long bh = 0; bh < BH; bh++) {
		const float *Q = q + bh * S * D, *K = k + bh * S * D, *V = v + bh * S * D;
		float *O = o + bh * S * D;
		for (long long i = 0; i < S; i++) {
			float m = -INFINITY;
			for (long long j = 0; j < S; j++) {
				float acc = 0;
				for (long long d = 0; d < D; d++)
					acc += Q[i * D + d] * K[j * D + d];
				p[j] = acc * scale;
				m = p[j] > m ? p[j] : m;
			}
			float sum = 0;
			for (long long j = 0; j < S; j++) {
				p[j] = expf(p[j] - m);
				sum += p[j];
			}
			for (long long d = 0; d < D; d++) {
				float acc = 0;
				for (long long j = 0; j < S; j++)
					acc += p[j] * V[j * D + d];
				O[i * D + d] = acc / sum;
			}
		}
	}
	return 0;
}

static void naive_fini(struct ev_launch *l)
{
	free(l->state);
}

EVIDENT_DEFINE_KERNEL("attn_naive_cpu", "host", "attention_fwd", naive_init, attention_fwd_cpu1,
		      naive_fini, "")
