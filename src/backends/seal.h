/*
 * seal.h - the runner's half of the sealed path: read a kernel object's
 * device code as data, and parse and check a plan before the sealed
 * worker replays it (cuda/seal.cu is the harness's half; evident_cuda.h
 * has the plan's shape).
 *
 * The planner, the sandboxed process that ran the kernel's host code,
 * sends its plan as untrusted JSON: seal_plan_parse accepts only what a
 * replay can do safely (known buffer ids, relocations inside the
 * parameter buffer, memsets and copies inside their buffers, scratch
 * contents - runs inside their buffer and inside the plan's contents,
 * EVC_PLAN_MAX_CONTENTS bytes in all - and the pointers among them
 * inside scratch, module globals
 * by a symbol's name and size with their contents and pointers inside
 * them, bounded counts and sizes) and says what is wrong otherwise.
 */
#ifndef EVIDENT_SEAL_H
#define EVIDENT_SEAL_H

#include <jansson.h>
#include <stddef.h>

#include "backends/cuda/evident_cuda.h"
#include "base/util.h"

/* A parsed plan and the memory behind it; release with seal_plan_release. */
struct seal_plan {
	struct evc_plan plan;
	struct evc_step *steps;
	size_t *scratch;
	size_t *scratch_at; /* NULL: the plan keeps no layout */
	void *arena;    /* args, offsets and relocations of every step */
	char **names;
	char *kernel_name, *compiled_params, *problem;
	struct evc_init *inits;
	unsigned char *init_data; /* the bytes every init points into */
	struct evc_sreloc *srelocs;
	struct evc_global *globals; /* the module globals, names in gnames */
	char **gnames;
	struct evc_init *ginits;
	unsigned char *ginit_data;
	struct evc_sreloc *grelocs;
	struct evc_init *span_inits; /* the bytes between kept scratch buffers (span_init) */
	unsigned char *span_init_data;
	size_t span_bytes;        /* the kept layout's span (0: none) */
	unsigned char *contents; /* the plan's "contents": the bytes [k, offset, bytes, at] runs point into */
	size_t contents_bytes;
};

/*
 * Parse plan JSON `j` for buffers of the sizes given (in_bytes[n_in],
 * out_bytes[n_out]).  0, or -1 with the reason in *why (malloc'd, the
 * caller frees).
 */
int seal_plan_parse(json_t *j, const size_t *in_bytes, int n_in, const size_t *out_bytes, int n_out,
		    struct seal_plan *out, char **why);
void seal_plan_release(struct seal_plan *p);

/*
 * The plan's identity: SHA-256 (hex, into out) over everything the
 * replay does, in a fixed order, with the bytes at every relocation site
 * (a parameter's pointer, a pointer init() left in scratch or a module
 * global) zeroed, since those hold the planner's own addresses, which
 * differ from process to process; the relocations themselves (where, to
 * which buffer, how far in) are hashed.  Two processes of one kernel's
 * code at one shape make one identity unless its host code chose its
 * launches from something else (a run count read from the host, the
 * time): the runner compares them (run/kexec.c, run/gather.c).
 * launches (may be NULL) gets the same hash less the bytes init() left in
 * scratch and module globals (their places and sizes kept): where two
 * identities differ, it says whether the launches did.  arg_masks (NULL,
 * or one per step, each NULL or its args_bytes long) leaves out the
 * parameter bytes whose mask is 0: those no device code reads
 * (seal_param_reads).
 */
void seal_plan_identity(const struct seal_plan *p, char out[SHA256_HEX_LEN + 1], char launches[SHA256_HEX_LEN + 1],
			const unsigned char *const *arg_masks);

/* Is name[0..len) a module global's name a plan may carry: 1 to
 * EVC_PLAN_MAX_GLOBAL_NAME characters of A-Z, a-z, 0-9, '_', '$', '.'
 * (what nvcc's symbol names are made of, mangled or not)? */
int seal_global_name_ok(const char *name, size_t len);

/*
 * The names of the module globals in these fatbin images' cubins (ELF
 * entries, uncompressed or undone as seal_fatbin_device_launch undoes
 * them): the STT_OBJECT symbols of a section named .nv.global* or
 * .nv.constant* other than .nv.constant0* (a kernel's parameters), local
 * or not, each name once, in the order found, those seal_global_name_ok
 * accepts.  *names (and each name) is malloc'd; free with
 * seal_names_free.  *unreadable counts the ELF entries it could not
 * read (compressed beyond the decompressors here, or no ELF of its
 * shape).  *refused is NULL, or the first global whose name
 * seal_global_name_ok refuses, said printably (malloc'd, the caller frees
 * it): a plan cannot carry that global, so the caller refuses the
 * variant.  Returns how many names, or -1 when there are more than
 * max_names (*names NULL).
 */
int seal_fatbin_globals(const void *const *images, const size_t *image_bytes, int n_images, char ***names,
			int max_names, int *unreadable, char **refused);
