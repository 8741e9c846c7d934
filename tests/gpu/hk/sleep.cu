/*
 * sleep.cu - harness test kernel: the honest kernel behind a launcher that
 * sleeps 2 ms on the host first.  Behind the blocking kernel the events
 * must not see the sleep (host_launch_us does).
 */
#include <unistd.h>

#include "hk.h"

static int sleep_launch(struct ev_launch *l)
{
	usleep(2000);
	return hk_launch_range((cudaStream_t)l->stream, l, 0, hk_n(l));
}

EVIDENT_DEFINE_KERNEL("hk_sleep", "cuda", "hk", hk_init_check, sleep_launch, NULL, "")
