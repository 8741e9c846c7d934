/*
 * backend.h - what a backend (host C, CUDA) provides to the runner.
 *
 * The runner is backend-agnostic.  For each variant it asks the backend to
 * build the kernel into a shared object (through the content-hash build
 * cache), then runs the variant in a fresh worker process,
 * `evident __worker JOB.json`, started by fork+exec with an argv array (see
 * child.h).  The worker loads the kernel through the ABI in
 * kernels/evident_kernel.h, checks it on fresh random inputs, times it and
 * reports on its stdout as JSON lines (the worker protocol below).  The
 * parent reads those lines under a watchdog, so that a crash, a hang or a
 * sticky CUDA error kills only the worker.
 *
 * Adding a backend: implement struct backend in src/backend_<name>.c and
 * list it in backend_find() (backend.c).
 *
 * Worker protocol (one JSON object a line on the worker's stdout; anything
 * else the worker prints goes to stderr and is kept as its log):
 *   {"msg":"device", "info":{...}}                  what the worker runs on
 *   {"msg":"compiled_params", "value":"A=1 B=2"}     echoed by the kernel
 *   {"msg":"seed", "phase":"check"|"recheck", "seed":N, "max_abs_err":x,
 *    "rel_l2":x, "nan_count":N, "unwritten":N, "first_mismatch":N|-1,
 *    "pass":true|false}
 *   {"msg":"timing", "method":{...}, "samples_us":[...]}
 *   {"msg":"failure", "outcome":"crashed"|"launch_failed"|"init_failed"|
 *    "no_device", "error":"cudaErrorMisalignedAddress",
 *    "reason":"misaligned address"}
 *   {"msg":"done"}
 * The parent classifies the outcome from these messages and from how the
 * worker ended (child.c, outcome.c).
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

struct build_request {
	const char *kernel_path;    /* source file, relative to repo_root or absolute */
	const char *repo_root;      /* the kernels/ include path is derived from it */
	const struct param *params; /* become -DNAME=VALUE, in this order */
	size_t n_params;
	const char *arch;           /* cuda: "sm_90"; NULL means the device's own */
	const char *cache_dir;      /* build cache root, e.g. build/cache */
	const char *const *extra_flags; /* spec's build flags, NULL-terminated or NULL */
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

/* What the worker needs; serialised as JOB.json.  See job_to_json(). */
struct job {
	const char *backend;
	const char *so_path;
	const char *problem;        /* "attention_fwd" */
	long long B, H, S, D;
	const char *dtype;          /* "fp32" | "fp16" | "bf16" */
	int seeds;
	unsigned long long seed0;   /* seed i uses seed0 + i */
	double atol, rtol;
	double warmup_ms;
	int samples;                /* fixed sample count; 0 = adaptive */
	double stdrel;              /* adaptive: stop at this relative noise */
	double min_seconds, max_seconds;
	const char *cache;          /* "cold" | "hot" */
	int batch;                  /* launches per sample (CUDA graph when > 1) */
	int sanitize;               /* 1: one seed, no timing (run under a sanitizer) */
	int device;                 /* CUDA device ordinal */
};

/* Emits protocol lines on the worker's stdout (flushing each). */
void emit_json(json_t *msg); /* steals msg */
void emit_failure(const char *outcome, const char *error_name, const char *reason);

struct backend {
	const char *name;
	/* Can this backend run here?  0 = yes; -1 = no, with the reason in why. */
	int (*probe)(struct strbuf *why);
	/* Build (or find in the cache).  0 = a result (ok or build failed, see
	 * res->ok); -1 = the build could not even be attempted (error printed). */
	int (*build)(const struct build_request *rq, struct build_result *res);
	/* In the worker process: run the job, emitting protocol lines.
	 * Returns the worker's exit code. */
	int (*worker)(const struct job *job);
	/* In the parent, optional (NULL): static description of the device
	 * (name, uuid, cc, SMs, L2, driver...) and its state (clocks,
	 * temperature, power, throttle reasons, processes).  New JSON objects,
	 * freed by the caller; NULL when unavailable. */
	json_t *(*device_info)(int device);
	json_t *(*device_state)(int device);
};

/* Job <-> JSON for the worker's JOB.json (new reference / fills job with
 * strings owned by the json object j, which must outlive job). */
json_t *job_to_json(const struct job *job);
int job_from_json(json_t *j, struct job *job);

/* Worker helpers shared by backends (backend_host.c): load and check the
 * kernel object (emits compiled_params, or a failure and returns NULL), and
 * emit one `seed` message. */
struct ev_kernel_desc;
struct check_result;
const struct ev_kernel_desc *worker_load_kernel(const struct job *job, const char *backend);
void emit_check(const char *phase, unsigned long long seed, const struct check_result *c);

/* The backend called `name`, or NULL. */
const struct backend *backend_find(const char *name);
extern const struct backend backend_host;
extern const struct backend backend_cuda;

#endif /* EVIDENT_BACKEND_H */
