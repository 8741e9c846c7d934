/*
 * evident_cuda.h - the C ABI of the CUDA harness, lib/libevident_cuda.so.
 *
 * The runner itself is plain C and must start on machines without a CUDA
 * driver, so it never links CUDA: the worker process of the cuda backend
 * (backend_cuda.c) dlopen()s this harness, asks it for its one exported
 * symbol, evident_cuda_api(), and calls everything through the returned
 * table.  The harness owns every CUDA call the runner makes: opening the
 * device, allocating and filling tensors, calling a kernel's init/launch
 * through struct ev_kernel_desc (kernels/evident_kernel.h), the fp32 GPU
 * reference (cuBLAS + a softmax kernel) and the timing loop: CUDA events
 * behind a blocking kernel, a kernel clock from CUPTI's activity API
 * (loaded at run time when present), rotation of input sets, a scramble
 * of every output before every sample, an L2 flush, CUDA-graph batching,
 * and flags for work a launcher hides (other streams, work left running,
 * host threads).  The harness only measures and reports; the caller's
 * sample callback decides warm-up, stopping and outcomes.
 *
 * Version 2 (this one): time_kernel takes a sample callback and returns
 * no sample array; scramble, copy, clear and upload are new; free_buffer
 * and close zero buffers before freeing them; launch_sync launches behind
 * the blocking kernel and synchronises the whole device.
 *
 * Errors: every function returns 0 (cudaSuccess) or a cudaError_t value,
 * and writes "cudaErrorName: text" into the caller's err buffer.  evc_kind()
 * sorts an error into the runner's outcomes.  Versioning follows the kernel
 * ABI: api_version changes when a signature changes, additions go at the
 * end of struct evc_api and are detected through struct_size.
 */
#ifndef EVIDENT_CUDA_H
#define EVIDENT_CUDA_H

#include <stddef.h>
#include <stdint.h>

#include "../../../kernels/evident_kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

#define EVC_API_VERSION 10 /* 10: struct evc_sample's ruler */
#define EVC_API_SYMBOL "evident_cuda_api"

/* What the harness read off the device (cudaGetDeviceProperties etc.). */
struct evc_device_info {
	int device;
	char name[256];
	char uuid[48];            /* "GPU-xxxxxxxx-xxxx-..." as nvidia-smi prints it */
	char pci_bus_id[32];
	int cc_major, cc_minor;
	int sm_count;
	long long l2_bytes;
	long long persisting_l2_max_bytes;
	long long smem_per_block;        /* default per-block limit (48 KB) */
	long long smem_per_block_optin;  /* after cudaFuncSetAttribute */
	long long smem_per_sm;
	long long regs_per_block;
	long long regs_per_sm;
	long long global_mem_bytes;
	int max_threads_per_block;
	int warp_size;
	int ecc_enabled;
	int driver_version;       /* cudaDriverGetVersion, e.g. 13000 */
	int runtime_version;      /* cudaRuntimeGetVersion */
	int cublas_version;       /* cublasGetProperty, 0 if unknown (not loadable: a sealed box has no cuBLAS) */
};

/* Outcome classes for an error code (evc_kind). */
enum evc_error_kind {
	EVC_OK = 0,
	EVC_NO_DEVICE = 1,     /* no device / no or too old driver */
	EVC_LAUNCH = 2,        /* the launch was refused: configuration, resources, image */
	EVC_CRASH = 3,         /* the kernel faulted: sticky error, context is dead */
	EVC_OTHER = 4,         /* anything else (out of memory, API misuse) */
};

/* ---- timing (version 2) ----------------------------------------------
 *
 * time_kernel() runs samples until the caller's callback says stop; all
 * policy (how long to warm up, when to stop, which samples to check, what
 * a flag means for the outcome) lives in the caller.  Every sample, warm-up
 * or timed, is enqueued the same way, so that nothing a kernel can observe
 * tells one from another:
 *
 *   host:   point l->inputs at input set (first_set + index) % n_sets
 *           (stream mode; graph mode bakes the sets into the graphs)
 *   stream: scramble every output buffer (evs_key(seed, index, j, o),
 *           src/backends/scramble.h), then the L2 flush when cold, then
 *           the blocking kernel, which spins on a host-mapped flag
 *   stream: start event, launch() (stream mode) or one graph replay, stop
 *           event; the host then releases the flag
 *   host:   wait for the stop event, synchronise the whole device (the
 *           drain), read the CUPTI records of the sample, call on_sample
 *
 * The blocking kernel holds the stream while the host runs launch(), so
 * the events time the device work only, not the launcher's host latency
 * (host_launch_us says how long launch() took on the host).  Graph mode
 * (batch > 1) captures G = min(n_sets, EVC_MAX_GRAPHS) graphs before the
 * first sample: graph g holds `batch` launches, launch j on input set
 * (first_set + g * batch + j) % n_sets writing output buffer j; sample
 * `index` replays graph index % G.  In both modes launch j of a sample used
 * input set (s->set + j) % n_sets and wrote output buffer j.
 *
 * Cost, measured on an H100 (tests/gpu/harness_check.sh): CUPTI adds about
 * 0.33 ms of host time per sample (mostly the per-sample flush) and no
 * measurable device time (event medians within 0.3 us with and without).
 * Without CUPTI (not installed, another tool holds it, clock = events)
 * the counts are -1, the kernel times NAN, and only work that outlives the
 * stop event is seen (the drain).
 */