void seal_names_free(char **names, int n);

/*
 * The gaps of a section of `size` bytes whose named symbols lie at
 * at[k] (sorted ascending) with sizes sz[k]: the ranges no symbol covers,
 * as [gap[2g], gap[2g + 1]) offsets, the head and tail included, at most
 * max_gaps of them and max_bytes in all (the rest cut).  Returns how many.
 */
int seal_section_gaps(uint64_t size, const uint64_t *at, const uint64_t *sz, int n_syms, uint64_t max_bytes,
		      uint64_t *gap, int max_gaps);

/*
 * The sections of these fatbin images' cubins that hold a global
 * seal_fatbin_globals names (red team 60: init() wrote module memory
 * between two named globals, which a sealed plan does not carry), one
 * struct evc_section each (every cubin's, in the order found): the named
 * symbols sorted by offset, the gaps (seal_section_gaps) and their
 * load-time bytes (NULL for a NOBITS section: zeros).  A section whose
 * gaps come to more than EVC_SECTION_MAX_GAP_BYTES is kept without gaps
 * and *gap_over (when not NULL) set to the most such a section had (0
 * when none): the caller refuses the plan, since the planner reads no
 * more than that (red team 157's gapcap).  *sections is malloc'd (free
 * with seal_sections_free(*sections, count)).  Returns how many, or
 * -1 - n when there were more than max_sections (the first n kept).
 */
int seal_fatbin_sections(const void *const *images, const size_t *image_bytes, int n_images,
			 struct evc_section **sections, int max_sections, uint64_t *gap_over);
void seal_sections_free(struct evc_section *s, int n);

/*
 * The fatbin images of an ELF shared object's .nv_fatbin section, read
 * from the file (nothing of it is loaded or run).  *data holds the
 * section; images[i] point into it.  Returns the number of images (>= 0),
 * or -1 with the reason in *why (malloc'd): no such section, an image
 * running past it, or more than max_images images (never some of them).
 * The caller frees *data.
 */
int seal_fatbin_images(const char *path, unsigned char **data, const void **images, size_t *image_bytes,
		       int max_images, char **why);

/*
 * Which bytes of kernel `name`'s parameter buffer (args_bytes long, its
 * parameters at param_off[n_params], as a plan step holds them) its device
 * code can read, from the PTX of these fatbin images: a byte one of its
 * ld.param instructions loads by the parameter's name and a constant
 * offset inside it gets mask[b] 1, and so does every byte of a parameter
 * no load names (the SASS of another arch may read it: red team 55's
 * split).  A struct's padding, and a field no code loads, of a parameter
 * that is read stay 0: no device code can tell them apart, so the plan's
 * identity leaves them out (red team 53's pad1 and 54's deep1: an honest
 * struct's padding held what the driver had left on the stack).  The
 * worker runs SASS, so a PTX entry speaks only for the cubin compiled
 * from it: every cubin that names the kernel must have, in its own
 * image, a PTX entry of its own arch and arch-specific build (compute_90
 * beside sm_90, compute_90a beside sm_90a), and the mask is the OR of
 * those twins' (red team 290: sm_90a SASS read a struct field that the
 * compute_80 or compute_90 PTX beside it never loads).  1 when every
 * such cubin had its twin and every PTX entry of the kernel was read; 0,
 * with every byte 1, when no cubin names it, when one has no twin or
 * cannot be read, when no PTX of it is there (a build for sm_90a
 * alone), when ".entry NAME" is in the text more than once (red
 * team 55's fake: a pragma that said it), or when a parameter's address
 * is taken or an ld.param reads through a register or past its
 * parameter (55's reg, oob, wrap).  mask is args_bytes long.
 * seal_ptx_param_reads does the same for one PTX text (1 found, 0 not).
 */
int seal_param_reads(const void *const *images, const size_t *image_bytes, int n_images, const char *name,
		     size_t args_bytes, const size_t *param_off, unsigned n_params, unsigned char *mask);
int seal_ptx_param_reads(const char *ptx, size_t n, const char *name, size_t args_bytes, const size_t *param_off,
			 unsigned n_params, unsigned char *mask);

/*
 * Does device code of these fatbin images (seal_fatbin_images) launch
 * grids from the device (dynamic parallelism)?  Every PTX and ELF entry
 * it can read - uncompressed, or compressed and undone by libzstd or
 * liblz4 where they load (nvcc leaves SASS uncompressed unless told
 * otherwise) - is searched for the device runtime's launch
 * (cudaLaunchDevice*, the CDP2 syscall __cuda_syscall_cnpv2LaunchDevice*,
 * __cudaCDP2LaunchDevice*), which a device-side launch must name for the
 * loader to link it.  1 with the name found in *what (static), else 0.
 * Why: the kernel clock (CUPTI) has no record of such grids, and only a
 * bounded gap to the CUDA events gave them away (red team 3, rt3_cdp_tail).
 * What it cannot read it does not judge: see seal_fatbin_readable.
 */
