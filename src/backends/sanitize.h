/*
 * sanitize.h - run a worker under NVIDIA compute-sanitizer and turn its
 * report into a verdict for the run record.
 *
 * A spec's `sanitize: [memcheck, racecheck]` makes the runner start, for
 * each variant and tool, one more worker (job.sanitize = 1: one seed, no
 * timing) under `compute-sanitizer --tool TOOL --error-exitcode 86
 * --print-limit 50`.  The verdict is kept beside the variant's outcome:
 * a kernel can pass its correctness check and still race.
 */
#ifndef EVIDENT_SANITIZE_H
#define EVIDENT_SANITIZE_H

#include <jansson.h>

#include "base/sandbox.h"

/* The exit code compute-sanitizer is told to use when it finds errors. */
#define SANITIZE_ERROR_EXIT 86
/* a sanitizer tool's run may take this many times the spec's timeout_s
 * (the tools slow a kernel 10-100x; job.c job_sanitize), which a Slurm
 * task counts before it starts a job (slurm_task.c) */
#define SANITIZE_TIMEOUT_FACTOR 10

/* Is tool one of memcheck, racecheck, initcheck, synccheck? */
int sanitize_tool_known(const char *tool);

/*
 * Run worker_argv (NULL-terminated, argv[0] an executable path) under
 * compute-sanitizer with `tool`, killed after timeout_s (<= 0: none).
 * *verdict gets a new object (the caller frees):
 *   {tool, passed: true|false|null, errors: N|null, exit: "exit 0"...,
 *    timed_out, seconds, argv, report: the output (cut to 64 KiB), reason}
 * passed is null when the sanitizer is missing or could not judge (then
 * reason says why).  Returns 0 when a verdict was made, -1 (after
 * error()) for an unknown tool.
 */
/* sb: the box to run it in (NULL or off: none); ro_files: what the box
 * must show read-only (the job file), NULL-terminated or NULL. */
int sanitize_run(const char *tool, const char *const *worker_argv, const struct sandbox *sb,
		 const char *const *ro_files, double timeout_s, json_t **verdict);

struct job;
/*
 * The runner's entry point: write `job` (with sanitize = 1: one seed, no
 * timing) as a JSON file in tmp_dir, run `exe __worker FILE` under `tool`
 * with sanitize_run(), remove the file.  Same return and *verdict as
 * sanitize_run().  In run.c, after the variant's own worker:
 *   for (char **t = s->sanitize; t && *t && !rr.timed_out; t++)
 *           if (!sanitize_job(*t, exe, &job, tmp, 10 * s->timeout_s, &v))
 *                   json_array_append_new(sanitize, v);
 */
int sanitize_job(const char *tool, const char *exe, const struct job *job, const char *tmp_dir,
		 const struct sandbox *sb, double timeout_s, json_t **verdict);

/* Errors counted in a sanitizer report: "ERROR SUMMARY: N errors" or
 * "RACECHECK SUMMARY: N hazards displayed"; -1 if there is no summary. */
long long sanitize_count_errors(const char *report);

/* compute-sanitizer's path ($CUDA_HOME/bin, PATH, /usr/local/cuda/bin),
 * malloc'd, or NULL. */
char *sanitize_find_tool(void);

#endif /* EVIDENT_SANITIZE_H */
