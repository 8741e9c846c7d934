/*
 * late.cu - harness test kernel (a cheat): does all its work on a private
 * non-blocking stream and returns without joining it, so the stop event
 * does not wait: the events see almost nothing, the work runs on after the
 * stop event (and may start before the start event), and yet the output
 * is right once the device is drained.  Must be flagged late.
 */
#include "hk.h"

static cudaStream_t priv;

static int late_init(struct ev_launch *l, char *err, size_t errlen)
{
	if (hk_init_check(l, err, errlen))
		return 1;
	if (cudaStreamCreateWithFlags(&priv, cudaStreamNonBlocking) != cudaSuccess) {
		snprintf(err, errlen, "cannot create the private stream");
		return 1;
	}
	return 0;
}

static int late_launch(struct ev_launch *l)
{
	return hk_launch_range(priv, l, 0, hk_n(l));
}

static void late_fini(struct ev_launch *l)
{
	(void)l;
	cudaStreamDestroy(priv);
}

EVIDENT_DEFINE_KERNEL("hk_late", "cuda", "hk", late_init, late_launch, late_fini, "")
