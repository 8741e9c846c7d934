/*
 * slurm.c - the Slurm executor: `evident run --slurm` plans a batch and
 * builds every variant on the submit host, writes a job directory into the
 * store and submits ONE job array (sbatch --array=0-(n-1)%K --no-requeue)
 * whose tasks each run `evident __task SUBDIR INDEX`: job_execute on their
 * share of the plan, with the same runner, committing into the shared store
 * (the store takes concurrent writers, on several hosts too).  The share
 * is the pool's (pool.c): one task per repeat, each running every variant
 * of its repeat, so a verdict never compares a variant timed on one node's
 * GPU with a baseline timed on another's except through the repeat level of
 * the two-level bootstrap.  `evident wait BATCH` follows the tasks, then
 * gathers the batch as a local run does; `evident ls --batches` shows each
 * task; `evident run --resume BATCH` submits again what is missing.
 *
 * The job directory, STORE/pending/batches/BATCH_ID/ (pending/ is never
 * committed nor verified; slurm.c owns these files):
 *   batch.json        what every task and the gatherer need: the spec's
 *                     path, the repository root, the store, the cache, the
 *                     runner, the plan's id, seed, start and size, the
 *                     options, and the submissions, each {dir, job_id,
 *                     argv, tasks: [{slot, jobs: [plan job indices]}]}
 *   spec.yaml         the spec as submitted (a task runs it, not the file
 *                     as it may have been edited since)
 *   sub-K/task.sh     the batch script of submission K (Slurm wants a
 *                     script: it only execs this runner)
 *   sub-K/task-I.out, task-I.err   the task's output (sbatch -o/-e)
 *   sub-K/task-I.start, task-I.end the task's own markers (JSON): Slurm
 *                     forgets a job MinJobAge after it ends and accounting
 *                     may be off, so what a task did must be readable here
 *   gathered          written once the batch record is committed
 *
 * A task killed by Slurm (scancel, time limit, preemption, node failure
 * with a signal) gets SIGTERM: it records the job in flight and the jobs it
 * had not started as `aborted`, with slurmstepd's line from its own stderr
 * ("JOB 8 ON node CANCELLED AT ... DUE TO TIME LIMIT") as the reason, and
 * writes its end marker.  A task that died without a word (SIGKILL, a node
 * lost) has a start marker and no end one: the gatherer records its jobs
 * aborted with what squeue (or sacct) says.  docs/slurm.md has the Slurm
 * facts this relies on, each established by a test.
 */
#include "run/run_ctx.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define JOBDIR_FORMAT "evident-slurm/1"

/* ---- small helpers -------------------------------------------------------------- */

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The entries of dir, sorted (batch ids sort by time); 0, or -1 when it
 * cannot be read.  Free with store_free_list. */
static int list_dir(const char *dir, char ***ids, size_t *n)
{
	*ids = NULL;
	*n = 0;
	DIR *d = opendir(dir);
	if (!d)
		return -1;
	struct dirent *e;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.') {
			*ids = xrealloc(*ids, (*n + 1) * sizeof(char *));
			(*ids)[(*n)++] = xstrdup(e->d_name);
		}
	closedir(d);
	if (*n)
		qsort(*ids, *n, sizeof(char *), cmp_names);
	return 0;
}

static double epoch_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static const char *jstr_of(json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

/* Write j to path atomically (a temporary file, then rename). */
static int write_json_atomic(const char *path, json_t *j)
{
	char rnd[9];
	random_hex(rnd, 8);
	char *tmp = xstrfmt("%s.tmp-%s", path, rnd);
	int rc = json_dump_file(j, tmp, JSON_INDENT(1) | JSON_SORT_KEYS);
	if (rc == 0 && rename(tmp, path) < 0)
		rc = -1;
	if (rc < 0) {
		error("cannot write '%s': %s", path, strerror(errno));
		unlink(tmp);
	}
	free(tmp);
	return rc < 0 ? -1 : 0;
}

static int write_text(const char *path, const char *text, int mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (fd < 0 || write_all(fd, text, strlen(text)) < 0) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		return error("cannot write '%s': %s", path, strerror(e));
	}
	if (close(fd) < 0)
		return error("cannot write '%s': %s", path, strerror(errno));
	return 0;
}

char *slurm_sh_quote(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addch(&sb, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			strbuf_addstr(&sb, "'\\''");
		else
			strbuf_addch(&sb, *s);
	}
	strbuf_addch(&sb, '\'');
	return strbuf_detach(&sb, NULL);
}