#define EVC_STOP 1          /* on_sample: end the warm-up, or end the timing */
#define EVC_ABORT (-1)      /* on_sample: end now; time_kernel returns -1 */
#define EVC_MAX_GRAPHS 8
#define EVC_MAX_SETS 4096
/* Device buffers alloc() holds at once: the live input sets, each
 * launch's outputs, the base sets (the plan checks a job fits). */
#define EVC_MAX_BUFFERS 8192

enum evc_clock {
	EVC_CLOCK_AUTO = 0,   /* CUPTI when it loads, else events */
	EVC_CLOCK_EVENTS = 1, /* CUDA events only (CUPTI not loaded or disabled) */
	EVC_CLOCK_CUPTI = 2,  /* events and CUPTI; fail (cudaErrorNotSupported) without it */
};

/* evc_sample.flags: what the harness saw; the caller decides what it means. */
enum evc_sample_flag {
	EVC_F_OTHER_STREAM = 1 << 0,  /* launch() put work on another stream than l->stream */
	EVC_F_LATE = 1 << 1,          /* work of launch() ran on after the stop event */
	EVC_F_THREADS = 1 << 2,       /* more threads after launch() than before it, or than
				       * when sampling began (threads launch() left behind) */
	EVC_F_BLOCK_TIMEOUT = 1 << 3, /* the blocking kernel gave up waiting (launch() waited
				       * on the stream, or took longer than block_timeout_ms) */
	EVC_F_STRAY = 1 << 4,         /* device work issued by another thread outside launch() */
	EVC_F_NO_WORK = 1 << 5,       /* CUPTI saw no kernel and no copy of launch() */
	EVC_F_INCOMPLETE = 1 << 6,    /* CUPTI dropped or left records incomplete: the
				       * kernel clock of this sample is not to be trusted */
	EVC_F_EARLY = 1 << 7,         /* work of launch() started before the start event
				       * (another stream runs while the blocking kernel waits) */
};

struct evc_sample {
	int index;             /* 0, 1, ... over the whole call, warm-up first; the scramble's i */
	int warmup;            /* 1: a warm-up sample */
	int set;               /* input set of launch 0 (launch j used (set + j) % n_sets) */
	int graph;             /* graph replayed (graph mode), -1 in stream mode */
	int batch;             /* launches in this sample */
	/* Times per launch (sample time / batch), microseconds. */
	double event_us;       /* start to stop event */
	double kernel_us;      /* CUPTI: the window of launch()'s kernels, memcpys and memsets,
				* first start to last end (kernel_span_us; the sum of their
				* durations where the window is empty); NAN without CUPTI */
	double kernel_span_us; /* CUPTI: last kernel/copy end - first start; NAN without CUPTI */
	double copy_us;        /* CUPTI: sum of launch()'s memcpy/memset durations; NAN without */
	/* Counts over the whole sample (all batch launches); -1 without CUPTI. */
	int kernels;              /* kernels of launch() (graph nodes of the replay) */
	int copies;               /* memcpy/memset of launch() */
	int other_stream_kernels; /* kernels and copies of launch() not on l->stream */
	int stray;                /* kernels and copies from other threads' calls outside
				   * launch() (a thread launch() left behind) */
	int late;                 /* kernels and copies (launch()'s or stray) that ended after
				   * the stop event; without CUPTI: 1 when the drain was long */
	double late_us;           /* CUPTI: how long after the stop event the last one ended */
	int early;                /* CUPTI: kernels and copies (launch()'s or stray) that
				   * started before the start event */
	double drain_us;          /* host wall time of the device-wide synchronise after the
				   * stop event (long when other streams were still busy) */
	double host_launch_us;    /* host wall time of launch() (graph mode: of cudaGraphLaunch) */
	double wall_us;           /* host wall time of the whole sample, callback excluded */
	int threads_before, threads_after; /* entries in /proc/self/task around launch() */
	int threads_start;        /* ... just before the first sample */
	int block_timed_out;      /* the blocking kernel hit block_timeout_ms */
	unsigned flags;           /* enum evc_sample_flag */
	uint64_t key;             /* fresh inputs: the sample's mixing key (0: none) */
	int unrecorded;           /* CUPTI: kernel launches of launch() with no record (records
				   * turned off around them: the sample is incomplete) */
	/* The ruler (version 10; timed samples under CUPTI, else NAN): a
	 * harness kernel after the drain spins a fixed interval of the
	 * device's %globaltimer; ruler_gt_us is that interval by the
	 * register, ruler_us its CUPTI record's end - start.  Their ratio is
	 * the kernel clock's rate against the device's (job.c). */
	double ruler_us, ruler_gt_us;
};

