/*
 * private_stream.cu - harness test kernel: does its work on a private
 * non-blocking stream, joined back to l->stream with events (so the stop
 * event still waits for it).  Timed right, but the work is on another
 * stream: other_stream_kernels > 0.
 */
#include "hk.h"

static cudaStream_t priv;
static cudaEvent_t ev_in, ev_out;

static int ps_init(struct ev_launch *l, char *err, size_t errlen)
{
	if (hk_init_check(l, err, errlen))
		return 1;
	if (cudaStreamCreateWithFlags(&priv, cudaStreamNonBlocking) != cudaSuccess ||
	    cudaEventCreateWithFlags(&ev_in, cudaEventDisableTiming) != cudaSuccess ||
	    cudaEventCreateWithFlags(&ev_out, cudaEventDisableTiming) != cudaSuccess) {
		snprintf(err, errlen, "cannot create the private stream");
		return 1;
	}
	return 0;
}

static int ps_launch(struct ev_launch *l)
{
	cudaStream_t st = (cudaStream_t)l->stream;
	int rc;
	cudaEventRecord(ev_in, st);
	cudaStreamWaitEvent(priv, ev_in, 0);
	if ((rc = hk_launch_range(priv, l, 0, hk_n(l))))
		return rc;
	cudaEventRecord(ev_out, priv);
	cudaStreamWaitEvent(st, ev_out, 0);
	return (int)cudaGetLastError();
}

static void ps_fini(struct ev_launch *l)
{
	(void)l;
	cudaEventDestroy(ev_in);
	cudaEventDestroy(ev_out);
	cudaStreamDestroy(priv);
}

EVIDENT_DEFINE_KERNEL("hk_private_stream", "cuda", "hk", ps_init, ps_launch, ps_fini, "")
