/*
 * build_toolchain.h - the toolchain's part of what a build is (red team
 * 204): the files of the system and the compiler's tree that a build read,
 * and the names its search directories show.
 *
 * The build key names the compiler by its version and its executable's
 * hash, and the build box shows /usr (the compiler's tree, the C library's
 * headers and archives).  So a file someone else writes there (a header
 * put in /usr/include, an archive or shared library in the linker's
 * default directory, a gas `.include` file, gcc's specs file, or any
 * `apt upgrade` of libc6-dev) changed the program under one key, a cache
 * hit served the old object, and a shared library the kernel links was
 * copied into the run box at each run with no hash anywhere: one binary,
 * two behaviours, and `reproduce` could not say why.  This module holds
 * what closes it:
 *
 *  - toolchain_key(): into the build key, the names (kinds, link targets)
 *    the driver's default include directories show (recursively), the
 *    top of each library and program directory it searches, the install
 *    directory whole, the specs file's bytes where one is found, and
 *    the bytes of the programs it runs (as, ld, collect2): a
 *    file only probed (`__has_include`), found by `-l`, or a driver
 *    program or specs file put beside the compiler is another key;
 *  - toolchain_file_sha(): a toolchain file's hash, kept for the process
 *    by the file's identity and times (a file read by every build is
 *    hashed once a process);
 *  - toolchain_tracers() and toolchain_trace_list(): the assembler's and
 *    the linker's own lists of the files they read (`--MD`,
 *    `--dependency-file`), which the compile's -MD list lacks.
 *
 * build.c puts every toolchain file the compiler, assembler and linker
 * read, and each library the loader would map for the object from the
 * system, with its hash into the entry's `toolchain` manifest and the
 * record's `code.compiler.toolchain`; a cache hit whose manifest no longer
 * holds is stale.
 */
#ifndef EVIDENT_BUILD_TOOLCHAIN_H
#define EVIDENT_BUILD_TOOLCHAIN_H

#include <stddef.h>
#include <sys/stat.h>

#include "base/util.h"

/* the build key's word for this rule: an entry made before it has no
 * toolchain manifest, so is never a hit */
#define TOOLCHAIN_RULE "toolchain: reads hashed (compiler, assembler, linker, loader), search dirs listed, specs, programs"

/* A file's identity and times as a manifest keeps them: where all are as
 * recorded, the file is the one hashed (a write moves its ctime). */
struct toolchain_stat {
	unsigned long long dev, ino, size;
	long long mtime_ns, ctime_ns;
};

/* The hash of the regular file at path (symlinks followed), in hex, and
 * its stat in *st (may be NULL); kept for the process by identity and
 * times.  0, or -1 (no regular file, unreadable). */
int toolchain_file_sha(const char *path, char hex[SHA256_HEX_LEN + 1], struct toolchain_stat *st);

/* Is the file at path still the one recorded (its stat as st, or else its
 * bytes hashing to sha)?  1 yes, 0 no. */
int toolchain_file_current(const char *path, const char *sha, const struct toolchain_stat *st);

/* Into key: TOOLCHAIN_RULE, the listing of the directories the driver
 * host_cc searches by default (its answers asked once a process, with the
 * build's environment: env_keep, env_set), extra_dirs (NULL-terminated,
 * listed recursively: nvcc's include directory) and the specs file's
 * bytes.  Directories under /usr/local that the build box does not show
 * are left out.  Listings are kept for the process, and with the driver's
 * answers in a file of the runner's home by its uid
 * (~/.cache/evident/toolchain/, owned by it and written by no one else) for the next, and walked again (the driver asked
 * again) when any of their directories changed (device, inode, ctime). */
void toolchain_key(struct sha256_ctx *key, const char *host_cc, const char *const *extra_dirs,
		   const char *const *env_keep, const char *const *env_set);

/* Forget what this process kept (answers, listings, hashes), as a new
 * process starts: for tests of the kept state (the file of the user's
 * cache is left as it is). */
void toolchain_forget(void);
/* Keep the state in dir instead of ~/.cache/evident/toolchain (the
 * runner's home by its uid); NULL: back to that.  For tests. */
void toolchain_state_dir(const char *dir);

/* The flags that make the assembler and the linker write what they read
 * into as_list and ld_list (NULL-terminated, malloc'd: free each and the
 * array).  gas: the assembler is GNU as (not clang's integrated one).
 * For nvcc, the linker's alone (-Xlinker): nvcc runs the assembler twice,
 * and --MD keeps the second's list. */
char **toolchain_tracers(int nvcc, int gas, const char *as_list, const char *ld_list);

/* The files the assembler's list at path names (its one rule's
 * prerequisites, escaped as make escapes them), NULL-terminated and
 * malloc'd (free each and the array), or NULL when the file cannot be
 * read. */
char **toolchain_trace_list(const char *path);

/* The files the linker's --dependency-file list at path names: one a line
 * after the target's, as written (ld escapes nothing); as
 * toolchain_trace_list. */
char **toolchain_ld_list(const char *path);

#endif