/* Returns 0 to go on, EVC_STOP or EVC_ABORT.  When a timed sample's
 * callback runs, the device is synchronised and the sample's outputs are
 * final: the callback may download them (api->download) to check them. */
typedef int (*evc_sample_fn)(void *cb_ctx, const struct evc_sample *s);

struct evc_timing_opts {
	int cold;             /* 1: flush L2 (device write of 2x L2) before every sample */
	int batch;            /* 1: stream mode, launch() per sample; > 1: graph mode */
	/* Input sets: n_sets x n_inputs device pointers, set-major (input k of
	 * set s is set_inputs[s * n_inputs + k]), each set with l->inputs'
	 * shapes.  n_sets = 0: the pointers already in l->inputs, one set. */
	int n_sets;
	int n_inputs;         /* must equal l->n_inputs when n_sets > 0 */
	void *const *set_inputs;
	int first_set;
	/* Outputs: batch x n_outputs device pointers, launch-major (output o of
	 * launch j is outputs[j * n_outputs + o]) of output_bytes[o] bytes.
	 * outputs = NULL: every launch writes the pointers in l->outputs.
	 * output_bytes = NULL: from l->outputs' dtype and dims. */
	int n_outputs;        /* must equal l->n_outputs when outputs != NULL */
	void *const *outputs;
	const size_t *output_bytes;
	uint64_t scramble_seed;
	int clock;            /* enum evc_clock */
	int block;            /* 1: the blocking kernel before the start event (advised) */
	double block_timeout_ms; /* <= 0: 100 */
	double max_seconds;   /* hard cap on the whole call, warm-up included; <= 0: 60 */
	evc_sample_fn on_sample; /* required */
	void *cb_ctx;
	/* Fresh inputs (additions to version 2): when base_inputs is set
	 * (n_base x n_inputs device pointers of pristine input sets,
	 * input_bytes[k] and input_elem[k] per input), every sample, warm-up
	 * or timed, first asks sample_key for a key and rewrites each input
	 * set A its launches use, element by element (scramble.h,
	 * evs_mix_bit), outside the timed region: from base sets A and
	 * (A + 1) % n_base, or with n_dists (below) from the pair of the
	 * launch's distribution.  The key is in s->key. */
	void *const *base_inputs;
	int n_base;           /* base sets: 2 n_dists; without n_dists at least max(n_sets, 2) */
	const size_t *input_bytes;
	const int *input_elem;
	uint64_t (*sample_key)(void *cb_ctx, int index);
	/* Distributions (a later addition; 0 keeps the partner rule above):
	 * > 0 when base_inputs holds one pair of sets per distribution of the
	 * problem (n_base == 2 n_dists, scramble.h): launch j of sample i
	 * rewrites its set from bases 2d and 2d + 1, d = evs_sample_dist(key,
	 * n_dists, timing_dists) (every launch of a sample of one
	 * distribution), under evs_launch_key(key, j). */
	int n_dists;
	/* Version 3: NULL, or with n_dists, n_dists x n_inputs x 3 words:
	 * input k of distribution d mixes element e under the bit of element
	 * evs_mix_elem(e, f[0], f[1], f[2]) with f = mix_fold + (d n_inputs +
	 * k) 3 (the problem's fold, problem.h problem_mix_fold: related
	 * elements share a bit; red team 8, rt8_mix_cancel).  Version 3 so
	 * that a harness that would ignore it (and mix what the checker folds)
	 * is refused, not believed. */
	const uint64_t *mix_fold;
	/* Version 4: the problem's timing distributions (problem.h
	 * problem_timing_dists), which the draw evs_sample_dist reads:
	 * three samples in four on them, on average.  Version 4 so that a harness
	 * with the older schedule (a sample's launches rotating through the
	 * distributions) is refused, not checked against the wrong inputs;
	 * version 5 the same for the fixed rotation g mod n (the distribution
	 * is now drawn from the sample's key; red team 13). */
	unsigned timing_dists;
	/* Version 6: NULL, or fresh timed inputs (red team 16: the mix of
	 * two base sets per distribution is a codebook a kernel learns):
	 * every timed sample (warm-up samples still mix) calls it in place of
	 * the mix, after sample_key, once for each launch j < min(batch,
	 * n_sets) with the sample's key and the device pointers of the n_inputs
	 * inputs of the set launch j reads; it writes them (synchronously,
	 * outside the timed region; no CUDA work of its own may be left
	 * pending) and returns 0, or a cudaError_t value, or -1 with err set.
	 * Version 6 so that a harness that would ignore it (and time the mix
	 * the checker does not regenerate) is refused, not believed. */
	int (*fresh_inputs)(void *cb_ctx, int index, uint64_t key, int j, void *const *d_inputs, char *err,
			    size_t errlen);
	/* Version 9: 1 when the launch's host code runs in this process
	 * (trust: host): CUPTI's checks (work on other streams, stray and
	 * early launches) run under the events clock too, and every sample's
	 * drain is judged as the events clock judges it (red team 40: with
	 * no CUPTI under `clock: events`, rows a launch() summed on its own
	 * stream before the start event were not seen, ok at 0.8x).  The
	 * clock stays the one asked for. */
	int watch;
};

