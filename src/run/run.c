/*
 * run.c - one `evident run`, stage by stage (run_ctx.h walks them):
 * check the backend can run here, open the store, record what every run
 * shares (the spec, git, the machine), plan, prebuild, execute, gather,
 * print.  It returns success or failure; cmd_run decides the exit code.
 */
#include "report/code_identity.h"
#include "run/run_ctx.h"
#include "run/cost.h"
#include "store/query.h"
#include "store/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void progress_show(struct progress *p, const char *phase)
{
	if (!p->on)
		return;
	char eta[32] = "";
	if (p->per_job > 0 && p->n >= p->i) {
		int left = (int)(p->per_job * (double)(p->n - p->i + 1));
		snprintf(eta, sizeof(eta), ", ETA %d:%02d", left / 60, left % 60);
	}
	if (p->repeats > 1)
		fprintf(stderr, "\r\033[K[%zu/%zu] %s (repeat %d/%d): %s%s", p->i, p->n, p->variant ? p->variant : "",
			p->repeat + 1, p->repeats, phase, eta);
	else
		fprintf(stderr, "\r\033[K[%zu/%zu] %s: %s%s", p->i, p->n, p->variant ? p->variant : "", phase, eta);
	fflush(stderr);
}

void progress_clear(struct progress *p)
{
	if (p->on) {
		fprintf(stderr, "\r\033[K");
		fflush(stderr);
	}
}

/* Path of this executable, for starting workers (caller frees). */
static char *self_exe(void)
{
	char buf[4096];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	if (n <= 0)
		return xstrdup("evident");
	buf[n] = '\0';
	return xstrdup(buf);
}

/*
 * The executable a job's worker and checker run (caller frees): the lean
 * evident-worker beside this executable (src/cli/worker_main.c: the same
 * __worker and __check code, NEEDing 6 shared libraries where evident
 * NEEDs 25, ~8 ms less CPU per exec on the project's VM), or this
 * executable itself where there is none (a dist or install made before
 * evident-worker existed), which runs the same commands with every
 * library loaded.  The worker's log names which ran (job.c).
 */
static char *worker_exe(const char *exe)
{
	const char *slash = strrchr(exe, '/');
	if (!slash)
		return xstrdup(exe);
	char *lean = xstrfmt("%.*s/evident-worker", (int)(slash - exe), exe);
	if (access(lean, X_OK) == 0)
		return lean;
	free(lean);
	return xstrdup(exe);
}

/* What every record of the batch shares: the spec, git, the machine. */
static int shared_provenance(struct run_ctx *c)
{
	const struct spec *s = c->s;
	char *prefix = NULL;
	if (c->o->store_root[0] != '/' && strncmp(c->o->store_root, "..", 2))
		prefix = xstrfmt("%s/", c->o->store_root);
	/* the spec and every variant's kernel, wherever they lie */
	const char **files = xcalloc(s->n_variants + 2, sizeof(*files));
	size_t n = 0;
	files[n++] = s->path;
	if (s->kernel)
		files[n++] = s->kernel;
	for (size_t i = 0; i < s->n_variants; i++)
		if (s->variants[i].kernel)
			files[n++] = s->variants[i].kernel;
	int rc = prov_git_files(prefix, files, n, &c->prov);
	free(files);
	free(prefix);
	if (rc < 0)
		return -1;
	struct prov_git *g = &c->prov;
	c->git.is_repo = g->is_repo;
	c->git.commit = g->commit;
	c->git.branch = g->branch;
	c->git.dirty = g->dirty;
	c->git.n_changed = (long long)g->n_changed;
	c->git.untracked = g->untracked;
	c->git.note = g->why;
	static char diff_hex[SHA256_HEX_LEN + 1];
	c->git.diff_object = NULL;
	if (g->diff) {
		if (store_put(&c->st, g->diff, g->diff_len, diff_hex) < 0)
			return -1;
		c->git.diff_object = diff_hex;
	}
	c->machine = prov_machine(c->be->compilers);
	if (c->be->device_info) {
		json_t *di = c->be->device_info(c->o->device);
		json_object_set_new(c->machine, "gpu", di ? di : json_null());
	}
	if (store_put(&c->st, s->text, strlen(s->text), c->spec_object) < 0)
		return -1;
	return 0;
}

