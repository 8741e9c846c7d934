/*
 * problem.h - problems: what a kernel computes, its inputs, its reference
 * answer, the work it does and how an answer is judged, defined once for
 * every backend.
 *
 * A problem is a plug-in, problems/NAME.c, implementing the ABI of
 * problems/evident_problem.h.  problem_load() builds it with the host
 * compiler through the content-hash build cache (build.h), dlopen()s it and
 * validates its description; struct problem then carries the description
 * and the build's provenance.  The helpers below turn a spec's shape
 * key/value pairs into a shape, size the tensors, draw the inputs rounded
 * to the experiment's dtype, run the float64 reference and judge one
 * output against it under the problem's tolerance rule (and, where the
 * problem names some, its entries one by one: problem_focus), counting elements
 * the kernel left unwritten by comparing against the random bits the output
 * held before the launch (scramble, not a fixed poison).
 *
 * Who calls what (README "What evident defends against"): the worker that
 * loads the kernel only draws inputs (problem_fill_rounded); the checker
 * process computes references and verdicts after the outputs exist.
 *
 * The older attention-only interface (struct attn_shape, attn_*, poison,
 * problem_check) stays below until the worker switches over;
 * problems/attention_fwd.c is now the definition, and
 * tests/unit/test_problems.c checks that the two agree.
 */
#ifndef EVIDENT_BACKENDS_PROBLEM_H
#define EVIDENT_BACKENDS_PROBLEM_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "../../kernels/evident_kernel.h"
#include "../../problems/evident_problem.h"
#include "../../problems/evident_fill_dtype.h"
#include "../../problems/evident_focus.h"
#include "../../problems/evident_mix_fold.h"
#include "../../problems/evident_timing_dists.h"
#include "base/util.h"

/* ---- problem plug-ins ------------------------------------------------ */

/*
 * A loaded problem.  Everything is owned by the struct and freed by
 * problem_release(); desc points into the loaded object and is valid until
 * then.  PROBLEM_INIT is a valid empty one (problem_release accepts it).
 */
struct problem {
	char *name;                         /* "gemm" */
	const struct ev_problem_desc *desc; /* the plug-in's description */
	int n_inputs, n_outputs;            /* tensors [0, n_inputs) are inputs, then outputs */
	char *source_path;                  /* "problems/gemm.c", as given to the compiler */
	char *so_path;                      /* the object in the build cache */
	/*
	 * Provenance for the record, like a kernel build's: {"path", "sources"
	 * [{path, sha256}] (the .c and every local header), "build_key",
	 * "binary_sha256", "argv", "compiler_version", "cached", "seconds",
	 * "status"}.
	 */
	json_t *build;
	char *gpu_source;                   /* "problems/gemm.cu" when it exists, else NULL */
	char *gpu_so_path;                  /* set by problem_build_gpu(), else NULL */
	json_t *gpu_build;                  /* its provenance (same keys + "arch", "libs"), or NULL */
	void *handle;                       /* dlopen() handle of so_path */
	ev_mix_fold_fn mix_fold;            /* its evident_problem_mix_fold, or NULL */
	unsigned timing_dists;              /* its timing distributions (problem_timing_dists) */
	ev_focus_fn focus;                  /* its evident_problem_focus, or NULL */
	ev_fill_dtype_fn fill_dtype;        /* its evident_problem_fill_dtype, or NULL (fill() then) */
	/* In the runner (problem_calls_setup): the plug-in's description and
	 * answers, read from its box (problem_box.c); desc then points into
	 * it, handle, mix_fold, focus and fill_dtype are NULL, and no code of the
	 * plug-in's runs in this process.  NULL where the object is loaded. */
	struct problem_remote *remote;
};
#define PROBLEM_INIT { NULL, NULL, 0, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL }

/*
 * Load problem `name` from problems/NAME.c under the current directory
 * (the repository root): build it (cc -O2 -std=c11 -shared -fPIC
 * -I./problems; $EVIDENT_HOST_CC overrides cc) into cache_dir through the
 * build cache, so an unchanged source is never rebuilt, dlopen it, check
 * abi_version and struct_size, and validate the description (see
 * problem_validate_desc).  Notes problems/NAME.cu as gpu_source when it
 * exists, without building it (problem_build_gpu does).
 * Returns 0, or -1 with a one-line reason in why (nothing printed, p
 * released).  The caller releases p with problem_release().
 */
int problem_load(const char *name, const char *cache_dir, struct problem *p, struct strbuf *why);
/*
 * How this process builds problem plug-ins (problem_load*, and
 * problem_build_gpu's reference): as kernels are built (build.c), in the
 * build box, in two passes, the second shown only the repository files
 * the first's rule names, with `view` the repository's record view
 * (build_request.view: run/provenance.c prov_view_ops; passed in, so that
 * the worker, which links this file, needs no libgit2).  The box is made
 * on the first build that misses the cache, once a process; where it
 * cannot be made the build fails with the reason.  unboxed (the run's
 * --unsandboxed): the compiler runs with the runner's rights, in one
 * pass, and the record's build says box "none".  Until it is called a
 * build is boxed with no view, which fails: a caller that loads problems
 * (the CLI's main, the unit tests) calls it first.
 */
struct repo_view_ops;
void problem_build_setup(const struct repo_view_ops *view, int unboxed);
/*
 * Make this process one that never runs a plug-in's code itself (the
 * CLI's main: the runner; problem_box.c): from now on problem_load*
 * describe the built object through `evident-worker __problem` in a host
 * box of copies (the plug-ins' build box's sandbox, the strict filter),
 * and problem_tolerance, problem_check_shape, problem_scalar,
 * problem_flops, problem_min_bytes and problem_extra_shape read its
 * answers (one boxed call per shape, kept); problem_fill_rounded refuses
 * (the host clock fills through problem_filler_*).  Not under
 * problem_build_setup's unboxed (--unsandboxed): the object is loaded
 * here, as before, and the record says the run was unboxed.  The worker,
 * the checker and the unit tests never call it: they load the object.
 */
void problem_calls_setup(void);
/* 1 once problem_calls_setup was called. */
int problem_calls_boxed(void);
/* The plug-ins' host box (the build box's sandbox), or NULL with why. */
struct sandbox;
const struct sandbox *problem_host_box(struct strbuf *why);
/* problem_box.c's side of problem_load_at: describe the object so_path
 * in its box into p (p->name set); 0, or -1 with why. */
int problem_remote_open(struct problem *p, const char *so_path, struct strbuf *why);
/*
 * The shape the spec being read names (its keys and values as written,
 * n of them; n 0 forgets it): the next description box (problem_remote_
 * open) also answers for it, where the plug-in's keys are exactly those
 * names, so that the spec's shape needs no box of its own (a box cost
 * 45 ms of CPU on the project's VM, 140 ms under ASan).  The answer is
 * kept as the box's answer of that shape (problem_remote_answer), under
 * the shape the runner itself forms from the names in the plug-in's
 * order; a shape asked that differs asks its own box, as before.
 */
void problem_shape_hint(const char *const *names, const long long *vals, int n);
void problem_remote_free(struct problem *p);
/* check() at shape as the box answered it (err filled); -1 with the
 * reason in err where the box gave no answer. */
int problem_remote_check(const struct problem *p, const long long *shape, char *err, size_t errlen);
/* one answer of a shape: what a described plug-in's functions said there
 * (problem_box.c) */
struct pb_answer {
	long long shape[EV_PROBLEM_MAX_KEYS];
	int check_rc;           /* check()'s */
	char check_err[256];
	double scalar, flops;
	double min_bytes[9];    /* by elem_bytes 1, 2, 4, 8 */
	struct ev_tolerance tol[5]; /* by dtype 1..4 */
	int extra_rc;
	long long extra[EV_PROBLEM_MAX_KEYS];
	long long small[EV_PROBLEM_MAX_KEYS];
	char judge[65];         /* problem_box.c judge_fingerprint's, "" none */
	char judge_run[65];     /* problem_box.c run_fingerprint's, "" none, or "nondeterministic" */
	struct {
		char role[8];   /* "run", "small", "extra" */
		char sha256[65];
	} judge_roles[3];       /* the same by shape */
	int n_judge_roles;
};

