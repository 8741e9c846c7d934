/*
 * sandbox_int.h - what the sandbox's four files share, and nothing else
 * includes: sandbox.c builds a box's bubblewrap argv, sandbox_filter.c
 * its seccomp programs, sandbox_libs.c the list of libraries a box of
 * copies holds (the loader's own search, emulated), sandbox_probe.c the
 * calls that prove a box's program.  Not part of the
 * sandbox's interface (sandbox.h).
 */
#ifndef EVIDENT_SANDBOX_INT_H
#define EVIDENT_SANDBOX_INT_H

#include <stddef.h>

/* A growing NULL-terminated list of strings: an argv, or a list of
 * paths.  Every string is the list's own (argvb_push copies); the caller
 * frees the list with sandbox_argv_free(l.v). */
struct argvb {
	char **v;
	size_t n, alloc;
};

/* "/proc/PID/LEAF" into buf, or "/proc/self/LEAF" where pid is 0 or
 * less: a process's own file, or one read from outside. */
void sandbox_proc_path(char *buf, size_t n, int pid, const char *leaf);
void argvb_push(struct argvb *a, const char *s);
int argvb_has(const struct argvb *l, const char *s);

/* sb's profiles' answers to the probes (sandbox_probe_expect): the strict
 * one's, and with a GPU the sanitizer's; 0, or -1 with why filled */
struct sandbox;
struct strbuf;
int sandbox_probe_prepare(struct sandbox *sb, struct strbuf *why);

/* Record why the box being set up cannot be (sandbox_wrap_fresh hands it
 * to its caller); always -1. */
__attribute__((format(printf, 1, 2))) int sandbox_box_fail(const char *fmt, ...);

/* sandbox_libs.c: the libraries the loader at interp maps for the
 * runner's own program obj (its answer to --list, memoised for the
 * process: the list is the memo's, never freed); the subdirectories the
 * loader tries in every directory (asked of it once a process, static);
 * and the libraries a job's objects roots[from..] load, read from their
 * dynamic sections and found where the loader would, appended to roots
 * (0, or -1 with sandbox_box_fail's reason). */
char **sandbox_loader_list(const char *interp, const char *obj);
const struct argvb *sandbox_loader_subdirs(const char *interp, const char *exe);
int sandbox_object_deps(struct argvb *roots, size_t from, int machine, char *const *hide, const struct argvb *subs,
			const struct argvb *provided);

#endif
