/*
 * query_json.h - TRANSITIONAL: the JSON-path questions about the store that
 * the readers used before the typed read path (query.h); removed once
 * paper, audit, export, show and ls read typed records.
 *
 * Read-only questions about the run store, for the paper
 * generator, the claim auditor and the exporter: "the latest batch of
 * experiment E", "the batch of run R", "the row of variant V in batch B",
 * "the samples of run R", "is run R's kernel source still the source in the
 * working tree?", "the value of statistic S for V".
 *
 * qj_open() loads every manifest of the store once, in a total order
 * (oldest first): by the UTC stamp that prefixes each run id, and within one
 * second by the store's "prev" chain (a manifest is newer than the one it
 * links to), so "latest" never depends on the random part of a run id.
 *
 * Vocabulary.  A *batch* is the "kind": "batch" manifest one `evident run`
 * writes (evident-batch/1); its "variants" array holds one *row* per
 * variant (variant, run_id, outcome, params, reason, median_us, stats,
 * comparison with the Holm-adjusted p-value and verdict).  A *run* is a
 * "kind": "variant" manifest (evident-run/1).  Every table and claim is
 * answered from one batch, so it never mixes runs of different commits or
 * GPUs.
 *
 * Ownership: every json_t * returned is borrowed from the query and lives
 * until qj_release().
 */
#ifndef EVIDENT_QUERY_JSON_H
#define EVIDENT_QUERY_JSON_H

#include <jansson.h>

#include "store/store.h"
#include "base/util.h"

struct qj {
	struct store st;
	json_t **m;      /* every manifest, oldest first (owned) */
	size_t n;
	int no_store;    /* the store directory does not exist: an empty store */
	json_t *extra;   /* rows made up by qj_resolve (owned) */
};
#define QJ_INIT { STORE_INIT, NULL, 0, 0, NULL }

/*
 * Load every manifest under root (store_default_root applies).  A missing
 * store is an empty one (q->no_store = 1), not an error; an unreadable or
 * damaged manifest is.  Returns 0, or -1 after error().
 */
int qj_open(struct qj *q, const char *root);
void qj_release(struct qj *q);
/*
 * Make q the query of the store a markdown file reads: explicit (--store)
 * when given, else the file's declared store (md_declared_store), else the
 * default (store_default_root).  Keeps q when it is open on that root
 * already.  Returns 0, or -1 after error().
 */
int qj_open_for(struct qj *q, const char *explicit_root, const char *declared_root);

/* Manifest whose run_id is id (or a unique prefix of one); NULL if none. */
json_t *qj_find(const struct qj *q, const char *id);

/* Does any manifest of experiment exist? */
int qj_has_experiment(const struct qj *q, const char *experiment);
/* Names of all experiments with a record, sorted (caller json_decrefs). */
json_t *qj_experiments(const struct qj *q);

/* The row of variant in batch, or NULL. */
json_t *qj_row(json_t *batch, const char *variant);

/*
 * The batch a block or claim reads.  run: NULL or "latest" = the newest
 * batch of experiment in which every name in need[] (NULL-terminated, may
 * be NULL) has a row; otherwise a batch run id, a batch_id, or the run id
 * of a variant (its batch), each or a unique prefix.  With experiment
 * non-NULL a batch of another experiment is refused.  Returns NULL and
 * puts a lowercase reason into why when there is none.
 */
json_t *qj_batch(const struct qj *q, const char *experiment, const char *run,
		    const char *const *need, struct strbuf *why);
/* All batches of experiment in which every need[] has a row, newest first
 * (a new array of borrowed references; caller json_decrefs the array). */
json_t *qj_batches(const struct qj *q, const char *experiment, const char *const *need);
/* The batch that run belongs to, or NULL. */
json_t *qj_batch_of(const struct qj *q, json_t *run);
/* The variant manifest of a batch row, or NULL. */
json_t *qj_row_run(const struct qj *q, json_t *row);

/*
 * One variant's evidence: (experiment, variant, run) to its batch, its row
 * and its variant manifest.  run is "latest" (or NULL: the newest batch of
 * experiment with a row for variant), a batch id, or the run id of a
 * variant manifest (then experiment and variant may be NULL; a run that
 * belongs to no batch gets a row made from its own manifest, with *batch
 * NULL).  Returns 0, or -1 with a lowercase reason in why.
 */
int qj_resolve(struct qj *q, const char *experiment, const char *variant, const char *run,
		  json_t **batch, json_t **row, json_t **vrun, struct strbuf *why);
/* Every variant manifest of (experiment, variant), newest first (a new array
 * of borrowed references; caller json_decrefs the array). */
json_t *qj_variant_runs(const struct qj *q, const char *experiment, const char *variant);

/*
 * The timing samples of a variant run (its samples_object), in us.  *x is
 * a new array the caller frees; *n may be 0 (no samples recorded).
 * Returns 0, or -1 after error() when the object is missing or damaged.
 */
int qj_samples(struct qj *q, json_t *run, double **x, size_t *n);

/*
 * What a run ran on, for tables and "measured on" claims: the GPU's name
 * (device.name, else machine.gpu.name), or "CPU: <model>" on the host
 * backend.  Caller frees.
 */
char *qj_device_name(json_t *run);
/* The driver version of a GPU run, or NULL (borrowed). */
const char *qj_driver(json_t *run);

/*
 * Is the code of run still the code in the working tree?  Compares every
 * code.sources[] {path, sha256} with the file's current bytes (paths are
 * relative to the current directory, the repository root).  Returns 1 when
 * every file matches, 0 when one differs or is missing (why names it), and
 * 0 with a reason when the run recorded no sources.
 */
int qj_sources_current(json_t *run, struct strbuf *why);

/*
 * Statistic `stat` of a row (see docs/paper.md, "Statistics"): median_us,
 * mean_us, min_us, max_us, p5_us, p95_us, stdev_us, n, speedup, delta, p,
 * p_raw, gflops, tflops, gbps, usd, gpu_s, max_abs_err.  Sets *v, and ci[]
 * with *have_ci = 1 where the statistic has a recorded CI.  *kind is the
 * unit family: "time", "ratio", "flops", "bw", "usd", "plain".  Returns 0,
 * or -1 with a reason in why (unknown statistic, or not recorded, e.g. a
 * crashed variant has no median).
 */
int qj_stat(json_t *batch, json_t *row, json_t *run, const char *stat, double *v, double ci[2],
	       int *have_ci, const char **kind, struct strbuf *why);
/* Is name a statistic qj_stat knows? */
int qj_stat_known(const char *stat);
/* The list of statistics, for messages. */
extern const char qj_stat_names[];

/* Number member of a JSON path "a.b.c" in o (a digit part indexes an array:
 * "speedup.ci.0"); NAN when absent or not a number. */
double qj_num(json_t *o, const char *path);
/* String member of a path; NULL when absent (borrowed). */
const char *qj_str(json_t *o, const char *path);
/* Member at a path, or NULL (borrowed). */
json_t *qj_get(json_t *o, const char *path);

#endif /* EVIDENT_QUERY_JSON_H */