char *slurm_kill_line(const char *text)
{
	/* slurmstepd-NODE: error: *** JOB 8 ON NODE CANCELLED AT T DUE TO TIME LIMIT *** */
	const char *last = NULL;
	for (const char *p = text ? strstr(text, "*** JOB ") : NULL; p; p = strstr(p + 1, "*** JOB "))
		last = p;
	if (!last)
		return NULL;
	const char *b = last + 4, *e = strstr(b, " ***");
	size_t n = e ? (size_t)(e - b) : strcspn(b, "\n");
	char *line = xstrndup(b, n);
	if (strstr(line, " CANCELLED AT ") && !strstr(line, " DUE TO ")) {
		/* slurmstepd names no cause for scancel */
		char *l = xstrfmt("%s (scancel)", line);
		free(line);
		line = l;
	}
	return line;
}

/* The kill line of a task's stderr file, or NULL (malloc'd). */
static char *kill_line_of(const char *errfile)
{
	struct strbuf sb = STRBUF_INIT;
	char *line = path_exists(errfile) && read_file(errfile, &sb) == 0 ? slurm_kill_line(sb.buf) : NULL;
	strbuf_release(&sb);
	return line;
}

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

/* ---- the job directory ------------------------------------------------------------- */

static char *batches_dir(const char *store_root)
{
	return xstrfmt("%s/pending/batches", store_root);
}

/* Load DIR/batch.json (a new reference, or NULL after error()). */
static json_t *jobdir_load(const char *dir)
{
	char *path = xstrfmt("%s/batch.json", dir);
	json_error_t je;
	json_t *doc = json_load_file(path, 0, &je);
	if (!doc)
		error("cannot read the Slurm job directory '%s': %s", path, je.text);
	else if (!jstr_of(doc, "format") || strcmp(jstr_of(doc, "format"), JOBDIR_FORMAT)) {
		error("'%s' is not an evident Slurm job directory of format %s (upgrade evident?)", path,
		      JOBDIR_FORMAT);
		json_decref(doc);
		doc = NULL;
	}
	free(path);
	return doc;
}

static int jobdir_save(const char *dir, json_t *doc)
{
	char *path = xstrfmt("%s/batch.json", dir);
	int rc = write_json_atomic(path, doc);
	free(path);
	return rc;
}

/* The job directory of batch `name` (its id or a unique prefix of it) in
 * the store: malloc'd path, or NULL after error() (*not_found set when
 * there is none). */
static char *jobdir_find(const char *store_root, const char *name, int *not_found)
{
	*not_found = 0;
	char *dir = batches_dir(store_root);
	char **ids = NULL;
	size_t n = 0;
	char *found = NULL;
	int matches = 0;
	struct strbuf cands = STRBUF_INIT;
	if (is_safe_name(name)) {
		char *exact = xstrfmt("%s/%s", dir, name);
		if (is_dir(exact)) {
			free(dir);
			return exact;
		}
		free(exact);
		if (list_dir(dir, &ids, &n) == 0)
			for (size_t i = 0; i < n; i++)
				if (!strncmp(ids[i], name, strlen(name))) {
					matches++;
					free(found);
					found = xstrfmt("%s/%s", dir, ids[i]);
					strbuf_addf(&cands, "%s%s", cands.len ? ", " : "", ids[i]);
				}
		store_free_list(ids, n);
	}
	if (matches != 1) {
		if (matches > 1)
			error("'%s' names several Slurm batches (%s); give more of the id", name, cands.buf);
		else
			error("no Slurm batch '%s' in store '%s' (evident ls --batches lists them)", name, store_root);
		*not_found = matches == 0;
		free(found);
		found = NULL;
	}
	strbuf_release(&cands);
	free(dir);
	return found;
}

/* ---- task states -------------------------------------------------------------------- */

enum tstate { T_PENDING, T_RUNNING, T_DONE, T_FAILED };
static const char *const tstate_name[] = { "pending", "running", "done", "failed" };

struct task_view {
	int index, slot;
	enum tstate state;
	char *reason;                /* malloc'd or NULL */
	char job[32], node[128];
	size_t n_jobs;
};

static json_t *marker(const char *sub, int index, const char *what)
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
static struct task_view *task_views(const char *jobdir, json_t *sub, size_t *n)
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
		json_t *start = marker(subdir, (int)i, "start"), *end = marker(subdir, (int)i, "end");
		if (!t->node[0] && jstr_of(start, "node"))
			snprintf(t->node, sizeof(t->node), "%s", jstr_of(start, "node"));
		char *errf = xstrfmt("%s/task-%zu.err", subdir, i);
		char *line = kill_line_of(errf);
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

static void views_release(struct task_view *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].reason);
	free(v);
}

