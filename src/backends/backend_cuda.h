/*
 * backend_cuda.h - the pieces of the cuda backend (backend_cuda.c) that
 * work on text and files only, exposed so that unit tests can feed them
 * real nvcc output without a GPU: the ptxas -v report parser, the build
 * failure classifier, the `// evident:` source directives, the device-code
 * hash, and how an nvcc argv is formed for an arch.
 */
#ifndef EVIDENT_BACKEND_CUDA_H
#define EVIDENT_BACKEND_CUDA_H

#include <jansson.h>

#include "base/util.h"

/*
 * Parse a `ptxas -v` report (nvcc -Xptxas -v output) into a new JSON
 * array of {name, arch, entry, registers, smem_bytes, cmem_bytes, barriers,
 * stack_bytes, spill_stores, spill_loads}, one per function and arch (a
 * field the report lacks is absent).  The caller frees the array.
 */
json_t *cuda_parse_ptxas(const char *log);

/*
 * The summary the record keeps as info.resources: the largest of each
 * field over the entry functions of `functions` (which is referenced, not
 * stolen, as resources.functions).  New object, the caller frees.
 */
json_t *cuda_resources_summary(json_t *functions);

/* A short reason for a failed nvcc log, malloc'd (caller frees), or NULL
 * when nothing in it is recognised. */
char *cuda_classify_build_log(const char *log);

/*
 * Where a CUDA tool is: $NVCC (for nvcc), $CUDA_HOME/bin, PATH, then
 * /usr/local/cuda/bin.  Malloc'd path (caller frees) or NULL.
 */
char *cuda_find_tool(const char *name);
/*
 * Path of the harness, malloc'd: $EVIDENT_CUDA_HARNESS, else
 * <dir of this executable>/../lib/libevident_cuda.so, else
 * lib/libevident_cuda.so under the current directory; NULL if none exists.
 */
char *cuda_harness_path(void);

/*
 * `// evident: libs cublas cudnn` and `// evident: arch sm_90a` lines of a
 * kernel's source.  libs is NULL-terminated; release with
 * cuda_directives_release().
 */
struct cuda_directives {
	char *arch;     /* NULL when the source names none */
	char **libs;    /* NULL-terminated, never NULL after parsing */
	size_t n_libs;
};
#define CUDA_DIRECTIVES_INIT { NULL, NULL, 0 }
int cuda_parse_directives(const char *source_text, struct cuda_directives *d);
void cuda_directives_release(struct cuda_directives *d);

/*
 * The nvcc arguments that select `arch`: "-arch=sm_90" for a plain target,
 * "-gencode=arch=compute_90a,code=sm_90a" for an arch-specific one (sm_90a:
 * the -arch shorthand also ran a plain sm_90 pass that rejects wgmma on
 * nvcc 13.0).  Returns a malloc'd string or NULL when arch is not of the
 * form sm_NN[a|f].
 */
char *cuda_arch_flag(const char *arch);
/* The CUDA installation an nvcc path belongs to (".../bin/nvcc" -> "..."),
 * "/usr/local/cuda" for a bare name; malloc'd, the caller frees it. */
char *cuda_home_of(const char *nvcc);
/* "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" (NVML's and nvidia-smi's
 * spelling) of a CUDA device's 16 UUID bytes, into out (41 bytes or more). */
void cuda_uuid_text(const unsigned char b[16], char *out);

/*
 * SHA-256 of the device code inside a shared object: the bytes of its
 * ELF section .nv_fatbin (the fat binary the CUDA runtime registers and
 * loads).  0 with hex filled, 1 if the object has no such section, -1 on a
 * read or format error (after error()).
 */
int cuda_device_code_sha256(const char *so_path, char hex[SHA256_HEX_LEN + 1],
			    size_t *section_bytes);

#endif /* EVIDENT_BACKEND_CUDA_H */
