/*
 * capture_skip.cu - harness test kernel (a cheat): launches nothing while
 * l->stream is being captured into a CUDA graph (graph mode times empty
 * replays), and works honestly otherwise.  Graph mode must show graphs of
 * no kernel nodes and outputs still holding the scramble bits.
 */
#include "hk.h"

static int skip_launch(struct ev_launch *l)
{
	cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
	if (cudaStreamIsCapturing((cudaStream_t)l->stream, &st) == cudaSuccess &&
	    st == cudaStreamCaptureStatusActive)
		return 0;
	return hk_launch_range((cudaStream_t)l->stream, l, 0, hk_n(l));
}

EVIDENT_DEFINE_KERNEL("hk_capture_skip", "cuda", "hk", hk_init_check, skip_launch, NULL, "")