/* How the samples were taken.  Nothing in it is allocated. */
struct evc_timing_result {
	int n;                    /* timed samples (on_sample called with warmup = 0) */
	int warmup_samples;
	long long warmup_launches;
	double warmup_seconds;    /* wall time of the warm-up */
	double sampling_seconds;  /* wall time of the timed samples */
	int capped;               /* stopped by max_seconds */
	int graph;                /* graph mode */
	int batch;
	int n_graphs;             /* G */
	int graph_nodes[EVC_MAX_GRAPHS];        /* nodes of each captured graph */
	int graph_kernel_nodes[EVC_MAX_GRAPHS]; /* of which kernel nodes (< batch: visible) */
	long long l2_flush_bytes; /* 0 when hot */
	int clock;                /* what was used: EVC_CLOCK_EVENTS or EVC_CLOCK_CUPTI */
	int cupti_loaded;
	char cupti_why[256];      /* cupti_loaded: the library's path and version; else why not */
	long long cupti_dropped;  /* records CUPTI dropped over the call */
	int block;                /* the blocking kernel was used */
	int block_timeouts;       /* samples whose blocking kernel timed out */
	int threads_at_start;     /* /proc/self/task entries just before the first sample */
};

/* ---- the sealed path (additions to version 2) -----------------------
 *
 * A plan is what one launch() enqueued, as stream capture recorded it:
 * kernels (device function name, grid, block, cluster, dynamic shared
 * memory, the function attributes it needs, whether it was a cooperative
 * launch or a programmatic dependent launch on the kernel before it, its
 * parameter buffer),
 * memsets and device-to-device copies, in an order that keeps every
 * dependency.  Pointers into the tensors the harness handed the kernel, or
 * into device memory the kernel allocated for itself (scratch), are not
 * kept as numbers but as relocations: (byte offset in the parameter
 * buffer, buffer id, offset in the buffer).  Buffer ids: input t is
 * EVC_BUF_IN + t, output o is EVC_BUF_OUT + o, scratch k is
 * EVC_BUF_SCRATCH + k.  What init() wrote into scratch (a table, a
 * constant) travels with the plan, at most EVC_PLAN_MAX_CONTENTS bytes of
 * non-zero runs with the globals' (below); a launch that needs more is
 * refused.  A pointer among
 * those bytes to device memory of the kernel's own is a scratch
 * relocation (the memory it reaches a scratch buffer of the plan); one
 * to the launch's tensors or to host memory is refused.
 *
 * Module globals (an addition; red team 3, rt3_init_symbol): a kernel's
 * init() may write a __constant__ or __device__ global of its module
 * (cudaMemcpyToSymbol), which the sealed worker, loading the module
 * afresh, would hold at its static initialiser.  So the plan carries the
 * globals of the modules of its kernels as the planner read them after
 * init() and the capture: each as (kernel step whose module holds it,
 * name, bytes), the names from the cubins' symbol tables
 * (seal_fatbin_globals), their non-zero runs (within
 * EVC_PLAN_MAX_CONTENTS with scratch's) and their pointers as
 * relocations, like scratch contents.  Global j of the plan is buffer id
 * EVC_BUF_GLOBAL + j: a pointer into it (in parameters, scratch, another
 * global) relocates to the worker's own address of that global.
 * plan_load checks each name is a global of that step's function's module
 * of exactly that size, zeroes it and writes the runs and pointers, once,
 * before the first replay; launches that write globals then change them
 * as they would in process.
 *
 * plan_capture runs in the planner (the sandboxed process that runs the
 * kernel's host code) and returns the plan as JSON text; the runner
 * parses and checks it (src/backends/seal.c) into struct evc_plan, and
 * plan_load, in the sealed worker, which never loads the kernel's host
 * code, loads the device code from the object's fatbin images and returns
 * a kernel description whose launch() replays the plan with the
 * ev_launch's current buffers.  Everything else (the timing loop, checks,
 * scramble) is the same as for any kernel.
 */
