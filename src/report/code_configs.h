/*
 * code_configs.h - the configurations two codes were tried in, one rule
 * for every reader that weighs a verdict on them: the audit's faster,
 * slower and no-difference claims (audit_verdict.c audit_across_batches)
 * and eval's promotion (run/eval.c eval_pool_batches; red team 105: an
 * A/A copy of the naive kernel, tried at a new B x H split or S each
 * time, was promoted at try 141, 1.051x, p 0.019, where the audit read
 * the same batch "tried in 141 configurations", inconclusive).
 *
 * A configuration is another chance to find a verdict in noise: a batch
 * with ok rows of the same two kernel files (code_id.family) at another
 * shape, other parameters, flags or headers, or run another way (cache
 * mode, executor, pool or Slurm and slots, clock); a killed try of them
 * (runs and no batch record) in another configuration; a try begun and
 * stopped before any run of it landed (its begun marker naming both
 * codes).  A finished batch whose rows of them ran fewer than
 * STATS_MIN_PROCESSES repeats a side is none: it could give no verdict
 * (rule 0b), so no claim could cite it (red team 122); an interrupted
 * one still is.  The reruns at the verdict's own configuration are the
 * caller's to weigh (its rerun callback): they are not configurations.
 */
#ifndef EVIDENT_CODE_CONFIGS_H
#define EVIDENT_CODE_CONFIGS_H

#include "record/record.h"
#include "store/query.h"

struct code_id;

/*
 * 1 plus the number of distinct configurations, outside batch eb, in
 * which the kernels of rows ra (variant va, code ia) and rb (vb, ib) of
 * eb were tried (the Bonferroni factor a verdict of eb on them is
 * adjusted by), over every batch of q of the same problem kind
 * (audit_same_kind), reproductions included.  rerun(ctx, b), called for
 * each such batch (eb included) before it is read as a configuration,
 * returns 1 where the caller weighed b as a rerun of eb's configuration
 * (then b is no configuration); NULL: eb alone is.  Where both sides are
 * one kernel file, a pair of rows of the file that differ in the
 * parameters ra and rb differ in.  stress (NULL: not asked): below.
 */
/* The largest stress cost (batch_row_stress_slow) of a row of each side's
 * kernel (x[0]: ra's, x[1]: rb's) in the other configurations at eb's
 * shape that code_pair_configs counted, and its batch (borrowed from the
 * query); 0 and NULL: none. */
struct code_config_stress {
	double x[2];
	const char *batch[2];
};
size_t code_pair_configs(struct query *q, const struct batch_record *eb, const struct batch_row *ra,
			 const struct batch_row *rb, const char *va, const char *vb, const struct code_id *ia,
			 const struct code_id *ib, int (*rerun)(void *ctx, const struct batch_record *b), void *ctx,
			 struct code_config_stress *stress);

/*
 * A faster or slower verdict c of batch b drawn again with its p
 * adjusted (Bonferroni) over tries configurations (code_pair_configs):
 * the verdict it then gives (static, or c's own; NULL where c has none),
 * *p_adj its p so adjusted (capped at 1).  Where the table redrawn at the
 * recorded p does not give the recorded verdict (an older record lacks
 * what it reads), the adjusted p alone decides between it and
 * inconclusive.  b's alpha and noise band (0.05 and 0.01 unrecorded).
 */
const char *code_verdict_over_tries(const struct batch_record *b, const struct stats_comparison *c, size_t tries,
				    double *p_adj);

#endif