static json_t *last_submission(json_t *doc)
{
	json_t *subs = json_object_get(doc, "submissions");
	size_t n = json_array_size(subs);
	return n ? json_array_get(subs, n - 1) : NULL;
}

/* ---- plans from a job directory ----------------------------------------------------- */

int run_spec_load(const char *path, const char *as_path, const char *cache_dir, struct spec *s)
{
	struct problem_keys_ctx kc = { cache_dir, PROBLEM_INIT };
	struct spec_env env = { .check_files = 1, .problem_keys = problem_spec_keys, .ctx = &kc };
	int rc = spec_load(path, &env, s);
	problem_release(&kc.pr);
	if (rc == 0 && as_path) {
		free(s->path);
		s->path = xstrdup(as_path);
	}
	return rc;
}

/* What a job directory holds, loaded for a task, the gatherer or resume:
 * the spec and the options of its plan.  cwd becomes the repository root. */
struct jd {
	char *dir;
	json_t *doc;
	struct spec s;
	struct run_options o;
	const char **only;
};

static void jd_release(struct jd *j)
{
	spec_release(&j->s);
	free(j->only);
	json_decref(j->doc);
	free(j->dir);
	memset(j, 0, sizeof(*j));
}

static int jd_open(struct jd *j, const char *dir, int progress)
{
	memset(j, 0, sizeof(*j));
	j->dir = xstrdup(dir);
	if (!(j->doc = jobdir_load(dir)))
		return -1;
	json_t *d = j->doc;
	const char *root = jstr_of(d, "root");
	if (!root || chdir(root) < 0)
		return error("cannot enter the repository root '%s' of batch '%s': %s", root ? root : "?",
			     jstr_of(d, "batch_id") ? jstr_of(d, "batch_id") : "?", strerror(errno));
	char *spec = xstrfmt("%s/spec.yaml", dir);
	int rc = run_spec_load(spec, jstr_of(d, "spec_path"), jstr_of(d, "cache"), &j->s);
	free(spec);
	if (rc < 0)
		return -1;
	json_t *only = json_object_get(d, "only");
	if (json_array_size(only)) {
		j->only = xcalloc(json_array_size(only) + 1, sizeof(char *));
		for (size_t i = 0; i < json_array_size(only); i++)
			j->only[i] = json_string_value(json_array_get(only, i));
	}
	struct run_options *o = &j->o;
	o->store_root = jstr_of(d, "store");
	o->cache_dir = jstr_of(d, "cache");
	o->price_table = "data/gpu-prices.yaml";
	o->only = j->only;
	o->progress = progress;
	o->color = progress && isatty(1) && !getenv("NO_COLOR");
	o->device = (int)json_integer_value(json_object_get(d, "device"));
	o->repeats = (int)json_integer_value(json_object_get(d, "repeats"));
	o->unsandboxed = json_is_true(json_object_get(d, "unsandboxed"));
	o->batch_id = jstr_of(d, "batch_id");
	o->started_utc = jstr_of(d, "started_utc");
	o->seed_fixed = 1;
	o->seed = (unsigned long long)json_integer_value(json_object_get(d, "seed"));
	if (!o->store_root || !o->cache_dir || !o->batch_id || !o->started_utc || o->repeats < 1)
		return error("the Slurm job directory '%s' lacks what its plan needs (batch.json damaged?)", dir);
	return 0;
}

/* The plan remade from the job directory must be the one submitted. */
static int plan_matches(const struct run_ctx *c, json_t *doc)
{
	if ((json_int_t)c->plan.n_jobs != json_integer_value(json_object_get(doc, "n_jobs")))
		return error("batch '%s': the plan remade from its job directory has %zu jobs, not the %lld "
			     "submitted (a different evident?)",
			     c->plan.batch_id, c->plan.n_jobs,
			     (long long)json_integer_value(json_object_get(doc, "n_jobs")));
	return 0;
}

/* Set every plan job's run to the newest record of it in the store. */
static int find_runs(struct run_ctx *c)
{
	struct store_index ix = STORE_INDEX_INIT;
	if (store_index_load(&c->st, &ix) < 0)
		return -1;
	struct plan *p = &c->plan;
	for (size_t i = 0; i < ix.n; i++) {
		struct record_attrs a;
		if (record_attrs_parse(ix.e[i].attrs, &a) < 0)
			continue;
		if (!a.is_batch && a.batch_id && !strcmp(a.batch_id, p->batch_id) && a.variant)
			for (size_t j = 0; j < p->n_jobs; j++) {
				struct plan_job *pj = &p->jobs[j];
				if (pj->repeat != a.repeat || strcmp(p->variants[pj->variant].v->name, a.variant))
					continue;
				free(pj->run_id);
				pj->run_id = xstrdup(ix.e[i].run_id);
				if (!a.outcome || outcome_parse(a.outcome, &pj->outcome) < 0)
					pj->outcome = OUTCOME_UNKNOWN;
				pj->done = 1;
			}
		record_attrs_release(&a);
	}
	store_index_release(&ix);
	return 0;
}

