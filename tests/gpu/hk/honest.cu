/*
 * honest.cu - harness test kernel: one kernel on l->stream, nothing hidden.
 * It logs the input pointer of every launch (hk_seen, read by
 * harness_check through dlsym) so that the rotation of input sets shows.
 */
#include "hk.h"

#define HK_SEEN_CAP 65536
extern "C" __attribute__((visibility("default"))) void *hk_seen[HK_SEEN_CAP];
extern "C" __attribute__((visibility("default"))) int hk_seen_n;
void *hk_seen[HK_SEEN_CAP];
int hk_seen_n;

static int honest_launch(struct ev_launch *l)
{
	if (hk_seen_n < HK_SEEN_CAP)
		hk_seen[hk_seen_n++] = l->inputs[0].data;
	return hk_launch_range((cudaStream_t)l->stream, l, 0, hk_n(l));
}

EVIDENT_DEFINE_KERNEL("hk_honest", "cuda", "hk", hk_init_check, honest_launch, NULL, "")
