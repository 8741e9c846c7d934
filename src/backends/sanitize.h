/*
 * sanitize.h - run a worker under NVIDIA compute-sanitizer and turn its
 * report into a verdict for the run record.
 *
 * A spec's `sanitize: [memcheck, racecheck]` makes the runner start, for
 * each variant and tool, one more worker (phase "sanitize") under
 * `compute-sanitizer --tool TOOL --error-exitcode 86 --print-limit 50`
 * (run/job.c job_sanitize): for a sealed kernel the sealed worker
 * replaying the plan the main phase timed, for a trust: host one the
 * kernel's own code in process; its output is judged as any worker's.
 * On CUDA its job is the main phase's own sequence (its seeds, input
 * sets, as many warm-up samples and timed samples as the main worker
 * made), so that every launch index, grid number and buffer layout its
 * device code can see is one the timed run saw (red team 57); the tool
 * instruments every launch of the kernel's in it (sanitize_window_whole:
 * a window drawn after the main run, struct sanitize_window, held none of
 * a racing kernel's launches on an H200), the harness's own grids
 * excluded by their mark.  The verdict is kept beside the variant's outcome: a
 * kernel can pass its correctness check and still race.
 */
#ifndef EVIDENT_SANITIZE_H
#define EVIDENT_SANITIZE_H

#include <jansson.h>
#include <stdint.h>

#include "base/sandbox.h"

/* The exit code compute-sanitizer is told to use when it finds errors. */
#define SANITIZE_ERROR_EXIT 86
/* a sanitizer tool's run may take this many times the spec's timeout_s
 * (the tools slow a kernel 10-100x; job.c job_sanitize), which a Slurm
 * task counts before it starts a job (slurm_task.c) */
#define SANITIZE_TIMEOUT_FACTOR 10

/*
 * The launches a sanitized run instruments: `--kernel-name-exclude
 * kns=SANITIZE_HARNESS_MARK` (the harness's own grids, every one named
 * with the mark: neither instrumented nor counted), then `--launch-skip
 * skip --launch-count count` over the kernel's launches, `of` of them in
 * the main job's sequence as the parent counts them (seeds, warm-up and
 * timed samples, times the plan's kernel steps).  count 0: every launch
 * from skip on.  The parent draws skip after the main run, from OS
 * randomness, and writes it only into compute-sanitizer's argv: the
 * sealed replay runs no host code of the kernel's that could read it, and
 * its device code can tell the window only by the tool's slowdown (red
 * team 56's sniff, README "Still out of reach").
 */
#define SANITIZE_HARNESS_MARK "evc_harness_"
/* Launches instrumented in a row.  A window of consecutive launches: one
 * that races in every launch after its first few (a count, a grid number,
 * red team 57) is caught whenever the window holds one of those, so
 * always once it is 2 or more wide and lies past them; one that races on
 * a random share p of its launches is caught with a chance of about
 * 1 - (1 - p)^4.  Four keep the instrumented time near four launches'
 * (racecheck slows a launch 100-1000x) whatever the sequence's length.
 * One window, not the first seed's launch besides: the tool takes one
 * skip and count, and the first launch is a correctness launch, no timed
 * sample's; it is in the window as often as any other. */
#define SANITIZE_WINDOW_LAUNCHES 4
struct sanitize_window {
	long long skip, count, of;
	char skip_s[24], count_s[24];   /* the numbers as argv takes them */
};
/*
 * The window over `of` launches from the uniform word r: count =
 * SANITIZE_WINDOW_LAUNCHES and skip uniform over 0 .. of - count, so
 * that every launch of the sequence is as likely to be instrumented;
 * every launch (skip 0, count 0) when of is that or fewer.
 */
void sanitize_window_draw(long long of, uint64_t r, struct sanitize_window *w);
/*
 * Every launch of the sequence (skip 0, count 0: no --launch-skip or
 * --launch-count), what the runner instruments since an H200 (2026-12-01,
 * data/gpu-evidence/h200-session-20261201-0329-call5.txt): a drawn window
 * of 4 beside the harness's excluded grids held none of the kernel's
 * launches often enough that a race in every launch passed racecheck
 * (smem_race in t3002; red team 57's count at skip 9 of 13), so the
 * tool's counting of launches is not what sanitize_sequence_launches
 * counts.  The draw stays for when it is.
 */
void sanitize_window_whole(long long of, struct sanitize_window *w);

/*
 * initcheck's window: every launch from the first up to the drawn
 * window's end (skip 0, count skip + count; count 0 stays every launch).
 * initcheck knows memory as written only by what it watched: a buffer a
 * launch before the window wrote, uninstrumented, would read as
 * uninitialised inside it (an honest kernel whose init() or first grid
 * fills a table the next reads).
 */
void sanitize_window_prefix(struct sanitize_window *w);

/* The kernel's launches in a sequence of `seeds` correctness launches,
 * `warmup` warm-up and `samples` timed samples of one launch() each,
 * every launch() `grids` grids (a sealed plan's kernel steps; < 1: 1). */
long long sanitize_sequence_launches(long long seeds, long long warmup, long long samples, long long grids);

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
 * May the tool's name filter leave out the harness's grids (a window for
 * sanitize_argv), or must every grid be instrumented (NULL)?  Only on a
 * sealed replay (replay 1) whose plan names no kernel step with the mark
 * and whose device code launches no grid of its own (plan_marked 0, the
 * caller's or of both): there the plan's steps are every grid of the
 * kernel's that runs.  In process (a trust: host kernel) the kernel's own code
 * makes its grids, under names it chooses (a __global__
 * evc_harness_racy, or a module it loads itself): a filter by name would
 * hide them from the tool, which then passed a kernel it never watched.
 */
int sanitize_may_exclude_harness(int replay, int plan_marked);

/*
 * compute-sanitizer's argv for worker_argv (NULL-terminated) under tool:
 * `cs --tool TOOL --error-exitcode 86 --print-limit 50 WORKER...`, a new
 * NULL-terminated array (the caller frees it; the strings are borrowed,
 * win's too).  replay: the worker replays a sealed plan, whose CUDA API
 * calls are the harness's own: `--report-api-errors no` (device errors
 * still count).  win (NULL: none, every launch): the harness's grids
 * excluded and the window's --launch-skip / --launch-count.
 */
const char **sanitize_argv(const char *cs, const char *tool, const char *const *worker_argv, int replay,
			   const struct sanitize_window *win);

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

/*
 * A finished timed run's launches against its window, into v: `ran`,
 * the kernel's launches it made (counted as w->of was), goes to
 * v.window.ran; a run that ended before the window's last launch (its
 * samples capped under the tool's slowdown) watched less than the
 * window, perhaps none of the later launches where a race that counts
 * its launches shows (red team 57): a passed that is not false becomes
 * null, and reason says so.  Whatever the tool's name filter (a plan
 * whose kernel is named with the harness's mark is instrumented whole,
 * and is held to its length the same).
 */
void sanitize_judge_ran(json_t *v, const struct sanitize_window *w, long long ran);

/* Errors counted in a sanitizer report: "ERROR SUMMARY: N errors" or
 * "RACECHECK SUMMARY: N hazards displayed"; -1 if there is no summary. */
long long sanitize_count_errors(const char *report);

/* compute-sanitizer's path ($CUDA_HOME/bin, PATH, /usr/local/cuda/bin),
 * malloc'd, or NULL. */
char *sanitize_find_tool(void);

#endif /* EVIDENT_SANITIZE_H */
