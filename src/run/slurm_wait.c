/*
 * slurm_wait.c - `evident wait BATCH`: follow a Slurm batch's tasks until
 * none is pending or running, record the jobs of tasks that died without
 * a word as `aborted` with what Slurm says, then gather the batch as a
 * local run does and mark the job directory gathered.
 */
#include "run/slurm_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- following and gathering --------------------------------------------------------------- */

/* Wall time of the batch: from its first submission to its last task's end. */
static double batch_wall(const char *jobdir, json_t *doc)
{
	double first = json_number_value(json_object_get(doc, "submitted_epoch")), last = 0;
	json_t *subs = json_object_get(doc, "submissions");
	for (size_t s = 0; s < json_array_size(subs); s++) {
		json_t *sub = json_array_get(subs, s);
		char *subdir = xstrfmt("%s/%s", jobdir, jstr_of(sub, "dir") ? jstr_of(sub, "dir") : "?");
		for (size_t i = 0; i < json_array_size(json_object_get(sub, "tasks")); i++) {
			json_t *e = slurm_marker(subdir, (int)i, "end");
			double t = json_number_value(json_object_get(e, "epoch"));
			if (t > last)
				last = t;
			json_decref(e);
		}
		free(subdir);
	}
	return last > first && first > 0 ? last - first : 0;
}

