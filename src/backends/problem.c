/*
 * problem.c - problems (contract in problem.h): the plug-in loader (build
 * through the cache, dlopen, validate), the helpers every process uses on a
 * loaded problem (shapes, tensor sizes, rounded inputs, the reference, the
 * tolerance check against a scramble), `evident help problems`, and the
 * older attention-only interface the worker still calls.
 */
#include "backends/problem.h"

#include <ctype.h>
#include <dirent.h>
#include <dlfcn.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "backends/backend.h"
#include "backends/backend_cuda.h"
#include "backends/build.h"
#include "base/sandbox.h"

/* ---- loading ------------------------------------------------------------ */

/* A problem name: a letter, then letters, digits and '_' (it names a file). */
static int name_ok(const char *s)
{
	if (!s || !isalpha((unsigned char)*s))
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return 0;
	return 1;
}

void problem_release(struct problem *p)
{
	if (!p)
		return;
	free(p->name);
	free(p->source_path);
	free(p->so_path);
	free(p->gpu_source);
	free(p->gpu_so_path);
	json_decref(p->build);
	json_decref(p->gpu_build);
	if (p->handle)
		dlclose(p->handle);
	problem_remote_free(p);
	*p = (struct problem)PROBLEM_INIT;
}

static int is_ident(const char *s)
{
	return name_ok(s) || (s && *s == '_' && (!s[1] || name_ok(s + 1)));
}

static int is_word(const char *s)
{
	if (!s || !*s)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-')
			return 0;
	return 1;
}

