/*
 * three.cu - harness test kernel: three kernels on l->stream over 1/6, 1/3
 * and 1/2 of the elements.  CUPTI must count kernels = 3; the span covers
 * the gaps between them, the sum does not.
 */
#include "hk.h"

static int three_launch(struct ev_launch *l)
{
	long long n = hk_n(l);
	cudaStream_t st = (cudaStream_t)l->stream;
	int rc;
	if ((rc = hk_launch_range(st, l, 0, n / 6)) || (rc = hk_launch_range(st, l, n / 6, n / 2)))
		return rc;
	return hk_launch_range(st, l, n / 2, n);
}

EVIDENT_DEFINE_KERNEL("hk_three", "cuda", "hk", hk_init_check, three_launch, NULL, "")
