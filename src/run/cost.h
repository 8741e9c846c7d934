/*
 * cost.h - what a run cost: GPU-seconds and money from data/gpu-prices.yaml.
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

#endif /* EVIDENT_COST_H */