/*
 * The box for kernel code (base/sandbox.h): the store is hidden from it.
 * Where it cannot be set up the run stops with the reason, unless the
 * user asked for --unsandboxed, which every record then says.
 */
static int open_sandbox(struct run_ctx *c, const struct run_options *o)
{
	if (o->unsandboxed) {
		c->judge_sandbox = sandbox_describe(&c->sb);
		return 0;
	}
	/* what every worker loads: the worker's executable (the one file, not
	 * its folder: with evident-worker beside it the box holds neither the
	 * runner nor dist's bwrap) and the libraries of ../lib (make dist, the
	 * CUDA harness); each spawn adds its own job's objects (its kernel,
	 * the problem's), never the whole build cache or the repository,
	 * where any other object or blob could be run as this kernel's code
	 * (red team 3, cache_borrow) */
	char *bindir = xstrdup(c->worker_exe), *slash = strrchr(bindir, '/');
	if (slash)
		*slash = 0;
	char *libdir = xstrfmt("%s/../lib", bindir);
	/* and the library directories the spec's flags name (-L DIR,
	 * -Wl,-rpath,DIR): a kernel linked against them loads from there */
	size_t nf = 0;
	for (char **f = c->s->flags; f && *f; f++)
		nf++;
	const char **show = xcalloc(nf + 3, sizeof(char *));
	size_t ns = 0;
	show[ns++] = c->worker_exe;
	show[ns++] = libdir;
	for (size_t i = 0; i < nf; i++) {
		const char *f = c->s->flags[i], *d = NULL;
		if (!strncmp(f, "-L", 2))
			d = f[2] ? f + 2 : c->s->flags[i + 1];
		else if (!strncmp(f, "-Wl,-rpath,", 11))
			d = f + 11;
		else if (!strncmp(f, "-Wl,-rpath=", 11))
			d = f + 11;
		if (!d || !*d || strchr(d, ','))
			continue;
		if (sandbox_lib_dir(d))
			show[ns++] = d; /* made absolute by sandbox_init */
		else
			warning("the spec's library directory '%s' holds no shared object: the kernel's box does not "
				"show it (a directory is shown whole, so it must be one of libraries, not /etc, a home "
				"or the repository)",
				d);
	}
	show[ns] = NULL;
	/* the store, and the build cache: a spec's -L naming the cache (or a
	 * directory above it) would show every variant's object again (red
	 * team 4, cache_flag); a job's own objects are bound over the mask */
	const char *hide[] = { c->st.root, c->o->cache_dir, NULL };
	struct strbuf why = STRBUF_INIT;
	int rc = sandbox_init(&c->sb, c->be->uses_gpu, show, hide, &why);
	free(show);
	free(bindir);
	free(libdir);
	if (rc == 0 && c->be->box_loads) {
		/* what its worker dlopen()s, for a box of copies (a sealed kernel's) */
		char **loads = c->be->box_loads();
		sandbox_set_loads(&c->sb, (const char *const *)loads);
		sandbox_argv_free(loads);
	}
	if (rc < 0)
		error("cannot sandbox the kernel's code: %s", why.buf);
	else
		c->judge_sandbox = sandbox_describe(&c->sb);
	strbuf_release(&why);
	return rc;
}

