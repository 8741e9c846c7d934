/*
 * sanitize.h - run a worker under NVIDIA compute-sanitizer and turn its
 * report into a verdict for the run record.
 *
 * A spec's `sanitize: [memcheck, racecheck]` makes the runner start, for
 * each variant and tool, one more worker (phase "sanitize": one seed, no
 * timing) under `compute-sanitizer --tool TOOL --error-exitcode 86
 * --print-limit 50` (run/job.c job_sanitize): for a sealed kernel the
 * sealed worker replaying the plan the main phase timed, for a trust: host
 * one the kernel's own code in process; its output is judged as any
 * worker's.  The verdict is kept beside the variant's outcome: a kernel
 * can pass its correctness check and still race.
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

/*
 * compute-sanitizer's argv for worker_argv (NULL-terminated) under tool:
 * `cs --tool TOOL --error-exitcode 86 --print-limit 50 WORKER...`, a new
 * NULL-terminated array (the caller frees it; the strings are borrowed).
 * replay: the worker replays a sealed plan, whose CUDA API calls are the
 * harness's own: `--report-api-errors no` (device errors still count).
 */
const char **sanitize_argv(const char *cs, const char *tool, const char *const *worker_argv, int replay);

struct run_result;
/*
 * The tool's verdict on a finished run, into v (an object with "tool"):
 * argv, exit, timed_out, seconds, errors (the report's summary, null when
 * none), passed (false: errors or exit 86; null: timed out or no summary,
 * then reason says why; else true) and report (out, cut to 64 KiB).
 */
void sanitize_judge_run(json_t *v, const char *const *argv, const char *out, size_t len,
			const struct run_result *r);
/*
 * The sanitized run's output as the checker judged it, into v: output =
 * {passed, checks, reason}; when not ok (a wrong output, none, or a
 * worker that did not finish: why), a passed the tool gave (true or
 * false) becomes false, one it could not give stays null, and reason
 * says so: what the tool watched computed nothing of what is judged (red
 * team 56's empty).
 */
void sanitize_judge_output(json_t *v, int ok, long long checks, const char *why);

/* Errors counted in a sanitizer report: "ERROR SUMMARY: N errors" or
 * "RACECHECK SUMMARY: N hazards displayed"; -1 if there is no summary. */
long long sanitize_count_errors(const char *report);

/* compute-sanitizer's path ($CUDA_HOME/bin, PATH, /usr/local/cuda/bin),
 * malloc'd, or NULL. */
char *sanitize_find_tool(void);

#endif /* EVIDENT_SANITIZE_H */