enum evc_step_kind { EVC_STEP_KERNEL = 1, EVC_STEP_MEMSET = 2, EVC_STEP_COPY = 3 };
#define EVC_BUF_IN 0
#define EVC_BUF_OUT 8
#define EVC_BUF_SCRATCH 16
#define EVC_BUF_GLOBAL 32  /* scratch ids end below it (EVC_PLAN_MAX_SCRATCH) */
#define EVC_PLAN_MAX_STEPS 256
#define EVC_PLAN_MAX_SCRATCH 16
/* the span a plan's scratch layout may cover (scratch_at) */
#define SEAL_SCRATCH_SPAN_MAX (1ull << 36)
/* the per-thread stack a plan may ask for (stack_bytes) */
#define SEAL_STACK_MAX (1ull << 20)
#define EVC_PLAN_MAX_PARAMS 128
#define EVC_PLAN_MAX_ARGS 32768   /* bytes of one kernel's parameters (CUDA's limit is 32764) */
/* Bytes of contents (the non-zero runs of scratch and of module globals,
 * together) one plan may carry.  They travel beside the plan's line, not
 * in it (the planner sends them as one frame before the plan; the parent
 * puts them in the plan as its "contents", which the record's plan
 * object hashes, and hands them to the worker in the plan's sealed
 * memfd), so the 1 MiB line no longer bounds them (devlazy, red team 40:
 * an honest 1 MiB table built on launch()'s first call was refused).
 * 16 MiB: a RoPE cos/sin table of 8k positions x 128 dims in fp32 (8
 * MiB) or an FFT's twiddles fit.  Not more: the record's plan object
 * holds the contents as hex (32 MiB at the cap, in the store and in every
 * git commit of it), the parent holds them about four times over for a
 * moment (raw, as hex in the plan, its dumps for the hash and for the
 * memfd), and the planner asks the driver about every non-zero word
 * (classify_word: a few calls each, seconds per MiB at worst); more is
 * trust: host's. */
#define EVC_PLAN_MAX_CONTENTS ((size_t)16 << 20)
#define EVC_PLAN_MAX_RUNS 32768   /* runs of one list (scratch_init, global_init) */
#define EVC_PLAN_MAX_RELOCS 32768 /* pointers of one list (scratch_relocs, global_relocs) */
#define EVC_PLAN_MAX_GLOBALS 192  /* module globals one plan may carry (ids up to 223) */
#define EVC_PLAN_MAX_GLOBAL_NAME 4096 /* characters of a global's name: [A-Za-z0-9_$.] (a template's
                                       * mangled name runs to thousands: red team 47's 1243) */
#define EVC_PLAN_MAX_GLOBAL_NAMES_BYTES ((size_t)256 << 10) /* the characters of all of a plan's names */
#define EVC_PLAN_MAX_GLOBAL_BYTES ((size_t)1 << 32) /* the size of one global */

/* What init() left in a scratch buffer: bytes at off of scratch k, which
 * plan_load writes after zeroing the buffer. */
struct evc_init {
	uint32_t scratch;
	uint64_t off;
	size_t bytes;
	const unsigned char *data;
};

/* A pointer init() left in scratch: the 8 bytes at `at` of scratch k hold
 * the address `off` bytes into scratch buffer `buf` (an EVC_BUF_SCRATCH
 * id), which plan_load writes with its own address of that buffer. */
struct evc_sreloc {
	uint32_t scratch;
	uint64_t at;
	uint32_t buf;
	uint64_t off;
};

