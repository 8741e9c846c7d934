/*
 * run.h - run an experiment: plan its jobs (every variant, every repeat,
 * interleaved), execute each in a worker process judged by a checker
 * process, record each as a run, then gather the batch record (statistics
 * over repeats, comparisons with the baseline) and print the summary.
 * run_ctx.h walks the stages; record/record.h owns the records.
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
	int repeats;                 /* > 0: override the spec's repeats */
	const char *gpus;            /* a pool of slots (pool.c): "all", "2", "0,2,5"; NULL: serial */
};

struct run_totals {
	int variants, ok, failed, expected_failures, unexpected;
	int interrupted;
	char *batch_id;              /* caller frees */
};

/* Why a run stopped before it could record anything. */
enum run_error { RUN_OK, RUN_NO_DEVICE, RUN_STORE, RUN_ENV, RUN_USAGE };

/*
 * Run spec s (loaded and validated; the current directory is the
 * repository root).  Returns 0 when it ran (the totals say how it went),
 * or -1 after error() when it stopped before a record could be written
 * (*err says why: no device, the store, the environment, a bad option
 * such as gpus).
 */
int run_experiment(const struct spec *s, const struct run_options *o, struct run_totals *t,
		   enum run_error *err);

#endif /* EVIDENT_RUN_H */
