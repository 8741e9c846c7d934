/*
 * cmd_run.c - `evident run SPEC.yaml`: validate the spec, then build,
 * check, time and record every variant (run.c; a pool of GPUs with
 * --gpus, pool.c), print the summary; or, with --slurm, submit the batch
 * as a job array (slurm.c), and with --resume BATCH submit what it lacks.
 *
 * Paths: kernel paths in a spec are relative to the repository root (the
 * git work tree holding the spec, or the current directory outside git);
 * the runner changes into that root before building.  --store and
 * $EVIDENT_STORE are relative to where you ran the command; the default
 * store is $EVIDENT_STORE or store/ under the root (the study's
 * committed artifacts/ only with --store artifacts).
 */
#include <git2.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/evident.h"
#include "cli/options.h"
#include "backends/build.h"
#include "backends/problem.h"
#include "run/cost.h"
#include "run/provenance.h"
#include "run/run.h"
#include "run/search.h"

static const char synopsis[] =
	"usage: evident run [options] SPEC.yaml\n"
	"\n"
	"Builds every variant of the experiment, checks it against the reference on\n"
	"fresh random inputs, times it, and records the result (failures included)\n"
	"in the store.  Prints a summary table.  The default store is $EVIDENT_STORE,\n"
	"else store/ in the repository; the study's committed store is artifacts/\n"
	"(--store artifacts).\n"
	"\n"
	"Several GPUs (--gpus): a slot per GPU, pinned with CUDA_VISIBLE_DEVICES;\n"
	"repeat r of every variant runs on slot r % N, so each GPU times every variant\n"
	"alike (repeats are raised to N when fewer).  On the host backend, N concurrent\n"
	"CPU slots (all: one per CPU; a list: pinned to those CPUs).\n"
	"\n"
	"Slurm (evident run --slurm ... SPEC.yaml; evident run --resume BATCH): build\n"
	"here, then submit one job array (sbatch --array --no-requeue), a task per\n"
	"repeat, each running every variant of its repeat into the store; prints the\n"
	"batch id.  Follow it with 'evident ls --batches', gather it with 'evident\n"
	"wait BATCH'.  --resume submits again the runs of a Slurm batch that are\n"
	"missing or aborted (tasks killed, timed out, preempted).\n"
	"\n"
	"A spec with search: runs a search (README \"Searches\"): generation after\n"
	"generation, each one batch of the best so far and its mutated candidates, the\n"
	"best replaced only by a candidate judged faster; then the search record.  It\n"
	"exits 1 when the best failed on being measured again or a generation could\n"
	"not run.\n";

static struct opt_usage usage = { "run", synopsis, NULL };

/* Absolute form of p against the current directory (caller frees). */
char *cli_absolute(const char *p)
{
	if (p[0] == '/')
		return xstrdup(p);
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof(cwd)))
		return xstrdup(p);
	return xstrfmt("%s/%s", cwd, p);
}

/* The repository root for spec_abs: git work tree, else the cwd (caller frees). */
char *cli_repo_root(const char *spec_abs)
{
	char *dir = xstrdup(spec_abs);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	git_libgit2_init();
	git_buf buf = GIT_BUF_INIT;
	char *root = NULL;
	git_repository *repo = NULL;
	if (git_repository_discover(&buf, dir, 0, NULL) == 0 &&
	    git_repository_open(&repo, buf.ptr) == 0 && git_repository_workdir(repo)) {
		root = xstrdup(git_repository_workdir(repo));
		size_t n = strlen(root);
		if (n > 1 && root[n - 1] == '/')
			root[n - 1] = '\0';
	}
	git_repository_free(repo);
	git_buf_dispose(&buf);
	git_libgit2_shutdown();
	free(dir);
	if (!root) {
		char cwd[PATH_MAX];
		root = xstrdup(getcwd(cwd, sizeof(cwd)) ? cwd : ".");
	}
	return root;
}

/* p relative to root when it lies inside it (caller frees). */
char *cli_relative_to(const char *p, const char *root)
{
	size_t n = strlen(root);
	if (!strncmp(p, root, n) && p[n] == '/')
		return xstrdup(p + n + 1);
	return xstrdup(p);
}

/* --dry-run: the spec's flags as the build will take them (build_flags.c);
 * a refused one makes every variant build_failed */
static void dry_run_flags(const struct spec *s, const char *spec_rel, const char *cache_abs)
{
	if (!s->flags || !s->flags[0])
		return;
	char *why = build_flags_refusal((const char *const *)s->flags,
					!strcmp(s->backend, "cuda") ? BUILD_FLAGS_NVCC : BUILD_FLAGS_GCC, ".",
					cache_abs ? cache_abs : "build/cache");
	if (why)
		printf("flags: every variant's build will be refused (build_failed): %s: %s\n", spec_rel, why);
	else
		printf("flags: allowed\n");
	free(why);
}

