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
#include "backends/problem.h"
#include "run/run.h"

static const char usage[] =
	"usage: evident run [options] SPEC.yaml\n"
	"\n"
	"Builds every variant of the experiment, checks it against the reference on\n"
	"fresh random inputs, times it, and records the result (failures included)\n"
	"in the store.  Prints a summary table.\n"
	"\n"
	"options:\n"
	"  --store DIR     the store (default: $EVIDENT_STORE, else store/ in the repository;\n"
	"                  the study's committed store is artifacts/: --store artifacts)\n"
	"  --only NAME     run only variant NAME, plus the baseline (repeatable)\n"
	"  --dry-run       validate the spec and list the variants; run and write nothing\n"
	"  --cache DIR     build cache (default: build/cache in the repository)\n"
	"  --device N      CUDA device ordinal (default 0)\n"
	"  --jobs N        compile up to N variants at once before running (default: CPUs online)\n"
	"  --repeats N     worker processes per variant (default: the spec's repeats, else 3 on\n"
	"                  cuda and 1 on host), interleaved with the other variants\n"
	"  --gpus all|N|0,2,5\n"
	"                  run on several GPUs at once (default: the spec's gpus, else one GPU):\n"
	"                  a slot per GPU, pinned with CUDA_VISIBLE_DEVICES; repeat r of every\n"
	"                  variant runs on slot r % N, so each GPU times every variant alike\n"
	"                  (repeats are raised to N when fewer).  N = the first N GPUs; one GPU\n"
	"                  by index: --device.  On the host backend: N concurrent CPU slots\n"
	"                  (all: one per CPU, a list: pinned to those CPUs)\n"
	"  --no-progress   no progress line even on a terminal\n"
	"\n"
	"Slurm (evident run --slurm ... SPEC.yaml; evident run --resume BATCH):\n"
	"  --slurm         build here, then submit one job array (sbatch --array --no-requeue),\n"
	"                  a task per repeat, each running every variant of its repeat into\n"
	"                  the store; prints the batch id.  Follow it with 'evident ls --batches',\n"
	"                  gather it with 'evident wait BATCH'\n"
	"  --partition P, --account A, --time T\n"
	"                  passed to sbatch (--time: a task's limit, e.g. 30 or 2:00:00)\n"
	"  --gpus-per-task N   GPUs per task (--gres=gpu:N; default 1 on cuda, none on host)\n"
	"  --max-parallel K    at most K tasks at once (--array=0-N%K)\n"
	"  --slurm-opt OPT     any other sbatch option, verbatim (repeatable): --slurm-opt --qos=high\n"
	"                      or --slurm-opt=--qos=high\n"
	"  --resume BATCH  submit again the runs of a Slurm batch that are missing or aborted\n"
	"                  (its tasks killed, timed out, preempted); options given replace its own\n"
	"\n";

/* Absolute form of p against the current directory (caller frees). */
static char *absolute(const char *p)
{
	if (p[0] == '/')
		return xstrdup(p);
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof(cwd)))
		return xstrdup(p);
	return xstrfmt("%s/%s", cwd, p);
}

/* The repository root for spec_abs: git work tree, else the cwd (caller frees). */
static char *find_root(const char *spec_abs)
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
static char *relative_to(const char *p, const char *root)
{
	size_t n = strlen(root);
	if (!strncmp(p, root, n) && p[n] == '/')
		return xstrdup(p + n + 1);
	return xstrdup(p);
}

/*
 * A Slurm option at argv[*i]: 1 consumed (into so, extra[]), 0 not one,
 * -1 a bad value (after error()).
 */
static int slurm_flag(int argc, const char **argv, int *i, struct slurm_options *so, const char **extra,
		      size_t *n_extra)
{
	const char *a = argv[*i], *v = *i + 1 < argc ? argv[*i + 1] : NULL;
	const char **str = !strcmp(a, "--partition") ? &so->partition
			   : !strcmp(a, "--account") ? &so->account
			   : !strcmp(a, "--time")    ? &so->time
						     : NULL;
	int *num = !strcmp(a, "--gpus-per-task") ? &so->gpus_per_task : !strcmp(a, "--max-parallel") ? &so->max_parallel
													  : NULL;
	if (!strncmp(a, "--slurm-opt=", 12)) {
		extra[(*n_extra)++] = a + 12;
		return 1;
	}
	if (!str && !num && strcmp(a, "--slurm-opt"))
		return 0;
	if (!v)
		return error("%s needs a value; see 'evident run --help'", a);
	(*i)++;
	if (str) {
		*str = v;
	} else if (num) {
		char *end;
		long n = strtol(v, &end, 10);
		if (*end || n < 1 || n > 100000)
			return error("%s must be a count (1 or more), not '%s'", a, v);
		*num = (int)n;
	} else {
		extra[(*n_extra)++] = v;
	}
	return 1;
}

static int exit_of(enum run_error why, int gpus_flag)
{
	switch (why) {
	case RUN_NO_DEVICE: return EV_NO_DEVICE;
	case RUN_STORE: return EV_STORE;
	case RUN_USAGE: return gpus_flag ? EV_USAGE : EV_SPEC;
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
		store = absolute(store_arg ? store_arg : env_store);
	} else {
		char *here = absolute("x");
		char *root = find_root(here);
		store = xstrfmt("%s/%s", root, store_default_root(NULL));
		free(root);
		free(here);
	}
	enum run_error why;
	int rc = run_slurm_resume(store, batch, so, progress, &why) < 0 ? exit_of(why, 1) : EV_OK;
	free(store);
	return rc;
}

