/*
 * slurm_task.c - one task of a Slurm job array (`evident __task SUBDIR
 * INDEX`): runs its share of the plan with the same runner, committing
 * into the shared store, between its start and end markers.  Killed by
 * Slurm (scancel, time limit, preemption), it gets SIGTERM and records the
 * job in flight and those not started as `aborted`, with slurmstepd's line
 * from its own stderr as the reason.
 */
#include "run/slurm_internal.h"
#include "backends/sanitize.h"

#include <ctype.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- a task ---------------------------------------------------------------------------- */

static char *task_err_path; /* this task's stderr file, for why_interrupted */

static const char *task_why(struct run_ctx *c)
{
	static char *why;
	static int looked;
	if (!why && task_err_path && !looked) {
		/* slurmstepd writes its line before it signals; give a slow
		 * filesystem a moment to show it */
		looked = 1;
		for (int i = 0; i < 20 && !why; i++) {
			char *line = slurm_kill_line_of(task_err_path);
			if (line)
				why = xstrfmt("Slurm: %s", line);
			free(line);
			if (!why) {
				struct timespec ts = { 0, 50 * 1000 * 1000 };
				nanosleep(&ts, NULL);
			}
		}
	}
	return why;
}

static json_t *slurm_env_doc(const char *subname)
{
	json_t *d = json_object();
	const char *keys[][2] = { { "job_id", "SLURM_JOB_ID" },
				  { "array_job_id", "SLURM_ARRAY_JOB_ID" },
				  { "array_task_id", "SLURM_ARRAY_TASK_ID" },
				  { "node", "SLURMD_NODENAME" },
				  { "cluster", "SLURM_CLUSTER_NAME" },
				  { "partition", "SLURM_JOB_PARTITION" },
				  { "restart_count", "SLURM_RESTART_COUNT" },
				  { "cuda_visible_devices", "CUDA_VISIBLE_DEVICES" } };
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const char *v = getenv(keys[i][1]);
		if (v && *v)
			json_object_set_new(d, keys[i][0], json_string(v));
	}
	json_object_set_new(d, "submission", json_string(subname));
	return d;
}

static void end_marker(const char *sub, int index, const char *state, const char *reason, size_t runs)
{
	char when[40];
	utc_now_iso(when, sizeof(when));
	json_t *m = json_pack("{s:s, s:s?, s:f, s:s, s:I, s:i}", "state", state, "reason", reason, "epoch",
			      slurm_epoch_now(), "finished_utc", when, "runs", (json_int_t)runs, "pid", (int)getpid());
	char *p = xstrfmt("%s/task-%d.end", sub, index);
	slurm_write_json_atomic(p, m);
	free(p);
	json_decref(m);
}

/* The GPU index (NVML's) of the device Slurm gave the task, by
 * CUDA_VISIBLE_DEVICES: its first entry when a number (no device cgroup:
 * the node's numbering), else 0 (a cgroup shows the task its devices only). */
static int task_gpu_index(void)
{
	const char *v = getenv("CUDA_VISIBLE_DEVICES");
	if (!v || !isdigit((unsigned char)v[0]))
		return 0;
	return atoi(v);
}
/*
 * The task's end as slurmctld holds it (scontrol show job's EndTime, the
 * limit whoever set it: evident's --time, --slurm-opt --time, SBATCH_*,
 * a partition's DefaultTime; red team 84), epoch seconds; 0 when it
 * cannot be read.
 */
static double scontrol_end_epoch(void)
{
	const char *id = getenv("SLURM_JOB_ID");
	if (!id || !*id)
		return 0;
	const char *argv[] = { "scontrol", "show", "job", "-o", id, NULL };
	struct strbuf out = STRBUF_INIT;
	struct run_opts o = { .argv = argv, .out = &out, .timeout_s = 20 };
	struct run_result r;
	double end = 0;
	/* a job cancelled (scancel) has its EndTime set to the cancel's
	 * moment while the task still runs until its signal comes: that is
	 * no time limit, and the task is to end as cancelled, not record
	 * its jobs as not started for want of time (t7100 did, once, when
	 * its scancel came before the task read its end) */
	if (run_command(&o, &r) == 0 && r.exited && r.exit_code == 0 &&
	    strstr(strbuf_str(&out), " JobState=RUNNING")) {
		const char *e = strstr(strbuf_str(&out), " EndTime=");
		struct tm tm;
		memset(&tm, 0, sizeof(tm));
		if (e && strptime(e + 9, "%Y-%m-%dT%H:%M:%S", &tm)) {
			tm.tm_isdst = -1;
			time_t t = mktime(&tm);
			end = t > 0 ? (double)t : 0;
		}
	}
	strbuf_release(&out);
	return end;
}

/* (run_ctx.h) */
double slurm_job_need_s(const struct spec *s, int gpu)
{
	int tools = 0;
	for (char **t = s->sanitize; t && *t; t++)
		tools++;
	return ((gpu ? 4 : 2) + tools * SANITIZE_TIMEOUT_FACTOR) * (double)s->k.timeout_s;
}

