/*
 * problems.h - problem plug-ins in the parent: find problems/NAME.c,
 * build it through the content-hash build cache (so it is hashed and
 * recorded like a kernel, and rebuilt only when it changes), load it to
 * read its keys, FLOPs, bytes and tolerance rule.  The worker and the
 * checker load the same built object (job.problem_so).
 */
#ifndef EVIDENT_PROBLEMS_H
#define EVIDENT_PROBLEMS_H

#include "backends/backend.h"
#include "backends/problem_plugin.h"

struct problem_ref {
	char *name;
	struct build_result br;   /* the plug-in's build (sources, hashes, log) */
	struct plugin pl;         /* loaded: pl.d is its descriptor */
};

/*
 * Build and load problems/<name>.c (relative to the current directory, the
 * repository root) with cache_dir as the build cache.  0, or -1 with a
 * one-line reason in why (unknown problem: the known ones are listed).
 * Release with problem_ref_release.
 */
int problem_ref_load(const char *name, const char *cache_dir, struct problem_ref *pr, struct strbuf *why);
void problem_ref_release(struct problem_ref *pr);

/* The names of the problems/ plug-ins (NAME of NAME.c), sorted, NULL-terminated (caller frees each
 * and the array). */
char **problem_names(void);

#endif /* EVIDENT_PROBLEMS_H */
