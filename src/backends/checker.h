/*
 * checker.h - the judge process, `evident __check CHECK.json` (checker.c).
 *
 * CHECK.json, written by the parent after the worker exited:
 *   {"job": {...the worker's job, the parent's copy...},
 *    "tolerance": {"atol", "rtol", "rel_l2"},   the rule it must apply
 *    "captures_file": PATH,                       the outputs, as captured
 *    "captures": [{"timed", "index", "set", "offset", "bytes"}],
 *    "cross_check": true|false}
 * Output on stdout, one JSON object a line: `check` per capture (phase,
 * index, seed, dist, set, max_abs_err, rel_l2, ref_scale, nan_count,
 * unwritten, mismatches, first_mismatch, pass, reference), optionally
 * `reference_check`, then `done` {jobs: the processes that judged}; `error`
 * {reason} when it cannot judge (then no more lines).  EVIDENT_CHECK_JOBS=N
 * forces N processes (checker.c checker_jobs).
 */
#ifndef EVIDENT_CHECKER_H
#define EVIDENT_CHECKER_H

/* The checker's main; returns its exit code. */
int checker_main(const char *check_json_path);

#endif /* EVIDENT_CHECKER_H */