/* --dry-run of a search: the spec is valid, and what its generations
 * would run (the candidates themselves depend on the verdicts). */
static int search_dry_run(const struct spec *s, const char *spec_rel, const char *store_rel, int repeats)
{
	const struct spec_search *x = s->search;
	int reps = repeats > 0 ? repeats : s->k.repeats;
	printf("spec %s is valid: experiment %s, backend %s, a search from %s (%s", spec_rel, s->name, s->backend,
	       s->variants[0].name, s->variants[0].kernel);
	for (size_t j = 0; j < s->variants[0].n_params; j++)
		printf(" %s=%s", s->variants[0].params[j].name, s->variants[0].params[j].value);
	printf(")\n");
	for (size_t i = 0; i < x->n_tunables; i++) {
		const struct spec_tunable *t = &x->tunables[i];
		printf("  tunable %-20s ", t->name);
		if (t->is_range)
			printf("%lld..%lld step %lld\n", t->lo, t->hi, t->step);
		else
			for (size_t k = 0; k < t->n_choices; k++)
				printf("%s%s", t->choices[k], k + 1 < t->n_choices ? ", " : "\n");
	}
	for (size_t i = 0; i < x->n_kernels; i++)
		printf("  kernel  %s\n", x->kernels[i]);
	size_t per_gen = (size_t)(x->population + 1);
	struct cost_estimate e;
	struct strbuf line = STRBUF_INIT;
	cost_estimate(store_rel, s->name, per_gen * (size_t)reps, &e);
	cost_plan_line(&line, s->name, per_gen, reps, &e);
	printf("up to %lld generation(s), each %s\n", x->generations, line.buf);
	if (x->budget_unit)
		printf("budget: %g %s; the seed %s\n", x->budget, x->budget_unit, x->seed_given ? "is fixed" : "will be drawn");
	strbuf_release(&line);
	return EV_OK;
}

static int exit_of(enum run_error why, int gpus_flag)
{
	switch (why) {
	case RUN_NO_DEVICE: return EV_NO_DEVICE;
	case RUN_STORE: return EV_STORE;
	case RUN_USAGE: return gpus_flag ? EV_USAGE : EV_SPEC;
	case RUN_SPEC: return EV_SPEC;
	case RUN_NOT_FOUND: return EV_NOT_FOUND;
	case RUN_TIMEOUT: return EV_FAILURES;
	default: return EV_ENV;
	}
}

/* `evident run --resume BATCH`: the store as given, else the default one
 * of the repository around the current directory. */
static int resume(const char *batch, const char *store_arg, const struct slurm_options *so, int progress)
{
	const char *env_store = getenv("EVIDENT_STORE");
	char *store = NULL;
	if (store_arg || (env_store && *env_store)) {
		store = cli_absolute(store_arg ? store_arg : env_store);
	} else {
		char *here = cli_absolute("x");
		char *root = cli_repo_root(here);
		store = xstrfmt("%s/%s", root, store_default_root(NULL));
		free(root);
		free(here);
	}
	enum run_error why;
	int rc = run_slurm_resume(store, batch, so, progress, &why) < 0 ? exit_of(why, 1) : EV_OK;
	free(store);
	return rc;
}