static int job_final(const struct plan_job *pj)
{
	return pj->run_id && pj->outcome != OUTCOME_ABORTED;
}

/* ---- submitting ---------------------------------------------------------------------- */

static char *absolute_path(const char *p)
{
	if (p[0] == '/')
		return xstrdup(p);
	char cwd[4096];
	return xstrfmt("%s/%s", getcwd(cwd, sizeof(cwd)) ? cwd : ".", p);
}

/* Write sub-K/task.sh and submit the array of `tasks` (stolen); records
 * the submission in doc and saves it.  0, or -1 after error(). */
static int submit_array(const char *jobdir, json_t *doc, json_t *tasks, const struct slurm_options *so, int gpu)
{
	json_t *subs = json_object_get(doc, "submissions");
	size_t k = json_array_size(subs) + 1;
	char *subname = xstrfmt("sub-%zu", k);
	char *sub = xstrfmt("%s/%s", jobdir, subname);
	char *script = xstrfmt("%s/task.sh", sub);
	char *qexe = slurm_sh_quote(jstr_of(doc, "exe")), *qsub = slurm_sh_quote(sub);
	char *text = xstrfmt("#!/bin/sh\n# evident run --slurm: one array task of batch %s (evident wait %s)\n"
			     "exec %s __task %s \"$SLURM_ARRAY_TASK_ID\"\n",
			     jstr_of(doc, "batch_id"), jstr_of(doc, "batch_id"), qexe, qsub);
	int rc = -1;
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	json_t *argv_doc = json_array();
	const char **argv = NULL;
	char *owned[16] = { NULL };
	size_t n_owned = 0;
	if (mkdir(sub, 0755) < 0 && errno != EEXIST) {
		error("cannot create '%s': %s", sub, strerror(errno));
		goto out;
	}
	if (write_text(script, text, 0755) < 0)
		goto out;
	size_t n_tasks = json_array_size(tasks), n_extra = 0;
	while (so->extra && so->extra[n_extra])
		n_extra++;
	argv = xcalloc(20 + n_extra, sizeof(char *));
	size_t a = 0;
	argv[a++] = "sbatch";
	argv[a++] = "--parsable";
	argv[a++] = "--no-requeue";
	argv[a++] = owned[n_owned++] = so->max_parallel > 0
					       ? xstrfmt("--array=0-%zu%%%d", n_tasks - 1, so->max_parallel)
					       : xstrfmt("--array=0-%zu", n_tasks - 1);
	argv[a++] = owned[n_owned++] = xstrfmt("--job-name=evident-%s", jstr_of(doc, "experiment"));
	argv[a++] = owned[n_owned++] = xstrfmt("--chdir=%s", jstr_of(doc, "root"));
	argv[a++] = owned[n_owned++] = xstrfmt("--output=%s/task-%%a.out", sub);
	argv[a++] = owned[n_owned++] = xstrfmt("--error=%s/task-%%a.err", sub);
	if (so->partition)
		argv[a++] = owned[n_owned++] = xstrfmt("--partition=%s", so->partition);
	if (so->account)
		argv[a++] = owned[n_owned++] = xstrfmt("--account=%s", so->account);
	if (so->time)
		argv[a++] = owned[n_owned++] = xstrfmt("--time=%s", so->time);
	if (so->gpus_per_task > 0 || gpu)
		argv[a++] = owned[n_owned++] = xstrfmt("--gres=gpu:%d", so->gpus_per_task > 0 ? so->gpus_per_task : 1);
	for (size_t i = 0; i < n_extra; i++)
		argv[a++] = so->extra[i];
	argv[a++] = script;
	argv[a] = NULL;
	for (size_t i = 0; argv[i]; i++)
		json_array_append_new(argv_doc, json_string(argv[i]));
	/* the submission is in batch.json before any of its tasks can start */
	json_t *entry = json_pack("{s:s, s:n, s:o, s:O, s:f}", "dir", subname, "job_id", "argv", argv_doc, "tasks",
				  tasks, "submitted_epoch", epoch_now());
	argv_doc = NULL;
	json_array_append_new(subs, entry);
	if (jobdir_save(jobdir, doc) < 0)
		goto drop;
	struct run_opts ro = { .argv = argv, .timeout_s = 120, .out = &out, .err = &err };
	struct run_result rr;
	if (run_command(&ro, &rr) < 0) {
		error("cannot run sbatch: is Slurm's client installed here (slurm-client)?");
		goto drop;
	}
	rtrim(out.buf ? out.buf : (char *)"");
	if (!rr.exited || rr.exit_code != 0 || !out.len) {
		rtrim(err.buf ? err.buf : (char *)"");
		error("sbatch refused batch %s: %s", jstr_of(doc, "batch_id"), err.len ? err.buf : "no reason given");
		goto drop;
	}
	/* --parsable: "ID" or "ID;CLUSTER" */
	char *semi = strchr(out.buf, ';');
	if (semi)
		*semi = '\0';
	json_object_set_new(entry, "job_id", json_string(out.buf));
	if (semi)
		json_object_set_new(entry, "cluster", json_string(semi + 1));
	rc = jobdir_save(jobdir, doc);
	if (rc < 0)
		error("batch %s was submitted as Slurm job %s, but its job directory could not be updated: "
		      "cancel it (scancel %s)",
		      jstr_of(doc, "batch_id"), out.buf, out.buf);
	goto out;
drop:
	/* nothing submitted: no submission */
	json_array_remove(subs, json_array_size(subs) - 1);
	jobdir_save(jobdir, doc);
out:
	json_decref(tasks);
	json_decref(argv_doc);
	for (size_t i = 0; i < n_owned; i++)
		free(owned[i]);
	free(argv);
	strbuf_release(&out);
	strbuf_release(&err);
	free(text);
	free(qexe);
	free(qsub);
	free(script);
	free(sub);
	free(subname);
	return rc;
}

