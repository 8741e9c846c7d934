/*
 * provenance.h - code (git) and machine provenance for run records.
 */
#ifndef EVIDENT_PROVENANCE_H
#define EVIDENT_PROVENANCE_H

#include <jansson.h>

#include "base/util.h"

struct prov_git {
	int is_repo;
	char *toplevel;    /* working directory of the repository */
	char *commit;      /* 40 hex, NULL before the first commit */
	char *branch;      /* "main", or "(detached)" */
	int dirty;
	size_t n_changed;  /* changed tracked files + untracked kernel/problem/experiment files */
	char *diff;        /* patch against commit when dirty, else NULL */
	size_t diff_len;
	json_t *untracked; /* untracked paths included in diff */
	char *why;         /* why there is no commit, or NULL */
};

/*
 * Fill g for the repository containing ".".  store_prefix ("artifacts/")
 * names the store inside the repository, left out of the diff (NULL if the
 * store is elsewhere).  Not a repository: is_repo = 0 and returns 0.
 * Returns -1 after error() on a libgit2 failure.  Release with
 * prov_git_release().
 */
int prov_git(const char *store_prefix, struct prov_git *g);
/*
 * As prov_git, and the n files in files (the spec, each variant's kernel:
 * paths relative to the current directory or the repository's root) are
 * in the patch and in untracked when git does not track them, wherever
 * they lie: a kernel outside kernels/ was in no patch, and its record said
 * dirty: false, untracked: [] (red team 49).  A file outside the
 * repository is left to the records' source hashes.
 */
int prov_git_files(const char *store_prefix, const char *const *files, size_t n, struct prov_git *g);
void prov_git_release(struct prov_git *g);

/* Host, CPU, OS, kernel, versions of the given compilers, relevant env.
 * New object, the caller json_decrefs it. */
json_t *prov_machine(const char *const *compilers);

#endif /* EVIDENT_PROVENANCE_H */