/* The plug-in's answers at shape (boxed call on the first ask, kept), or
 * NULL with why (why NULL: printed). */
const struct pb_answer *problem_remote_answer(const struct problem *p, const long long *shape, struct strbuf *why);
/* The judge's fingerprint (pb_answer.judge, problem_box.c
 * judge_fingerprint: the fills and the reference's outputs on fixed
 * inputs, the scalar, FLOPs and minimum bytes, at one shape fixed for the
 * problem), or NULL (a plug-in loaded unboxed, or a box that gave none).
 * Borrowed from p's answers at shape. */
const char *problem_judge_sha256(const struct problem *p, const long long *shape);
/* The judge's fingerprint at shape itself (pb_answer.judge_run,
 * problem_box.c run_fingerprint: the fills and the reference's outputs,
 * rounded to 20 significant bits, on fixed inputs at every shape the
 * float64 reference judges a run at shape with - shape when it is cheap,
 * its small and extra shapes - and the scalar; no work counts), or
 * "nondeterministic" where two computations of it differ, or NULL.
 * Borrowed from p's answers at shape. */
const char *problem_judge_run_sha256(const struct problem *p, const long long *shape);
/* The judge at shape itself however costly (problem_box.c
 * role_fingerprint in the problem's box: a host run's, whose checks use
 * the float64 reference there): 0 with out set (a hash, or
 * "nondeterministic"), or -1 with why. */
int problem_judge_run_full(const struct problem *p, const long long *shape, char out[65], struct strbuf *why);
/*
 * A re-judge's values (report/rejudge.c): the plug-in object at so_path,
 * problem name, in a box of its own, at shape (a JSON array of its keys;
 * role "extra": its extra shape of it) and distribution dist: the inputs
 * it draws from seed (rounded to dtype), their hash, and its reference's
 * outputs, exactly, from those inputs, or from inputs where given
 * (another build's draw, the string the box returned them as), then with
 * "fill_gap", how far its own draw is from them.  {"shape", "name",
 * "inputs_sha256", "inputs" (where none were given), "fill_gap" (where
 * they were), "outputs", "tolerance", "check_inputs_sha256" and
 * "ref_sha256" (problem_draw_sha256), and with focus_key (16 hex digits,
 * or NULL) "focus_sha256" where the problem has a focus there: its
 * entries for that key on the inputs the reference ran on}; with
 * hashes_only (and no inputs) no inputs and outputs "", and no limit on
 * their number.  "inputs" and "outputs" are strings, their values' bytes
 * in base64 (b64_encode): the inputs as floats, the outputs as doubles,
 * tensor after tensor.  A new reference (caller decrefs),
 * or NULL with why (no box in this process, a refused or costly shape, an
 * unknown distribution, an object that would not load).
 */
json_t *problem_judge_values(const char *so_path, const char *name, const json_t *shape, const char *role,
			     const char *focus_key, int hashes_only,
			     const char *dist, uint64_t seed, int dtype, json_t *inputs, struct strbuf *why);
/* The combined judge_run_sha256 of roles ([{"role", "sha256"}], in
 * order) into out: a hash over "ROLE SHA256" lines, "nondeterministic"
 * where a role's is, "" for none. */
void problem_judge_combine(const json_t *roles, char out[65]);
/*
 * A described problem's fill() for the host clock's samples
 * (run/host_clock.c): `evident-worker __fill` in a box of its own for the
 * job, inputs for shape written into a memfd the runner copies them
 * from.  start: NULL with why.  fill: as problem_fill_rounded (inputs[t]
 * the caller's); 0, or -1 after error() (the box gone, its fill failed,
 * no answer in timeout_s).  stop: ends the box and frees f.
 */
struct problem_filler;
struct problem_filler *problem_filler_start(const struct problem *p, const long long *shape, double timeout_s,
					    struct strbuf *why);
int problem_filler_fill(struct problem_filler *f, const long long *shape, int dist, uint64_t seed, int dtype,
			float *const *inputs);