static void build_all(struct run_ctx *c)
{
	for (size_t vi = 0; vi < c->plan.n_variants && !runcmd_interrupted; vi++) {
		c->prog.variant = c->plan.variants[vi].v->name;
		progress_show(&c->prog, "building here (the tasks will find it in the cache)");
		plan_build(c, vi);
	}
	c->prog.variant = NULL;
	progress_clear(&c->prog);
}

/* The tasks of the jobs for which want(j) holds: a task per slot of the
 * pool rule, slot = repeat % n_slots, keeping the plan's order. */
static json_t *make_tasks(const struct plan *p, int n_slots, const unsigned char *want)
{
	json_t *tasks = json_array();
	for (int slot = 0; slot < n_slots; slot++) {
		json_t *jobs = json_array();
		for (size_t j = 0; j < p->n_jobs; j++)
			if ((!want || want[j]) && pool_slot_of(p->jobs[j].repeat, n_slots) == slot)
				json_array_append_new(jobs, json_integer((json_int_t)j));
		if (json_array_size(jobs))
			json_array_append_new(tasks, json_pack("{s:i, s:o}", "slot", slot, "jobs", jobs));
		else
			json_decref(jobs);
	}
	return tasks;
}

static json_t *options_json(const struct slurm_options *so)
{
	json_t *extra = json_array();
	for (size_t i = 0; so->extra && so->extra[i]; i++)
		json_array_append_new(extra, json_string(so->extra[i]));
	return json_pack("{s:s?, s:s?, s:s?, s:i, s:i, s:o}", "partition", so->partition, "account", so->account,
			 "time", so->time, "gpus_per_task", so->gpus_per_task, "max_parallel", so->max_parallel,
			 "extra", extra);
}

