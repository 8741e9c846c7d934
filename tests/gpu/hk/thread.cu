/*
 * thread.cu - harness test kernel (a cheat): launch() starts a detached
 * host thread that enqueues the work and lingers 2 ms, and returns at
 * once.  The thread count after launch() must exceed the count before.
 */
#include <pthread.h>
#include <unistd.h>

#include "hk.h"

static struct ev_launch copy_of_l; /* the thread's view; one launch at a time */

static void *worker(void *arg)
{
	const struct ev_launch *l = (const struct ev_launch *)arg;
	hk_launch_range((cudaStream_t)l->stream, l, 0, hk_n(l));
	usleep(2000);
	return NULL;
}

static int thread_launch(struct ev_launch *l)
{
	pthread_t t;
	pthread_attr_t a;
	int rc;
	copy_of_l = *l;
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	rc = pthread_create(&t, &a, worker, &copy_of_l);
	pthread_attr_destroy(&a);
	return rc ? (int)cudaErrorUnknown : 0;
}

EVIDENT_DEFINE_KERNEL("hk_thread", "cuda", "hk", hk_init_check, thread_launch, NULL, "")