void problem_filler_stop(struct problem_filler *f);
/* The CPU (us) the fill box used outside its fills since it started
 * (it is stopped from each reply to the next request, red team 275), to
 * read before and after a job; NAN where its clock does not read. */
double problem_filler_outside_us(struct problem_filler *f);
/* What the runner waited, in all since the box started, us, for the fill
 * box to show stopped after its replies (red team 280: a fill that leaves
 * a thread in one long system call makes each wait as long; NAN: no box). */
double problem_filler_stop_wait_us(const struct problem_filler *f);
/* The described problem p's fill box for shape: the one it holds when
 * alive, of this process and of that shape, else a new one (problem_filler_start),
 * held by p till problem_release (the caller never stops it).  NULL with why. */
struct problem_filler *problem_filler_for(const struct problem *p, const long long *shape, double timeout_s,
					  struct strbuf *why);
/* The helpers' side, in the box (cmd_worker.c's __problem and __fill). */
int problem_helper_describe(const char *req_path);
int problem_helper_fill(const char *so, const char *name, const char *bytes);
/*
 * The problem_keys of a spec_env (run/spec.h) that loads problems from
 * problems/ under the current directory: the shape keys of `problem`, in
 * its order, from its plug-in, loaded into ctx (a struct
 * problem_keys_ctx; the caller releases ctx->pr with problem_release).
 * NULL with the reason in why.
 */
struct problem_keys_ctx {
	const char *cache_dir;
	struct problem pr;
};
const char *const *problem_spec_keys(const char *problem, int *n, struct strbuf *why, void *ctx);
/* The shape_hint of the same spec_env: problem_shape_hint (ctx unused). */
void problem_spec_shape_hint(const char *const *names, const long long *vals, int n, void *ctx);
/* In the worker and the checker: open the object the parent built (the
 * job's problem_so) without building anything.  Same contract. */
int problem_open_so(const char *so_path, const char *name, struct problem *p, struct strbuf *why);
/* The same with the repository root given (problems/ is under it). */
int problem_load_at(const char *repo_root, const char *name, const char *cache_dir,
		    struct problem *p, struct strbuf *why);
/*
 * Build p->gpu_source (the GPU reference, problems/NAME.cu) with nvcc into
 * cache_dir: -O3 -shared -Xcompiler -fPIC -cudart shared, `// evident: libs
 * cublas` and `// evident: arch sm_XX` lines as for kernels, for `arch` if
 * given ("sm_90") or else sm_80 and sm_90 (plus compute_90 PTX for newer
 * GPUs).  Sets p->gpu_so_path and p->gpu_build.  The checker dlopen()s the
 * object and calls evident_problem_gpu(); nothing here loads it.
 * Returns 0, or -1 with the reason in why (no .cu, nvcc missing, compile
 * error: its first error line).  repo_root as for problem_load_at.
 */
int problem_build_gpu(struct problem *p, const char *repo_root, const char *cache_dir,
		      const char *arch, struct strbuf *why);
/* Frees what p owns and dlclose()s the object; p is PROBLEM_INIT again. */
void problem_release(struct problem *p);

/*
 * Is d a usable description of problem `name` (NULL: any name)?  Checks
 * abi_version, struct_size, name, summary, keys (1..8, identifiers,
 * distinct), tensors (inputs first, 1..4 inputs and 1..2 outputs as the
 * kernel ABI carries, ndim 1..4, dims index keys, distinct names),
 * distributions (1..8, one word each, distinct, each documented), that
 * scalar and scalar_doc are both set or both NULL, and that every other
 * function is present.  0, or -1 with the first fault in why.
 */
int problem_validate_desc(const struct ev_problem_desc *d, const char *name, struct strbuf *why);

/*
 * Map a spec's shape (keys[i] = values[i], n pairs) to the problem's shape
 * array (n_keys values in shape_keys order), then validate it (all > 0,
 * the problem's check(), and no tensor over 2^40 elements).  0, or -1 with
 * a reason naming the key: "unknown shape key 'k' for problem 'gemm' (did
 * you mean 'K'?); its keys are M N K", "missing shape key 'K' ...", "shape
 * key 'M' given twice".
 */
