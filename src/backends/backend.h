/*
 * backend.h - what a backend (host C, CUDA) provides to the runner.
 *
 * The runner is backend-agnostic.  For each variant it asks the backend to
 * build the kernel into a shared object (through the content-hash build
 * cache), then runs each job in a fresh worker process,
 * `evident __worker JOB.json` (job.h), started by fork+exec with an argv
 * array (base/runcmd.h).  The worker loads the kernel through the ABI in
 * kernels/evident_kernel.h, launches it on fresh inputs and reports over
 * the strict protocol of protocol.h; a separate checker process,
 * `evident __check`, judges the outputs it shipped.  A crash, a hang or a
 * sticky CUDA error kills only the worker.
 *
 * Adding a backend: implement struct backend in src/backends/backend_<name>.c
 * and list it in backends_all (backend.c).
 *
 * The worker protocol is protocol.h's; the outcome classification is
 * src/run/outcome.c's.
 */
#ifndef EVIDENT_BACKEND_H
#define EVIDENT_BACKEND_H

#include <jansson.h>
#include <stddef.h>

#include "base/util.h"

struct param {
	char *name;   /* macro name, e.g. BLOCK_M */
	char *value;  /* its value as text, e.g. 64 */
};

struct sandbox;

struct build_request {
	const char *kernel_path;    /* source file, relative to repo_root or absolute */
	const char *repo_root;      /* the kernels/ include path is derived from it */
	const struct param *params; /* become -DNAME=VALUE, in this order */
	size_t n_params;
	const char *arch;           /* cuda: "sm_90"; NULL means the device's own */
	const char *cache_dir;      /* build cache root, e.g. build/cache */
	const char *const *extra_flags; /* spec's build flags, NULL-terminated or NULL */
	/* The box the compiler runs in (base/sandbox.h sandbox_wrap_build), or
	 * NULL / off (and no box_on_miss): the compiler runs with the
	 * runner's rights (--unsandboxed, which the record says). */
	const struct sandbox *sb;
	/* Or, where sb is NULL, a box made only when the build misses the
	 * cache (a problem plug-in's, problem.c: its loads hit the cache in
	 * nearly every run, and sandbox_init costs 60-150 ms): the key is a
	 * boxed build's, and on a miss build_run asks this for the box; NULL
	 * back (the box cannot be set up) fails the build with why. */
	const struct sandbox *(*box_on_miss)(struct strbuf *why);
	/* What a record can name of the repository: a boxed build's first
	 * pass is shown these alone (red team 103).  The runner's is
	 * run/provenance.c's prov_view_ops (git's index and the patch's
	 * untracked files); passed in, not called, so that evident-worker,
	 * which links the backends, needs no libgit2.  A boxed build without
	 * one fails. */
	const struct repo_view_ops *view;
	/* Only look: where the build cache holds the build (a hit, checked as
	 * any hit is), build_run returns it as it would; else it returns 1
	 * with nothing built, refused or recorded (run/plan.c plan_prebuild:
	 * a variant already built needs no child of its own). */
	int hit_only;
};

/* An opaque view of a repository (run/provenance.c struct prov_view). */
struct prov_view;
struct repo_view_ops {
	/* 0 and *pv (close() frees it); 1: dir is in no repository with a
	 * working tree; -1 after error() */
	int (*open)(const char *dir, struct prov_view **pv);
	int (*tracked)(struct prov_view *pv, const char *path); /* 1 indexed, 2 a submodule, 0 */
	int (*tracked_below)(struct prov_view *pv, const char *dir);
	int (*untracked_shown)(struct prov_view *pv, const char *path);
	int (*patch_dir)(struct prov_view *pv, const char *path);
	void (*close)(struct prov_view *pv);
	const char *(*root)(struct prov_view *pv); /* its working directory's real path */
};

/*
 * What a build produced.  Everything that goes into the record is in
 * `info` (a JSON object owned by the result): "argv", "compiler_version",
 * "build_key", "binary_sha256", "sources" ([{path, sha256}]), "resources"
 * ({registers, smem_bytes, spill_stores, spill_loads, stack_bytes} where the
 * compiler reports them), "cached", "seconds", "status" ("ok"|"failed"),
 * "reason" (recognised failure reason or null).  `log` is the compiler's
 * full output.  Release with build_result_release().
 */
struct build_result {
	int ok;          /* 1 = shared object ready at so_path */
	char *so_path;
	char *log;
	json_t *info;
};
#define BUILD_RESULT_INIT { 0, NULL, NULL, NULL }
void build_result_release(struct build_result *r);

