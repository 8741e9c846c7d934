/*
 * cost.h - what a run cost: GPU-seconds and money from data/gpu-prices.yaml;
 * and, before a batch starts, what it will likely cost, from the newest
 * batch of the same experiment in the store.
 */
#ifndef EVIDENT_COST_H
#define EVIDENT_COST_H

#include <jansson.h>

/*
 * Look up the price for a GPU called gpu_name (NULL: no GPU used).
 * Precedence: spec_price (>= 0) > $EVIDENT_PRICE_USD_PER_H > the table at
 * table_path.  Returns a new object {gpu, price_usd_per_h, source, date}
 * with price null and a "reason" when none applies (caller json_decrefs).
 */
json_t *cost_price(const char *table_path, const char *gpu_name, double spec_price,
		   const char *spec_source);

/* The cost of one run: price object + wall_s, gpu_s, usd (null without a
 * price).  Steals price. */
json_t *cost_of_run(json_t *price, double wall_s, double gpu_s);

/*
 * The estimate of a batch before it runs: n_runs runs (variants x
 * repeats) at the cost per run of the newest batch of the same experiment
 * in the store (its wall time, GPU time and money over its runs).  No
 * earlier batch, or one without times: have = 0.  Reads the store only.
 */
struct cost_estimate {
	int have;
	double wall_s, gpu_s, usd;   /* for the n_runs; usd NAN without a price */
	double per_run_s;            /* wall seconds per run in the batch it came from */
	char from_batch[160];        /* that batch's id */
};
void cost_estimate(const char *store_root, const char *experiment, size_t n_runs, struct cost_estimate *e);

/*
 * One line (no newline) for before a batch starts: its plan (variants,
 * repeats, runs, order) and its estimate, or why there is none, e.g.
 *   plan: 4 variants x 3 repeats = 12 runs, interleaved; estimated 36 s
 *   (3.0 s a run in batch 2026...-cpu-demo-...-batch)
 * Appended to out.
 */
struct strbuf;
void cost_plan_line(struct strbuf *out, const char *experiment, size_t n_variants, int repeats,
		    const struct cost_estimate *e);

#endif /* EVIDENT_COST_H */
