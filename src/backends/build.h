/*
 * build.h - the content-hash build cache shared by every backend.
 *
 * A build key is the SHA-256 of: the kernel source and every local header
 * it includes (resolved recursively through #include "..." and the include
 * path), the full compiler argv (with the output path replaced by a fixed
 * placeholder), the compiler's version text and executable's hash, and the
 * environment the compiler runs with (PATH and the locale, the only
 * variables it is given: build.c build_env_keep), and the names the
 * toolchain's search directories show with its specs file and programs
 * (build_toolchain.h).  A spec's flags are
 * taken by allow list (build_flags_refusal below).  The cache directory
 * <cache_dir>/<key>/ holds kernel.so, build.log and info.json; it is made
 * in a temporary directory and renamed into place, so a half-built entry is
 * never seen.  The object a worker loads is the entry's kernel.so under a
 * second name, <cache_dir>/obj/<so_sha256>/kernel.so (a hard link): a
 * kernel sees its own path, and the key's would name its file and
 * parameters (build.c publish_by_object).  A second build with nothing changed is a cache hit and runs
 * no compiler - after re-hashing kernel.so against the SHA-256 recorded
 * when it was built (info "so_sha256"): an entry whose object changed is
 * set aside (<key>.tampered-*) with a warning and built afresh; an entry
 * one of whose `sources` (the compiler's own -MD list of repository files
 * it read, build.c) or of its `toolchain` manifest (the system's and
 * the compiler's tree's files the build read and the system libraries the
 * object loads: build_toolchain.h) no longer hashes as recorded is stale
 * and is built afresh too.  The compiler runs in the request's build box (sandbox.h)
 * under memory and file-size limits; a source using .incbin, or reading
 * outside the repository and the toolchain, is a failed build with the
 * reason.  Failed builds are not cached (the failure may be transient,
 * e.g. out of memory), but their log is returned for the record.
 */
#ifndef EVIDENT_BUILD_H
#define EVIDENT_BUILD_H

#include "backends/backend.h"

/*
 * How a backend compiles.  build_run() forms the argv:
 *   compiler, base_flags..., -I<repo>/kernels, -DNAME=VALUE...,
 *   extra_flags..., -MD -MF <tmp>/deps.d, -o <tmp>/kernel.so, source
 * `post` (optional) runs after a successful compile, in the temporary
 * directory, to add backend-specific facts to res->info (binary_sha256,
 * resources); when NULL, binary_sha256 is the hash of kernel.so.
 * `classify` (optional) turns a failed compile's log into a short reason
 * ("shared memory over the limit: 0x10000 bytes > 0xc000"), or NULL.
 */
struct build_recipe {
	const char *compiler;              /* "cc", or nvcc's path */
	const char *const *base_flags;     /* NULL-terminated */
	const char *version_flag;          /* "--version" */
	int (*post)(const char *tmpdir, const char *log, json_t *info);
	char *(*classify)(const char *log); /* returns malloc'd text or NULL */
	/* A request with parameters also gets its echo-neutral identity
	 * (the host backend's): after the compile, in the same box and view,
	 * the compile again to a relocatable object (-c) and that object
	 * linked again; where the relinked object is the compiled one byte for
	 * byte, info's "echo_neutral_sha256" is the relocatable object's hash
	 * with its EV_PARAM echo's bytes cut out (echo_mask.h), else
	 * "echo_neutral_failed" (with "echo_neutral_reason").  No second build
	 * of other text: the compile's own preprocessing, nothing forced in. */
	int echo_mask;
};

/*
 * Build rq with recipe into the cache.  Returns 0 with res filled (res->ok
 * says whether there is a shared object), or -1 if nothing could be
 * attempted (compiler missing, cache unwritable).  res is released by the
 * caller with build_result_release().  With rq->hit_only: 0 with res
 * filled on a cache hit, else 1 with res untouched (nothing compiled,
 * refused or recorded).
 */
int build_run(const struct build_request *rq, const struct build_recipe *recipe,
	      struct build_result *res);

/*
 * Hash `path` and, recursively, every header it includes with
 * #include "..." that resolves relative to the including file or to one of
 * include_dirs.  Appends {path, sha256} objects to `sources` (paths as
 * given/resolved, relative when the input is) and feeds each file's bytes
 * into key.  Returns 0 or error().
 */
int build_hash_sources(const char *path, const char *const *include_dirs,
		       struct sha256_ctx *key, json_t *sources);

/*
 * The compiler warnings in a build log, for the run record (build_run puts
 * them into res->info, a cached build's too).  A warning is a line, not
 * indented (gcc echoes the source beneath), that is one of
 *   gcc, clang, cc1:     FILE:LINE:COL: warning: TEXT [-Wflag]
 *   nvcc's front end:    FILE(LINE): warning #N-D: TEXT
 *   nvcc, ptxas, nvlink: ptxas warning : TEXT
 * counted once however often it appears (nvcc compiles a .cu once for the
 * host and once per device arch, and repeats its front end's warnings).
 * Returns the count; *first (caller frees) gets the first such line, cut
 * to 300 bytes, or NULL when there is none.
 */
long long build_count_warnings(const char *log, char **first);
/* What build_count_warnings found, as build_run left it in a build's info
 * (0 and NULL for info from before it counted): *first is borrowed from
 * info. */
long long build_info_warnings(const json_t *info, const char **first);

/* The text of `compiler version_flag` (trimmed), malloc'd: the caller
 * frees it; NULL if it cannot run.  The last answer is kept for the
 * process (build.c), so asking again of the same compiler runs nothing. */
char *build_compiler_version(const char *compiler, const char *version_flag);
/* The compiler's executable as exec finds it (*path, malloc'd: the caller
 * frees it) and the sha256 of its contents (sha); kept for the process.
 * 0, or -1 when it cannot be found or read. */
int build_compiler_exe(const char *compiler, char **path, char sha[SHA256_HEX_LEN + 1]);

/*
 * A spec's compile and link flags (its `flags:`), by allow list
 * (build_flags.c): NULL when every one is in a form that reads no file and
 * runs no program the build key does not cover, else why not (malloc'd:
 * the caller frees it), naming the first refused flag and what is allowed.
 * The dialect is the compiler's (nvcc or a gcc-like host compiler: nvcc's
 * -Xcompiler contents are checked by the host rules, with no directory,
 * library, forced include or operand inside).  repo_root and cache_dir
 * (either may be relative to the working directory) bound -include and
 * -imacros: a file of the repository, not of its build cache.
 */
enum build_flags_dialect { BUILD_FLAGS_GCC, BUILD_FLAGS_NVCC };
enum build_flags_dialect build_flags_dialect_of(const char *compiler);
char *build_flags_refusal(const char *const *flags, enum build_flags_dialect d, const char *repo_root,
			  const char *cache_dir);

#endif /* EVIDENT_BUILD_H */
