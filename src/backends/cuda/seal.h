/*
 * seal.h - the sealed path inside the harness (seal.cu): capture a launch
 * as plan JSON, and load a plan for replay.  harness.cu wraps these as
 * evc_api's plan_capture and plan_load (evident_cuda.h has the contract).
 */
#ifndef EVIDENT_CUDA_SEAL_H
#define EVIDENT_CUDA_SEAL_H

#include <cuda_runtime.h>

#include "evident_cuda.h"

/* *json is malloc'd; the caller frees it.  0, a cudaError_t/CUresult value,
 * or -1 with the reason in err. */
int seal_capture(cudaStream_t stream, const struct ev_kernel_desc *desc, struct ev_launch *l, char **json,
		 char *err, size_t errlen);
/* The description returned stays valid until seal_unload (harness close). */
int seal_load(const void *const *images, const size_t *image_bytes, int n_images, const struct evc_plan *plan,
	      const struct ev_kernel_desc **desc, char *err, size_t errlen);
void seal_unload(void);
/* Note the context's limits before the kernel's init(): seal_capture
 * refuses a plan whose init() changed one the replay depends on. */
void seal_note_limits(void);
/* Zero the 256 KiB of stack below the caller's frame, where the kernel's
 * next call (init, launch) will keep its locals: a struct's padding is then
 * the same in every process (red team 53's pad1; seal.cu). */
void evc_scrub_stack(void);
/* harness.cu's watch on the texture and surface objects the process makes
 * (CUPTI callbacks): start it, 0 or -1 when it cannot; the count so far. */
int evc_watch_tex_objects(void);
unsigned long evc_tex_objects_made(void);
/* Those made and not destroyed since the device opened (0 where CUPTI
 * cannot watch). */
unsigned long evc_tex_objects_live(void);
/* The launches (their launch attributes) and the changes of carveouts and
 * cache configurations from now (on 1) until off (0): 0, or -1 when CUPTI
 * cannot watch. */
int evc_watch_launches(int on);
/* What the process asked for the function f (or its context-independent
 * kernel kern, NULL: none): its cache configuration (the function's, else
 * the context's; -1: never set) and the carveout a watched launch of it
 * asked for by attribute (-1: none).  0, or -1 when more functions were
 * configured than the watch keeps, -2 when the function's two handles
 * were given two values, -3 when a watched launch of it asked for a
 * carveout by attribute and another ran without one, at the function's
 * own (the caller refuses each). */
int evc_plan_func_config(const void *f, const void *kern, int *cache, int *carve);
/* Did the watched launches of f (or of kern) run at the function
 * attributes and the context cache configuration the driver answers now,
 * after launch()'s third call (each read from the driver at each launch)?
 * 0, or -1 with the first difference said in why. */
int evc_plan_launch_check(const void *f, const void *kern, char *why, size_t whylen);
/* The first launch attribute a watched launch carried that a replay does
 * not set, said as a reason; NULL when none. */
const char *evc_plan_refused(void);
/* The watch on work run outside launch()'s capture (red team 66): on
 * (1), activity records on and what ran so far dropped: 0; off (0), the
 * device drained and the kernel, copy and memset records since counted
 * (captured work never runs, so it makes none).  -1 where CUPTI cannot
 * watch. */
int evc_capture_watch(int on);
/* 1 when the watch on the plan's calls came on at the device's opening
 * (then one that fails later was switched off by the kernel's code). */
int evc_plan_watch_was_on(void);
/* The module global names seal_capture reads and carries (copied; 0 names
 * forgets them).  0, or -1 with the reason in err. */
int seal_set_globals(const char *const *names, int n_names, char *err, size_t errlen);
/* the cubin sections that hold them (struct evc_section), whose gaps
 * seal_capture checks after init() (red team 60); copied */
int seal_set_sections(const struct evc_section *secs, int n, char *err, size_t errlen);

#endif /* EVIDENT_CUDA_SEAL_H */
