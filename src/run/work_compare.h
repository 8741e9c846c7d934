/*
 * work_compare.h - the work data of a comparison (stats.h rules 4b and
 * 4c): each side's mean work a timed launch from its runs' records, their
 * ratios, and the share of each side's work its threads' widening of the
 * handshake credits to the harness.  One function, so that the batch's
 * comparisons with its baseline (gather.c compare_rows) and a pair the
 * audit computes between two other rows (audit_verdict.c
 * pair_compare_now; red team 250: a twin of the baseline dodged rules
 * 4b/4c and size_bound) read the work the same way.
 */
#ifndef EVIDENT_WORK_COMPARE_H
#define EVIDENT_WORK_COMPARE_H

#include <stddef.h>

#include "record/record.h"
#include "stats/stats.h"

/* One side: its repeats' run records (every outcome, in order), and the
 * samples of its ok runs, a group an ok run in order (as the comparison
 * reads them) */
struct work_side {
	const struct run_record *const *runs;
	size_t n_runs;
	const double *const *x;
	const size_t *nx;
	size_t n_groups;
};

/* Fills c's work_speedup, work_speedup_fast/slow and work_credit for the
 * comparison of a (its "a", the slower-is-baseline side) with b, from
 * their runs' records; NAN where a side does not say.  The verdict is
 * left to stats_verdict (or Holm), which applies rules 4b/4c. */
void work_compare_fill(struct stats_comparison *c, const struct work_side *a, const struct work_side *b);

#endif
