/*
 * half.cu - harness test kernel (wrong): writes only the first half of y.
 * The second half must still hold the scramble bits of the sample, which
 * the checker recomputes on the CPU (src/backends/scramble.h).
 */
#include "hk.h"

static int half_launch(struct ev_launch *l)
{
	return hk_launch_range((cudaStream_t)l->stream, l, 0, hk_n(l) / 2);
}

EVIDENT_DEFINE_KERNEL("hk_half", "cuda", "hk", hk_init_check, half_launch, NULL, "")