int run_slurm_submit(const struct spec *s, const struct run_options *o, const struct slurm_options *so,
		     struct run_totals *t, enum run_error *err)
{
	struct run_ctx c;
	memset(t, 0, sizeof(*t));
	int rc = -1;
	char *jobdir = NULL, *root = NULL, *spec_copy = NULL;
	json_t *doc = NULL;
	if (run_open(&c, s, o, 0, err) < 0)
		goto out;
	struct plan *p = &c.plan;
	runcmd_trap_signals();
	build_all(&c);
	if (runcmd_interrupted) {
		t->interrupted = 1;
		rc = 0;
		goto out;
	}
	root = absolute_path(".");
	size_t rl = strlen(root);
	if (rl > 2 && !strcmp(root + rl - 2, "/."))
		root[rl - 2] = '\0';
	char *store_abs = absolute_path(c.st.root), *cache_abs = absolute_path(o->cache_dir);
	char *bdir = batches_dir(store_abs);
	jobdir = xstrfmt("%s/%s", bdir, p->batch_id);
	free(bdir);
	json_t *only = json_array();
	for (size_t i = 0; o->only && o->only[i]; i++)
		json_array_append_new(only, json_string(o->only[i]));
	doc = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:I, s:s, s:i, s:I, s:o, s:i, s:i, s:o, "
			"s:f, s:[]}",
			"format", JOBDIR_FORMAT, "batch_id", p->batch_id, "experiment", s->name, "root", root,
			"spec_path", s->path, "store", store_abs, "cache", cache_abs, "exe", c.exe, "seed",
			(json_int_t)p->seed, "started_utc", p->started_utc, "repeats", p->repeats, "n_jobs",
			(json_int_t)p->n_jobs, "only", only, "device", o->device, "n_tasks", p->repeats,
			"options", options_json(so), "submitted_epoch", epoch_now(), "submissions");
	if (o->unsandboxed)
		json_object_set_new(doc, "unsandboxed", json_true());
	free(store_abs);
	free(cache_abs);
	if (mkdir_p(jobdir, 0755) < 0) {
		error("cannot create the Slurm job directory '%s': %s", jobdir, strerror(errno));
		*err = RUN_STORE;
		goto out;
	}
	spec_copy = xstrfmt("%s/spec.yaml", jobdir);
	if (write_text(spec_copy, s->text, 0644) < 0 || jobdir_save(jobdir, doc) < 0) {
		*err = RUN_STORE;
		goto out;
	}
	if (submit_array(jobdir, doc, make_tasks(p, p->repeats, NULL), so, c.be->uses_gpu) < 0) {
		/* nothing was submitted: leave nothing behind */
		const char *rm[] = { "rm", "-rf", jobdir, NULL };
		struct run_opts ro = { .argv = rm, .timeout_s = 60 };
		struct run_result rr;
		run_command(&ro, &rr);
		*err = RUN_ENV;
		goto out;
	}
	json_t *sub = last_submission(doc);
	printf("batch %s: %zu variant(s) x %d repeat(s) submitted to Slurm as job array %s, %zu task(s), "
	       "one per repeat\n",
	       p->batch_id, p->n_variants, p->repeats, jstr_of(sub, "job_id"),
	       json_array_size(json_object_get(sub, "tasks")));
	printf("job directory %s\nfollow it: evident ls --batches; gather it: evident wait %s\n", jobdir, p->batch_id);
	t->batch_id = xstrdup(p->batch_id);
	t->variants = (int)p->n_variants;
	rc = 0;
