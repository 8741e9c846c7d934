/*
 * sync.cu - harness test kernel: launch() synchronises l->stream before it
 * returns.  Behind the blocking kernel that waits until the blocking
 * kernel gives up: block_timed_out must be reported, not a hang.
 */
#include "hk.h"

static int sync_launch(struct ev_launch *l)
{
	int rc = hk_launch_range((cudaStream_t)l->stream, l, 0, hk_n(l));
	if (rc)
		return rc;
	return (int)cudaStreamSynchronize((cudaStream_t)l->stream);
}

EVIDENT_DEFINE_KERNEL("hk_sync", "cuda", "hk", hk_init_check, sync_launch, NULL, "")