int problem_shape_from_keys(const struct problem *p, const char *const *keys,
			    const long long *values, size_t n, long long *shape,
			    struct strbuf *why);
/* Validate a shape array as problem_shape_from_keys does. */
int problem_check_shape(const struct problem *p, const long long *shape, struct strbuf *why);

/*
 * Input `input`'s mixing fold for distribution dist at shape (the
 * problem's mix_fold, problems/evident_mix_fold.h), as scramble.h evs_mix_elem
 * takes it: fold[0] the elements per step of the folded dimension,
 * fold[1] its extent, fold[2] the modulus.  1 with a fold; 0 without one
 * (fold all 0: every element mixed alone); -1 when the problem's answer
 * is out of range (a bug of the problem: no dimension of the input, or a
 * modulus outside 1 .. its extent), fold all 0.
 */
int problem_mix_fold(const struct problem *p, const long long *shape, int dist, int input, uint64_t fold[3]);
/*
 * The distributions the reported time is measured on, as a bit mask over
 * the problem's distributions (problems/evident_timing_dists.h): its
 * evident_problem_timing_dists() when it exports one (problem_load
 * checked it), else distribution 0 alone.  Never 0.  The timed samples
 * follow scramble.h evs_sample_dist under it.
 */
unsigned problem_timing_dists(const struct problem *p);
/*
 * The entries of output 0 judged one by one (problems/evident_focus.h) for
 * a launch of distribution dist whose inputs (as the kernel saw them) are
 * `inputs`, under the secret key: at most EV_FOCUS_MAX indices, values and
 * bounds into index/value/bound (the caller's, EV_FOCUS_MAX each).
 * Returns how many (0: the problem has no focus here), or -1 when the
 * problem's answer is out of range (a count above EV_FOCUS_MAX, an index
 * outside output 0, a value or bound not finite or a bound below 0: a bug
 * of the problem).
 */
long long problem_focus(const struct problem *p, const long long *shape, int dist, int dtype, uint64_t key,
			const float *const *inputs, long long *index, double *value, double *bound);
/*
 * Judge the focus entries of one output (numel elements of dtype as the
 * kernel wrote them; before: its bytes before the launch, or NULL), after
 * problem_check_output judged it into res: each written, finite entry out
 * of its bound adds one to res->mismatches (res->first_mismatch the first
 * such index when it had none) and clears res->pass.  Unwritten and
 * non-finite entries are left to problem_check_output's counts.  Returns
 * how many were out; *worst (may be NULL) gets the largest |out - value|
 * / bound over the entries judged.
 */
struct check_result;
long long problem_focus_judge(const void *out, const void *before, int dtype, size_t numel,
			      const long long *index, const double *value, const double *bound, long long n,
			      struct check_result *res, double *worst);

/* Tensor t's dimensions at shape into dims (unused ones 1); returns ndim. */
int problem_tensor_dims(const struct problem *p, int t, const long long *shape, long long dims[4]);
/* Elements of tensor t at shape. */
size_t problem_tensor_numel(const struct problem *p, int t, const long long *shape);
/* The launch scalar at shape (0 when the problem has none). */
double problem_scalar(const struct problem *p, const long long *shape);
/* Index of distribution `name`, or -1. */
int problem_dist_index(const struct problem *p, const char *name);
/* The distribution correctness seed number i uses: i % n_dists. */
int problem_dist_for_seed(const struct problem *p, int seed_index);
/* The problem's tolerance for dtype at shape (all NaN where a described
 * problem's box gave no answer). */
void problem_tolerance(const struct problem *p, int dtype, const long long *shape,
		       struct ev_tolerance *tol);
/* Its flops() and min_bytes() at shape (NaN where a described problem's
 * box gave no answer), and extra_shape(): 0 with out set, or -1. */
double problem_flops(const struct problem *p, const long long *shape);
double problem_min_bytes(const struct problem *p, const long long *shape, size_t elem_bytes);
int problem_extra_shape(const struct problem *p, const long long *shape, long long *out);

