/*
 * slurm_status.c - the state of each task of a Slurm batch: what squeue
 * (and, once Slurm has forgotten a job, sacct) says, read together with
 * the task's own start and end markers in the job directory, and the
 * listing `evident ls --batches` prints from them.  A task that died
 * without a word (SIGKILL, a node lost) has a start marker and no end one.
 */
#include "run/slurm_internal.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- what Slurm says about the tasks ---------------------------------------------- */

static void copy_field(char *dst, size_t n, const char *src, size_t len)
{
	if (len >= n)
		len = n - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
}

int slurm_parse_squeue(const char *text, struct slurm_task_info **out)
{
	*out = NULL;
	int n = 0;
	for (const char *line = text; line && *line;) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		char *l = xstrndup(line, len);
		char task[32], job[32], state[32], reason[128], node[128] = "";
		int k = sscanf(l, "%31s %31s %31s %127s %127s", task, job, state, reason, node);
		free(l);
		char *endp;
		long t = strtol(task, &endp, 10);
		if (k >= 4 && *endp == '\0' && t >= 0) {
			*out = xrealloc(*out, (size_t)(n + 1) * sizeof(**out));
			struct slurm_task_info *x = &(*out)[n++];
			memset(x, 0, sizeof(*x));
			x->task = (int)t;
			copy_field(x->job, sizeof(x->job), job, strlen(job));
			copy_field(x->state, sizeof(x->state), state, strlen(state));
			copy_field(x->reason, sizeof(x->reason), reason, strlen(reason));
			if (k == 5)
				copy_field(x->node, sizeof(x->node), node, strlen(node));
		}
		line = end ? end + 1 : NULL;
	}
	return n;
}

int slurm_parse_sacct(const char *text, struct slurm_task_info **out)
{
	/* sacct -X -n -P -o JobID,State,NodeList: "12_3|CANCELLED by 0|node1" */
	*out = NULL;
	int n = 0;
	for (const char *line = text; line && *line;) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		char *l = xstrndup(line, len);
		char *bar1 = strchr(l, '|'), *bar2 = bar1 ? strchr(bar1 + 1, '|') : NULL;
		char *us = strchr(l, '_');
		if (bar1 && us && us < bar1 && isdigit((unsigned char)us[1])) {
			*bar1 = '\0';
			if (bar2)
				*bar2 = '\0';
			char *endp;
			long t = strtol(us + 1, &endp, 10);
			if (*endp == '\0') {
				*out = xrealloc(*out, (size_t)(n + 1) * sizeof(**out));
				struct slurm_task_info *x = &(*out)[n++];
				memset(x, 0, sizeof(*x));
				x->task = (int)t;
				copy_field(x->job, sizeof(x->job), l, strlen(l));
				const char *st = bar1 + 1;
				size_t sl = strcspn(st, " ");
				copy_field(x->state, sizeof(x->state), st, sl);
				copy_field(x->reason, sizeof(x->reason), st[sl] ? st + sl + 1 : "None",
					   strlen(st[sl] ? st + sl + 1 : "None"));
				if (bar2)
					copy_field(x->node, sizeof(x->node), bar2 + 1, strlen(bar2 + 1));
			}
		}
		free(l);
		line = end ? end + 1 : NULL;
	}
	return n;
}

/* What squeue (or, once squeue forgot the job, sacct) says about the tasks
 * of array job `job`; *n of them (caller frees).  *known: 1 when either
 * answered, 0 when squeue no longer knows the job (and sacct does not
 * either), -1 when Slurm could not be asked (the controller unreachable:
 * nothing can be concluded). */
static struct slurm_task_info *ask_slurm(const char *job, int *n, int *known)
{
	struct slurm_task_info *t = NULL;
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct run_result rr;
	*n = 0;
	*known = 0;
	const char *sq[] = { "squeue", "-h", "-r", "-t", "all", "-j", job, "-o", "%K %A %T %r %N", NULL };
	struct run_opts ro = { .argv = sq, .timeout_s = 30, .out = &out, .err = &err };
	int saved = util_quiet;
	util_quiet = 1;
	if (run_command(&ro, &rr) == 0 && rr.exited && rr.exit_code == 0) {
		*n = slurm_parse_squeue(out.buf ? out.buf : "", &t);
		*known = 1;
	} else if (!strstr(strbuf_str(&err), "Invalid job id")) {
		*known = -1;
	}
	if (!*n && *known >= 0) {
		strbuf_reset(&out);
		strbuf_reset(&err);
		const char *sa[] = { "sacct", "-X", "-n", "-P", "-j", job, "-o", "JobID,State,NodeList", NULL };
		struct run_opts ra = { .argv = sa, .timeout_s = 30, .out = &out, .err = &err };
		if (run_command(&ra, &rr) == 0 && rr.exited && rr.exit_code == 0) {
			free(t);
			*n = slurm_parse_sacct(out.buf ? out.buf : "", &t);
			*known = *n > 0 || *known;
		}
	}
	util_quiet = saved;
	strbuf_release(&out);
	strbuf_release(&err);
	return t;
}