struct job;
struct strbuf;

/*
 * A backend: how kernels of one kind are built and run.  The run path
 * never compares backend names; what differs between backends is a field
 * here.
 */
struct backend {
	const char *name;                /* "host", "cuda" */
	const char *source_ext;          /* the kernel files it builds: ".c", ".cu" */
	const char *default_dtype;       /* "fp32", "fp16" */
	const char *const *dtypes;       /* the dtypes it can run, NULL-terminated */
	const char *const *compilers;    /* recorded in provenance, NULL-terminated */
	int uses_gpu;                    /* 1: its time is GPU time (cost, summary) */
	int default_repeats;             /* worker processes per variant unless the spec says */
	/* bytes the rotating input sets should total at least (more than any
	 * cache the inputs could stay in) */
	double rotation_bytes;
	/* Can this backend run here?  0 = yes; -1 = no, with the reason in why. */
	int (*probe)(struct strbuf *why);
	/* Build (or find in the cache).  0 = a result (ok or build failed, see
	 * res->ok); -1 = the build could not even be attempted (error printed). */
	int (*build)(const struct build_request *rq, struct build_result *res);
	/* In the worker process: run the job, speaking protocol.h on fds 3/4.
	 * Returns the worker's exit code. */
	int (*worker)(const struct job *job);
	/*
	 * In the checker process, optional (NULL: the problem's float64 CPU
	 * reference is used at every shape): an fp32 reference on the device
	 * for shapes too large for the CPU, from inputs as the kernel saw them.
	 * Writes the outputs (doubles, in output order).  0, or -1 with a
	 * reason in err.  `method` names it for the record.
	 */
	int (*reference)(const struct job *job, const long long *shape, const float *const *inputs,
			 double *const *outputs, const char **method, char *err, size_t errlen);
	/* In the parent, optional (NULL): static description of the device
	 * (name, uuid, cc, SMs, L2, driver...) and its state (clocks,
	 * temperature, power, throttle reasons, processes).  New JSON objects,
	 * freed by the caller; NULL when unavailable. */
	json_t *(*device_info)(int device);
	json_t *(*device_state)(int device);
	/* For the pool of `evident run --gpus` (run/pool.c), optional (NULL:
	 * the host's CPUs stand in for devices).  device_count: how many
	 * devices this host has, by the index device_info and device_state
	 * take (NVML's, nvidia-smi's), or -1 with the reason in why.
	 * pin_device: in a pool slot's own process, before it starts any
	 * worker, make every process it starts see device `index` alone, as
	 * their device 0; returns what it set ("CUDA_VISIBLE_DEVICES=GPU-...",
	 * malloc'd, for the record) or NULL after error().  *minor: the
	 * device's node number (/dev/nvidia<minor>: the one GPU node its
	 * boxes get, base/sandbox.h), or -1 with why (static text, or NULL)
	 * when it cannot be told. */
	int (*device_count)(struct strbuf *why);
	char *(*pin_device)(int index, int *minor, const char **why);
	/* pin_ordinal: in a run on one device (a plain run, a Slurm task),
	 * before it starts any worker, the same for the device its workers
	 * would use, `ordinal` in this process's own numbering (CUDA's, under
	 * CUDA_VISIBLE_DEVICES); *index: its index as device_info takes it,
	 * or -1.  NULL with *why set where it cannot tell which device that
	 * is (nothing changed: the run goes on unpinned), NULL with *why NULL
	 * after error(). */
	char *(*pin_ordinal)(int ordinal, int *index, int *minor, const char **why);
	/* Did the GPU throttle, by a state from device_state?  (NULL: never) */
	int (*throttled)(json_t *state);
	/* In the parent, optional (NULL: nothing): what its worker dlopen()s
	 * beside the libraries its program and objects name, as absolute
	 * paths a box of copies shows (base/sandbox.h sandbox_set_loads):
	 * NULL-terminated, malloc'd, freed by the caller (each string, then
	 * the array); NULL when it cannot tell. */
	char **(*box_loads)(void);
};

/* The backend called `name`, or NULL. */
const struct backend *backend_find(const char *name);
/* Every backend, NULL-terminated (for help and the spec's allowed values). */
extern const struct backend *const backends_all[];
extern const struct backend backend_host;
extern const struct backend backend_cuda;

#endif /* EVIDENT_BACKEND_H */