int run_open(struct run_ctx *c, const struct spec *s, const struct run_options *o, int probe,
	     enum run_error *err)
{
	memset(c, 0, sizeof(*c));
	/* no box yet: its filter descriptors -1, so that run_close of an
	 * --unsandboxed run closes none (zeroed, they named stdin) */
	struct sandbox no_box = SANDBOX_INIT;
	c->sb = no_box;
	*err = RUN_OK;
	c->s = s;
	c->o = o;
	c->slot.kind = "local";
	c->slot.n = 1;
	c->slot.device = -1;
	c->be = backend_find(s->backend);
	if (!c->be) {
		*err = RUN_ENV;
		return error("backend '%s' is not built into this evident", s->backend);
	}
	/* what the spec asks that no judge here would time, on any machine */
	if (plan_graph_trust(s, c->be) < 0) {
		*err = RUN_USAGE;
		return -1;
	}
	struct strbuf why = STRBUF_INIT;
	if (probe && c->be->probe(&why) < 0) {
		error("no_device: experiment '%s' needs the %s backend, which cannot run here: %s", s->name,
		      s->backend, why.buf);
		strbuf_release(&why);
		*err = RUN_NO_DEVICE;
		return -1;
	}
	strbuf_release(&why);
	c->slot.device = c->be->uses_gpu ? o->device : -1;
	if (pool_resolve(c) < 0) {
		*err = RUN_USAGE;
		return -1;
	}
	if (store_open(&c->st, o->store_root, 1) < 0) {
		*err = RUN_STORE;
		return -1;
	}
	c->tmp_dir = xstrfmt("%s/tmp", c->st.root);
	c->exe = self_exe();
	c->worker_exe = worker_exe(c->exe);
	/* the evident that writes the records, beside code.git's checkout of
	 * the spec (red team 279: an older runner started in a newer checkout
	 * read as the newer commit's, out of the errata's reach) */
	prov_runner(c->worker_exe, &c->runner_id);
	c->runner.have = 1;
	c->runner.commit = c->runner_id.commit;
	c->runner.dirty = c->runner_id.dirty;
	c->runner.sha256 = c->runner_id.sha256[0] ? c->runner_id.sha256 : NULL;
	c->runner.worker_sha256 = c->runner_id.worker_sha256[0] ? c->runner_id.worker_sha256 : NULL;
	if (probe && open_sandbox(c, o) < 0) {
		*err = RUN_ENV;
		return -1;
	}
	c->prog.on = o->progress;
	c->prog.t_start = mono_now();
	if (shared_provenance(c) < 0 || plan_make(c) < 0) {
		*err = RUN_ENV;
		return -1;
	}
	if (probe)
		plan_peak(c);
	return 0;
}

void run_close(struct run_ctx *c)
{
	sandbox_release(&c->sb);
	json_decref(c->judge_sandbox);
	progress_clear(&c->prog);
	plan_release(&c->plan);
	prov_git_release(&c->prov);
	json_decref(c->machine);
	json_decref(c->plan_ids);
	free(c->exe);
	free(c->worker_exe);
	free(c->tmp_dir);
	store_release(&c->st);
	pool_release(&c->pool);
	free(c->slot.pinned);
	free(c->slot.after);
	json_decref(c->slurm);
	memset(c, 0, sizeof(*c));
	struct sandbox no_box = SANDBOX_INIT;
	c->sb = no_box;
}

/*
 * Before the first job: the plan and its likely cost (cost.h), and, with
 * one repeat, that no verdict will come of it (stats.h, rule 0).  On
 * stderr, beside the progress line, so that stdout stays the summary.
 */
static void run_announce(const struct run_ctx *c)
{
	const struct plan *p = &c->plan;
	struct cost_estimate e;
	struct strbuf line = STRBUF_INIT;
	cost_estimate(c->o->store_root, c->s->name, p->n_jobs, &e);
	cost_plan_line(&line, c->s->name, p->n_variants, p->repeats, &e);
	fprintf(stderr, "%s\n", line.buf);
	strbuf_release(&line);
	if (p->repeats == 1 && p->n_variants > 1)
		warning("1 repeat per variant: the comparisons will be inconclusive, as one process a side "
			"says nothing of the variance between processes; use --repeats 3 or more");
	fflush(stderr);
}

/*
 * A spec variant's name that an eval session holds in the store for other
 * code (its recorded candidates, or a session judging one now) is
 * refused: the store would then hold two codes under one name, and a
 * claim on the variant would read the proposer's runs (red team 81's
 * late: an eval took `fast2` for wrong code, the spec then gained an
 * honest `fast2`, and `validated fast2` was contradicted on the eval's
 * runs).  A spec variant whose own code changed keeps its name: that is
 * the operator's kernel being worked on.  0, or -1 after error().
 */
