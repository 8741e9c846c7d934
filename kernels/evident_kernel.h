/*
 * evident_kernel.h - the one C ABI between the evident runner and a kernel.
 *
 * Every kernel under study, every reference (cuDNN, cuBLAS) and every test
 * fixture is compiled into a shared object that exports exactly one symbol,
 * evident_kernel(), returning a static description of the kernel.  The
 * runner dlopen()s the object in a child process, checks abi_version and
 * struct_size, fills a struct ev_launch with tensors (host pointers for the
 * host backend, device pointers for the CUDA backend) and calls launch().
 *
 * The same header serves C (gcc) and CUDA (nvcc) translation units, and both
 * backends: the backend is only a property of where the pointers live and of
 * which harness times the launch.  Tunables are preprocessor macros given
 * with -D by the runner; a kernel echoes the values it was compiled with in
 * compiled_params (see EV_PARAM below) so that the runner can prove that a
 * variant's knobs reached the binary.
 *
 * Versioning: a change that alters the layout of either struct bumps
 * EVIDENT_ABI_VERSION; additions go at the end and are detected through
 * struct_size, so older kernels keep loading.
 */
#ifndef EVIDENT_KERNEL_H
#define EVIDENT_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#define EVIDENT_ABI_VERSION 1

#ifdef __cplusplus
#define EV_EXTERN_C extern "C"
#else
#define EV_EXTERN_C
#endif

enum ev_dtype {
	EV_F32 = 1,
	EV_F16 = 2,
	EV_BF16 = 3,
	EV_F64 = 4,
};

/* A dense, contiguous, row-major tensor. */
struct ev_tensor {
	void *data;       /* host pointer (host backend) or device pointer (cuda) */
	int32_t dtype;    /* enum ev_dtype */
	int32_t ndim;
	int64_t dims[4];
};

/*
 * What the runner hands to a kernel.  For problem "attention_fwd":
 *   inputs[0..2] = Q, K, V, each [B, H, S, D]; outputs[0] = O [B, H, S, D];
 *   scale = 1/sqrt(D); O = softmax(scale * Q K^T) V, row-wise softmax,
 *   no mask.
 */
struct ev_launch {
	uint32_t abi_version;  /* EVIDENT_ABI_VERSION */
	uint32_t struct_size;  /* sizeof(struct ev_launch) as the runner knows it */
	const char *problem;   /* e.g. "attention_fwd" */
	int32_t n_inputs;
	int32_t n_outputs;
	struct ev_tensor inputs[4];
	struct ev_tensor outputs[2];
	double scale;
	void *stream;          /* cudaStream_t for the cuda backend, NULL on host */
	void *state;           /* free for the kernel: set by init, read by launch */
	void *workspace;       /* device/host scratch of workspace_bytes, or NULL */
	size_t workspace_bytes;
};

struct ev_kernel_desc {
	uint32_t abi_version;  /* EVIDENT_ABI_VERSION */
	uint32_t struct_size;  /* sizeof(struct ev_kernel_desc) */
	const char *name;      /* e.g. "fa_s512" */
	const char *backend;   /* "host" or "cuda" */
	const char *problem;   /* e.g. "attention_fwd" */
	/*
	 * Optional (may be NULL).  Called once per process after the tensors
	 * are allocated and before any launch: create handles, plans, raise the
	 * dynamic shared-memory limit, reject a shape the kernel cannot do.
	 * Returns 0, or non-zero after writing a one-line reason into err.
	 */
	int (*init)(struct ev_launch *l, char *err, size_t errlen);
	/*
	 * One launch.  CUDA kernels enqueue on l->stream and return
	 * cudaGetLastError() (0 = cudaSuccess) without synchronising; host
	 * kernels compute synchronously and return 0.  A non-zero return for
	 * CUDA is a cudaError_t value; for host, any non-zero is a failure.
	 */
	int (*launch)(struct ev_launch *l);
	/* Optional (may be NULL): free what init created. */
	void (*fini)(struct ev_launch *l);
	/*
	 * The tunables as compiled, "NAME=VALUE" separated by single spaces,
	 * e.g. "BLOCK_M=64 BLOCK_N=64".  The runner compares them with the
	 * variant's parameters and records any that disagree.  "" if none.
	 */
	const char *compiled_params;
};

/* The one symbol a kernel object exports. */
#define EVIDENT_KERNEL_SYMBOL "evident_kernel"
typedef const struct ev_kernel_desc *(*ev_kernel_fn)(void);

/* Helpers for compiled_params: EV_PARAM(BLOCK_M) " " EV_PARAM(BLOCK_N) */
#define EV_STR_(x) #x
#define EV_STR(x) EV_STR_(x)
#define EV_PARAM(name) #name "=" EV_STR(name)

/*
 * Define the exported symbol:
 *   EVIDENT_DEFINE_KERNEL("fa_s512", "cuda", "attention_fwd",
 *                         my_init, my_launch, my_fini, EV_PARAM(BLOCK_M));
 */
#define EVIDENT_DEFINE_KERNEL(NAME, BACKEND, PROBLEM, INIT, LAUNCH, FINI, PARAMS) \
	static const struct ev_kernel_desc ev_kernel_desc_ = {                    \
		EVIDENT_ABI_VERSION, sizeof(struct ev_kernel_desc), NAME,         \
		BACKEND, PROBLEM, INIT, LAUNCH, FINI, PARAMS};                    \
	EV_EXTERN_C __attribute__((visibility("default")))                       \
	const struct ev_kernel_desc *evident_kernel(void)                          \
	{                                                                          \
		return &ev_kernel_desc_;                                           \
	}

#endif /* EVIDENT_KERNEL_H */
