/*
 * worker.h - the parts of a worker process every backend shares (see
 * protocol.h for what a worker says, job.h for what it is asked).
 */
#ifndef EVIDENT_WORKER_H
#define EVIDENT_WORKER_H

#include "../../kernels/evident_kernel.h"
#include "backends/job.h"
#include "backends/problem.h"

/* dlopen the kernel, check its ABI, backend and problem; send `kernel`
 * (or a failure, then NULL).  The handle is never closed. */
const struct ev_kernel_desc *worker_load_kernel(const struct job *job, const char *backend);
/* Threads of this process now (/proc/self/task), -1 if unknown. */
int worker_thread_count(void);
/* The thread ids of this process (at most max) into ids; their count, or -1. */
int worker_thread_ids(int *ids, int max);
/* How many of after[] are not in before[]: threads started in between. */
int worker_new_threads(const int *before, int nb, const int *after, int na);
/* enum ev_dtype of the job's dtype. */
int worker_dtype(const struct job *job);
/* Fill l's tensor descriptions (not the data pointers) and scale for shape. */
void worker_launch_setup(struct ev_launch *l, const struct problem *p, const struct job *job,
			 const long long *shape, int dtype);

#endif /* EVIDENT_WORKER_H */