/* A module global the plan carries: `name`, `bytes` long, in the module
 * of the function of kernel step `step`.  Its contents are evc_init runs
 * and its pointers evc_sreloc entries whose `scratch` field is the index
 * of the global in the plan (not of a scratch buffer). */
struct evc_global {
	uint32_t step;
	const char *name;
	size_t bytes;
};

struct evc_reloc {
	uint32_t at;    /* byte offset in the parameter buffer of an 8-byte pointer */
	uint32_t buf;   /* EVC_BUF_* id */
	uint64_t off;   /* bytes into that buffer */
};

struct evc_step {
	int kind;                      /* enum evc_step_kind */
	/* kernel */
	const char *name;              /* the device function's (mangled) name */
	unsigned grid[3], block[3], cluster[3]; /* cluster all 0: none */
	unsigned smem;                 /* dynamic shared memory, bytes */
	int max_dynamic_smem;          /* function attributes to set, -1: leave */
	int carveout;
	int cache_config;              /* the CUfunc_cache the process set (function or context), -1: leave */
	int cluster_policy;            /* CUclusterSchedulingPolicy set on the function, 0: leave (default) */
	int nonportable_cluster;
	unsigned required_cluster[3];  /* the function's required cluster, set at run time by
					* init() (cudaFuncSetAttribute); all 0: none */
	size_t args_bytes;             /* the parameter buffer */
	const unsigned char *args;
	unsigned n_params;
	const size_t *param_off;       /* n_params offsets into args */
	unsigned n_relocs;
	const struct evc_reloc *relocs;
	/* memset: dst, value, elem_size (1, 2, 4), width (elements), height, pitch (bytes) */
	/* copy: dst, src, bytes */
	uint32_t dst_buf, src_buf;
	uint64_t dst_off, src_off;
	unsigned value, elem_size;
	size_t width, height, pitch, bytes;
	/* kernel, an addition: launched cooperatively (its blocks may meet at
	 * a grid-wide barrier: cudaLaunchCooperativeKernel) */
	int cooperative;
	/* kernel, an addition: a programmatic dependent launch on the step
	 * before it, itself a kernel (cudaLaunchAttributeProgrammaticStream-
	 * Serialization: it may start while that one's blocks finish) */
	int programmatic;
};

struct evc_plan {
	int n_steps;
	const struct evc_step *steps;
	int n_scratch;
	const size_t *scratch_bytes;   /* allocated zeroed by plan_load */
	const char *kernel_name;       /* the kernel description's name and */
	const char *compiled_params;   /* compiled_params, as the planner read them */
	const char *problem;
	/* an addition: the scratch buffers' contents as init() left them
	 * (their non-zero runs), written by plan_load after the zeroing */
	int n_inits;
	const struct evc_init *inits;
	/* an addition: the pointers among them, to scratch buffers of the plan,
	 * written by plan_load after the contents */
	int n_srelocs;
	const struct evc_sreloc *srelocs;
	/* an addition: module globals as init() left them (see above); their
	 * runs and pointers index globals, and plan_load writes them after
	 * zeroing each global, before the first replay */
	int n_globals;
	const struct evc_global *globals;
	int n_ginits;
	const struct evc_init *ginits;
	int n_grelocs;
	const struct evc_sreloc *grelocs;
	/* an addition (version 8): where each scratch buffer lay in the
	 * planner, in bytes from the lowest (NULL: apart); plan_load then
	 * allocates one block of the span and places each buffer at its
	 * offset, so that an address one past the end of one buffer that was
	 * the start of the next stays both (red team 34's endptr: a [begin,
	 * end) pointer pair read the next allocation as its end) */
	const size_t *scratch_at;
	/* an addition: the bytes init() left between the scratch buffers of
	 * a kept layout (red team 163's between), as runs whose `scratch` is
	 * 0 and `off` the offset from the span's start; plan_load writes
	 * them after zeroing the span, before the buffers' own runs.  Raw
	 * bytes: nothing in them is relocated (no launch names them) */
	int n_span_inits;
	const struct evc_init *span_inits;
	/* an addition (version 8): the per-thread stack the planner's context
	 * had after the capture, when more than before init() (0: the
	 * default); plan_load sets it (red team 35's stack) */
	size_t stack_bytes;
};

