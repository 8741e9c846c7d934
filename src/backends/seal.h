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
 * contents inside their buffers, bounded counts and sizes) and says what
 * is wrong otherwise.
 */
#ifndef EVIDENT_SEAL_H
#define EVIDENT_SEAL_H

#include <jansson.h>
#include <stddef.h>

#include "backends/cuda/evident_cuda.h"

/* A parsed plan and the memory behind it; release with seal_plan_release. */
struct seal_plan {
	struct evc_plan plan;
	struct evc_step *steps;
	size_t *scratch;
	void *arena;    /* args, offsets and relocations of every step */
	char **names;
	char *kernel_name, *compiled_params, *problem;
	struct evc_init *inits;
	unsigned char *init_data; /* the bytes every init points into */
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
 * The fatbin images of an ELF shared object's .nv_fatbin section, read
 * from the file (nothing of it is loaded or run).  *data holds the
 * section; images[i] point into it.  Returns the number of images (>= 0),
 * or -1 with the reason in *why (malloc'd).  The caller frees *data.
 */
int seal_fatbin_images(const char *path, unsigned char **data, const void **images, size_t *image_bytes,
		       int max_images, char **why);

/*
 * Does device code of these fatbin images (seal_fatbin_images) launch
 * grids from the device (dynamic parallelism)?  Every entry that is not
 * compressed - cubins (nvcc leaves SASS uncompressed unless told
 * otherwise) and PTX - is searched for the device runtime's launch
 * (cudaLaunchDevice*, the CDP2 syscall __cuda_syscall_cnpv2LaunchDevice*,
 * __cudaCDP2LaunchDevice*), which a device-side launch must name for the
 * loader to link it.  1 with the name found in *what (static), else 0.
 * Why: the kernel clock (CUPTI) has no record of such grids, and only a
 * bounded gap to the CUDA events gave them away (red team 3, rt3_cdp_tail).
 */
int seal_fatbin_device_launch(const void *const *images, const size_t *image_bytes, int n_images,
			      const char **what);

#endif /* EVIDENT_SEAL_H */