int problem_validate_desc(const struct ev_problem_desc *d, const char *name, struct strbuf *why)
{
#define BAD(...)                                    \
	do {                                        \
		strbuf_reset(why);                  \
		strbuf_addf(why, __VA_ARGS__);      \
		return -1;                          \
	} while (0)
	if (!d)
		BAD("evident_problem() returned NULL");
	if (d->abi_version != EVIDENT_PROBLEM_ABI_VERSION)
		BAD("problem ABI version %u, evident expects %d: rebuild against problems/evident_problem.h",
		    d->abi_version, EVIDENT_PROBLEM_ABI_VERSION);
	/* Every field of version 1 is required.  When fields are added at the
	 * end, accept the older size here and default the missing ones. */
	if (d->struct_size < sizeof(struct ev_problem_desc))
		BAD("struct_size %u is smaller than this evident's struct ev_problem_desc (%zu): "
		    "set it to sizeof(struct ev_problem_desc)", d->struct_size, sizeof(struct ev_problem_desc));
	const char *pn = name ? name : "?";
	if (!d->name || (name && strcmp(d->name, name)))
		BAD("problems/%s.c describes itself as '%s'; the name must match the file", pn,
		    d->name ? d->name : "(null)");
	if (!d->summary || !*d->summary)
		BAD("problem '%s' has no summary", d->name);
	if (d->n_keys < 1 || d->n_keys > EV_PROBLEM_MAX_KEYS)
		BAD("problem '%s' has %d shape keys; it needs 1 to %d", d->name, d->n_keys, EV_PROBLEM_MAX_KEYS);
	for (int i = 0; i < d->n_keys; i++) {
		if (!is_ident(d->shape_keys[i]))
			BAD("problem '%s': shape key %d '%s' is not an identifier", d->name, i,
			    d->shape_keys[i] ? d->shape_keys[i] : "(null)");
		for (int j = 0; j < i; j++)
			if (!strcmp(d->shape_keys[i], d->shape_keys[j]))
				BAD("problem '%s': shape key '%s' appears twice", d->name, d->shape_keys[i]);
	}
	if (d->n_tensors < 2 || d->n_tensors > EV_PROBLEM_MAX_TENSORS)
		BAD("problem '%s' has %d tensors; it needs 2 to %d", d->name, d->n_tensors, EV_PROBLEM_MAX_TENSORS);
	int nin = 0, nout = 0;
	for (int t = 0; t < d->n_tensors; t++) {
		const struct ev_problem_tensor *x = &d->tensors[t];
		if (!is_ident(x->name))
			BAD("problem '%s': tensor %d has no name (or not an identifier)", d->name, t);
		for (int j = 0; j < t; j++)
			if (!strcmp(x->name, d->tensors[j].name))
				BAD("problem '%s': tensor name '%s' appears twice", d->name, x->name);
		if (x->is_output)
			nout++;
		else if (nout)
			BAD("problem '%s': input '%s' comes after an output; list inputs first", d->name, x->name);
		else
			nin++;
		if (x->ndim < 1 || x->ndim > 4)
			BAD("problem '%s': tensor '%s' has ndim %d; it must be 1 to 4", d->name, x->name, x->ndim);
		for (int k = 0; k < x->ndim; k++)
			if (x->dims[k] < 0 || x->dims[k] >= d->n_keys)
				BAD("problem '%s': tensor '%s' dims[%d] = %d is not a shape key index (0..%d)",
				    d->name, x->name, k, x->dims[k], d->n_keys - 1);
	}
	if (nin < 1 || nin > 4)
		BAD("problem '%s' has %d inputs; the kernel ABI (struct ev_launch) carries 1 to 4", d->name, nin);
	if (nout < 1 || nout > 2)
		BAD("problem '%s' has %d outputs; the kernel ABI (struct ev_launch) carries 1 or 2", d->name, nout);
	if (d->n_dists < 1 || d->n_dists > EV_PROBLEM_MAX_DISTS)
		BAD("problem '%s' has %d distributions; it needs 1 to %d", d->name, d->n_dists, EV_PROBLEM_MAX_DISTS);
	for (int i = 0; i < d->n_dists; i++) {
		if (!is_word(d->dists[i]))
			BAD("problem '%s': distribution %d '%s' is not one word", d->name, i,
			    d->dists[i] ? d->dists[i] : "(null)");
		if (!d->dist_docs[i] || !*d->dist_docs[i])
			BAD("problem '%s': distribution '%s' has no dist_docs line", d->name, d->dists[i]);
		for (int j = 0; j < i; j++)
			if (!strcmp(d->dists[i], d->dists[j]))
				BAD("problem '%s': distribution '%s' appears twice", d->name, d->dists[i]);
	}
	if (!d->scalar != !d->scalar_doc)
		BAD("problem '%s': scalar and scalar_doc must both be set or both be NULL", d->name);
	const struct {
		const void *fn;
		const char *what;
	} fns[] = {
		{ (const void *)(uintptr_t)d->check, "check" },
		{ (const void *)(uintptr_t)d->flops, "flops" },
		{ (const void *)(uintptr_t)d->min_bytes, "min_bytes" },
		{ (const void *)(uintptr_t)d->fill, "fill" },
		{ (const void *)(uintptr_t)d->reference, "reference" },
		{ (const void *)(uintptr_t)d->tolerance, "tolerance" },
		{ (const void *)(uintptr_t)d->extra_shape, "extra_shape" },
		{ (const void *)(uintptr_t)d->small_shape, "small_shape" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(fns); i++)
		if (!fns[i].fn)
			BAD("problem '%s' has no %s() function", d->name, fns[i].what);
	return 0;
#undef BAD
}

/* ---- how plug-ins are built (problem.h problem_build_setup) ----------- */

static const struct repo_view_ops *build_view;
static int build_unboxed;
static struct sandbox build_box = SANDBOX_INIT;
static int build_box_state; /* 0: not tried; 1: made; -1: cannot be (build_box_why) */
static char *build_box_why;

void problem_build_setup(const struct repo_view_ops *view, int unboxed)
{
	build_view = view;
	build_unboxed = unboxed;
}

/* The plug-ins' build box, made on the first build that misses the cache
 * (build_request.box_on_miss) and kept for the process: a host box with
 * nothing shown or hidden of its own (the build box shows the toolchain
 * and the files pass 1's rule names, build.c).  A box that cannot be made
 * is not tried again. */
static const struct sandbox *problem_box(struct strbuf *why)
{
	if (!build_box_state) {
		struct strbuf w = STRBUF_INIT;
		build_box_state = sandbox_init(&build_box, 0, NULL, NULL, &w) < 0 ? -1 : 1;
		if (build_box_state < 0)
			build_box_why = strbuf_detach(&w, NULL);
		strbuf_release(&w);
	}
	if (build_box_state < 0) {
		strbuf_addstr(why, build_box_why ? build_box_why : "no reason given");
		return NULL;
	}
	return &build_box;
}

const struct sandbox *problem_host_box(struct strbuf *why)
{
	return problem_box(why);
}

/* A plug-in's build request: boxed, both passes, as a kernel's (red team
 * 128: unboxed and in one pass, gas's `.include` of a file outside the
 * repository, or a pasted `.incbin`, built bytes into the plug-in that no
 * key or record named), unless problem_build_setup said --unsandboxed. */
static void problem_request(struct build_request *rq, const char *source, const char *repo_root,
			    const char *cache_dir)
{
	memset(rq, 0, sizeof(*rq));
	rq->kernel_path = source;
	rq->repo_root = repo_root;
	rq->cache_dir = cache_dir;
	rq->box_on_miss = build_unboxed ? NULL : problem_box;
	rq->view = build_view;
}

/* Why a plug-in's build failed, one line (malloc'd): the build's own
 * reason (a refusal, a file the box did not show), else the log's first
 * line with "error", else NULL. */
static char *build_failure(const struct build_result *br)
{
	const char *reason = json_string_value(json_object_get(br->info, "reason"));
	return reason ? xstrdup(reason) : line_with(br->log, "error");
}

static const char *host_compiler(void)
{
	const char *cc = getenv("EVIDENT_HOST_CC");
	return cc && *cc ? cc : "cc";
}

/* dlopen so_path, check the descriptor, count the tensors: p->so_path,
 * handle, desc, n_inputs, n_outputs.  0, or -1 with the reason in why. */
static int open_so(struct problem *p, const char *so_path, struct strbuf *why)
{
	p->so_path = xstrdup(so_path);
	p->handle = dlopen(p->so_path, RTLD_NOW | RTLD_LOCAL);
	if (!p->handle) {
		strbuf_addf(why, "cannot load problem '%s': %s", p->name, dlerror());
		return -1;
	}
	ev_problem_fn fn = (ev_problem_fn)(uintptr_t)dlsym(p->handle, EVIDENT_PROBLEM_SYMBOL);
	if (!fn) {
		strbuf_addf(why, "the object of problem '%s' does not export evident_problem(); end its source "
			    "with EVIDENT_DEFINE_PROBLEM(desc)", p->name);
		return -1;
	}
	p->desc = fn();
	if (problem_validate_desc(p->desc, p->name, why) < 0)
		return -1;
	/* optional (evident_mix_fold.h): NULL when the problem has no fold */
	p->mix_fold = (ev_mix_fold_fn)(uintptr_t)dlsym(p->handle, EVIDENT_MIX_FOLD_SYMBOL);
	/* optional (evident_focus.h): NULL when no entry is judged alone */
	p->focus = (ev_focus_fn)(uintptr_t)dlsym(p->handle, EVIDENT_FOCUS_SYMBOL);
	/* optional (evident_fill_dtype.h): NULL when fill() serves every dtype */
	p->fill_dtype = (ev_fill_dtype_fn)(uintptr_t)dlsym(p->handle, EVIDENT_FILL_DTYPE_SYMBOL);
	/* optional (evident_timing_dists.h): distribution 0 when absent */
	ev_timing_dists_fn td = (ev_timing_dists_fn)(uintptr_t)dlsym(p->handle, EVIDENT_TIMING_DISTS_SYMBOL);
	p->timing_dists = 1;
	if (td) {
		unsigned m = td(), all = p->desc->n_dists >= 32 ? ~0u : (1u << p->desc->n_dists) - 1;
		if (!m || (m & ~all)) {
			strbuf_addf(why, "problem '%s': evident_problem_timing_dists() returns 0x%x, which %s; "
				    "set bit d for each timing distribution d of its %d",
				    p->name, m, m ? "names distributions it does not have" : "names no distribution",
				    p->desc->n_dists);
			return -1;
		}
		p->timing_dists = m;
	}
	for (int t = 0; t < p->desc->n_tensors; t++) {
		if (p->desc->tensors[t].is_output)
			p->n_outputs++;
		else
			p->n_inputs++;
	}
	/* the focus's entries are of the first output (evident_focus.h), and
	 * the checker judges them there alone: a problem of more outputs
	 * would have the others judged by the tolerance only, its focus
	 * silently narrower than its author meant (red team 124) */
	if (p->focus && p->n_outputs > 1) {
		strbuf_addf(why, "problem '%s': evident_problem_focus() names entries of the first output only, and the "
			    "problem has %d outputs: split it, or judge them by the tolerance alone (no focus)",
			    p->name, p->n_outputs);
		return -1;
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The problems under repo_root (problems/NAME.c), sorted: an array of
 * names the caller frees (each and the array), *n of them; NULL when there
 * is no problems/ directory. */
static char **problem_names(const char *repo_root, size_t *n)
{
	char *dir = xstrfmt("%s/problems", repo_root);
	DIR *dh = opendir(dir);
	char **names = NULL;
	*n = 0;
	free(dir);
	if (!dh)
		return NULL;
	struct dirent *de;
	while ((de = readdir(dh))) {
		size_t len = strlen(de->d_name);
		if (len < 3 || strcmp(de->d_name + len - 2, ".c"))
			continue;
		names = xrealloc(names, (*n + 1) * sizeof(char *));
		names[(*n)++] = xstrndup(de->d_name, len - 2);
	}
	closedir(dh);
	if (!names)
		names = xcalloc(1, sizeof(char *));
	qsort(names, *n, sizeof(char *), cmp_str);
	return names;
}

/* "unknown problem 'atention_fwd' (did you mean 'attention_fwd'?)", by
 * the rule of the spec's keys (run/spec.c): the nearest name within 3
 * edits, and fewer edits than the name is long; else the list. */
static void unknown_problem(const char *repo_root, const char *name, const char *source_path,
			    struct strbuf *why)
{
	size_t n;
	char **names = problem_names(repo_root, &n);
	const char *best = NULL;
	int bestd = 1 << 30;
	for (size_t i = 0; i < n; i++) {
		int d = edit_distance(name, names[i]);
		if (d < bestd) {
			bestd = d;
			best = names[i];
		}
	}
	strbuf_addf(why, "unknown problem '%s'", name);
	if (best && bestd <= 3 && bestd < (int)strlen(name)) {
		strbuf_addf(why, " (did you mean '%s'?)", best);
	} else if (n) {
		strbuf_addstr(why, " (known: ");
		for (size_t i = 0; i < n; i++)
			strbuf_addf(why, "%s%s", i ? ", " : "", names[i]);
		strbuf_addch(why, ')');
	}
	strbuf_addf(why, ": there is no '%s' (see 'evident help problems', docs/writing-a-problem.md adds one)",
		    source_path);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int problem_load_at(const char *repo_root, const char *name, const char *cache_dir,
		    struct problem *p, struct strbuf *why)
{
	struct build_result br = BUILD_RESULT_INIT;
	char *inc = NULL, *cu = NULL;
	int rc = -1;

	*p = (struct problem)PROBLEM_INIT;
	strbuf_reset(why);
	if (!name_ok(name)) {
		strbuf_addf(why, "'%s' is not a problem name (a letter, then letters, digits and _)",
			    name ? name : "");
		return -1;
	}
	p->name = xstrdup(name);
	p->source_path = !strcmp(repo_root, ".") ? xstrfmt("problems/%s.c", name)
						  : xstrfmt("%s/problems/%s.c", repo_root, name);
	if (!path_exists(p->source_path)) {
		unknown_problem(repo_root, name, p->source_path, why);
		goto out;
	}
	inc = xstrfmt("-I%s/problems", repo_root);
	const char *flags[] = { "-O2", "-std=c11", "-shared", "-fPIC", inc, NULL };
	struct build_recipe recipe = {
		.compiler = host_compiler(),
		.base_flags = flags,
		.version_flag = "--version",
	};
	struct build_request rq;
	problem_request(&rq, p->source_path, repo_root, cache_dir);
	if (build_run(&rq, &recipe, &br) < 0) {
		strbuf_addf(why, "cannot build problem '%s' (%s): see the error above", name, p->source_path);
		goto out;
	}
	if (!br.ok) {
		/* a build refused before compiling, or failed for a file its box
		 * did not show, says why in its reason, with no "error" in it
		 * (red team 128: the reason was hidden behind "without an error
		 * line") */
		char *e = build_failure(&br);
		strbuf_addf(why, "problem '%s' does not compile: %s", name,
			    e ? e : "the compiler failed without an error line");
		free(e);
		goto out;
	}
	p->build = json_incref(br.info);
	json_object_set_new(p->build, "path", json_string(p->source_path));
	/* the runner reads the plug-in's answers from its box (red team 130:
	 * loaded here, its code ran as the runner's user, read what it
	 * liked at run time and could write the store); --unsandboxed loads
	 * it here, as the record says */
	if (problem_calls_boxed() && !build_unboxed ? problem_remote_open(p, br.so_path, why) < 0
						    : open_so(p, br.so_path, why) < 0)
		goto out;
	cu = !strcmp(repo_root, ".") ? xstrfmt("problems/%s.cu", name)
				     : xstrfmt("%s/problems/%s.cu", repo_root, name);
	if (path_exists(cu)) {
		p->gpu_source = cu;
		cu = NULL;
	}
	rc = 0;
out:
	free(cu);
	free(inc);
	build_result_release(&br);
	if (rc < 0)
		problem_release(p);
	return rc;
}

int problem_open_so(const char *so_path, const char *name, struct problem *p, struct strbuf *why)
{
	*p = (struct problem)PROBLEM_INIT;
	p->name = xstrdup(name);
	if (open_so(p, so_path, why) < 0) {
		problem_release(p);
		return -1;
	}
	return 0;
}

int problem_load(const char *name, const char *cache_dir, struct problem *p, struct strbuf *why)
{
	return problem_load_at(".", name, cache_dir, p, why);
}

const char *const *problem_spec_keys(const char *problem, int *n, struct strbuf *why, void *ctx)
{
	struct problem_keys_ctx *k = ctx;
	problem_release(&k->pr);
	if (problem_load(problem, k->cache_dir, &k->pr, why) < 0)
		return NULL;
	*n = k->pr.desc->n_keys;
	return k->pr.desc->shape_keys;
}

void problem_spec_shape_hint(const char *const *names, const long long *vals, int n, void *ctx)
{
	(void)ctx;
	problem_shape_hint(names, vals, n);
}

int problem_build_gpu(struct problem *p, const char *repo_root, const char *cache_dir,
		      const char *arch, struct strbuf *why)
{
	struct cuda_directives dir = CUDA_DIRECTIVES_INIT;
	struct build_result br = BUILD_RESULT_INIT;
	struct strbuf src = STRBUF_INIT;
	char *nvcc = NULL, *home = NULL, *rpath = NULL, *inc = NULL, *archflag = NULL;
	const char **flags = NULL;
	char **libflags = NULL;
	int rc = -1;

	strbuf_reset(why);
	if (!p->gpu_source) {
		strbuf_addf(why, "problem '%s' has no GPU reference (problems/%s.cu)", p->name, p->name);
		return -1;
	}
	nvcc = cuda_find_tool("nvcc");
	if (!nvcc) {
		strbuf_addstr(why, "nvcc not found (set CUDA_HOME or NVCC, or put nvcc on PATH)");
		goto out;
	}
	if (read_file(p->gpu_source, &src) < 0 || cuda_parse_directives(strbuf_str(&src), &dir) < 0) {
		strbuf_addf(why, "cannot read the directives of '%s'", p->gpu_source);
		goto out;
	}
	const char *want = dir.arch ? dir.arch : arch;
	if (want && !(archflag = cuda_arch_flag(want))) {
		strbuf_addf(why, "arch '%s' for '%s' is not of the form sm_NN or sm_NNa", want, p->gpu_source);
		goto out;
	}
	home = cuda_home_of(nvcc);
	rpath = xstrfmt("%s/lib64", home);
	inc = xstrfmt("-I%s/problems", repo_root);
	flags = xcalloc(20 + dir.n_libs, sizeof(char *));
	libflags = xcalloc(dir.n_libs + 1, sizeof(char *));
	size_t nf = 0;
	flags[nf++] = "-O3";
	flags[nf++] = "-shared";
	flags[nf++] = "-Xcompiler";
	flags[nf++] = "-fPIC";
	flags[nf++] = "-cudart";
	flags[nf++] = "shared";
	if (archflag) {
		flags[nf++] = archflag;
	} else {
		flags[nf++] = "-gencode=arch=compute_80,code=sm_80";
		flags[nf++] = "-gencode=arch=compute_90,code=[sm_90,compute_90]";
	}
	flags[nf++] = inc;
	flags[nf++] = "-Xlinker";
	flags[nf++] = "-rpath";
	flags[nf++] = "-Xlinker";
	flags[nf++] = rpath;
	for (size_t i = 0; i < dir.n_libs; i++)
		flags[nf++] = libflags[i] = xstrfmt("-l%s", dir.libs[i]);
	flags[nf] = NULL;
	struct build_recipe recipe = {
		.compiler = nvcc,
		.base_flags = flags,
		.version_flag = "--version",
		.classify = cuda_classify_build_log,
	};
	struct build_request rq;
	problem_request(&rq, p->gpu_source, repo_root, cache_dir);
	if (build_run(&rq, &recipe, &br) < 0) {
		strbuf_addf(why, "cannot build the GPU reference '%s': see the error above", p->gpu_source);
		goto out;
	}
	if (!br.ok) {
		char *e = build_failure(&br);
		strbuf_addf(why, "the GPU reference '%s' does not compile: %s", p->gpu_source,
			    e ? e : "nvcc failed without an error line");
		free(e);
		goto out;
	}
	free(p->gpu_so_path);
	json_decref(p->gpu_build);
	p->gpu_so_path = xstrdup(br.so_path);
	p->gpu_build = json_incref(br.info);
	json_object_set_new(p->gpu_build, "path", json_string(p->gpu_source));
	json_object_set_new(p->gpu_build, "arch", json_string(want ? want : "sm_80+sm_90"));
	json_t *libs = json_array();
	for (size_t i = 0; i < dir.n_libs; i++)
		json_array_append_new(libs, json_string(dir.libs[i]));
	json_object_set_new(p->gpu_build, "libs", libs);
	rc = 0;
out:
	if (libflags)
		for (size_t i = 0; i < dir.n_libs; i++)
			free(libflags[i]);
	free(libflags);
	free(flags);
	free(nvcc);
	free(home);
	free(rpath);
	free(inc);
	free(archflag);
	cuda_directives_release(&dir);
	strbuf_release(&src);
	build_result_release(&br);
	return rc;
}

/* ---- shapes and tensors --------------------------------------------------- */

static void keys_list(const struct ev_problem_desc *d, struct strbuf *sb)
{
	for (int i = 0; i < d->n_keys; i++)
		strbuf_addf(sb, "%s%s", i ? " " : "", d->shape_keys[i]);
}

#define MAX_TENSOR_ELEMS (1LL << 40)

int problem_check_shape(const struct problem *p, const long long *shape, struct strbuf *why)
{
	const struct ev_problem_desc *d = p->desc;
	strbuf_reset(why);
	for (int i = 0; i < d->n_keys; i++)
		if (shape[i] < 1) {
			strbuf_addf(why, "shape key '%s' = %lld: every dimension must be at least 1",
				    d->shape_keys[i], shape[i]);
			return -1;
		}
	for (int t = 0; t < d->n_tensors; t++) {
		long long n = 1;
		for (int k = 0; k < d->tensors[t].ndim; k++) {
			long long v = shape[d->tensors[t].dims[k]];
			if (n > MAX_TENSOR_ELEMS / v) {
				strbuf_addf(why, "tensor '%s' of problem '%s' would hold more than 2^40 elements",
					    d->tensors[t].name, d->name);
				return -1;
			}
			n *= v;
		}
	}
	char err[256] = "";
	if ((p->remote ? problem_remote_check(p, shape, err, sizeof(err)) : d->check(shape, err, sizeof(err))) != 0) {
		strbuf_addf(why, "shape not valid for problem '%s': %s", d->name,
			    err[0] ? err : "check() refused it without a reason");
		return -1;
	}
	return 0;
}

int problem_shape_from_keys(const struct problem *p, const char *const *keys,
			    const long long *values, size_t n, long long *shape,
			    struct strbuf *why)
{
	const struct ev_problem_desc *d = p->desc;
	int seen[EV_PROBLEM_MAX_KEYS] = { 0 };
	strbuf_reset(why);
	for (size_t i = 0; i < n; i++) {
		int k = -1;
		for (int j = 0; j < d->n_keys; j++)
			if (!strcmp(keys[i], d->shape_keys[j]))
				k = j;
		if (k < 0) {
			const char *best = NULL;
			int bestd = 3;
			for (int j = 0; j < d->n_keys; j++) {
				/* a case slip, or a near miss of a key longer than the
				 * distance (any one-letter key is 1 from any other) */
				int e = strcasecmp(keys[i], d->shape_keys[j]) ? edit_distance(keys[i], d->shape_keys[j]) : 0;
				if (e < bestd && (e == 0 || (size_t)e < strlen(d->shape_keys[j]))) {
					bestd = e;
					best = d->shape_keys[j];
				}
			}
			strbuf_addf(why, "unknown shape key '%s' for problem '%s'", keys[i], d->name);
			if (best)
				strbuf_addf(why, " (did you mean '%s'?)", best);
			strbuf_addstr(why, "; its keys are ");
			keys_list(d, why);
			return -1;
		}
		if (seen[k]) {
			strbuf_addf(why, "shape key '%s' given twice", keys[i]);
			return -1;
		}
		seen[k] = 1;
		shape[k] = values[i];
	}
	for (int j = 0; j < d->n_keys; j++)
		if (!seen[j]) {
			strbuf_addf(why, "missing shape key '%s' for problem '%s' (its keys are ", d->shape_keys[j],
				    d->name);
			keys_list(d, why);
			strbuf_addch(why, ')');
			return -1;
		}
	return problem_check_shape(p, shape, why);
}

int problem_tensor_dims(const struct problem *p, int t, const long long *shape, long long dims[4])
{
	const struct ev_problem_tensor *x = &p->desc->tensors[t];
	for (int k = 0; k < 4; k++)
		dims[k] = k < x->ndim ? shape[x->dims[k]] : 1;
	return x->ndim;
}

size_t problem_tensor_numel(const struct problem *p, int t, const long long *shape)
{
	long long dims[4];
	problem_tensor_dims(p, t, shape, dims);
	return (size_t)dims[0] * (size_t)dims[1] * (size_t)dims[2] * (size_t)dims[3];
}

int problem_mix_fold(const struct problem *p, const long long *shape, int dist, int input, uint64_t fold[3])
{
	fold[0] = fold[1] = fold[2] = 0;
	if (!p->mix_fold || input < 0 || input >= p->n_inputs)
		return 0;
	int dim = -1;
	long long mod = 0;
	if (p->mix_fold(shape, dist, input, &dim, &mod) != 1)
		return 0;
	long long dims[4];
	int nd = problem_tensor_dims(p, input, shape, dims);
	if (dim < 0 || dim >= nd || mod < 1 || mod > dims[dim]) {
		fold[0] = fold[1] = fold[2] = 0;
		return -1;
	}
	uint64_t inner = 1;
	for (int k = dim + 1; k < nd; k++)
		inner *= (uint64_t)dims[k];
	fold[0] = inner;
	fold[1] = (uint64_t)dims[dim];
	fold[2] = (uint64_t)mod < (uint64_t)dims[dim] ? (uint64_t)mod : 0;
	return fold[2] ? 1 : 0;
}

unsigned problem_timing_dists(const struct problem *p)
{
	return p && p->timing_dists ? p->timing_dists : 1;
}

long long problem_focus(const struct problem *p, const long long *shape, int dist, int dtype, uint64_t key,
			const float *const *inputs, long long *index, double *value, double *bound)
{
	if (!p->focus || p->n_outputs < 1)
		return 0;
	long long n = p->focus(shape, dist, dtype, key, inputs, EV_FOCUS_MAX, index, value, bound);
	if (n < 0 || n > EV_FOCUS_MAX)
		return -1;
	long long numel = (long long)problem_tensor_numel(p, p->n_inputs, shape);
	for (long long i = 0; i < n; i++)
		if (index[i] < 0 || index[i] >= numel || !isfinite(value[i]) || !isfinite(bound[i]) || bound[i] < 0)
			return -1;
	return n;
}

/* Element i of a buffer of dtype, as a double. */
static double elem_at(const void *buf, int dtype, size_t i)
{
	if (dtype == EV_F16)
		return f16_to_f32(((const uint16_t *)buf)[i]);
	if (dtype == EV_BF16)
		return bf16_to_f32(((const uint16_t *)buf)[i]);
	return ((const float *)buf)[i];
}

long long problem_focus_judge(const void *out, const void *before, int dtype, size_t numel,
			      const long long *index, const double *value, const double *bound, long long n,
			      struct check_result *res, double *worst)
{
	const size_t es = dtype_size(dtype);
	long long bad = 0;
	double w = 0;
	for (long long i = 0; i < n; i++) {
		if (index[i] < 0 || (size_t)index[i] >= numel)
			continue;
		size_t at = (size_t)index[i];
		double o = elem_at(out, dtype, at), e = fabs(o - value[i]);
		/* unwritten and non-finite elements are problem_check_output's
		 * faults already: counting them again as mismatches would turn
		 * an unwritten output into a wrong one (outcome.c) */
		if (!isfinite(o) ||
		    (before && !memcmp((const char *)out + at * es, (const char *)before + at * es, es)))
			continue;
		double r = bound[i] > 0 ? e / bound[i] : e > 0 ? INFINITY : 0;
		w = r > w ? r : w;
		if (r <= 1)
			continue;
		bad++;
		res->mismatches++;
		if (res->first_mismatch < 0)
			res->first_mismatch = index[i];
		res->pass = 0;
	}
	if (worst)
		*worst = w;
	return bad;
}

/* the boxed answers of a described problem at shape, or NULL (printed) */
static const struct pb_answer *remote_at(const struct problem *p, const long long *shape)
{
	return problem_remote_answer(p, shape, NULL);
}

double problem_scalar(const struct problem *p, const long long *shape)
{
	if (p->remote) {
		const struct pb_answer *a = remote_at(p, shape);
		return a ? a->scalar : NAN;
	}
	return p->desc->scalar ? p->desc->scalar(shape) : 0.0;
}

double problem_flops(const struct problem *p, const long long *shape)
{
	if (p->remote) {
		const struct pb_answer *a = remote_at(p, shape);
		return a ? a->flops : NAN;
	}
	return p->desc->flops(shape);
}

double problem_min_bytes(const struct problem *p, const long long *shape, size_t elem_bytes)
{
	if (p->remote) {
		const struct pb_answer *a = remote_at(p, shape);
		return a ? (elem_bytes == 1 || elem_bytes == 2 || elem_bytes == 4 || elem_bytes == 8 ? a->min_bytes[elem_bytes] : NAN) : NAN;
	}
	return p->desc->min_bytes(shape, elem_bytes);
}

int problem_extra_shape(const struct problem *p, const long long *shape, long long *out)
{
	if (p->remote) {
		const struct pb_answer *a = remote_at(p, shape);
		if (!a || a->extra_rc)
			return -1;
		memcpy(out, a->extra, sizeof(long long) * (size_t)p->desc->n_keys);
		return 0;
	}
	return p->desc->extra_shape ? p->desc->extra_shape(shape, out) : -1;
}

int problem_dist_index(const struct problem *p, const char *name)
{
	for (int i = 0; name && i < p->desc->n_dists; i++)
		if (!strcmp(p->desc->dists[i], name))
			return i;
	return -1;
}

int problem_dist_for_seed(const struct problem *p, int seed_index)
{
	int n = p->desc->n_dists;
	return ((seed_index % n) + n) % n;
}

void problem_tolerance(const struct problem *p, int dtype, const long long *shape,
		       struct ev_tolerance *tol)
{
	if (p->remote) {
		const struct pb_answer *a = remote_at(p, shape);
		tol->atol = tol->rtol = tol->rel_l2 = NAN;
		if (a && dtype >= 1 && dtype <= 4)
			*tol = a->tol[dtype];
		return;
	}
	p->desc->tolerance(dtype, shape, tol);
}

/* ---- inputs, references ---------------------------------------------------- */

static float round_to(float x, int dtype)
{
	if (dtype == EV_F16)
		return f16_to_f32(f32_to_f16(x));
	if (dtype == EV_BF16)
		return bf16_to_f32(f32_to_bf16(x));
	return x;
}

/*
 * fp16 rounding and packing of whole arrays by the CPU's F16C
 * instructions where it has them (x86-64 since 2012): the same
 * round-to-nearest-even as f32_to_f16 bit for bit (test_problem checks
 * every fp16 value, every tie between two and their neighbours), several
 * times faster.  A fresh timed CUDA sample fills, rounds and packs every
 * input each sample (fresh.h), where the scalar conversions were three
 * quarters of the host's time (bench_fresh).
 */
#if defined(__x86_64__)
__attribute__((target("avx,f16c"))) static void f16c_round(float *x, size_t n)
{
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		__m128i h = _mm256_cvtps_ph(_mm256_loadu_ps(x + i), _MM_FROUND_TO_NEAREST_INT);
		_mm256_storeu_ps(x + i, _mm256_cvtph_ps(h));
	}
	for (; i < n; i++)
		x[i] = f16_to_f32(f32_to_f16(x[i]));
}

__attribute__((target("avx,f16c"))) static void f16c_pack(const float *src, uint16_t *dst, size_t n)
{
	size_t i = 0;
	for (; i + 8 <= n; i += 8)
		_mm_storeu_si128((__m128i *)(dst + i),
				 _mm256_cvtps_ph(_mm256_loadu_ps(src + i), _MM_FROUND_TO_NEAREST_INT));
	for (; i < n; i++)
		dst[i] = f32_to_f16(src[i]);
}

static int have_f16c(void)
{
	static int have = -1;
	if (have < 0)
		have = __builtin_cpu_supports("avx") && __builtin_cpu_supports("f16c");
	return have;
}
#endif

void problem_round_n(float *x, size_t n, int dtype)
{
#if defined(__x86_64__)
	if (dtype == EV_F16 && have_f16c()) {
		f16c_round(x, n);
		return;
	}
#endif
	if (dtype == EV_F16 || dtype == EV_BF16)
		for (size_t i = 0; i < n; i++)
			x[i] = round_to(x[i], dtype);
}

int problem_fill_rounded(const struct problem *p, const long long *shape, int dist,
			 uint64_t seed, int dtype, float **inputs)
{
	const struct ev_problem_desc *d = p->desc;
	if (dist < 0 || dist >= d->n_dists)
		return error("problem '%s' has no distribution %d (it has %d)", d->name, dist, d->n_dists);
	if (!dtype_size(dtype))
		return error("unknown dtype %d for problem '%s'", dtype, d->name);
	if (p->remote)
		return error("problem '%s': its fill() runs in its box (problem_filler_fill), not here", d->name);
	/* the dtype's own fill where the plug-in has one (evident_fill_dtype.h;
	 * red team 291 row 1: rowsum's fp16-bound scale left fp32 inputs under
	 * 2^-14 undrawn, and a 2^-32 fixed-point sum passed every check) */
	if (p->fill_dtype)
		p->fill_dtype(shape, dist, seed, dtype, (float *const *)inputs);
	else
		d->fill(shape, dist, seed, (float *const *)inputs);
	for (int t = 0; t < p->n_inputs; t++) {
		size_t n = problem_tensor_numel(p, t, shape);
		float *x = inputs[t];
		problem_round_n(x, n, dtype);
		for (size_t i = 0; i < n; i++) {
			if (!isfinite(x[i]))
				return error("problem '%s', distribution '%s': input '%s'[%zu] is not finite "
					     "after rounding to %s; fix its fill() (values must stay in range)",
					     d->name, d->dists[dist], d->tensors[t].name, i, dtype_name(dtype));
		}
	}
	return 0;
}

float **problem_inputs_new(const struct problem *p, const long long *shape)
{
	float **b = xcalloc((size_t)p->n_inputs, sizeof(float *));
	for (int t = 0; t < p->n_inputs; t++)
		b[t] = xmalloc(problem_tensor_numel(p, t, shape) * sizeof(float));
	return b;
}

double **problem_outputs_new(const struct problem *p, const long long *shape)
{
	double **b = xcalloc((size_t)p->n_outputs, sizeof(double *));
	for (int o = 0; o < p->n_outputs; o++)
		b[o] = xmalloc(problem_tensor_numel(p, p->n_inputs + o, shape) * sizeof(double));
	return b;
}

void problem_buffers_free(void *bufs, int n)
{
	void **b = bufs;
	if (!b)
		return;
	for (int i = 0; i < n; i++)
		free(b[i]);
	free(b);
}

void problem_reference(const struct problem *p, const long long *shape,
		       const float *const *inputs, double *const *outputs)
{
	p->desc->reference(shape, problem_scalar(p, shape), inputs, outputs);
}

void problem_pack(const float *src, void *dst, size_t n, int dtype)
{
	switch (dtype) {
	case EV_F16:
#if defined(__x86_64__)
		if (have_f16c()) {
			f16c_pack(src, dst, n);
			break;
		}
#endif
		for (size_t i = 0; i < n; i++)
			((uint16_t *)dst)[i] = f32_to_f16(src[i]);
		break;
	case EV_BF16:
		for (size_t i = 0; i < n; i++)
			((uint16_t *)dst)[i] = f32_to_bf16(src[i]);
		break;
	case EV_F64:
		for (size_t i = 0; i < n; i++)
			((double *)dst)[i] = src[i];
		break;
	default:
		memcpy(dst, src, n * sizeof(float));
	}
}

void problem_unpack(const void *src, float *dst, size_t n, int dtype)
{
	switch (dtype) {
	case EV_F16:
		for (size_t i = 0; i < n; i++)
			dst[i] = f16_to_f32(((const uint16_t *)src)[i]);
		break;
	case EV_BF16:
		for (size_t i = 0; i < n; i++)
			dst[i] = bf16_to_f32(((const uint16_t *)src)[i]);
		break;
	case EV_F64:
		for (size_t i = 0; i < n; i++)
			dst[i] = (float)((const double *)src)[i];
		break;
	default:
		memcpy(dst, src, n * sizeof(float));
	}
}

void problem_scramble(void *buf, size_t bytes, uint64_t seed)
{
	uint64_t st = seed ^ 0x5c3a9b1e7d24f086ULL;
	unsigned char *b = buf;
	size_t i = 0;
	for (; i + 8 <= bytes; i += 8) {
		uint64_t r = ev_splitmix64(&st);
		memcpy(b + i, &r, 8);
	}
	if (i < bytes) {
		uint64_t r = ev_splitmix64(&st);
		memcpy(b + i, &r, bytes - i);
	}
}

/* Element i of a raw dtype buffer, as double. */
static double elem(const void *buf, int dtype, size_t i)
{
	switch (dtype) {
	case EV_F16:
		return f16_to_f32(((const uint16_t *)buf)[i]);
	case EV_BF16:
		return bf16_to_f32(((const uint16_t *)buf)[i]);
	case EV_F64:
		return ((const double *)buf)[i];
	default:
		return ((const float *)buf)[i];
	}
}

void problem_draw_sha256(float *const *in, const size_t *in_n, int n_in, double *const *out, const size_t *out_n,
			 int n_out, char in_hex[SHA256_HEX_LEN + 1], char out_hex[SHA256_HEX_LEN + 1])
{
	struct sha256_ctx *h = sha256_begin();
	for (int t = 0; t < n_in; t++)
		sha256_update(h, in[t], in_n[t] * sizeof(float));
	sha256_end(h, in_hex);
	h = sha256_begin();
	double chunk[512];
	for (int o = 0; o < n_out; o++)
		for (size_t i = 0; i < out_n[o]; i += 512) {
			size_t k = out_n[o] - i < 512 ? out_n[o] - i : 512;
			for (size_t j = 0; j < k; j++)
				chunk[j] = isnan(out[o][i + j]) ? NAN : out[o][i + j];
			sha256_update(h, chunk, k * sizeof(double));
		}
	sha256_end(h, out_hex);
}

void problem_focus_sha256(const long long *index, const double *value, const double *bound, long long n,
			  char hex[SHA256_HEX_LEN + 1])
{
	struct sha256_ctx *h = sha256_begin();
	int64_t k = n;
	sha256_update(h, &k, sizeof(k));
	for (long long i = 0; i < n; i++) {
		int64_t ix = index[i];
		double v = isnan(value[i]) ? NAN : value[i], b = isnan(bound[i]) ? NAN : bound[i];
		sha256_update(h, &ix, sizeof(ix));
		sha256_update(h, &v, sizeof(v));
		sha256_update(h, &b, sizeof(b));
	}
	sha256_end(h, hex);
}

void problem_check_output(const void *out, const void *before, int dtype, const double *ref_d,
			  const float *ref_f, size_t numel, const struct ev_tolerance *tol,
			  struct check_result *res)
{
	const size_t es = dtype_size(dtype) ? dtype_size(dtype) : 4;
	double scale = 0, den = 0, num = 0;
	memset(res, 0, sizeof(*res));
	res->first_mismatch = -1;
	for (size_t i = 0; i < numel; i++) {
		double r = ref_d ? ref_d[i] : (double)ref_f[i];
		if (!isfinite(r))
			continue;
		if (fabs(r) > scale)
			scale = fabs(r);
		den += r * r;
	}
	res->ref_scale = scale > 0 ? scale : 1.0;
	const double abs_tol = tol->atol * res->ref_scale;
	for (size_t i = 0; i < numel; i++) {
		double r = ref_d ? ref_d[i] : (double)ref_f[i];
		double o = elem(out, dtype, i);
		if (!isfinite(r)) {
			res->ref_nonfinite++;
			if (res->first_mismatch < 0)
				res->first_mismatch = (long long)i;
			continue;
		}
		double e = fabs(o - r);
		int bad = !isfinite(o) || e > abs_tol + tol->rtol * fabs(r);
		if (bad && before &&
		    !memcmp((const char *)out + i * es, (const char *)before + i * es, es)) {
			res->unwritten++;
		} else if (!isfinite(o)) {
			res->nan_count++;
		} else {
			num += e * e;
			if (e > res->max_abs_err)
				res->max_abs_err = e;
			if (bad)
				res->mismatches++;
		}
		if (bad && res->first_mismatch < 0)
			res->first_mismatch = (long long)i;
	}
	res->rel_l2 = den > 0 ? sqrt(num / den) : sqrt(num);
	res->pass = !res->nan_count && !res->unwritten && !res->mismatches && !res->ref_nonfinite &&
		    res->rel_l2 <= tol->rel_l2;
}

/* ---- evident help problems --------------------------------------------------- */

static void describe(const struct problem *p, struct strbuf *out)
{
	const struct ev_problem_desc *d = p->desc;
	strbuf_addf(out, "%s - %s\n", d->name, d->summary);
	strbuf_addstr(out, "  shape keys     ");
	keys_list(d, out);
	strbuf_addstr(out, "\n  tensors        ");
	for (int t = 0; t < d->n_tensors; t++) {
		const struct ev_problem_tensor *x = &d->tensors[t];
		if (t == 0)
			strbuf_addstr(out, "in ");
		else if (t == p->n_inputs)
			strbuf_addstr(out, "; out ");
		else
			strbuf_addch(out, ' ');
		strbuf_addf(out, "%s[", x->name);
		for (int k = 0; k < x->ndim; k++)
			strbuf_addf(out, "%s%s", k ? "," : "", d->shape_keys[x->dims[k]]);
		strbuf_addch(out, ']');
	}
	strbuf_addf(out, "\n  scale          %s\n", d->scalar_doc ? d->scalar_doc : "(unused)");
	size_t w = 0;
	for (int i = 0; i < d->n_dists; i++)
		if (strlen(d->dists[i]) > w)
			w = strlen(d->dists[i]);
	for (int i = 0; i < d->n_dists; i++)
		strbuf_addf(out, "  %-15s%-*s  %s%s\n", i ? "" : "distributions", (int)w, d->dists[i],
			    d->dist_docs[i], i ? "" : " (default)");
	strbuf_addf(out, "  gpu reference  %s\n", p->gpu_source ? p->gpu_source : "(none: CPU float64 only)");
}

int problem_list_help(const char *repo_root, const char *cache_dir, struct strbuf *out)
{
	char *dir = xstrfmt("%s/problems", repo_root);
	size_t n;
	char **names = problem_names(repo_root, &n);
	int rc = 0;
	if (!names) {
		strbuf_addf(out, "no problems: there is no '%s' directory\n", dir);
		free(dir);
		return -1;
	}
	strbuf_addstr(out, "problems (problems/NAME.c; docs/writing-a-problem.md adds one):\n");
	for (size_t i = 0; i < n; i++) {
		struct problem p = PROBLEM_INIT;
		struct strbuf why = STRBUF_INIT;
		strbuf_addch(out, '\n');
		if (problem_load_at(repo_root, names[i], cache_dir, &p, &why) < 0) {
			strbuf_addf(out, "%s - cannot load: %s\n", names[i], strbuf_str(&why));
			rc = -1;
		} else {
			describe(&p, out);
		}
		problem_release(&p);
		strbuf_release(&why);
		free(names[i]);
	}
	if (!n) {
		strbuf_addf(out, "\n(none in '%s')\n", dir);
		rc = -1;
	}
	free(names);
	free(dir);
	return rc;
}

/* ---- the attention-only interface (until the worker switches) ------------ */

static const char *const attn_keys[] = { "B", "H", "S", "D", NULL };

int problem_known(const char *name)
{
	return name && !strcmp(name, "attention_fwd");
}

const char *const *problem_shape_keys(const char *name)
{
	return problem_known(name) ? attn_keys : NULL;
}

size_t attn_numel(const struct attn_shape *s)
{
	return (size_t)s->B * (size_t)s->H * (size_t)s->S * (size_t)s->D;
}

double attn_flops(const struct attn_shape *s)
{
	return 4.0 * (double)s->B * (double)s->H * (double)s->S * (double)s->S * (double)s->D;
}

double attn_min_bytes(const struct attn_shape *s, size_t elem_bytes)
{
	return 4.0 * (double)attn_numel(s) * (double)elem_bytes;
}

int dtype_from_name(const char *name)
{
	if (!name)
		return 0;
	if (!strcmp(name, "fp32") || !strcmp(name, "float32"))
		return EV_F32;
	if (!strcmp(name, "fp16") || !strcmp(name, "float16"))
		return EV_F16;
	if (!strcmp(name, "bf16") || !strcmp(name, "bfloat16"))
		return EV_BF16;
	if (!strcmp(name, "fp64") || !strcmp(name, "float64"))
		return EV_F64;
	return 0;
}

size_t dtype_size(int dtype)
{
	switch (dtype) {
	case EV_F32: return 4;
	case EV_F16: return 2;
	case EV_BF16: return 2;
	case EV_F64: return 8;
	default: return 0;
	}
}

const char *dtype_name(int dtype)
{
	switch (dtype) {
	case EV_F32: return "fp32";
	case EV_F16: return "fp16";
	case EV_BF16: return "bf16";
	case EV_F64: return "fp64";
	default: return "unknown";
	}
}

uint16_t f32_to_f16(float f)
{
	uint32_t x;
	memcpy(&x, &f, 4);
	uint32_t sign = (x >> 16) & 0x8000u;
	uint32_t exp = (x >> 23) & 0xffu;
	uint32_t man = x & 0x7fffffu;
	if (exp == 0xff) /* inf or nan */
		return (uint16_t)(sign | 0x7c00u | (man ? 0x200u | (man >> 13) : 0));
	int e = (int)exp - 127 + 15;
	if (e >= 31)
		return (uint16_t)(sign | 0x7c00u);
	if (e <= 0) {
		if (e < -10)
			return (uint16_t)sign;
		man |= 0x800000u;
		int shift = 14 - e;
		uint32_t half = man >> shift;
		uint32_t rem = man & ((1u << shift) - 1);
		uint32_t mid = 1u << (shift - 1);
		if (rem > mid || (rem == mid && (half & 1)))
			half++;
		return (uint16_t)(sign | half);
	}
	uint32_t half = sign | ((uint32_t)e << 10) | (man >> 13);
	uint32_t rem = man & 0x1fffu;
	if (rem > 0x1000u || (rem == 0x1000u && (half & 1)))
		half++; /* may carry into the exponent: that is correct rounding */
	return (uint16_t)half;
}

float f16_to_f32(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
	uint32_t exp = (h >> 10) & 0x1fu;
	uint32_t man = h & 0x3ffu;
	uint32_t x;
	if (exp == 0) {
		if (!man) {
			x = sign;
		} else { /* subnormal: normalise */
			int e = -1;
			do {
				e++;
				man <<= 1;
			} while (!(man & 0x400u));
			x = sign | ((uint32_t)(127 - 15 - e) << 23) | ((man & 0x3ffu) << 13);
		}
	} else if (exp == 31) {
		x = sign | 0x7f800000u | (man << 13);
	} else {
		x = sign | ((exp - 15 + 127) << 23) | (man << 13);
	}
	float f;
	memcpy(&f, &x, 4);
	return f;
}

uint16_t f32_to_bf16(float f)
{
	uint32_t x;
	memcpy(&x, &f, 4);
	if ((x & 0x7fffffffu) > 0x7f800000u)
		return (uint16_t)((x >> 16) | 0x40u); /* quiet nan */
	uint32_t rounding = 0x7fffu + ((x >> 16) & 1u);
	return (uint16_t)((x + rounding) >> 16);
}

float bf16_to_f32(uint16_t h)
{
	uint32_t x = (uint32_t)h << 16;
	float f;
	memcpy(&f, &x, 4);
	return f;
}

/* SplitMix64: tiny, fast, identical everywhere. */
static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static float draw(uint64_t *st, int round_to)
{
	for (;;) {
		/* 24 random bits -> [-1, 1) */
		float u = (float)(splitmix64(st) >> 40) * (1.0f / 8388608.0f) - 1.0f;
		if (round_to == EV_F16)
			u = f16_to_f32(f32_to_f16(u));
		else if (round_to == EV_BF16)
			u = bf16_to_f32(f32_to_bf16(u));
		if (u != 0.0f)
			return u;
	}
}

void attn_fill_inputs(const struct attn_shape *s, uint64_t seed, int round_to, float *q,
		      float *k, float *v)
{
	size_t n = attn_numel(s);
	uint64_t st = seed * 0x2545f4914f6cdd1dull + 1;
	for (size_t i = 0; i < n; i++)
		q[i] = draw(&st, round_to);
	for (size_t i = 0; i < n; i++)
		k[i] = draw(&st, round_to);
	for (size_t i = 0; i < n; i++)
		v[i] = draw(&st, round_to);
}

void attn_reference_cpu(const struct attn_shape *s, const float *q, const float *k,
			const float *v, double *out)
{
	long long S = s->S, D = s->D;
	double scale = 1.0 / sqrt((double)D);
	double *p = xmalloc((size_t)S * sizeof(double));
	for (long long bh = 0; bh < s->B * s->H; bh++) {
		const float *Q = q + bh * S * D, *K = k + bh * S * D, *V = v + bh * S * D;
		double *O = out + bh * S * D;
		for (long long i = 0; i < S; i++) {
			double m = -INFINITY;
			for (long long j = 0; j < S; j++) {
				double acc = 0;
				for (long long d = 0; d < D; d++)
					acc += (double)Q[i * D + d] * (double)K[j * D + d];
				p[j] = acc * scale;
				if (p[j] > m)
					m = p[j];
			}
			double sum = 0;
			for (long long j = 0; j < S; j++) {
				p[j] = exp(p[j] - m);
				sum += p[j];
			}
			for (long long d = 0; d < D; d++) {
				double acc = 0;
				for (long long j = 0; j < S; j++)
					acc += p[j] * (double)V[j * D + d];
				O[i * D + d] = acc / sum;
			}
		}
	}
	free(p);
}

void poison_fill(void *out, int dtype, size_t numel)
{
	if (dtype == EV_F32) {
		uint32_t *o = out, pat = POISON_F32;
		for (size_t i = 0; i < numel; i++)
			o[i] = pat;
	} else if (dtype == EV_F16 || dtype == EV_BF16) {
		uint16_t *o = out, pat = dtype == EV_F16 ? POISON_F16 : POISON_BF16;
		for (size_t i = 0; i < numel; i++)
			o[i] = pat;
	} else if (dtype == EV_F64) {
		uint64_t *o = out, pat = 0x7ff8deaddeaddeadull;
		for (size_t i = 0; i < numel; i++)
			o[i] = pat;
	}
}

/* Element i as double; *poisoned set when it still holds the pattern. */
static double load_elem(const void *out, int dtype, size_t i, int *poisoned)
{
	switch (dtype) {
	case EV_F32: {
		uint32_t bits = ((const uint32_t *)out)[i];
		*poisoned = bits == POISON_F32;
		float f;
		memcpy(&f, &bits, 4);
		return f;
	}
	case EV_F16: {
		uint16_t h = ((const uint16_t *)out)[i];
		*poisoned = h == POISON_F16;
		return f16_to_f32(h);
	}
	case EV_BF16: {
		uint16_t h = ((const uint16_t *)out)[i];
		*poisoned = h == POISON_BF16;
		return bf16_to_f32(h);
	}
	default: {
		uint64_t bits = ((const uint64_t *)out)[i];
		*poisoned = bits == 0x7ff8deaddeaddeadull;
		double d;
		memcpy(&d, &bits, 8);
		return d;
	}
	}
}

void problem_check(const void *out, int dtype, const double *ref_d, const float *ref_f,
		   size_t numel, double atol, double rtol, struct check_result *res)
{
	memset(res, 0, sizeof(*res));
	res->first_mismatch = -1;
	double num = 0, den = 0;
	for (size_t i = 0; i < numel; i++) {
		int poisoned;
		double o = load_elem(out, dtype, i, &poisoned);
		double r = ref_d ? ref_d[i] : (double)ref_f[i];
		den += r * r;
		if (poisoned) {
			res->unwritten++;
			if (res->first_mismatch < 0)
				res->first_mismatch = (long long)i;
			continue;
		}
		if (!isfinite(o)) {
			res->nan_count++;
			if (res->first_mismatch < 0)
				res->first_mismatch = (long long)i;
			continue;
		}
		double e = fabs(o - r);
		num += e * e;
		if (e > res->max_abs_err)
			res->max_abs_err = e;
		if (e > atol + rtol * fabs(r)) {
			res->mismatches++;
			if (res->first_mismatch < 0)
				res->first_mismatch = (long long)i;
		}
	}
	res->rel_l2 = den > 0 ? sqrt(num / den) : sqrt(num);
	res->pass = res->nan_count == 0 && res->unwritten == 0 && res->mismatches == 0;
}