static int run_command_line(int argc, const char **argv)
{
	const char *store_arg = NULL, *cache_arg = NULL, *spec_path, *gpus = NULL, *resume_batch = NULL;
	struct opt_list only = OPT_LIST_INIT, slurm_opts = OPT_LIST_INIT;
	int dry = 0, progress = isatty(2), device = 0, rc = EV_USAGE, slurm = 0, unsandboxed = 0;
	int jobs = (int)sysconf(_SC_NPROCESSORS_ONLN), repeats = 0;
	struct slurm_options so = { 0 };
	const struct option opts[] = {
		OPT_STORE(&store_arg),
		OPT_STRING_LIST("only", &only, "NAME", "run only variant NAME, plus the baseline (repeatable)"),
		OPT_BOOL("dry-run", &dry, "validate the spec and list the variants; run and write nothing"),
		OPT_BOOL("unsandboxed", &unsandboxed,
			 "run the kernels' code without the sandbox (where namespaces are refused);\n"
			 "every record says so"),
		OPT_CACHE(&cache_arg),
		OPT_INT("device", &device, "N", "[0, 1023]", "CUDA device ordinal (default 0)"),
		OPT_INT("jobs", &jobs, "N", "[1, 4096]",
			"compile up to N variants at once before running (default: CPUs online)"),
		OPT_INT("repeats", &repeats, "N", "[1, 1000]",
			"worker processes per variant (default: the spec's repeats, else 3),\n"
			"interleaved with the other variants; with fewer than 3 no verdict is drawn"),
		OPT_STRING("gpus", &gpus, "all|N|0,2,5",
			   "run on several GPUs (host: CPU slots) at once (default: the spec's gpus,\n"
			   "else one); N = the first N, a list = those"),
		OPT_NO_PROGRESS(&progress),
		OPT_BOOL("slurm", &slurm, "submit the batch to Slurm as one job array"),
		OPT_STRING("partition", &so.partition, "P", "sbatch --partition"),
		OPT_STRING("account", &so.account, "A", "sbatch --account"),
		OPT_STRING("time", &so.time, "T", "sbatch --time: a task's limit (30, 2:00:00)"),
		OPT_INT("gpus-per-task", &so.gpus_per_task, "N", "[1, 100000]",
			"GPUs per task (--gres=gpu:N; default 1 on cuda, none on host)"),
		OPT_INT("max-parallel", &so.max_parallel, "K", "[1, 100000]", "at most K tasks at once (--array=0-N%K)"),
		OPT_STRING_LIST("slurm-opt", &slurm_opts, "OPT",
				"any other sbatch option, verbatim (repeatable): --slurm-opt --qos=high"),
		OPT_STRING("resume", &resume_batch, "BATCH",
			   "submit again the missing or aborted runs of a Slurm batch"),
		OPT_END(),
	};
	usage.epilogue = exit_codes_text();
	argc = parse_options(argc, argv, opts, &usage);
	if (argc < 0) {
		rc = argc == OPT_HELP ? EV_OK : EV_USAGE;
		goto out_usage;
	}
	so.extra = slurm_opts.n ? slurm_opts.v : NULL;
	/* the problem plug-in's build goes as the kernels' do (in the box, or
	 * not under --unsandboxed, which the record says) */
	problem_build_setup(&prov_view_ops, unsandboxed);
	if (resume_batch) {
		if (argc) {
			opt_usage_error(&usage, "--resume takes the batch's own spec, not '%s'", argv[0]);
			goto out_usage;
		}
		rc = resume(resume_batch, store_arg, &so, progress);
		goto out_usage;
	}
	if (!slurm && (so.partition || so.account || so.time || so.gpus_per_task || so.max_parallel || slurm_opts.n)) {
		opt_usage_error(&usage, "--partition, --account, --time, --gpus-per-task, --max-parallel and "
					"--slurm-opt go with --slurm (or --resume)");
		goto out_usage;
	}
	if (slurm && gpus) {
		opt_usage_error(&usage, "--gpus and --slurm: a Slurm task gets its GPUs from Slurm (--gpus-per-task)");
		goto out_usage;
	}
	if (argc != 1) {
		if (argc)
			opt_usage_error(&usage, "one spec at a time ('%s' and '%s')", argv[0], argv[1]);
		else
			opt_usage_error(&usage, "no spec given");
		goto out_usage;
	}
	spec_path = argv[0];
	if (!path_exists(spec_path)) {
		error("spec '%s' does not exist; experiments live in experiments/NAME.yaml", spec_path);
		rc = EV_SPEC;
		goto out_usage;
	}
	char *spec_abs = cli_absolute(spec_path);
	const char *env_store = getenv("EVIDENT_STORE");
	char *store_abs = store_arg ? cli_absolute(store_arg)
				    : env_store && *env_store ? cli_absolute(env_store) : NULL;
	char *cache_abs = cache_arg ? cli_absolute(cache_arg) : NULL;
	char *root = cli_repo_root(spec_abs);
	char *spec_rel = NULL, *store_rel = NULL;
	struct spec s;
	memset(&s, 0, sizeof(s));
	if (chdir(root) < 0) {
		error("cannot enter the repository root '%s'", root);
		rc = EV_ENV;
		goto out;
	}
	spec_rel = cli_relative_to(spec_abs, root);
	store_rel = store_abs ? cli_relative_to(store_abs, root) : xstrdup(store_default_root(NULL));
	char *cache_path = cache_abs ? xstrdup(cache_abs) : xstrdup("build/cache");
	struct problem_keys_ctx kc = { cache_path, PROBLEM_INIT };
	struct spec_env env = { .check_files = 1, .problem_keys = problem_spec_keys,
				.shape_hint = problem_spec_shape_hint, .ctx = &kc };
	int loaded = spec_load(spec_rel, &env, &s);
	problem_release(&kc.pr);
	free(cache_path);
	if (loaded < 0) {
		rc = EV_SPEC;
		goto out;
	}
	if (s.search && (only.n || slurm)) {
		error("%s: a search runs its generations here, one batch after another, so %s does not apply; drop "
		      "it, or run the spec without 'search:'",
		      spec_rel, only.n ? "--only" : "--slurm");
		rc = EV_USAGE;
		goto out;
	}
	if (s.search && dry) {
		rc = search_dry_run(&s, spec_rel, store_rel, repeats);
		dry_run_flags(&s, spec_rel, cache_abs);
		goto out;
	}
	for (size_t i = 0; i < only.n; i++)
		if (!spec_variant(&s, only.v[i])) {
			error("--only '%s': no such variant in '%s'", only.v[i], spec_rel);
			rc = EV_USAGE;
			goto out;
		}
	if (dry) {
		printf("spec %s is valid: experiment %s, backend %s, %zu variant(s), baseline %s\n",
		       spec_rel, s.name, s.backend, s.n_variants, s.baseline);
		for (size_t i = 0; i < s.n_variants; i++) {
			printf("  %-28s %s", s.variants[i].name, s.variants[i].kernel);
			for (size_t j = 0; j < s.variants[i].n_params; j++)
				printf(" %s=%s", s.variants[i].params[j].name, s.variants[i].params[j].value);
			printf("\n");
		}
		dry_run_flags(&s, spec_rel, cache_abs);
		/* what the run would be and cost (run.c prints the same line before it starts) */
		size_t nv = 0;
		for (size_t i = 0; i < s.n_variants; i++) {
			int want = !only.n || !strcmp(s.variants[i].name, s.baseline);
			for (size_t j = 0; !want && j < only.n; j++)
				want = !strcmp(only.v[j], s.variants[i].name);
			nv += want;
		}
		int reps = repeats > 0 ? repeats : s.k.repeats;
		struct cost_estimate e;
		struct strbuf line = STRBUF_INIT;
		cost_estimate(store_rel, s.name, nv * (size_t)reps, &e);
		cost_plan_line(&line, s.name, nv, reps, &e);
		printf("%s\n", line.buf);
		if (reps == 1 && nv > 1)
			printf("with 1 repeat per variant no comparison is decided (inconclusive); use --repeats 3 or more\n");
		strbuf_release(&line);
		rc = EV_OK;
		goto out;
	}
	struct run_options o = {
		.store_root = store_rel,
		.cache_dir = cache_abs ? cache_abs : "build/cache",
		.price_table = "data/gpu-prices.yaml",
		.only = only.v,
		.progress = progress,
		.color = isatty(1) && !getenv("NO_COLOR"),
		.device = device,
		.jobs = jobs,
		.repeats = repeats,
		.unsandboxed = unsandboxed,
		.gpus = slurm ? NULL : gpus ? gpus : s.gpus,
	};
	struct run_totals t;
	enum run_error why;
	if (slurm) {
		rc = run_slurm_submit(&s, &o, &so, &t, &why) < 0 ? exit_of(why, 1)
		     : t.interrupted			       ? EV_INTERRUPTED
							       : EV_OK;
		free(t.batch_id);
		goto out;
	}
	if (s.search) {
		struct search_totals st;
		int r = run_search(&s, &o, &st, &why);
		if (r < 0)
			rc = exit_of(why, gpus != NULL);
		else if (st.interrupted)
			rc = EV_INTERRUPTED;
		else
			rc = st.failed ? EV_FAILURES : EV_OK;
		if (r >= 0)
			printf("records: search %s and its %d generation batch(es) in %s/runs/\n", st.search_id,
			       st.generations, store_rel);
		free(st.search_id);
		goto out;
	}
	int r = run_experiment(&s, &o, &t, &why);
	if (r < 0)
		rc = exit_of(why, gpus != NULL);
	else if (t.interrupted)
		rc = EV_INTERRUPTED;
	else
		rc = t.unexpected ? EV_FAILURES : EV_OK;
	if (r >= 0)
		printf("records: %d variant(s) and batch %s in %s/runs/\n", t.variants, t.batch_id, store_rel);
	free(t.batch_id);
out:
	spec_release(&s);
	free(spec_abs);
	free(store_abs);
	free(cache_abs);
	free(root);
	free(spec_rel);
	free(store_rel);
	opt_list_release(&only);
	opt_list_release(&slurm_opts);
	return rc;
out_usage:
	opt_list_release(&only);
	opt_list_release(&slurm_opts);
	return rc;
}

/* libgit2 stays initialised for the whole command: cli_repo_root and the
 * record's provenance (run/provenance.c) each init and shut it down, and
 * every first init (libgit2 1.5 on mbedtls) parses the system's CA bundle,
 * /etc/ssl/certs/ca-certificates.crt (about 4.5 ms of CPU an init and
 * shutdown on the project's VM), which the runner, that never speaks to a
 * network, has no use for: held here, it is parsed once a run, not twice;
 * theirs only count references. */
int cmd_run(int argc, const char **argv)
{
	git_libgit2_init();
	int rc = run_command_line(argc, argv);
	git_libgit2_shutdown();
	return rc;
}
