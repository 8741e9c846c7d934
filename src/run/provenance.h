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
/*
 * What a record can name of the git repository holding dir (the build's
 * pass 1 is shown these alone: red team 103).  prov_view_open: 0 and *pv
 * (close it with prov_view_close); 1 when dir is in no repository with a
 * working tree; -1 after error().  Paths are absolute, under the
 * repository's real working directory.  prov_view_tracked: 1 when the
 * index holds path (the commit's file, or the patch's change to it), 2
 * when it is a submodule (its commit recorded), else 0;
 * prov_view_tracked_below: whether the index holds a file under the
 * directory dir; prov_view_untracked_shown: whether an untracked path is
 * one the patch covers (under kernels/, problems/ or experiments/, and not
 * ignored); prov_view_patch_dir: whether a directory lies in one of those.
 */
struct prov_view;
int prov_view_open(const char *dir, struct prov_view **pv);
int prov_view_tracked(struct prov_view *pv, const char *path);
int prov_view_tracked_below(struct prov_view *pv, const char *dir);
int prov_view_untracked_shown(struct prov_view *pv, const char *path);
int prov_view_patch_dir(struct prov_view *pv, const char *path);
void prov_view_close(struct prov_view *pv);
/* The functions above as the backends' repo_view_ops (build_request.view). */
extern const struct repo_view_ops prov_view_ops;

/*
 * The runner that writes a record (red team 279; record.h struct
 * rec_runner, the record's code.runner): code.git is the repository the
 * spec lies in (cmd_run works from the spec's repository root), so it
 * cannot say which evident ran there.  prov_runner_commit: the commit
 * this evident was built from, compiled in (src/run/runner_build.c,
 * scripts/runner-commit.sh), or "unknown"; prov_runner_dirty: 1 where its
 * sources differed from that commit, 0 clean, -1 unknown.
 */
const char *prov_runner_commit(void);
int prov_runner_dirty(void);
struct prov_runner {
	char commit[48];                     /* prov_runner_commit() */
	int dirty;                           /* prov_runner_dirty() */
	char sha256[SHA256_HEX_LEN + 1];     /* /proc/self/exe as it runs; "" if unreadable */
	char worker_sha256[SHA256_HEX_LEN + 1]; /* worker_exe's; "" if unreadable */
};
/* Fill pr for this process, whose jobs exec worker_exe (the runner itself
 * where there is no evident-worker): the executables hashed once, here.
 * 0, or -1 when either could not be read (its hash is then ""). */
int prov_runner(const char *worker_exe, struct prov_runner *pr);

/* Host, CPU, OS, kernel, versions of the given compilers, relevant env.
 * New object, the caller json_decrefs it. */
json_t *prov_machine(const char *const *compilers);

#endif /* EVIDENT_PROVENANCE_H */
