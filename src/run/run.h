/*
 * run.h - run an experiment: for every variant, build, run in a worker
 * process, classify the outcome, compute statistics, write the record to
 * the store; then write the batch summary record and print the table.
 *
 * Records (the "format" of each manifest):
 *   evident-run/1    one variant executed once (outcome, correctness per
 *                    seed, every timing sample, provenance, cost)
 *   evident-batch/1  one `evident run` invocation: the run ids of its
 *                    variants, the comparisons with Holm-adjusted p-values
 *                    and verdicts, notes (parameters without effect),
 *                    totals and cost
 * README.md ("Reading a record") documents every field.
 */
#ifndef EVIDENT_RUN_H
#define EVIDENT_RUN_H

#include "run/spec.h"
#include "store/store.h"

struct run_options {
	const char *store_root;
	const char *cache_dir;       /* build cache, default build/cache */
	const char *price_table;     /* default data/gpu-prices.yaml */
	const char *const *only;     /* NULL-terminated variant names, or NULL = all */
	int progress;                /* 1: progress line on stderr (a terminal) */
	int color;                   /* 1: colour in the summary */
	int device;                  /* CUDA device ordinal */
	int jobs;                    /* parallel builds before running (<= 1: none) */
};

struct run_totals {
	int variants, ok, failed, expected_failures, unexpected;
	int interrupted;
	char *batch_id;              /* caller frees */
};

/*
 * Run spec s (already loaded and validated; the current directory is the
 * repository root).  Returns 0 when it ran (see totals for how it went),
 * or a negative EV_* code negated on a problem that stopped it before any
 * record could be written (no device, store unwritable, environment).
 */
int run_experiment(const struct spec *s, const struct run_options *o, struct run_totals *t);

#endif /* EVIDENT_RUN_H */