int run_names_held(struct run_ctx *c, struct store_claims **claims)
{
	struct query q = QUERY_INIT;
	int saved = util_quiet;
	util_quiet = 1;
	int open = query_open(&q, c->st.root) == 0;
	util_quiet = saved;
	struct store_claims *cl = store_claims_lock(&c->st);
	int rc = 0;
	for (size_t i = 0; i < c->s->n_variants && rc == 0; i++) {
		const struct spec_variant *v = &c->s->variants[i];
		char ksha[SHA256_HEX_LEN + 1];
		if (sha256_file_hex(v->kernel, ksha) < 0)
			continue; /* the build says what is wrong with it */
		const struct run_record *who = NULL;
		char *code = query_code_text(v->kernel, ksha, v->params, v->n_params), *holder = NULL;
		if (cl && store_claims_other(cl, c->s->name, v->name, code, &holder))
			rc = error("variant '%s': the name is taken in this experiment's store by a session running "
				   "other code under it now (%s: an eval session, or another run): the store would hold "
				   "two codes under one name; rename the variant, or wait for it to end",
				   v->name, holder);
		else if (open && query_name_eval_other_code(&q, c->s->name, v->name, v->kernel, ksha, v->params,
							    v->n_params, &who))
			rc = error("variant '%s': the name is taken in this experiment's store by an eval candidate "
				   "of other code (run %s, kernel %s): the store would hold two codes under one name, "
				   "and a claim on the variant would read the candidate's runs; rename the variant",
				   v->name, who && who->run_id ? who->run_id : "?", who && who->kernel ? who->kernel : "?");
		/* and held while the batch runs, so that an eval session started
		 * meanwhile cannot take it for other code before the first run
		 * of it is recorded (red team 82's race) */
		if (rc == 0 && cl && store_claims_add(cl, c->s->name, v->name, code) < 0)
			rc = -1;
		free(holder);
		free(code);
	}
	if (cl) {
		store_claims_unlock(cl);
		if (rc < 0)
			store_claims_drop(cl);
		else
			*claims = cl;
	}
	if (open)
		query_release(&q);
	return rc;
}

/*
 * The same after the builds, by every source a variant's build read: an
 * eval candidate of its name with the same kernel file and parameters but
 * other headers is other code (red team 82's latehdr: its header made the
 * candidate wrong, was fixed, and the spec's honest variant took the
 * name; `validated` then read the candidate's runs as the current
 * source's).  0, or -1 after error().
 */
int run_headers_held(struct run_ctx *c)
{
	struct query q = QUERY_INIT;
	int saved = util_quiet;
	util_quiet = 1;
	int open = query_open(&q, c->st.root) == 0;
	util_quiet = saved;
	int rc = 0;
	for (size_t vi = 0; open && rc == 0 && vi < c->plan.n_variants; vi++) {
		const struct plan_variant *pv = &c->plan.variants[vi];
		if (plan_build(c, vi) < 0 || !pv->br.ok)
			continue; /* its job records why */
		const struct run_record *who = NULL;
		if (query_name_eval_other_sources(&q, c->s->name, pv->v->name, json_object_get(pv->br.info, "sources"),
						  pv->v->params, pv->v->n_params, &who))
			rc = error("variant '%s': the name is taken in this experiment's store by an eval candidate "
				   "whose sources differ (run %s, kernel %s: another header): the store would hold two "
				   "codes under one name; rename the variant",
				   pv->v->name, who && who->run_id ? who->run_id : "?",
				   who && who->kernel ? who->kernel : "?");
	}
	if (open)
		query_release(&q);
	return rc;
}

/* Variant vi's code as built (plan_build: the jobs find it built), for a
 * begun marker: {binary_sha256, echo_neutral_sha256, load_sha256, libs},
 * the object's hashes and its libraries' (code_identity.c's rule, from
 * the build's sources and toolchain manifest); NULL when it did not build. */