/*
 * Fill the inputs (inputs[i]: problem_tensor_numel floats, allocated by the
 * caller, e.g. with problem_inputs_new) from distribution dist and seed
 * (the plug-in's fill_dtype with dtype where it has one, else its fill()),
 * then round every value to dtype (EV_F16 / EV_BF16 round to nearest even;
 * EV_F32 and EV_F64 keep the floats), so that the reference sees exactly
 * what the kernel sees.  Returns 0, or -1 after error() when dist or dtype
 * is out of range or a value is NaN/Inf after rounding (a fill() bug, or a
 * distribution outside the dtype's range), naming the tensor.
 */
int problem_fill_rounded(const struct problem *p, const long long *shape, int dist,
			 uint64_t seed, int dtype, float **inputs);
/* Input buffers (one malloc'd float array per input, sized for shape) and
 * float64 output buffers; free either with problem_buffers_free(). */
float **problem_inputs_new(const struct problem *p, const long long *shape);
double **problem_outputs_new(const struct problem *p, const long long *shape);
void problem_buffers_free(void *bufs, int n);
/* The float64 CPU reference: outputs from inputs (as rounded). */
void problem_reference(const struct problem *p, const long long *shape,
		       const float *const *inputs, double *const *outputs);

/* Round n floats in place to the nearest value of dtype (fp16, bf16:
 * round to nearest even; fp32: as they are), as problem_fill_rounded does. */
void problem_round_n(float *x, size_t n, int dtype);
/* n floats -> n elements of dtype (raw bits, as a kernel reads them), and back. */
void problem_pack(const float *src, void *dst, size_t n, int dtype);
void problem_unpack(const void *src, float *dst, size_t n, int dtype);
/* Fill bytes of buf with random bits from seed (SplitMix64): the scramble
 * written into outputs before each launch. */
void problem_scramble(void *buf, size_t bytes, uint64_t seed);

/*
 * What a check's reference was, by hash: the sha256 of n_in input
 * tensors of in_n[t] floats, as drawn (into in_hex), and of n_out
 * reference outputs of out_n[o] doubles, every NaN as one pattern (into
 * out_hex).  A host check records both (checker.c), and a re-judge's box
 * gives both for a draw (problem_box.c judge_values), so a build that
 * judged otherwise in its checker's process than it computes in a box is
 * told even where the reference's largest magnitude agrees (red team
 * 261's rot: inputs rotated in the checker only).
 */
void problem_draw_sha256(float *const *in, const size_t *in_n, int n_in, double *const *out, const size_t *out_n,
			 int n_out, char in_hex[SHA256_HEX_LEN + 1], char out_hex[SHA256_HEX_LEN + 1]);
/* The same for a focus's n entries (problem_focus: indices, values,
 * bounds, every NaN as one pattern), into hex: what a host check with a
 * focus records as focus_sha256 and a re-judge's box gives for the same
 * draw and key (red team 264: a focus bent to bounds no output meets
 * refuted an honest code across builds whose draws and references
 * agreed). */
void problem_focus_sha256(const long long *index, const double *value, const double *bound, long long n,
			  char hex[SHA256_HEX_LEN + 1]);

/*
 * Judge one output under the rule of evident_problem.h.  out: numel
 * elements of dtype as the kernel left them; before: the same buffer's
 * bytes before the launch (the scramble), or NULL to skip the unwritten
 * count; the reference is ref_d (float64) or ref_f (the GPU's fp32):
 * exactly one is non-NULL.  With ref_scale = max |ref| (1 if all 0), an
 * element is within tolerance when |out - ref| <= atol ref_scale +
 * rtol |ref|.  An element still bit-equal to `before` and out of tolerance
 * (or NaN/Inf) counts as unwritten; other NaN/Inf as nan_count; other
 * elements out of tolerance as mismatches.  rel_l2 = ||out - ref|| /
 * ||ref|| over the written, finite elements (||out - ref|| when ref is all
 * zero).  pass needs none of those faults, no non-finite reference
 * element, and rel_l2 <= tol->rel_l2.
 */