/*
 * Slurm's --time as seconds, rounded up to its one-minute resolution
 * ("MM", "MM:SS", "HH:MM:SS", "D-HH", "D-HH:MM", "D-HH:MM:SS"); -1 when
 * there is none or it does not read ("infinite", "UNLIMITED").
 */
static double slurm_time_seconds(const char *t)
{
	if (!t || !*t)
		return -1;
	long days = 0, f[3];
	int nf = 0;
	const char *p = t, *dash = strchr(t, '-');
	if (dash) {
		char *e;
		days = strtol(t, &e, 10);
		if (e != dash || days < 0)
			return -1;
		p = dash + 1;
	}
	while (*p && nf < 3) {
		char *e;
		f[nf] = strtol(p, &e, 10);
		if (e == p || f[nf] < 0 || (*e && *e != ':'))
			return -1;
		nf++;
		p = *e ? e + 1 : e;
	}
	if (*p || !nf)
		return -1;
	double s;
	if (dash) /* D-HH, D-HH:MM, D-HH:MM:SS */
		s = (double)days * 86400 + (double)f[0] * 3600 + (nf > 1 ? (double)f[1] * 60 : 0) + (nf > 2 ? (double)f[2] : 0);
	else if (nf == 1) /* MM */
		s = (double)f[0] * 60;
	else if (nf == 2) /* MM:SS */
		s = (double)f[0] * 60 + (double)f[1];
	else /* HH:MM:SS */
		s = (double)f[0] * 3600 + (double)f[1] * 60 + (double)f[2];
	return s > 0 ? 60.0 * (double)(long)((s + 59) / 60) : -1;
}


