/*
 * evident_problem.h - the C ABI of a problem plug-in.
 *
 * A problem is what a kernel computes, defined once for every backend and
 * every kernel that solves it: its shape keys ("B H S D", "M N K"), its
 * tensors and how their dimensions follow from the shape, the scalar a
 * launch needs (a softmax scale, an epsilon), input distributions that
 * exercise its numerics, a float64 CPU reference, FLOPs and the fewest
 * bytes any kernel must move, the tolerance rule per dtype, and the shapes
 * worth checking besides the spec's own.  It lives in problems/NAME.c,
 * which the runner compiles with the host compiler into a shared object
 * through the content-hash build cache and records in provenance like a
 * kernel (path, SHA-256, object), so `problem: gemm` works without touching
 * the runner's source and a change to a problem makes its runs stale.
 *
 * The object exports one symbol, evident_problem(), returning a static
 * struct ev_problem_desc (EVIDENT_DEFINE_PROBLEM below).  An optional GPU
 * reference lives in problems/NAME.cu (compiled with nvcc, `// evident:
 * libs cublas` lines as for kernels) and exports evident_problem_gpu().
 *
 * Who runs what (the trust boundary, README "What evident defends
 * against"): the worker process that loads the KERNEL calls only
 * tensors/fill (to make its inputs); the reference, the tolerance and the
 * verdict run in the checker process, which never loads the kernel, after
 * the kernel's outputs exist.  So nothing here may keep state between calls.
 *
 * Conventions:
 *   - shape: an array of n_keys long long values in the order of shape_keys.
 *   - Every tensor holds elements of the experiment's dtype; fill() and
 *     reference() work in float / double, the runner rounds inputs to the
 *     dtype (round to nearest even) before the kernel and the reference see
 *     them, so the reference sees exactly what the kernel sees.
 *   - fill() must be deterministic in (shape, dist, seed) on every platform
 *     (use ev_splitmix64 below, never rand()), must never produce NaN or Inf
 *     and should avoid exact zeros.
 *   - Versioning as the kernel ABI: a layout change bumps
 *     EVIDENT_PROBLEM_ABI_VERSION; additions go at the end (struct_size).
 */
#ifndef EVIDENT_PROBLEM_ABI_H
#define EVIDENT_PROBLEM_ABI_H

#include <stddef.h>
#include <stdint.h>

/* enum ev_dtype (EV_F32, EV_F16, EV_BF16), which tolerance() receives.
 * Relative to this file, so it resolves without any -I flag and the build
 * cache hashes it with the problem. */
#include "../kernels/evident_kernel.h"

#define EVIDENT_PROBLEM_ABI_VERSION 1

#ifdef __cplusplus
#define EV_PROBLEM_EXTERN_C extern "C"
#else
#define EV_PROBLEM_EXTERN_C
#endif

#define EV_PROBLEM_MAX_KEYS 8
#define EV_PROBLEM_MAX_TENSORS 8
#define EV_PROBLEM_MAX_DISTS 8

/* One tensor: dense, row-major, dims given as indices into shape_keys. */
struct ev_problem_tensor {
	const char *name;   /* "Q", "A", "X" ... */
	int is_output;      /* inputs come first in the array, then outputs */
	int ndim;           /* 1..4 */
	int dims[4];        /* dims[i] = index into shape_keys */
};

/*
 * The tolerance rule.  With ref_scale = max |ref| over the whole output
 * (0 < ref_scale; if every reference element is 0, ref_scale = 1):
 *   element i passes   when |out_i - ref_i| <= atol * ref_scale + rtol * |ref_i|
 *   the output passes  when every element passes, no element is NaN/Inf or
 *                      unwritten, and ||out - ref||_2 / ||ref||_2 <= rel_l2.
 * atol is relative to the reference's magnitude, so one rule fits inputs of
 * any scale (a large-V distribution, a long reduction).
 */
struct ev_tolerance {
	double atol;
	double rtol;
	double rel_l2;
};

struct ev_problem_desc {
	uint32_t abi_version;   /* EVIDENT_PROBLEM_ABI_VERSION */
	uint32_t struct_size;   /* sizeof(struct ev_problem_desc) */
	const char *name;       /* "attention_fwd"; the file is problems/<name>.c */
	const char *summary;    /* one line: "O = softmax(scale Q K^T) V over [B,H,S,D]" */
	const char *scalar_doc; /* what ev_launch.scale means, or NULL if unused */

	int n_keys;
	const char *shape_keys[EV_PROBLEM_MAX_KEYS];   /* {"B","H","S","D"} */

	int n_tensors;
	struct ev_problem_tensor tensors[EV_PROBLEM_MAX_TENSORS];