/* ---- task states -------------------------------------------------------------------- */

static const char *const tstate_name[] = { "pending", "running", "done", "failed" };

json_t *slurm_marker(const char *sub, int index, const char *what)
{
	char *p = xstrfmt("%s/task-%d.%s", sub, index, what);
	json_t *m = json_load_file(p, 0, NULL);
	free(p);
	return m;
}

static int final_state(const char *s)
{
	static const char *const live[] = { "PENDING", "CONFIGURING", "RUNNING", "COMPLETING", "SUSPENDED",
					    "REQUEUED", "REQUEUE_HOLD", "REQUEUE_FED", "RESIZING", "SIGNALING",
					    "STAGE_OUT", "RESV_DEL_HOLD", NULL };
	for (size_t i = 0; live[i]; i++)
		if (!strcmp(s, live[i]))
			return 0;
	return 1;
}

/* The state of every task of submission `sub` (json), *n of them (caller
 * releases with views_release). */
struct task_view *slurm_task_views(const char *jobdir, json_t *sub, size_t *n)
{
	json_t *tasks = json_object_get(sub, "tasks");
	*n = json_array_size(tasks);
	struct task_view *v = xcalloc(*n ? *n : 1, sizeof(*v));
	char *subdir = xstrfmt("%s/%s", jobdir, jstr_of(sub, "dir") ? jstr_of(sub, "dir") : "?");
	const char *job = jstr_of(sub, "job_id");
	int n_info = 0, known = 0;
	struct slurm_task_info *info = job ? ask_slurm(job, &n_info, &known) : NULL;
	for (size_t i = 0; i < *n; i++) {
		struct task_view *t = &v[i];
		json_t *tk = json_array_get(tasks, i);
		t->index = (int)i;
		t->slot = (int)json_integer_value(json_object_get(tk, "slot"));
		t->n_jobs = json_array_size(json_object_get(tk, "jobs"));
		snprintf(t->job, sizeof(t->job), "%s_%zu", job ? job : "?", i);
		const struct slurm_task_info *si = NULL;
		for (int k = 0; k < n_info; k++)
			if (info[k].task == (int)i)
				si = &info[k];
		if (si && si->node[0] && strcmp(si->node, "(null)"))
			snprintf(t->node, sizeof(t->node), "%s", si->node);
		json_t *start = slurm_marker(subdir, (int)i, "start"), *end = slurm_marker(subdir, (int)i, "end");
		if (!t->node[0] && jstr_of(start, "node"))
			snprintf(t->node, sizeof(t->node), "%s", jstr_of(start, "node"));
		char *errf = xstrfmt("%s/task-%zu.err", subdir, i);
		char *line = slurm_kill_line_of(errf);
		free(errf);
		if (end) {
			const char *st = jstr_of(end, "state");
			t->state = st && !strcmp(st, "done") ? T_DONE : T_FAILED;
			if (t->state == T_FAILED)
				t->reason = xstrdup(jstr_of(end, "reason") ? jstr_of(end, "reason") : "failed");
		} else if (known < 0) {
			/* no word from Slurm: still running, as far as anyone can tell */
			t->state = T_RUNNING;
			t->reason = xstrdup("Slurm cannot be asked now (squeue failed)");
		} else if (si && !final_state(si->state)) {
			t->state = !strcmp(si->state, "PENDING") || !strncmp(si->state, "REQUEUE", 7) ? T_PENDING
												  : T_RUNNING;
			if (t->state == T_PENDING && strcmp(si->reason, "None"))
				t->reason = xstrdup(si->reason);
		} else if (si) {
			t->state = T_FAILED;
			t->reason = xstrfmt("Slurm: %s%s%s%s%s", si->state, strcmp(si->reason, "None") ? " (" : "",
					    strcmp(si->reason, "None") ? si->reason : "",
					    strcmp(si->reason, "None") ? ")" : "", line ? "; " : "");
			if (line) {
				char *r = xstrfmt("%s%s", t->reason, line);
				free(t->reason);
				t->reason = r;
			}
		} else if (start) {
			t->state = T_FAILED;
			t->reason = line ? xstrfmt("Slurm: %s", line)
					 : xstrfmt("started on %s, left no end marker, and Slurm %s: killed for a "
						   "reason Slurm no longer knows",
						   t->node[0] ? t->node : "?",
						   known ? "does not list it" : "no longer knows the job");
		} else if (known) {
			/* listed by nobody, never started: Slurm dropped it */
			t->state = T_FAILED;
			t->reason = xstrdup("never started, and Slurm no longer lists it");
		} else {
			t->state = T_FAILED;
			t->reason = xstrfmt("never started, and Slurm does not know job %s (squeue and sacct)",
					    job ? job : "?");
		}
		free(line);
		json_decref(start);
		json_decref(end);
	}
	free(info);
	free(subdir);
	return v;
}