/*
 * An addition: one cubin section that holds named module
 * globals (.nv.global*, .nv.constantN), as plan_sections hands it to the
 * planner: the named symbols' offsets and sizes in it (the layout the
 * planner checks against the running module's addresses), and its gaps,
 * the byte ranges [gap[2k], gap[2k+1]) no named symbol covers (between
 * them, before the first and after the last up to the section's size),
 * with their load-time bytes, concatenated in gap order (gap_init NULL:
 * zeros, a NOBITS section).  A sealed plan carries the named globals
 * only, so the planner refuses a kernel whose init() changed a gap (red
 * team 60).
 */
struct evc_section {
	const char *name;      /* the section's name, for the reason */
	uint64_t size;         /* sh_size */
	uint32_t n_syms;
	const char *const *sym_name;
	const uint64_t *sym_at;   /* st_value: the offset in the section */
	const uint64_t *sym_size; /* st_size */
	uint32_t n_gaps;
	const uint64_t *gap;           /* 2 * n_gaps offsets, sorted */
	const unsigned char *gap_init; /* the gaps' load-time bytes, or NULL: zeros */
};
#define EVC_SECTION_MAX_GAP_BYTES ((uint64_t)1 << 26) /* gap bytes of one section checked (more: refused) */
/* Where the driver starts each section of module data (any module's): at
 * 256-byte boundaries (tests/gpu/probes/modslack.cu on an H200, driver
 * 580: two modules' four sections at +0x000, +0x100, +0x200, +0x300), so
 * a section's slack runs to the next one and holds nothing loaded */
#define EVC_MODULE_DATA_ALIGN ((uint64_t)256)

struct evc_ctx;

struct evc_api {
	uint32_t api_version;   /* EVC_API_VERSION */
	uint32_t struct_size;   /* sizeof(struct evc_api) */

	/* Outcome class and names of a cudaError_t value. */
	int (*kind)(int code);
	const char *(*error_name)(int code);
	const char *(*error_string)(int code);

	/*
	 * Select `device`, create the stream, read its properties into info.
	 * *ctx is freed with close().  Errors with kind EVC_NO_DEVICE mean
	 * there is no usable device.
	 */
	int (*open)(int device, struct evc_ctx **ctx, struct evc_device_info *info,
		    char *err, size_t errlen);
	/* Clears (zeroes) every buffer from alloc() still held, then frees all. */
	void (*close)(struct evc_ctx *ctx);
	/* The cudaStream_t everything runs on (for ev_launch.stream). */
	void *(*stream)(struct evc_ctx *ctx);

	/* Device buffer of numel elements of dtype (enum ev_dtype); freed by close()
	 * or free_buffer(). */
	int (*alloc)(struct evc_ctx *ctx, int dtype, size_t numel, void **d_ptr,
		     char *err, size_t errlen);
	/* Zero the buffer, then free it (so no later allocation sees its data). */
	void (*free_buffer)(struct evc_ctx *ctx, void *d_ptr);
	/* Convert numel host floats to dtype (round to nearest even) and copy. */
	int (*upload_floats)(struct evc_ctx *ctx, void *d_dst, int dtype, const float *h_src,
			     size_t numel, char *err, size_t errlen);
	/* Fill with the poison pattern of dtype (POISON_F16 etc., problem.h). */
	int (*poison)(struct evc_ctx *ctx, void *d_dst, int dtype, size_t numel,
		      char *err, size_t errlen);
	/* Copy bytes back (synchronises the stream first). */
	int (*download)(struct evc_ctx *ctx, void *h_dst, const void *d_src, size_t bytes,
			char *err, size_t errlen);

	/* desc->init(l) if any; a non-zero return is the kernel's own refusal,
	 * its reason in err (returns -1, not a cudaError_t). */
	int (*kernel_init)(struct evc_ctx *ctx, const struct ev_kernel_desc *desc,
			   struct ev_launch *l, char *err, size_t errlen);
	/* One launch as a timed sample makes it (behind the blocking kernel),
	 * then synchronise the device and check: returns the first error of
	 * launch(), cudaGetLastError() and the synchronisation. */
	int (*launch_sync)(struct evc_ctx *ctx, const struct ev_kernel_desc *desc,
			   struct ev_launch *l, char *err, size_t errlen);
	/* Warm up and sample, calling opts->on_sample after each sample (see
	 * above).  Returns 0, a cudaError_t, or -1 (EVC_ABORT from the
	 * callback, or bad options: the reason in err).  l->inputs and
	 * l->outputs are restored before it returns. */
	int (*time_kernel)(struct evc_ctx *ctx, const struct ev_kernel_desc *desc,
			   struct ev_launch *l, const struct evc_timing_opts *opts,
			   struct evc_timing_result *res, char *err, size_t errlen);