int run_slurm_task(const char *sub, int index)
{
	char *jobdir = xstrdup(sub);
	char *slash = strrchr(jobdir, '/');
	if (!slash || index < 0) {
		free(jobdir);
		return error("usage: evident __task JOBDIR/sub-K INDEX (internal; see 'evident run --slurm')");
	}
	*slash = '\0';
	const char *subname = slash + 1;
	struct jd j;
	struct run_ctx c;
	memset(&c, 0, sizeof(c));
	int rc = -1;
	size_t done = 0;
	char host[256] = "", when[40];
	time_t task_t0 = time(NULL);
	gethostname(host, sizeof(host) - 1);
	utc_now_iso(when, sizeof(when));
	task_err_path = xstrfmt("%s/task-%d.err", sub, index);
	runcmd_trap_signals();
	{
		const char *node = getenv("SLURMD_NODENAME");
		json_t *m = json_pack("{s:i, s:s, s:s, s:s?, s:s?, s:i, s:f, s:s}", "pid", (int)getpid(), "host", host,
				      "node", node ? node : host, "job_id", getenv("SLURM_JOB_ID"), "array_job_id",
				      getenv("SLURM_ARRAY_JOB_ID"), "task", index, "epoch", slurm_epoch_now(),
				      "started_utc", when);
		char *p = xstrfmt("%s/task-%d.start", sub, index);
		slurm_write_json_atomic(p, m);
		free(p);
		json_decref(m);
	}
	if (slurm_jd_open(&j, jobdir, 0) < 0) {
		if (runcmd_interrupted) {
			/* killed while loading (the problem's description comes
			 * from a box since 2026-12-02: a scancel then interrupts
			 * that box, t7100): a kill, Slurm's line if it wrote one */
			const char *w = task_why(&c);
			end_marker(sub, index, "killed", w ? w : signal_name(runcmd_interrupted), 0);
			rc = 1;
		} else {
			end_marker(sub, index, "error", "the job directory or its spec could not be loaded (task's stderr)",
				   0);
		}
		goto out_jd;
	}
	json_t *subdoc = NULL, *subs = json_object_get(j.doc, "submissions");
	for (size_t i = 0; i < json_array_size(subs); i++)
		if (jstr_of(json_array_get(subs, i), "dir") && !strcmp(jstr_of(json_array_get(subs, i), "dir"), subname))
			subdoc = json_array_get(subs, i);
	json_t *task = json_array_get(json_object_get(subdoc, "tasks"), (size_t)index);
	if (!task) {
		error("task %d is not in submission '%s' of '%s'", index, subname, jobdir);
		end_marker(sub, index, "error", "no such task in the job directory", 0);
		goto out_jd;
	}
	if (getenv("CUDA_VISIBLE_DEVICES"))
		j.o.device = 0; /* the first device Slurm gave the task */
	enum run_error why;
	if (run_open(&c, &j.s, &j.o, 1, &why) < 0 || slurm_plan_matches(&c, j.doc) < 0) {
		if (runcmd_interrupted) {
			/* killed while starting: its runs are left to the gatherer */
			const char *w = task_why(&c);
			end_marker(sub, index, "killed", w ? w : signal_name(runcmd_interrupted), 0);
			rc = 1;
		} else {
			end_marker(sub, index, "error", "the runner could not start here (task's stderr says why)", 0);
		}
		goto out;
	}
	c.slot.kind = "slurm";
	/* the task's time limit (run_ctx.h end_epoch): as Slurm says it where
	 * it does (SLURM_JOB_END_TIME), else the submission's --time from the
	 * task's start (Slurm 22.05 sets no end time in the task's
	 * environment) */
	const char *end = getenv("SLURM_JOB_END_TIME");
	double limit = slurm_time_seconds(jstr_of(json_object_get(j.doc, "options"), "time"));
	if (end && atof(end) > 0)
		c.end_epoch = atof(end);
	else if ((c.end_epoch = scontrol_end_epoch()) > 0)
		;
	else if (limit > 0)
		c.end_epoch = (double)task_t0 + limit;
	c.slot.index = (int)json_integer_value(json_object_get(task, "slot"));
	c.slot.n = (int)json_integer_value(json_object_get(j.doc, "n_tasks"));
	c.slot.device = c.be->uses_gpu ? task_gpu_index() : -1;
	if (getenv("CUDA_VISIBLE_DEVICES"))
		c.slot.pinned = xstrfmt("CUDA_VISIBLE_DEVICES=%s", getenv("CUDA_VISIBLE_DEVICES"));
	if (c.be->device_info && c.slot.device >= 0) {
		json_t *di = c.be->device_info(c.slot.device);
		json_object_set_new(c.machine, "gpu", di ? di : json_null());
	}
	/* the task's GPU alone in its boxes, as a plain run's (run_pin_local) */
	if (run_pin_local(&c, &j.o) < 0) {
		end_marker(sub, index, "error", "the runner could not pin its GPU (task's stderr says why)", 0);
		goto out;
	}
	c.slurm = slurm_env_doc(subname);
	c.why_interrupted = task_why;
	json_t *jobs = json_object_get(task, "jobs");
	size_t n = json_array_size(jobs), k = 0;
	int store_failed = 0;
	char *no_time = NULL;
	for (; k < n && !runcmd_interrupted; k++) {
		json_int_t ji = json_integer_value(json_array_get(jobs, k));
		if (ji < 0 || (size_t)ji >= c.plan.n_jobs)
			continue;
		/* a job starts only with the whole timeouts of all its workers
		 * before the task's end (the main shape's and the extra shape's,
		 * each planned first when sealed, and each sanitizer tool's run
		 * at its longer limit): then any timeout is the code's, and
		 * Slurm's kill never cuts a job short (red team 84: an honest
		 * late job cut short was a timeout; 85: its extra shape, cut) */
		int workers = c.be->uses_gpu ? 4 : 2, tools = c.s->sanitize && c.s->sanitize[0];
		double need = slurm_job_need_s(c.s, c.be->uses_gpu);
		double left = c.end_epoch > 0 ? c.end_epoch - (double)time(NULL) - JOB_END_MARGIN_S : 1e18;
		if (left < need) {
			no_time = xstrfmt("the task's time limit leaves %.0f s, less than a job's %d workers' timeouts "
					  "(%d x timeout_s %.0f s)%s and %d s to record it: give the submission more --time "
					  "(evident run --resume --time ...)",
					  left > 0 ? left : 0, workers, workers, (double)c.s->k.timeout_s,
					  tools ? " and its sanitizer runs' (10 x timeout_s a tool)" : "", JOB_END_MARGIN_S);
			break;
		}
		/* a job that failed because Slurm's signal came while it started
		 * a box (the problem's fill box: t7100) is the kill's, recorded
		 * aborted below with Slurm's line, not a store failure */
		if (job_execute(&c, &c.plan.jobs[ji]) < 0) {
			store_failed = !runcmd_interrupted;
			break;
		}
		done++;
	}
	if (store_failed) {
		end_marker(sub, index, "error", "a record could not be written (the store failed; task's stderr)", done);
		goto out;
	}
	if (runcmd_interrupted || no_time) {
		const char *w = no_time ? no_time : task_why(&c);
		char *reason = w ? xstrdup(w) : xstrfmt("%s (no Slurm line in %s)", signal_name(runcmd_interrupted),
							task_err_path);
		free(no_time);
		/* the jobs it will not start: recorded aborted, with that reason */
		char *not_started = xstrfmt("not started: %s", reason);
		for (; k < n; k++) {
			json_int_t ji = json_integer_value(json_array_get(jobs, k));
			struct plan_job *pj = ji >= 0 && (size_t)ji < c.plan.n_jobs ? &c.plan.jobs[ji] : NULL;
			if (pj && !pj->done && job_record_aborted(&c, pj, not_started) < 0)
				break;
		}
		free(not_started);
		end_marker(sub, index, "killed", reason, done);
		free(reason);
		rc = 1;
		goto out;
	}
	end_marker(sub, index, "done", NULL, done);
	rc = 0;
out:
	run_close(&c);
out_jd:
	slurm_jd_release(&j);
	free(jobdir);
	free(task_err_path);
	task_err_path = NULL;
	return rc;
}