int cmd_run(int argc, const char **argv)
{
	if (wants_help(argc, argv)) {
		usage_print(usage, 0);
		printf("%s", exit_codes_text());
		return EV_OK;
	}
	const char *store_arg = NULL, *cache_arg = NULL, *spec_path = NULL, *gpus = NULL;
	const char **only = xcalloc((size_t)argc + 1, sizeof(char *));
	size_t n_only = 0;
	int dry = 0, progress = isatty(2), device = 0, rc = EV_USAGE;
	int jobs = (int)sysconf(_SC_NPROCESSORS_ONLN), repeats = 0, slurm = 0, f;
	struct slurm_options so = { 0 };
	const char **extra = xcalloc((size_t)argc + 1, sizeof(char *)), *resume_batch = NULL;
	size_t n_extra = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if ((f = slurm_flag(argc, argv, &i, &so, extra, &n_extra)) != 0) {
			if (f < 0)
				goto out_usage;
		} else if (!strcmp(a, "--slurm"))
			slurm = 1;
		else if (!strcmp(a, "--resume") && i + 1 < argc)
			resume_batch = argv[++i];
		else if (!strcmp(a, "--store") && i + 1 < argc)
			store_arg = argv[++i];
		else if (!strcmp(a, "--cache") && i + 1 < argc)
			cache_arg = argv[++i];
		else if (!strcmp(a, "--only") && i + 1 < argc)
			only[n_only++] = argv[++i];
		else if (!strcmp(a, "--device") && i + 1 < argc)
			device = atoi(argv[++i]);
		else if (!strcmp(a, "--gpus") && i + 1 < argc)
			gpus = argv[++i];
		else if (!strcmp(a, "--jobs") && i + 1 < argc)
			jobs = atoi(argv[++i]);
		else if (!strcmp(a, "--repeats") && i + 1 < argc) {
			repeats = atoi(argv[++i]);
			if (repeats < 1 || repeats > 1000) {
				error("--repeats must be 1 to 1000, not '%s'", argv[i]);
				goto out_usage;
			}
		}
		else if (!strcmp(a, "--dry-run"))
			dry = 1;
		else if (!strcmp(a, "--no-progress"))
			progress = 0;
		else if (a[0] == '-' && a[1]) {
			error("unknown option '%s'; see 'evident run --help'", a);
			goto out_usage;
		} else if (!spec_path)
			spec_path = a;
		else {
			error("one spec at a time ('%s' and '%s'); see 'evident run --help'", spec_path, a);
			goto out_usage;
		}
	}
	so.extra = n_extra ? extra : NULL;
	if (resume_batch) {
		if (spec_path) {
			error("--resume takes the batch's own spec, not '%s'", spec_path);
			goto out_usage;
		}
		rc = resume(resume_batch, store_arg, &so, progress);
		goto out_usage;
	}
	if (!slurm && (so.partition || so.account || so.time || so.gpus_per_task || so.max_parallel || n_extra)) {
		error("--partition, --account, --time, --gpus-per-task, --max-parallel and --slurm-opt go with "
		      "--slurm (or --resume)");
		goto out_usage;
	}
	if (slurm && gpus) {
		error("--gpus and --slurm: a Slurm task gets its GPUs from Slurm (--gpus-per-task)");
		goto out_usage;
	}
	if (!spec_path) {
		error("no spec given; usage: evident run [options] SPEC.yaml");
		goto out_usage;
	}
	if (!path_exists(spec_path)) {
		error("spec '%s' does not exist; experiments live in experiments/NAME.yaml", spec_path);
		rc = EV_SPEC;
		goto out_usage;
	}
	char *spec_abs = absolute(spec_path);
	const char *env_store = getenv("EVIDENT_STORE");
	char *store_abs = store_arg ? absolute(store_arg)
				    : env_store && *env_store ? absolute(env_store) : NULL;
	char *cache_abs = cache_arg ? absolute(cache_arg) : NULL;
	char *root = find_root(spec_abs);
	char *spec_rel = NULL, *store_rel = NULL;
	struct spec s;
	memset(&s, 0, sizeof(s));
	if (chdir(root) < 0) {
		error("cannot enter the repository root '%s'", root);
		rc = EV_ENV;
		goto out;
	}
	spec_rel = relative_to(spec_abs, root);
	store_rel = store_abs ? relative_to(store_abs, root) : xstrdup(store_default_root(NULL));
	char *cache_path = cache_abs ? xstrdup(cache_abs) : xstrdup("build/cache");
	struct problem_keys_ctx kc = { cache_path, PROBLEM_INIT };
	struct spec_env env = { .check_files = 1, .problem_keys = problem_spec_keys, .ctx = &kc };
	int loaded = spec_load(spec_rel, &env, &s);
	problem_release(&kc.pr);
	free(cache_path);
	if (loaded < 0) {
		rc = EV_SPEC;
		goto out;
	}
	for (size_t i = 0; i < n_only; i++)
		if (!spec_variant(&s, only[i])) {
			error("--only '%s': no such variant in '%s'", only[i], spec_rel);
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
		rc = EV_OK;
		goto out;
	}
	struct run_options o = {
		.store_root = store_rel,
		.cache_dir = cache_abs ? cache_abs : "build/cache",
		.price_table = "data/gpu-prices.yaml",
		.only = n_only ? only : NULL,
		.progress = progress,
		.color = isatty(1) && !getenv("NO_COLOR"),
		.device = device,
		.jobs = jobs,
		.repeats = repeats,
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
	free(only);
	free(extra);
	return rc;
out_usage:
	free(only);
	free(extra);
	return rc;
}