	/* Fill bytes at d_ptr with the scramble stream evs_key(seed, i, j, o)
	 * (scramble.h), in stream order (the next launch sees it). */
	int (*scramble)(struct evc_ctx *ctx, void *d_ptr, size_t bytes, uint64_t seed,
			uint64_t i, uint32_t j, uint32_t o, char *err, size_t errlen);
	/* Device-to-device copy of bytes, synchronised. */
	int (*copy)(struct evc_ctx *ctx, void *d_dst, const void *d_src, size_t bytes,
		    char *err, size_t errlen);
	/* Zero bytes at d_ptr, synchronised. */
	int (*clear)(struct evc_ctx *ctx, void *d_ptr, size_t bytes, char *err, size_t errlen);
	/* Copy bytes from the host as they are, synchronised. */
	int (*upload)(struct evc_ctx *ctx, void *d_dst, const void *h_src, size_t bytes,
		      char *err, size_t errlen);

	/* ---- the sealed path ---- */
	/* Run desc->launch(l) once under stream capture (nothing executes) and
	 * describe what it enqueued as plan JSON (see above) in *json, which
	 * the caller frees with free().  Returns 0, a cudaError_t or CUresult
	 * value, or -1 when the launch did something a plan cannot hold (the
	 * reason in err: host memory, a host callback, an event, a library
	 * kernel is fine, a kernel's own stream outside the capture is not
	 * seen and so is not replayed). */
	int (*plan_capture)(struct evc_ctx *ctx, const struct ev_kernel_desc *desc,
			    struct ev_launch *l, char **json, char *err, size_t errlen);
	/* Load the device code of `n_images` fatbin images (the kernel object's
	 * .nv_fatbin section, read as data: no host code of it runs), find
	 * every function the plan names, set their attributes, allocate its
	 * scratch, and return a description whose launch() replays the plan
	 * on the launch's current buffers (valid until close()).  The plan is
	 * copied.  Returns 0, a CUresult value, or -1 with the reason in err
	 * (a function that is not in the images: a library's kernel). */
	int (*plan_load)(struct evc_ctx *ctx, const void *const *images, const size_t *image_bytes,
			 int n_images, const struct evc_plan *plan,
			 const struct ev_kernel_desc **desc, char *err, size_t errlen);
	/* An addition: the names of the module globals the next plan_capture
	 * reads (from the modules of the functions it captures) and carries;
	 * the runner takes them from the kernel object's cubins
	 * (seal_fatbin_globals).  The names are copied; n_names 0 forgets
	 * them.  0, or -1 with the reason in err. */
	int (*plan_globals)(struct evc_ctx *ctx, const char *const *names, int n_names, char *err,
			    size_t errlen);
	/* An addition: the sections that hold the named globals
	 * (every cubin's; struct evc_section), for the next plan_capture: it
	 * reads each gap of a section whose layout matches a module's
	 * addresses on the device, after init(), and refuses a plan when a
	 * gap no longer holds its load-time bytes.  Copied; n 0 forgets
	 * them.  0, or -1 with the reason in err. */
	int (*plan_sections)(struct evc_ctx *ctx, const struct evc_section *sections, int n, char *err,
			     size_t errlen);

	/* ---- an addition: the modules the process loads (backends/modwatch.h) ---- */
	/* From now on every module the driver loads in this process is handed
	 * to fn(arg, id, payload, bytes) from CUPTI's resource callback
	 * (CUPTI_CBID_RESOURCE_MODULE_LOADED: CUpti_ModuleResourceData's
	 * moduleId, pCubin and cubinSize), on the thread that loads it: fn
	 * keeps what it needs (the payload is not valid after it returns).
	 * The sealed planner calls it before the kernel object is opened (red
	 * team 74's reg_slow: the object's own host code registered an image
	 * the worker never loads).  fn NULL: no more calls.  0, or -1 with the
	 * reason in err (no CUPTI in this process, or the callback refused). */
	int (*watch_modules)(struct evc_ctx *ctx, void (*fn)(void *arg, uint32_t id, const void *payload, size_t bytes),
			     void *arg, char *err, size_t errlen);
	/* Is that callback still enabled on the harness's CUPTI subscriber
	 * (cuptiGetCallbackState)?  1 yes, 0 no (turned off in this process
	 * since), -1 cannot tell (never enabled, or CUPTI cannot say). */
	int (*modules_watched)(struct evc_ctx *ctx);
};

typedef const struct evc_api *(*evc_api_fn)(void);

#ifdef __cplusplus
}
#endif

#endif /* EVIDENT_CUDA_H */