json_t *run_variant_code(struct run_ctx *c, size_t vi)
{
	struct plan_variant *pv = &c->plan.variants[vi];
	if (plan_build(c, vi) < 0 || !pv->br.ok || !pv->br.info)
		return NULL;
	json_t *info = pv->br.info, *src = json_object_get(info, "sources"), *e;
	struct run_record r;
	memset(&r, 0, sizeof(r));
	r.kernel = pv->v->kernel;
	r.sources = xcalloc(json_array_size(src) + 1, sizeof(*r.sources));
	size_t k;
	json_array_foreach(src, k, e)
	{
		struct rec_source *x = &r.sources[r.n_sources++];
		x->path = json_string_value(json_object_get(e, "path"));
		x->sha256 = json_string_value(json_object_get(e, "sha256"));
		x->loaded = json_is_true(json_object_get(e, "loaded"));
	}
	/* the system libraries the object loads (code.compiler.toolchain) */
	json_t *tc = json_object_get(info, "toolchain");
	r.compiler = tc ? json_pack("{s:O}", "toolchain", tc) : NULL;
	char libs[SHA256_HEX_LEN + 1];
	code_libs_of(&r, libs);
	json_decref(r.compiler);
	free(r.sources);
	json_t *o = json_object();
	const char *keys[] = { "binary_sha256", "echo_neutral_sha256", "load_sha256" };
	for (size_t j = 0; j < 3; j++) {
		const char *h = json_string_value(json_object_get(info, keys[j]));
		if (h)
			json_object_set_new(o, keys[j], json_string(h));
	}
	json_object_set_new(o, "libs", json_string(libs));
	return o;
}

/*
 * The batch's begun marker, once every variant is built and before the
 * first job (store_pending_begin_run_batch): each built variant's name and
 * code.  A session killed before its batch record leaves its runs and
 * this marker, and the readers of such a try (code_orphan_tries: the
 * audit's verdicts, eval's weighed batches) then know every pair of codes
 * it was a try of, one side's runs only included (red team 94: a session
 * killed on the reference's first fast run, before any run of the
 * candidate, was no try of it).  A reproduction's names the batch it
 * reproduces (run_options.reproduces): one killed before its batch record
 * is a reproduction that did not finish (red team 130).  0, or -1 after
 * error().
 */
static int run_marker(struct run_ctx *c)
{
	json_t *vs = json_array();
	for (size_t i = 0; i < c->plan.n_variants; i++) {
		json_t *code = run_variant_code(c, i);
		if (!code)
			continue; /* did not build: its job records why */
		if (c->plan.variants[i].v->name)
			json_object_set_new(code, "name", json_string(c->plan.variants[i].v->name));
		json_array_append_new(vs, code);
	}
	return store_pending_begin_run_batch(&c->st, c->plan.batch_id, c->s->name, vs, c->o->reproduces);
}

int run_experiment(const struct spec *s, const struct run_options *o, struct run_totals *t,
		   enum run_error *err)
{
	struct run_ctx c;
	struct batch_record b;
	struct store_claims *names = NULL;
	memset(&b, 0, sizeof(b));
	memset(t, 0, sizeof(*t));
	int rc = -1;
	if (run_open(&c, s, o, 1, err) < 0)
		goto out;
	if (run_names_held(&c, &names) < 0) {
		*err = RUN_SPEC;
		goto out;
	}
	t->batch_id = xstrdup(c.plan.batch_id);
	run_announce(&c);
	runcmd_trap_signals();
	plan_prebuild(&c);
	if (run_headers_held(&c) < 0) {
		*err = RUN_SPEC;
		goto out;
	}
	if (run_marker(&c) < 0 || (c.pool.n ? executor_pool(&c) : executor_local(&c)) < 0) {
		*err = c.box_refused ? RUN_ENV : RUN_STORE;
		goto out;
	}
	progress_clear(&c.prog);
	t->interrupted = c.interrupted;
	if (gather_batch(&c, &b, t, 1) < 0) {
		*err = RUN_STORE;
		goto out;
	}
	/* recorded: the batch record is the try now (else the marker stays,
	 * a try that never finished) */
	store_pending_end(&c.st, c.plan.batch_id);
	summary_print(&c, &b);
	rc = 0;
out:
	store_claims_drop(names); /* the batch is recorded, or nothing of it will be */
	batch_record_release(&b);
	run_close(&c);
	return rc;
}
