/*
 * attn_blocked.c - attention_fwd on the CPU, cache-blocked with online
 * softmax (the FlashAttention recurrence on a CPU): a block of BLOCK_M
 * query rows is processed against tiles of BLOCK_N key/value rows, keeping
 * running maxima, sums and output accumulators, so K and V tiles are reused
 * from cache BLOCK_M times.  The P·V product runs over the tile with the
 * head dimension innermost, which the compiler vectorises.
 *
 * Tunables (-D): BLOCK_M (query rows per block, default 16), BLOCK_N (key
 * rows per tile, default 64).  Both are echoed in compiled_params.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "evident_kernel.h"

#ifndef BLOCK_M
#define BLOCK_M 16
#endif
#ifndef BLOCK_N
#define BLOCK_N 64
#endif

struct blocked_state {
	float *acc;   /* BLOCK_M x D output accumulators */
	float *s;     /* BLOCK_M x BLOCK_N scores */
	float m[BLOCK_M], l[BLOCK_M];
};

static int blocked_init(struct ev_launch *l, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	long long D = l->inputs[0].dims[3];
	struct blocked_state *st = calloc(1, sizeof(*st));
	if (!st)
		return 1;
	st->acc = malloc((size_t)BLOCK_M * (size_t)D * sizeof(float));
	st->s = malloc((size_t)BLOCK_M * BLOCK_N * sizeof(float));
	l->state = st;
	return !st->acc || !st->s;
}

static int attention_fwd_cpu2(struct ev_launch *l)
{
	const long long BH = l->inputs[0].dims[0] * l->inputs[0].dims[1];
	const long long S = l->inputs[0].dims[2], D = l->inputs[0].dims[3];
	const float *q = l->inputs[0].data, *k = l->inputs[1].data, *v = l->inputs[2].data;
	float *o = l->outputs[0].data;
	struct blocked_state *st = l->state;
	const float scale = (float)l->scale;
	for (long long bh = 0; bh < BH; bh++) {
		const float *Q = q + bh * S * D, *K = k + bh * S * D, *V = v + bh * S * D;
		float *O = o + bh * S * D;
		for (long long i0 = 0; i0 < S; i0 += BLOCK_M) {
			long long mi = S - i0 < BLOCK_M ? S - i0 : BLOCK_M;
			for (long long i = 0; i < mi; i++) {
				st->m[i] = -INFINITY;
				st->l[i] = 0;
			}
			memset(st->acc, 0, (size_t)(mi * D) * sizeof(float));
			for (long long j0 = 0; j0 < S; j0 += BLOCK_N) {
				long long nj = S - j0 < BLOCK_N ? S - j0 : BLOCK_N;
				for (long long i = 0; i < mi; i++) {
					const float *qi = Q + (i0 + i) * D;
					float *si = st->s + i * BLOCK_N, mx = st->m[i];
					for (long long j = 0; j < nj; j++) {
						const float *kj = K + (j0 + j) * D;
						float a = 0;
						for (long long d = 0; d < D; d++)
							a += qi[d] * kj[d];
						si[j] = a * scale;
						mx = si[j] > mx ? si[j] : mx;
					}
					float corr = expf(st->m[i] - mx), sum = 0;
					float *ai = st->acc + i * D;
					for (long long d = 0; d < D; d++)
						ai[d] *= corr;
					for (long long j = 0; j < nj; j++) {
						float p = expf(si[j] - mx);
						sum += p;
						const float *vj = V + (j0 + j) * D;
						for (long long d = 0; d < D; d++)
							ai[d] += p * vj[d];
					}
					st->l[i] = st->l[i] * corr + sum;
					st->m[i] = mx;
				}
			}
			for (long long i = 0; i < mi; i++)
				for (long long d = 0; d < D; d++)
					O[(i0 + i) * D + d] = st->acc[i * D + d] / st->l[i];
		}
	}
	return 0;
}

static void blocked_fini(struct ev_launch *l)
{
	struct blocked_state *st = l->state;
	if (st) {
		free(st->acc);
		free(st->s);
		free(st);
	}
}

EVIDENT_DEFINE_KERNEL("attn_blocked_cpu", "host", "attention_fwd", blocked_init,
		      attention_fwd_cpu2, blocked_fini, EV_PARAM(BLOCK_M) " " EV_PARAM(BLOCK_N))
