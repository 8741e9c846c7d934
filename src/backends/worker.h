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
/*
 * From here on this process runs no other program (base/sandbox.h
 * sandbox_no_exec: execve ends it with SIGSYS).  Called by every worker
 * once its own runtime is up (the CUDA worker after cuInit) and before
 * any of a kernel's code is loaded: a constructor runs at dlopen.  In a
 * box (the worker is its PID namespace's pid 1) a filter that cannot be
 * loaded is the worker's failure (sent; -1); unboxed (--unsandboxed) it
 * is a line on stderr and the worker goes on (0).  host: the host
 * worker, which has mapped the parent's shared memory already, also
 * makes no shared mapping or memfd from here on (sandbox_no_exec's
 * no_shared).
 */
int worker_no_exec(int host);
/*
 * What this process sees of its box (base/sandbox.h sandbox_self_seen),
 * for its hello: read before the problem's or the kernel's object is
 * loaded (a constructor runs at dlopen) and before worker_no_exec adds
 * the worker's own filter, so a filter it shows is the box's; and a
 * filter, once set, cannot be taken away.  The parent refuses a box it
 * asked for that shows none (job.c; red team 131).  Where it shows one,
 * also what the filter answered the probes (base/sandbox.h
 * sandbox_probe_run; "probes": each call's errno, 0 where it succeeded,
 * -1 where not made: the fork, unless processes says the box refuses
 * them (a worker's strict box; not compute-sanitizer's or the checker's)), which the parent
 * compares with the program's own answers (a stand-in bubblewrap's
 * allow-everything filter shows Seccomp 2 as the real one does).
 */
json_t *worker_box_seen(int processes);
/* The hash of what worker_box_seen's self_sha256 reads of a process's own
 * /proc (its status, limits, personality, core dump filter, KSM state,
 * time namespace offsets, login uid), read from outside, in the runner's
 * /proc/PID, into hex: for a box with no /proc of its own (sandbox.h
 * SANDBOX_VIEW_COPIES_NO_PROC), whose worker reads none of them. */
void worker_self_outside(int pid, char hex[SHA256_HEX_LEN + 1]);
/* Threads of this process now (/proc/self/task), -1 if unknown. */
int worker_thread_count(void);
/* enum ev_dtype of the job's dtype. */
int worker_dtype(const struct job *job);
/* Fill l's tensor descriptions (not the data pointers) and scale for shape. */
void worker_launch_setup(struct ev_launch *l, const struct problem *p, const struct job *job,
			 const long long *shape, int dtype);

/*
 * The host worker's timed samples are timed by the parent (run/host_clock.c):
 * the tensors of one launch live in shared memory the parent made (a memfd
 * the worker finds at HOST_SHM_FD), inputs then outputs, each at a
 * 64-byte aligned offset.  The parent writes the inputs and scrambles the
 * outputs while the worker is stopped, sends HOST_GO on fd 4, and reads
 * the outputs after the worker wrote HOST_DONE_LINE on fd 3 and was
 * stopped again.  HOST_NULL asks for the done line without a launch (the
 * handshake's own cost), HOST_END ends the samples.
 */
#define HOST_SHM_FD 6
#define HOST_GO 'g'
#define HOST_NULL 'n'
#define HOST_END 'e'
/* During the handshake's calibration only: the done line as HOST_NULL
 * gives it, after (the first time) starting HOST_CAL_THREADS threads
 * parked in read(), which HOST_END ends and joins before the problem or
 * the kernel loads: what each parked thread adds to a round (run/
 * host_clock.c calibrate_threads; red team 183). */
#define HOST_POOL 'p'
#define HOST_CAL_THREADS 32
#define HOST_DONE_LINE "{\"msg\":\"d\"}\n"
/* Offsets of the problem's tensors (inputs first) at shape into off[]
 * (at most 8), float elements; returns the bytes of the whole region. */
size_t worker_shm_layout(const struct problem *p, const long long *shape, size_t *off);

#endif /* EVIDENT_WORKER_H */
