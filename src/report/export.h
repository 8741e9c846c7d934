/*
 * export.h - derived files for analysis outside evident (`evident export`,
 * `make export`), written into one directory (notebooks-export/):
 *
 *   samples.csv / samples.jsonl       tidy: one row per timing sample of every
 *                                     variant run (run_id, experiment, batch_id,
 *                                     variant, repeat, outcome, kernel,
 *                                     kernel_sha256, one column per parameter,
 *                                     clock, sample_index, value, unit)
 *   summaries.csv / summaries.jsonl   one row per variant of every batch: its
 *                                     runs, kernel and source hash, the summary,
 *                                     the comparison with the baseline (p is
 *                                     Holm-adjusted, p_raw the test's own,
 *                                     verdict and reason, MDE), throughput
 *                                     (gflops, gbps, their fractions of the
 *                                     peak; the peak and its source, or
 *                                     no_peak), device, commit
 *   benchmark.json                    Google Benchmark JSON of the latest batch
 *                                     of each experiment (one "iteration" entry
 *                                     per sample, so compare.py's U test works,
 *                                     plus median/mean/stddev aggregates)
 *   evident.ipynb                     an nbformat 4 notebook that loads the CSVs
 *                                     with pandas and draws the figures
 *   README.md                         what each file holds
 *
 * Everything is derived from the store and regenerable; output is
 * deterministic (no export time is written).
 */
#ifndef EVIDENT_EXPORT_H
#define EVIDENT_EXPORT_H

#include "store/query.h"

/* Write every file into dir (created).  Returns 0, or -1 after error(). */
int export_all(struct query *q, const char *dir);

/* Append s to out as one CSV field (quoted when it holds , " or a newline). */
void export_csv_field(struct strbuf *out, const char *s);

#endif /* EVIDENT_EXPORT_H */
