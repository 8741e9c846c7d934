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
 *
 * The executor's files: this one holds the job directory (its documents,
 * and the plan a task, the gatherer or resume loads from it);
 * slurm_status.c what Slurm and the markers say about each task (and the
 * listing for ls); slurm_submit.c the batch script and sbatch, for a new
 * batch and for --resume; slurm_task.c one array task; slurm_wait.c
 * following a batch and gathering it.  slurm_internal.h is what they share.
 */
#include "run/slurm_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- small helpers -------------------------------------------------------------- */

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The entries of dir, sorted (batch ids sort by time); 0, or -1 when it
 * cannot be read.  Free with store_free_list. */
int slurm_list_dir(const char *dir, char ***ids, size_t *n)
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

double slurm_epoch_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}
/* Write j to path atomically (a temporary file, then rename). */
int slurm_write_json_atomic(const char *path, json_t *j)
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

int slurm_write_text(const char *path, const char *text, int mode)
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
char *slurm_kill_line_of(const char *errfile)
{
	struct strbuf sb = STRBUF_INIT;
	char *line = path_exists(errfile) && read_file(errfile, &sb) == 0 ? slurm_kill_line(sb.buf) : NULL;
	strbuf_release(&sb);
	return line;
}

/* ---- the job directory ------------------------------------------------------------- */

char *slurm_batches_dir(const char *store_root)
{
	return xstrfmt("%s/pending/batches", store_root);
}

/* Load DIR/batch.json (a new reference, or NULL after error()). */
json_t *slurm_jobdir_load(const char *dir)
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

int slurm_jobdir_save(const char *dir, json_t *doc)
{
	char *path = xstrfmt("%s/batch.json", dir);
	int rc = slurm_write_json_atomic(path, doc);
	free(path);
	return rc;
}

/* The job directory of batch `name` (its id or a unique prefix of it) in
 * the store: malloc'd path, or NULL after error() (*not_found set when
 * there is none). */
char *slurm_jobdir_find(const char *store_root, const char *name, int *not_found)
{
	*not_found = 0;
	char *dir = slurm_batches_dir(store_root);
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
		if (slurm_list_dir(dir, &ids, &n) == 0)
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

/* ---- plans from a job directory ----------------------------------------------------- */

int run_spec_load(const char *path, const char *as_path, const char *cache_dir, struct spec *s)
{
	struct problem_keys_ctx kc = { cache_dir, PROBLEM_INIT };
	struct spec_env env = { .check_files = 1, .problem_keys = problem_spec_keys,
				.shape_hint = problem_spec_shape_hint, .ctx = &kc };
	int rc = spec_load(path, &env, s);
	problem_release(&kc.pr);
	if (rc == 0 && as_path) {
		free(s->path);
		s->path = xstrdup(as_path);
	}
	return rc;
}

void slurm_jd_release(struct jd *j)
{
	spec_release(&j->s);
	free(j->only);
	json_decref(j->doc);
	free(j->dir);
	memset(j, 0, sizeof(*j));
}

int slurm_jd_open(struct jd *j, const char *dir, int progress)
{
	memset(j, 0, sizeof(*j));
	j->dir = xstrdup(dir);
	if (!(j->doc = slurm_jobdir_load(dir)))
		return -1;
	json_t *d = j->doc;
	const char *root = jstr_of(d, "root");
	if (!root || chdir(root) < 0)
		return error("cannot enter the repository root '%s' of batch '%s': %s", root ? root : "?",
			     jstr_of(d, "batch_id") ? jstr_of(d, "batch_id") : "?", strerror(errno));
	/* the problem plug-in is built as the batch's kernels are */
	problem_build_setup(&prov_view_ops, json_is_true(json_object_get(d, "unsandboxed")));
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
	/* a job directory written before the order had a seed of its own
	 * ordered its jobs by the plan's seed */
	json_t *os = json_object_get(d, "order_seed");
	o->order_seed = os ? (unsigned long long)json_integer_value(os) : o->seed;
	if (!o->store_root || !o->cache_dir || !o->batch_id || !o->started_utc || o->repeats < 1)
		return error("the Slurm job directory '%s' lacks what its plan needs (batch.json damaged?)", dir);
	return 0;
}

/* The plan remade from the job directory must be the one submitted. */
int slurm_plan_matches(const struct run_ctx *c, json_t *doc)
{
	if ((json_int_t)c->plan.n_jobs != json_integer_value(json_object_get(doc, "n_jobs")))
		return error("batch '%s': the plan remade from its job directory has %zu jobs, not the %lld "
			     "submitted (a different evident?)",
			     c->plan.batch_id, c->plan.n_jobs,
			     (long long)json_integer_value(json_object_get(doc, "n_jobs")));
	return 0;
}

/* Set every plan job's run to the newest record of it in the store. */
int slurm_find_runs(struct run_ctx *c)
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

int slurm_job_final(const struct plan_job *pj)
{
	return pj->run_id && pj->outcome != OUTCOME_ABORTED;
}
