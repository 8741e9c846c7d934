/*
 * cuda_worker.h - the CUDA backend's worker process and its GPU reference
 * (cuda_worker.c); backend_cuda.c lists them in struct backend.
 */
#ifndef EVIDENT_CUDA_WORKER_H
#define EVIDENT_CUDA_WORKER_H

#include <stddef.h>

#include "backends/job.h"

/* The worker: speaks protocol.h on fds 3/4; returns its exit code. */
int cuda_worker(const struct job *job);
/* backend.reference: the problem's GPU reference in the checker.  0, -1
 * with a reason in err, or 1 when the problem has none built (the checker
 * then uses the float64 CPU reference). */
int cuda_reference(const struct job *job, const long long *shape, const float *const *inputs,
		   double *const *outputs, const char **method, char *err, size_t errlen);

#endif /* EVIDENT_CUDA_WORKER_H */