void slurm_views_release(struct task_view *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].reason);
	free(v);
}

json_t *slurm_last_submission(json_t *doc)
{
	json_t *subs = json_object_get(doc, "submissions");
	size_t n = json_array_size(subs);
	return n ? json_array_get(subs, n - 1) : NULL;
}

void slurm_count_states(const struct task_view *v, size_t n, size_t cnt[4])
{
	cnt[0] = cnt[1] = cnt[2] = cnt[3] = 0;
	for (size_t i = 0; i < n; i++)
		cnt[v[i].state]++;
}

/* ---- for ls ---------------------------------------------------------------------------------- */

json_t *run_slurm_batches(const char *store_root)
{
	json_t *out = json_array();
	char *bdir = slurm_batches_dir(store_root);
	char **ids = NULL;
	size_t n = 0;
	if (slurm_list_dir(bdir, &ids, &n) < 0) {
		free(bdir);
		return out;
	}
	for (size_t i = 0; i < n; i++) {
		char *dir = xstrfmt("%s/%s", bdir, ids[i]);
		char *g = xstrfmt("%s/gathered", dir);
		int gathered = path_exists(g);
		free(g);
		int saved = util_quiet;
		util_quiet = 1;
		json_t *doc = gathered ? NULL : slurm_jobdir_load(dir);
		util_quiet = saved;
		json_t *sub = slurm_last_submission(doc);
		if (!sub) {
			json_decref(doc);
			free(dir);
			continue;
		}
		size_t nv = 0;
		struct task_view *v = slurm_task_views(dir, sub, &nv);
		json_t *tasks = json_array();
		for (size_t k = 0; k < nv; k++)
			json_array_append_new(tasks, json_pack("{s:i, s:i, s:s, s:s, s:s?, s:s?, s:I}", "task", v[k].index,
							       "slot", v[k].slot, "job", v[k].job, "state",
							       tstate_name[v[k].state], "reason", v[k].reason, "node",
							       v[k].node[0] ? v[k].node : NULL, "runs",
							       (json_int_t)v[k].n_jobs));
		slurm_views_release(v, nv);
		json_array_append_new(out, json_pack("{s:s?, s:s?, s:s?, s:I, s:o}", "batch_id", jstr_of(doc, "batch_id"),
						     "experiment", jstr_of(doc, "experiment"), "job_id",
						     jstr_of(sub, "job_id"),
						     "submission", (json_int_t)json_array_size(json_object_get(doc, "submissions")),
						     "tasks", tasks));
		json_decref(doc);
		free(dir);
	}
	store_free_list(ids, n);
	free(bdir);
	return out;
}

/* ---- names a batch not yet gathered holds ---------------------------------------- */

/*
 * A Slurm batch of the experiment submitted and not yet gathered (its job
 * directory under STORE/pending/batches, no batch record) whose spec has
 * a variant `name` of other code than kernel and params: its id
 * (malloc'd), else NULL.  Its runs are not in the store until its tasks
 * record them, and the submission's claim died with its process (red team
 * 85's evalduring: an eval sent while the array waited took `fast2` for
 * other code).  Eval's names and a search's gNcK names (search.c free_name)
 * are checked here.
 */
char *slurm_pending_holder(const char *store_root, const char *experiment, const char *name,
				  const char *kernel, const struct param *params, size_t n_params)
{
	char *dir = slurm_batches_dir(store_root), *held = NULL;
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && !held && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char *rec = xstrfmt("%s/runs/%s.json", store_root, e->d_name);
		char *jd = xstrfmt("%s/%s", dir, e->d_name), *spec = xstrfmt("%s/spec.yaml", jd);
		struct strbuf text = STRBUF_INIT;
		int saved = util_quiet;
		util_quiet = 1;
		json_t *doc = path_exists(rec) ? NULL : slurm_jobdir_load(jd);
		util_quiet = saved;
		const char *exp = json_string_value(json_object_get(doc, "experiment"));
		if (exp && !strcmp(exp, experiment) && read_file(spec, &text) == 0) {
			json_t *vs = spec_variants_of_text(strbuf_str(&text));
			json_t *v = json_object_get(vs, name);
			if (v) {
				const char *k = json_string_value(json_object_get(v, "kernel"));
				json_t *ps = json_object_get(v, "params");
				int same = k && kernel && !strcmp(k, kernel) && json_object_size(ps) == n_params;
				for (size_t i = 0; same && i < n_params; i++) {
					const char *pv = json_string_value(json_object_get(ps, params[i].name));
					same = pv && !strcmp(pv, params[i].value);
				}
				if (!same)
					held = xstrdup(e->d_name);
			}
			json_decref(vs);
		}
		json_decref(doc);
		strbuf_release(&text);
		free(rec);
		free(jd);
		free(spec);
	}
	if (d)
		closedir(d);
	free(dir);
	return held;
}