int run_slurm_wait(const char *store_root, const char *batch, double timeout_s, int progress,
		   struct run_totals *t, enum run_error *err)
{
	memset(t, 0, sizeof(*t));
	*err = RUN_OK;
	int not_found;
	char *dir = slurm_jobdir_find(store_root, batch, &not_found);
	if (!dir) {
		*err = not_found ? RUN_NOT_FOUND : RUN_USAGE;
		return -1;
	}
	struct jd j;
	struct run_ctx c;
	struct batch_record b;
	memset(&c, 0, sizeof(c));
	memset(&b, 0, sizeof(b));
	int rc = -1;
	if (slurm_jd_open(&j, dir, progress) < 0) {
		*err = RUN_ENV;
		goto out_jd;
	}
	runcmd_trap_signals();
	double t0 = mono_now();
	json_t *sub = slurm_last_submission(j.doc);
	struct task_view *v = NULL;
	size_t nv = 0, cnt[4];
	for (;;) {
		slurm_views_release(v, nv);
		v = NULL;
		nv = 0;
		/* a signal kills squeue too: what it said then means nothing */
		if (!runcmd_interrupted)
			v = slurm_task_views(dir, sub, &nv);
		slurm_count_states(v, nv, cnt);
		if (!runcmd_interrupted && !cnt[T_PENDING] && !cnt[T_RUNNING])
			break;
		if (progress && !runcmd_interrupted) {
			fprintf(stderr, "\r\033[K[%zu/%zu tasks] %s (job %s): %zu pending, %zu running, %zu done, %zu failed",
				cnt[T_DONE] + cnt[T_FAILED], nv, j.o.batch_id, jstr_of(sub, "job_id"), cnt[T_PENDING],
				cnt[T_RUNNING], cnt[T_DONE], cnt[T_FAILED]);
			fflush(stderr);
		}
		if (runcmd_interrupted) {
			if (progress)
				fprintf(stderr, "\r\033[K");
			t->interrupted = 1;
			error("stopped waiting; batch %s goes on in Slurm (evident wait %s)", j.o.batch_id, j.o.batch_id);
			slurm_views_release(v, nv);
			rc = 0;
			goto out_jd;
		}
		if (timeout_s > 0 && mono_now() - t0 > timeout_s) {
			if (progress)
				fprintf(stderr, "\r\033[K");
			error("batch %s: %zu task(s) still pending or running after %.0f s (evident ls --batches)",
			      j.o.batch_id, cnt[T_PENDING] + cnt[T_RUNNING], timeout_s);
			*err = RUN_TIMEOUT;
			slurm_views_release(v, nv);
			goto out_jd;
		}
		struct timespec ts = { 1, 0 };
		nanosleep(&ts, NULL);
	}
	if (progress)
		fprintf(stderr, "\r\033[K");
	if (run_open(&c, &j.s, &j.o, 0, err) < 0 || slurm_plan_matches(&c, j.doc) < 0 || slurm_find_runs(&c) < 0) {
		if (*err == RUN_OK)
			*err = RUN_STORE;
		if (runcmd_interrupted) {
			/* what failed was stopped by the signal: nothing is gathered */
			t->interrupted = 1;
			rc = 0;
		}
		slurm_views_release(v, nv);
		goto out;
	}
	/* the runs failed tasks left unrecorded (a task that died without a
	 * word, or was killed before it could plan): aborted, with Slurm's
	 * reason, in the task's name */
	char *subdir = xstrfmt("%s/%s", dir, jstr_of(sub, "dir") ? jstr_of(sub, "dir") : "?");
	for (size_t i = 0; i < nv; i++) {
		if (v[i].state != T_FAILED)
			continue;
		json_t *jobs = json_object_get(json_array_get(json_object_get(sub, "tasks"), i), "jobs");
		char *why = xstrfmt("not recorded by its task %s on %s: %s", v[i].job, v[i].node[0] ? v[i].node : "?",
				    v[i].reason);
		json_t *start = slurm_marker(subdir, (int)i, "start");
		c.slurm = json_pack("{s:s?, s:s?, s:s%, s:s?, s:s?}", "job_id", jstr_of(start, "job_id"), "array_job_id",
				    jstr_of(sub, "job_id"), "array_task_id", v[i].job + strcspn(v[i].job, "_") + 1,
				    strlen(v[i].job + strcspn(v[i].job, "_") + 1), "node", v[i].node[0] ? v[i].node : NULL,
				    "submission", jstr_of(sub, "dir"));
		c.slot.kind = "slurm";
		c.slot.device = -1;
		c.slot.index = v[i].slot;
		c.slot.n = (int)json_integer_value(json_object_get(j.doc, "n_tasks"));
		for (size_t k = 0; k < json_array_size(jobs); k++) {
			json_int_t ji = json_integer_value(json_array_get(jobs, k));
			if (ji >= 0 && (size_t)ji < c.plan.n_jobs && !c.plan.jobs[ji].run_id &&
			    job_record_aborted(&c, &c.plan.jobs[ji], why) < 0)
				*err = RUN_STORE;
		}
		json_decref(c.slurm);
		c.slurm = NULL;
		json_decref(start);
		free(why);
	}
	free(subdir);
	c.slot.kind = "local";
	c.slot.index = 0;
	c.slot.n = 1;
	slurm_views_release(v, nv);
	if (*err == RUN_STORE)
		goto out;
	size_t missing = 0;
	for (size_t i = 0; i < c.plan.n_jobs; i++)
		missing += !slurm_job_final(&c.plan.jobs[i]);
	char *gathered = xstrfmt("%s/gathered", dir);
	json_t *stored = NULL;
	char *manifest = xstrfmt("%s/runs/%s.json", c.st.root, c.plan.batch_id);
	int have_batch = path_exists(manifest) && store_load(&c.st, c.plan.batch_id, &stored) == 0;
	free(manifest);
	c.wall_s = batch_wall(dir, j.doc);
	if (have_batch) {
		/* gathered before: print what was committed */
		if (record_batch_read(stored, &b) < 0) {
			*err = RUN_STORE;
		} else {
			if (!path_exists(gathered))
				slurm_write_text(gathered, c.plan.batch_id, 0644);
			gather_count(&b, t);
			summary_print(&c, &b);
			rc = 0;
		}
	} else if (gather_batch(&c, &b, t, missing == 0) < 0) {
		*err = RUN_STORE;
	} else {
		summary_print(&c, &b);
		if (missing) {
			printf("\n%zu of %zu runs are missing or aborted: the batch record is not written; "
			       "'evident run --resume %s' runs them again\n",
			       missing, c.plan.n_jobs, c.plan.batch_id);
			t->unexpected++;
		} else if (slurm_write_text(gathered, c.plan.batch_id, 0644) < 0) {
			warning("batch %s is gathered, but '%s' could not be written", c.plan.batch_id, gathered);
		}
		rc = 0;
	}
	json_decref(stored);
	free(gathered);
	t->batch_id = xstrdup(c.plan.batch_id);
	t->missing = (int)missing;
out:
	batch_record_release(&b);
	run_close(&c);
out_jd:
	slurm_jd_release(&j);
	free(dir);
	return rc;
}