int seal_fatbin_device_launch(const void *const *images, const size_t *image_bytes, int n_images,
			      const char **what);

/*
 * Does device code of these fatbin images call the device's malloc heap
 * (in-kernel malloc or free, C++'s new and delete)?  1 with the name in
 * *what (static), else 0: a cubin importing a symbol whose name holds
 * "malloc", or "free"; a PTX entry naming "malloc".  Why: the heap's
 * contents outlive a launch, in-kernel malloc does not zero, and a sealed
 * replay runs in a fresh context whose heap holds nothing init() or the
 * warm-up left there (red team 163's heap: a knob in freed blocks made
 * its process 36.8 us and its sealed replay 26.2 us, H200); the planner
 * cannot read the heap, so such code runs trust: host.  Reads the
 * entries seal_fatbin_device_launch reads.
 */
int seal_fatbin_device_heap(const void *const *images, const size_t *image_bytes, int n_images, const char **what);

/*
 * The same images reduced to the entries seal_fatbin_device_launch reads,
 * for a worker that loads only what it searched (red team 4,
 * rt4_cdp_packed: a device launch in a second image whose one cubin was
 * compressed, which the search skipped and cuModuleLoadData loaded).
 * Each image keeps its header (its size patched) and those entries, in
 * order; an entry of another kind, a compressed one no decompressor here
 * undoes, and everything from an entry whose sizes run past its image on
 * are left out and counted in *dropped; an image left with no entry is
 * left out.  Returns how many images were written to out_images and
 * out_bytes (at most n_images; they may be images and image_bytes
 * themselves); they point into *data, which the caller frees after the
 * last use of the images.
 */
int seal_fatbin_readable(const void *const *images, const size_t *image_bytes, int n_images, unsigned char **data,
			 const void **out_images, size_t *out_bytes, int *dropped);

/*
 * The machine code a device of compute capability major.minor runs from
 * these images without the driver's JIT compiler: the images reduced (as
 * seal_fatbin_readable reduces them, into *data, which the caller frees
 * whatever is returned) to their cubins (ELF entries) of its major whose
 * minor is at most the device's (an arch-specific one, sm_90a, of its
 * minor exactly) and which read here (uncompressed, or undone by libzstd
 * or liblz4): every PTX entry, and every cubin of another arch, is left
 * out.  Returns how many images were written to out_images and out_bytes,
 * 0 when no such cubin is there (PTX alone, or SASS of another arch), -1
 * when an entry is there that the worker would not load and the runtime
 * could run (an entry of a kind other than PTX or ELF, or a cubin of the
 * device's arch compressed beyond the decompressors here: red team 72),
 * held saying which.
 * held (held_len bytes, may be NULL) gets what the images hold, said:
 * "SASS sm_90, PTX compute_90".  Why (red team 58): a sealed plan names
 * the module globals init() wrote from the cubins' symbol tables
 * (seal_fatbin_globals), and a PTX-only object, compiled by the driver,
 * had none to name, so the replay dropped what init() wrote; loading only
 * these cubins, the replay runs the code whose globals the plan names and
 * the driver has no PTX to compile.
 */
int seal_fatbin_machine_code(const void *const *images, const size_t *image_bytes, int n_images, int major,
			     int minor, unsigned char **data, const void **out_images, size_t *out_bytes, char *held,
			     size_t held_len);

/* Does a cubin of fatbin arch `arch` (10 major + minor: 90 for sm_90),
 * arch-specific (sm_90a) or not, run on a device of compute capability
 * major.minor?  Its major, and a minor at most the device's (exactly it
 * when arch-specific). */
int seal_cubin_runs_on(unsigned arch, int arch_specific, int major, int minor);

/*
 * Every entry of kind `kind` (1 PTX, 2 ELF, 0 both) of these fatbin
 * images, in order, its text as the driver would load it (uncompressed,
 * or undone by libzstd or liblz4), handed to fn(text, n, ctx) until fn
 * returns nonzero, which is returned (0 when the walk ran to the end).
 * An entry of that kind with no readable text counts in *unreadable (may
 * be NULL) and is skipped.  For modwatch.h: the ELF entries of
 * seal_fatbin_machine_code's images are the cubins the sealed worker
 * loads.
 */
int seal_fatbin_each_text(const void *const *images, const size_t *image_bytes, int n_images, int kind,
			  int (*fn)(const unsigned char *text, size_t n, void *ctx), void *ctx, int *unreadable);

/*
 * May device code of these images run grids no plan step names?  1 when
 * it launches from the device (seal_fatbin_device_launch) or holds an
 * entry not readable here (seal_fatbin_readable drops it: it could), else
 * 0.  A sanitized replay then filters no grid by name (run/job.c
 * sanitize_one: a child grid named like the harness's would be left out
 * of the tool's watch).
 */
int seal_fatbin_unnamed_grids(const void *const *images, const size_t *image_bytes, int n_images);

#endif /* EVIDENT_SEAL_H */
