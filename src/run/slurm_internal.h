/*
 * slurm_internal.h - what the files of the Slurm executor share with each
 * other and nobody else: the job directory and its documents (slurm.c),
 * the state of each task (slurm_status.c), submitting and resubmitting
 * (slurm_submit.c), one array task (slurm_task.c) and following and
 * gathering a batch (slurm_wait.c).  slurm.c's opening comment describes
 * the job directory; the executor's public interface is run.h.
 */
#ifndef EVIDENT_SLURM_INTERNAL_H
#define EVIDENT_SLURM_INTERNAL_H

#include "run/run_ctx.h"

#define JOBDIR_FORMAT "evident-slurm/1"

/* A JSON object's string member k, or NULL (borrowed). */
static inline const char *jstr_of(json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

/* A task's state, from its markers and what Slurm says (slurm_status.c). */
enum tstate { T_PENDING, T_RUNNING, T_DONE, T_FAILED };

/* One task of a submission, as `wait`, `ls --batches` and resume see it. */
struct task_view {
	int index, slot;
	enum tstate state;
	char *reason;                /* malloc'd or NULL */
	char job[32], node[128];
	size_t n_jobs;
};

/* What a job directory holds, loaded for a task, the gatherer or resume:
 * the spec and the options of its plan.  cwd becomes the repository root. */
struct jd {
	char *dir;
	json_t *doc;
	struct spec s;
	struct run_options o;
	const char **only;
};

/* ---- slurm.c: small helpers ---- */

/* The entries of dir, sorted (batch ids sort by time); 0, or -1 when it
 * cannot be read.  Free with store_free_list. */
int slurm_list_dir(const char *dir, char ***ids, size_t *n);
/* The wall clock, in seconds since the epoch. */
double slurm_epoch_now(void);
/* Write j to path atomically (a temporary file, then rename); 0 or error(). */
int slurm_write_json_atomic(const char *path, json_t *j);
/* Write text to path (created with mode, or truncated); 0 or error(). */
int slurm_write_text(const char *path, const char *text, int mode);
/* The kill line of a task's stderr file, or NULL (malloc'd). */
char *slurm_kill_line_of(const char *errfile);

/* ---- slurm.c: the job directory ---- */

/* STORE/pending/batches (malloc'd). */
char *slurm_batches_dir(const char *store_root);
/* Load DIR/batch.json (a new reference, or NULL after error()). */
json_t *slurm_jobdir_load(const char *dir);
/* The id of a Slurm batch of experiment, submitted and not yet gathered,
 * whose spec names a variant `name` of other code than kernel and params
 * (malloc'd), else NULL (slurm_status.c: eval's and a search's names). */
char *slurm_pending_holder(const char *store_root, const char *experiment, const char *name, const char *kernel,
			   const struct param *params, size_t n_params);
/* Save doc as DIR/batch.json (atomically); 0 or error(). */
int slurm_jobdir_save(const char *dir, json_t *doc);
/* The job directory of batch `name` (its id or a unique prefix of it) in
 * the store: malloc'd path, or NULL after error() (*not_found set when
 * there is none). */
char *slurm_jobdir_find(const char *store_root, const char *name, int *not_found);

/* ---- slurm.c: plans from a job directory ---- */

void slurm_jd_release(struct jd *j);
/* Load job directory dir into *j (release with slurm_jd_release); 0 or -1 after error(). */
int slurm_jd_open(struct jd *j, const char *dir, int progress);
/* The plan remade from the job directory must be the one submitted: 0, or -1 after error(). */
int slurm_plan_matches(const struct run_ctx *c, json_t *doc);
/* Set every plan job's run to the newest record of it in the store; 0 or -1. */
int slurm_find_runs(struct run_ctx *c);
/* Has plan job pj a run that is not `aborted`? */
int slurm_job_final(const struct plan_job *pj);

/* ---- slurm_status.c: task states ---- */

/* DIR/task-INDEX.WHAT ("start", "end"), or NULL when absent (a new reference). */
json_t *slurm_marker(const char *sub, int index, const char *what);
/* The state of every task of submission `sub` (json), *n of them (caller
 * releases with slurm_views_release). */
struct task_view *slurm_task_views(const char *jobdir, json_t *sub, size_t *n);
void slurm_views_release(struct task_view *v, size_t n);
/* The newest submission of doc (borrowed), or NULL. */
json_t *slurm_last_submission(json_t *doc);
/* How many of v[0..n) are in each enum tstate. */
void slurm_count_states(const struct task_view *v, size_t n, size_t cnt[4]);

#endif /* EVIDENT_SLURM_INTERNAL_H */
