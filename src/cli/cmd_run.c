/*
 * cmd_run.c - `evident run SPEC.yaml`: validate the spec, then build,
 * check, time and record every variant (run.c), print the summary.
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

/* spec_env's problem_keys: build and load the problem's plug-in. */
struct keys_ctx {
	const char *cache_dir;
	struct problem pr;
};

static const char *const *problem_keys(const char *problem, int *n, struct strbuf *why, void *ctx)
{
	struct keys_ctx *k = ctx;
	problem_release(&k->pr);
	if (problem_load(problem, k->cache_dir, &k->pr, why) < 0)
		return NULL;
	*n = k->pr.desc->n_keys;
	return k->pr.desc->shape_keys;
}

/* p relative to root when it lies inside it (caller frees). */
static char *relative_to(const char *p, const char *root)
{
	size_t n = strlen(root);
	if (!strncmp(p, root, n) && p[n] == '/')
		return xstrdup(p + n + 1);
	return xstrdup(p);
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
	int jobs = (int)sysconf(_SC_NPROCESSORS_ONLN), repeats = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--store") && i + 1 < argc)
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
	struct keys_ctx kc = { cache_path, PROBLEM_INIT };
	struct spec_env env = { .check_files = 1, .problem_keys = problem_keys, .ctx = &kc };
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
		.gpus = gpus ? gpus : s.gpus,
	};
	struct run_totals t;
	enum run_error why;
	int r = run_experiment(&s, &o, &t, &why);
	if (r < 0)
		rc = why == RUN_NO_DEVICE ? EV_NO_DEVICE : why == RUN_STORE ? EV_STORE
			: why == RUN_USAGE ? (gpus ? EV_USAGE : EV_SPEC) : EV_ENV;
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
	return rc;
out_usage:
	free(only);
	return rc;
}
