/*
 * problem_code.h - a problem's code at a commit against the working
 * tree's, for runs that recorded no problem code (query.c
 * query_sources_current).
 *
 * Runs recorded before problem provenance (74c9de22e) keep no
 * problem.sources, but their code.git.commit names the repository's
 * commit they ran in, and any evident build older than that commit
 * writes such records today (red team 294 row 2).  The problem's code is
 * the plug-in problems/NAME.c and every header it includes from the
 * repository (quoted #include lines, followed from the including file's
 * folder, then problems/, as the plug-in's build's -I finds them), and,
 * for a run that was not on the host backend, the GPU reference
 * problems/NAME.cu and its headers: the files a run since provenance
 * lists in problem.sources (run/plan.c problem_sources).  Paths are those
 * of the working tree now, relative to the current directory (the
 * repository root, as query.c's every source check).
 */
#ifndef EVIDENT_PROBLEM_CODE_H
#define EVIDENT_PROBLEM_CODE_H

#include "base/util.h"

/*
 * Is problem name's code (above; with gpu, the GPU reference's too) at
 * commit the same, byte for byte (git blob ids), as the working tree's?
 * 1 yes; 0 with why saying which file differs or is missing at the
 * commit, or that the commit is not in the repository of the current
 * directory (or there is none), or that the working tree has no
 * problems/NAME.c: then the problem code the run ran is unknown.  The
 * answer is kept per (commit, name, gpu) for the life of the process (an
 * audit asks it once per run); nothing to free.
 */
int problem_code_same_at(const char *commit, const char *name, int gpu, struct strbuf *why);

/*
 * Does diff (a run's recorded patch of its tree against its commit,
 * code.git.diff_object's text: run/provenance.c) touch a file of problem
 * name's code (above, as the working tree finds them)?  1 with why naming
 * the first such file, else 0.  A dirty run's tree held its own problem
 * code, which its commit's tree does not show.
 */
int problem_code_in_diff(const char *name, int gpu, const char *diff, struct strbuf *why);

#endif
