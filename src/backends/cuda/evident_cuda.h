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
 * reference (cuBLAS + a softmax kernel) and the timing loop (CUDA events,
 * L2 flush, adaptive stopping, CUDA-graph batching).
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

#define EVC_API_VERSION 1
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
	int cublas_version;       /* cublasGetVersion, 0 if unknown */
};

/* Outcome classes for an error code (evc_kind). */
enum evc_error_kind {
	EVC_OK = 0,
	EVC_NO_DEVICE = 1,     /* no device / no or too old driver */
	EVC_LAUNCH = 2,        /* the launch was refused: configuration, resources, image */
	EVC_CRASH = 3,         /* the kernel faulted: sticky error, context is dead */
	EVC_OTHER = 4,         /* anything else (out of memory, API misuse) */
};

struct evc_timing_opts {
	double warmup_ms;     /* launch for at least this long before sampling */
	int samples;          /* > 0: exactly this many (max_seconds still caps); 0: adaptive */
	double stdrel;        /* adaptive: stop when stdev/mean <= stdrel */
	double min_seconds;   /* adaptive: ... once this much sampled time is taken */
	double max_seconds;   /* never sample beyond this (wall clock) */
	int cold;             /* 1: flush L2 (device write of 2x L2) before every sample */
	int batch;            /* > 1: time a CUDA graph of batch launches, report per launch */
};

/*
 * The samples and how they were taken.  samples_us is malloc'd by the
 * harness; release with api->timing_release().
 */
struct evc_timing_result {
	double *samples_us;   /* per-launch time of each sample, microseconds */
	int n;
	int adaptive;         /* mode "adaptive" (else "fixed") */
	int graph;            /* mode "graph" was used (batch > 1) */
	int batch;
	double stdrel;        /* stdev/mean achieved over all samples */
	int converged;        /* adaptive: reached stdrel; fixed: all samples taken */
	int capped;           /* stopped by max_seconds */
	long long l2_flush_bytes; /* 0 when hot */
	double warmup_ms_done;    /* wall time actually spent warming up */
	long long warmup_launches;
	double sampling_seconds;  /* wall time of the sampling loop */
};

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
	void (*close)(struct evc_ctx *ctx);
	/* The cudaStream_t everything runs on (for ev_launch.stream). */
	void *(*stream)(struct evc_ctx *ctx);

	/* Device buffer of numel elements of dtype (enum ev_dtype); freed by close()
	 * or free_buffer(). */
	int (*alloc)(struct evc_ctx *ctx, int dtype, size_t numel, void **d_ptr,
		     char *err, size_t errlen);
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

	/*
	 * fp32 reference of attention_fwd on the GPU: O = softmax(scale Q K^T) V
	 * over [B,H,S,D], from host floats (already rounded to the kernel's
	 * input type, so the reference sees what the kernel sees).  Writes
	 * B*H*S*D floats to h_out.  cuBLAS SGEMM in pedantic fp32 (no TF32).
	 */
	int (*reference_attn)(struct evc_ctx *ctx, long long B, long long H, long long S,
			      long long D, double scale, const float *h_q, const float *h_k,
			      const float *h_v, float *h_out, char *err, size_t errlen);

	/* desc->init(l) if any; a non-zero return is the kernel's own refusal,
	 * its reason in err (returns -1, not a cudaError_t). */
	int (*kernel_init)(struct evc_ctx *ctx, const struct ev_kernel_desc *desc,
			   struct ev_launch *l, char *err, size_t errlen);
	/* One launch, then synchronise and check: returns the first error of
	 * launch(), cudaGetLastError() and cudaStreamSynchronize(). */
	int (*launch_sync)(struct evc_ctx *ctx, const struct ev_kernel_desc *desc,
			   struct ev_launch *l, char *err, size_t errlen);
	/* Warm up and sample; res released with timing_release(). */
	int (*time_kernel)(struct evc_ctx *ctx, const struct ev_kernel_desc *desc,
			   struct ev_launch *l, const struct evc_timing_opts *opts,
			   struct evc_timing_result *res, char *err, size_t errlen);
	void (*timing_release)(struct evc_timing_result *res);
};

typedef const struct evc_api *(*evc_api_fn)(void);

#ifdef __cplusplus
}
#endif

#endif /* EVIDENT_CUDA_H */