out:
	json_decref(doc);
	free(spec_copy);
	free(jobdir);
	free(root);
	run_close(&c);
	return rc;
}

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
			char *line = kill_line_of(task_err_path);
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
			      epoch_now(), "finished_utc", when, "runs", (json_int_t)runs, "pid", (int)getpid());
	char *p = xstrfmt("%s/task-%d.end", sub, index);
	write_json_atomic(p, m);
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
	gethostname(host, sizeof(host) - 1);
	utc_now_iso(when, sizeof(when));
	task_err_path = xstrfmt("%s/task-%d.err", sub, index);
	runcmd_trap_signals();
	{
		const char *node = getenv("SLURMD_NODENAME");
		json_t *m = json_pack("{s:i, s:s, s:s, s:s?, s:s?, s:i, s:f, s:s}", "pid", (int)getpid(), "host", host,
				      "node", node ? node : host, "job_id", getenv("SLURM_JOB_ID"), "array_job_id",
				      getenv("SLURM_ARRAY_JOB_ID"), "task", index, "epoch", epoch_now(),
				      "started_utc", when);
		char *p = xstrfmt("%s/task-%d.start", sub, index);
		write_json_atomic(p, m);
		free(p);
		json_decref(m);
	}
	if (jd_open(&j, jobdir, 0) < 0) {
		end_marker(sub, index, "error", "the job directory or its spec could not be loaded (task's stderr)", 0);
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
	if (run_open(&c, &j.s, &j.o, 1, &why) < 0 || plan_matches(&c, j.doc) < 0) {
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
	c.slot.index = (int)json_integer_value(json_object_get(task, "slot"));
	c.slot.n = (int)json_integer_value(json_object_get(j.doc, "n_tasks"));
	c.slot.device = c.be->uses_gpu ? task_gpu_index() : -1;
	if (getenv("CUDA_VISIBLE_DEVICES"))
		c.slot.pinned = xstrfmt("CUDA_VISIBLE_DEVICES=%s", getenv("CUDA_VISIBLE_DEVICES"));
	if (c.be->device_info && c.slot.device >= 0) {
		json_t *di = c.be->device_info(c.slot.device);
		json_object_set_new(c.machine, "gpu", di ? di : json_null());
	}
	c.slurm = slurm_env_doc(subname);
	c.why_interrupted = task_why;
	json_t *jobs = json_object_get(task, "jobs");
	size_t n = json_array_size(jobs), k = 0;
	int store_failed = 0;
	for (; k < n && !runcmd_interrupted; k++) {
		json_int_t ji = json_integer_value(json_array_get(jobs, k));
		if (ji < 0 || (size_t)ji >= c.plan.n_jobs)
			continue;
		if (job_execute(&c, &c.plan.jobs[ji]) < 0) {
			store_failed = 1;
			break;
		}
		done++;
	}
	if (store_failed) {
		end_marker(sub, index, "error", "a record could not be written (the store failed; task's stderr)", done);
		goto out;
	}
	if (runcmd_interrupted) {
		const char *w = task_why(&c);
		char *reason = w ? xstrdup(w) : xstrfmt("%s (no Slurm line in %s)", signal_name(runcmd_interrupted),
							task_err_path);
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
	jd_release(&j);
	free(jobdir);
	free(task_err_path);
	task_err_path = NULL;
	return rc;
}

/* ---- following, gathering, resuming ---------------------------------------------------------- */

static void count_states(const struct task_view *v, size_t n, size_t cnt[4])
{
	cnt[0] = cnt[1] = cnt[2] = cnt[3] = 0;
	for (size_t i = 0; i < n; i++)
		cnt[v[i].state]++;
}

/* Wall time of the batch: from its first submission to its last task's end. */
static double batch_wall(const char *jobdir, json_t *doc)
{
	double first = json_number_value(json_object_get(doc, "submitted_epoch")), last = 0;
	json_t *subs = json_object_get(doc, "submissions");
	for (size_t s = 0; s < json_array_size(subs); s++) {
		json_t *sub = json_array_get(subs, s);
		char *subdir = xstrfmt("%s/%s", jobdir, jstr_of(sub, "dir") ? jstr_of(sub, "dir") : "?");
		for (size_t i = 0; i < json_array_size(json_object_get(sub, "tasks")); i++) {
			json_t *e = marker(subdir, (int)i, "end");
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
	char *dir = jobdir_find(store_root, batch, &not_found);
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
	if (jd_open(&j, dir, progress) < 0) {
		*err = RUN_ENV;
		goto out_jd;
	}
	runcmd_trap_signals();
	double t0 = mono_now();
	json_t *sub = last_submission(j.doc);
	struct task_view *v = NULL;
	size_t nv = 0, cnt[4];
	for (;;) {
		views_release(v, nv);
		v = NULL;
		nv = 0;
		/* a signal kills squeue too: what it said then means nothing */
		if (!runcmd_interrupted)
			v = task_views(dir, sub, &nv);
		count_states(v, nv, cnt);
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
			views_release(v, nv);
			rc = 0;
			goto out_jd;
		}
		if (timeout_s > 0 && mono_now() - t0 > timeout_s) {
			if (progress)
				fprintf(stderr, "\r\033[K");
			error("batch %s: %zu task(s) still pending or running after %.0f s (evident ls --batches)",
			      j.o.batch_id, cnt[T_PENDING] + cnt[T_RUNNING], timeout_s);
			*err = RUN_TIMEOUT;
			views_release(v, nv);
			goto out_jd;
		}
		struct timespec ts = { 1, 0 };
		nanosleep(&ts, NULL);
	}
	if (progress)
		fprintf(stderr, "\r\033[K");
	if (run_open(&c, &j.s, &j.o, 0, err) < 0 || plan_matches(&c, j.doc) < 0 || find_runs(&c) < 0) {
		if (*err == RUN_OK)
			*err = RUN_STORE;
		if (runcmd_interrupted) {
			/* what failed was stopped by the signal: nothing is gathered */
			t->interrupted = 1;
			rc = 0;
		}
		views_release(v, nv);
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
		json_t *start = marker(subdir, (int)i, "start");
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
	views_release(v, nv);
	if (*err == RUN_STORE)
		goto out;
	size_t missing = 0;
	for (size_t i = 0; i < c.plan.n_jobs; i++)
		missing += !job_final(&c.plan.jobs[i]);
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
				write_text(gathered, c.plan.batch_id, 0644);
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
		} else if (write_text(gathered, c.plan.batch_id, 0644) < 0) {
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
	jd_release(&j);
	free(dir);
	return rc;
}

int run_slurm_resume(const char *store_root, const char *batch, const struct slurm_options *so_given, int progress,
		     enum run_error *err)
{
	*err = RUN_OK;
	int not_found;
	char *dir = jobdir_find(store_root, batch, &not_found);
	if (!dir) {
		*err = not_found ? RUN_NOT_FOUND : RUN_USAGE;
		return -1;
	}
	struct jd j;
	struct run_ctx c;
	memset(&c, 0, sizeof(c));
	int rc = -1;
	unsigned char *want = NULL;
	const char **extra = NULL;
	if (jd_open(&j, dir, progress) < 0) {
		*err = RUN_ENV;
		goto out_jd;
	}
	json_t *sub = last_submission(j.doc);
	size_t nv = 0, cnt[4];
	struct task_view *v = task_views(dir, sub, &nv);
	count_states(v, nv, cnt);
	views_release(v, nv);
	if (cnt[T_PENDING] || cnt[T_RUNNING]) {
		error("batch %s is still running in Slurm (job %s: %zu pending, %zu running): wait for it (evident "
		      "wait %s) or cancel it (scancel %s) first",
		      j.o.batch_id, jstr_of(sub, "job_id"), cnt[T_PENDING], cnt[T_RUNNING], j.o.batch_id,
		      jstr_of(sub, "job_id"));
		*err = RUN_USAGE;
		goto out_jd;
	}
	if (run_open(&c, &j.s, &j.o, 0, err) < 0 || plan_matches(&c, j.doc) < 0 || find_runs(&c) < 0) {
		if (*err == RUN_OK)
			*err = RUN_STORE;
		goto out;
	}
	want = xcalloc(c.plan.n_jobs + 1, 1);
	size_t missing = 0;
	for (size_t i = 0; i < c.plan.n_jobs; i++)
		missing += want[i] = !job_final(&c.plan.jobs[i]);
	if (!missing) {
		printf("batch %s: every run is recorded, nothing to resume; 'evident wait %s' prints its summary\n",
		       j.o.batch_id, j.o.batch_id);
		rc = 0;
		goto out;
	}
	/* the options as submitted, each one given now replacing its own */
	json_t *so_doc = json_object_get(j.doc, "options");
	json_t *ex = json_object_get(so_doc, "extra");
	struct slurm_options so = *so_given;
	if (!so.partition)
		so.partition = jstr_of(so_doc, "partition");
	if (!so.account)
		so.account = jstr_of(so_doc, "account");
	if (!so.time)
		so.time = jstr_of(so_doc, "time");
	if (!so.gpus_per_task)
		so.gpus_per_task = (int)json_integer_value(json_object_get(so_doc, "gpus_per_task"));
	if (!so.max_parallel)
		so.max_parallel = (int)json_integer_value(json_object_get(so_doc, "max_parallel"));
	if (!so.extra && json_array_size(ex)) {
		extra = xcalloc(json_array_size(ex) + 1, sizeof(char *));
		for (size_t i = 0; i < json_array_size(ex); i++)
			extra[i] = json_string_value(json_array_get(ex, i));
		so.extra = extra;
	}
	runcmd_trap_signals();
	build_all(&c);
	int n_slots = (int)json_integer_value(json_object_get(j.doc, "n_tasks"));
	if (submit_array(dir, j.doc, make_tasks(&c.plan, n_slots > 0 ? n_slots : 1, want), &so, c.be->uses_gpu) < 0) {
		*err = RUN_ENV;
		goto out;
	}
	sub = last_submission(j.doc);
	printf("batch %s: %zu of %zu runs missing or aborted, resubmitted to Slurm as job array %s, %zu task(s)\n"
	       "gather it: evident wait %s\n",
	       j.o.batch_id, missing, c.plan.n_jobs, jstr_of(sub, "job_id"),
	       json_array_size(json_object_get(sub, "tasks")), j.o.batch_id);
	rc = 0;
out:
	run_close(&c);
out_jd:
	free(want);
	free(extra);
	jd_release(&j);
	free(dir);
	return rc;
}

/* ---- for ls ---------------------------------------------------------------------------------- */

json_t *run_slurm_batches(const char *store_root)
{
	json_t *out = json_array();
	char *bdir = batches_dir(store_root);
	char **ids = NULL;
	size_t n = 0;
	if (list_dir(bdir, &ids, &n) < 0) {
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
		json_t *doc = gathered ? NULL : jobdir_load(dir);
		util_quiet = saved;
		json_t *sub = last_submission(doc);
		if (!sub) {
			json_decref(doc);
			free(dir);
			continue;
		}
		size_t nv = 0;
		struct task_view *v = task_views(dir, sub, &nv);
		json_t *tasks = json_array();
		for (size_t k = 0; k < nv; k++)
			json_array_append_new(tasks, json_pack("{s:i, s:i, s:s, s:s, s:s?, s:s?, s:I}", "task", v[k].index,
							       "slot", v[k].slot, "job", v[k].job, "state",
							       tstate_name[v[k].state], "reason", v[k].reason, "node",
							       v[k].node[0] ? v[k].node : NULL, "runs",
							       (json_int_t)v[k].n_jobs));
		views_release(v, nv);
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
