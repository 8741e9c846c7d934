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

struct batch_record;

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
	int unsandboxed;             /* 1: run kernel code without the sandbox (base/sandbox.h); records say so */
	const char *session;         /* "eval": the batch is an eval session's (its record says so, and
				      * `latest` and cost estimates pass it over: store/query.h); NULL: a run */
	const char *gpus;            /* a pool of slots (pool.c): "all", "2", "0,2,5"; NULL: serial */
	/* a plan made before (a Slurm task, wait, resume: slurm.c): its id,
	 * start and seed; NULL / 0: a new plan */
	const char *batch_id, *started_utc;
	int seed_fixed;
	unsigned long long seed, order_seed; /* order_seed: plan.order_seed, with seed_fixed */
	/*
	 * Optional: called with the batch record once its rows, statistics
	 * and comparisons are made and before it is committed, to add to it
	 * (evident reproduce adds its verdicts, run/reproduce.h).  What it
	 * sets must live until run_experiment returns.  0, or -1 after
	 * error() (then no batch record is written).
	 */
	int (*on_batch)(struct batch_record *b, void *ctx);
	void *on_batch_ctx;
	/* evident reproduce: the run id of the batch this one reproduces,
	 * written into the begun marker, so that a reproduction killed
	 * before its batch record still counts as one that did not finish
	 * (audit_claim.c audit_claim_reproduced; red team 130); NULL: none */
	const char *reproduces;
};

struct run_totals {
	int variants, ok, failed, expected_failures, unexpected;
	int interrupted;
	int missing;                 /* Slurm: runs missing or aborted when gathered */
	char *batch_id;              /* caller frees */
};

/* Why a run stopped before it could record anything. */
enum run_error { RUN_OK, RUN_NO_DEVICE, RUN_STORE, RUN_ENV, RUN_USAGE, RUN_NOT_FOUND, RUN_TIMEOUT,
		 RUN_SPEC /* the spec, as the store holds its names: exit 3 */ };

/*
 * Run spec s (loaded and validated; the current directory is the
 * repository root).  Returns 0 when it ran (the totals say how it went),
 * or -1 after error() when it stopped before a record could be written
 * (*err says why: no device, the store, the environment, a bad option
 * such as gpus).
 */
int run_experiment(const struct spec *s, const struct run_options *o, struct run_totals *t,
		   enum run_error *err);

/*
 * Load the spec at path for a run: validated, its kernels present (cwd is
 * the repository root), its shape keys the problem's (its plug-in built
 * into cache_dir).  as_path, when not NULL, is the path recorded (a Slurm
 * task runs the job directory's copy of the spec).  0, or -1 after one
 * error line.  The caller releases s with spec_release either way.
 */
int run_spec_load(const char *path, const char *as_path, const char *cache_dir, struct spec *s);

/* ---- Slurm (slurm.c) ---------------------------------------------------- */

/* What `evident run --slurm` passes to sbatch. */
struct slurm_options {
	const char *partition, *account, *time;   /* --partition, --account, --time; NULL: Slurm's */
	int gpus_per_task;           /* --gres=gpu:N; 0: 1 on a GPU backend, none on host */
	int max_parallel;            /* tasks at once (--array=...%K); 0: no limit */
	const char *const *extra;    /* --slurm-opt values, verbatim, NULL-terminated, or NULL */
};

/*
 * Plan spec s, build every variant here, write its job directory into the
 * store (pending/batches/BATCH_ID) and submit one job array, a task per
 * repeat (cwd: the repository root).  Prints the batch and job ids.
 * 0 (t->batch_id set), or -1 after error() with *err set.
 */
int run_slurm_submit(const struct spec *s, const struct run_options *o, const struct slurm_options *so,
		     struct run_totals *t, enum run_error *err);
/*
 * Submit again the runs of batch (an id or unique prefix) in the store at
 * store_root (absolute) that have no record or an aborted one; options
 * given replace the batch's own.  Refused while its tasks run.  0, or -1
 * after error() with *err set.
 */
int run_slurm_resume(const char *store_root, const char *batch, const struct slurm_options *so, int progress,
		     enum run_error *err);
/* `evident __task SUBDIR INDEX`: array task INDEX of a submission.
 * 0 done, 1 killed (its jobs recorded aborted), -1 after error(). */
int run_slurm_task(const char *subdir, int index);
/*
 * Follow batch's tasks until none is pending or running (at most
 * timeout_s; <= 0: no limit), record the jobs of tasks that died without
 * a word as aborted, then gather the batch and print the summary of a
 * local run.  The batch record is committed once every run is there;
 * until then t->missing says how many are not.  0 (totals set), or -1
 * after error() with *err set (RUN_TIMEOUT: still running).
 */
int run_slurm_wait(const char *store_root, const char *batch, double timeout_s, int progress,
		   struct run_totals *t, enum run_error *err);
/*
 * The Slurm batches of the store at store_root not yet gathered, each
 * {batch_id, experiment, job_id, submission, tasks: [{task, slot, job,
 * state (pending | running | done | failed), reason, node, runs}]}
 * (squeue, else sacct, and the tasks' own markers).  New reference.
 */
json_t *run_slurm_batches(const char *store_root);

#endif /* EVIDENT_RUN_H */