	/*
	 * Input distributions, index 0 the default for timing.  Correctness
	 * seed i uses distribution i % n_dists, so every distribution is
	 * checked once 'seeds' >= n_dists.  Each name is one word, its doc one
	 * line ("peaked: one dominant key per query row").
	 */
	int n_dists;
	const char *dists[EV_PROBLEM_MAX_DISTS];
	const char *dist_docs[EV_PROBLEM_MAX_DISTS];

	/* Is this shape valid (all keys > 0 and whatever else the problem
	 * needs)?  0 = yes; else writes a one-line reason. */
	int (*check)(const long long *shape, char *err, size_t errlen);
	/* The launch scalar (ev_launch.scale), e.g. 1/sqrt(D); may be NULL (0). */
	double (*scalar)(const long long *shape);
	/* Floating-point operations of one launch, by the usual count. */
	double (*flops)(const long long *shape);
	/* The fewest bytes any kernel must move: every input read once, every
	 * output written once, at elem_bytes per element. */
	double (*min_bytes)(const long long *shape, size_t elem_bytes);

	/* Fill the inputs (host floats, numel each, in tensor order) of
	 * distribution dist from seed. */
	void (*fill)(const long long *shape, int dist, uint64_t seed, float *const *inputs);
	/* float64 CPU reference: the outputs (doubles, in output order) from
	 * the inputs as the kernel saw them (already rounded to the dtype). */
	void (*reference)(const long long *shape, double scalar, const float *const *inputs,
			  double *const *outputs);

	/* Default tolerance for dtype (enum ev_dtype of evident_kernel.h) at
	 * this shape; a spec may override each field. */
	void (*tolerance)(int dtype, const long long *shape, struct ev_tolerance *tol);

	/*
	 * The extra correctness shape derived from the spec's shape: one that
	 * is not a multiple of common tile sizes (e.g. S -> 397), small enough
	 * to check quickly.  Keys a kernel is usually compiled for (a head
	 * dimension D) keep their value.  Returns 0, or -1 if the problem has
	 * none for this shape.
	 */
	int (*extra_shape)(const long long *shape, long long *out);
	/*
	 * A reduced shape at which the float64 CPU reference is cheap (about a
	 * second at most), for cross-checking the GPU reference every run.
	 */
	void (*small_shape)(const long long *shape, long long *out);
};

/* The one symbol a problem object exports. */
#define EVIDENT_PROBLEM_SYMBOL "evident_problem"
typedef const struct ev_problem_desc *(*ev_problem_fn)(void);

#define EVIDENT_DEFINE_PROBLEM(DESC)                                               \
	EV_PROBLEM_EXTERN_C __attribute__((visibility("default")))                 \
	const struct ev_problem_desc *evident_problem(void)                        \
	{                                                                          \
		return &(DESC);                                                    \
	}

/*
 * The optional GPU reference, problems/NAME.cu: fp32 on the device, from
 * device float copies of the inputs (as rounded for the kernel) into device
 * float outputs, on `stream` (a cudaStream_t).  Returns 0 or a cudaError_t
 * value (or cublasStatus_t + 1000) after writing a one-line reason into err.
 * Every intermediate buffer it allocates is cleared before it is freed.
 */
struct ev_problem_gpu {
	uint32_t abi_version;   /* EVIDENT_PROBLEM_ABI_VERSION */
	uint32_t struct_size;
	const char *name;       /* the problem's name */
	const char *method;     /* one line: "cuBLAS SGEMM (pedantic fp32, no TF32) + softmax kernel" */
	int (*reference)(const long long *shape, double scalar, const float *const *d_inputs,
			 float *const *d_outputs, void *stream, char *err, size_t errlen);
};
#define EVIDENT_PROBLEM_GPU_SYMBOL "evident_problem_gpu"
typedef const struct ev_problem_gpu *(*ev_problem_gpu_fn)(void);

#define EVIDENT_DEFINE_PROBLEM_GPU(DESC)                                           \
	EV_PROBLEM_EXTERN_C __attribute__((visibility("default")))                 \
	const struct ev_problem_gpu *evident_problem_gpu(void)                     \
	{                                                                          \
		return &(DESC);                                                    \
	}

/* SplitMix64: the one random number generator problems use, so every
 * platform draws the same inputs from the same seed. */
static inline uint64_t ev_splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}
/* Uniform in [-1, 1), never exactly 0 (53 random bits). */
static inline double ev_uniform_pm1(uint64_t *state)
{
	double u;
	do
		u = (double)(ev_splitmix64(state) >> 11) * (1.0 / 9007199254740992.0) * 2.0 - 1.0;
	while (u == 0.0);
	return u;
}

#endif /* EVIDENT_PROBLEM_ABI_H */