struct check_result;
void problem_check_output(const void *out, const void *before, int dtype, const double *ref_d,
			  const float *ref_f, size_t numel, const struct ev_tolerance *tol,
			  struct check_result *res);

/*
 * `evident help problems`: every problems/NAME.c under repo_root (loaded,
 * so built into cache_dir if need be) with its summary, shape keys,
 * tensors, launch scalar, distributions and GPU reference, appended to out.
 * Returns 0, or -1 when a problem cannot be loaded (it is listed with its
 * reason, the others still are) or there is no problems/ directory.
 */
int problem_list_help(const char *repo_root, const char *cache_dir, struct strbuf *out);

/* ---- the attention-only interface (until the worker switches) -------- */

/* Shape of attention_fwd. */
struct attn_shape {
	long long B, H, S, D;
};

/* Is `name` a known problem?  Fills the list of its shape keys. */
int problem_known(const char *name);
/* The shape keys problem `name` needs, NULL-terminated ({"B","H","S","D"}). */
const char *const *problem_shape_keys(const char *name);

/* Elements in one [B,H,S,D] tensor. */
size_t attn_numel(const struct attn_shape *s);
/* 4*B*H*S*S*D (two GEMMs) - the usual FlashAttention count. */
double attn_flops(const struct attn_shape *s);
/* Q, K, V read once, O written once, at elem_bytes per element. */
double attn_min_bytes(const struct attn_shape *s, size_t elem_bytes);

/* dtype name -> enum ev_dtype, and element size; 0 if unknown. */
int dtype_from_name(const char *name);
size_t dtype_size(int dtype);
const char *dtype_name(int dtype);

/*
 * Fill q, k, v (numel floats each) from seed: uniform in [-1, 1), with no
 * exact zeros, SplitMix64 so that every platform draws the same numbers.
 * If round_to is EV_F16 or EV_BF16, values are rounded to that type first
 * (so the reference sees exactly what the kernel sees).
 */
void attn_fill_inputs(const struct attn_shape *s, uint64_t seed, int round_to,
		      float *q, float *k, float *v);

/* float64 CPU reference: out (numel doubles) = softmax(scale Q K^T) V. */
void attn_reference_cpu(const struct attn_shape *s, const float *q, const float *k,
			const float *v, double *out);

/* The poison bit patterns written into outputs before each launch. */
#define POISON_F32 0x7fc0deadu
#define POISON_F16 0x7e5bu
#define POISON_BF16 0x7fdeu
/* Fill out (numel elements of dtype) with the poison pattern. */
void poison_fill(void *out, int dtype, size_t numel);

struct check_result {
	double max_abs_err;
	double rel_l2;           /* ||out - ref|| / ||ref|| over written, non-NaN elements */
	long long nan_count;     /* NaN/Inf that are not the poison (scramble) pattern */
	long long unwritten;     /* elements still holding the poison (scramble) pattern */
	long long first_mismatch; /* index of first element out of tolerance, -1 if none */
	long long mismatches;    /* elements out of tolerance */
	int pass;
	/* problem_check_output only (0 from problem_check): */
	double ref_scale;        /* max |ref|, the scale of atol */
	long long ref_nonfinite; /* NaN/Inf in the reference itself: a problem bug */
};

/*
 * Compare out (numel elements of dtype, raw as the kernel wrote them)
 * against ref (doubles or floats: exactly one of ref_d, ref_f non-NULL).
 * An element passes when |out - ref| <= atol + rtol * |ref|.  pass needs
 * no NaN, nothing unwritten and no mismatch.
 */
void problem_check(const void *out, int dtype, const double *ref_d, const float *ref_f,
		   size_t numel, double atol, double rtol, struct check_result *res);

/* fp16/bf16 <-> float conversions (round to nearest even). */
uint16_t f32_to_f16(float f);
float f16_to_f32(uint16_t h);
uint16_t f32_to_bf16(float f);
float bf16_to_f32(uint16_t h);

#endif /* EVIDENT_BACKENDS_PROBLEM_H */
