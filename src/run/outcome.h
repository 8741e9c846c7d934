/*
 * outcome.h - turn what a worker reported, and how it ended, into one of
 * the recorded outcomes (README.md "Outcomes"):
 *   ok, build_failed, launch_failed, init_failed, crashed, timeout,
 *   wrong_output, nan, unwritten_output, flaky, no_device, aborted
 */
#ifndef EVIDENT_OUTCOME_H
#define EVIDENT_OUTCOME_H

#include <jansson.h>

#include "base/runcmd.h"

struct outcome_input {
	int build_ok;
	json_t *failure;          /* the worker's first failure message, or NULL */
	json_t *seeds;            /* seed messages, phase check */
	json_t *rechecks;         /* seed messages, phase recheck */
	int done;                 /* the worker said "done" */
	const struct run_result *run;
	int interrupted;
	json_t *sanitize;         /* sanitizer verdicts (do not change the outcome) */
};

/* Sets *outcome (always) and *reason (or NULL); both malloc'd, caller frees. */
void outcome_classify(const struct outcome_input *in, char **outcome, char **reason);

#endif /* EVIDENT_OUTCOME_H */
