/*
 * code_identity.c - what code a row ran, by content (code_identity.h): the
 * binary's hash, a hash of the sources' contents with the compiler's
 * command line and the parameters, the host object's echo-neutral hash
 * (its EV_PARAM echoes masked), the hash of what the loader maps of the object, and the
 * kernel file's own hash.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "report/code_identity.h"
#include "report/rejudge.h"

static int cmp_str(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* A parameter to sb as "param NAME=VALUE" for code_id.src: a number by
 * its value (%.17g: "01", "1.0" and "0x1" are 1, as the compiler reads
 * -DP=01: red team 295 row 1b, P "01" for a refuted P 1 promoted 3 of
 * 3), anything else as written. */
static void param_value(struct strbuf *sb, const char *name, const char *value)
{
	char *end;
	double v = value && *value ? strtod(value, &end) : NAN;
	if (value && *value && !*end && isfinite(v))
		strbuf_addf(sb, "param %s=%.17g\n", name, v);
	else
		strbuf_addf(sb, "param %s=%s\n", name, value ? value : "");
}

static int cmp_param(const void *x, const void *y)
{
	return strcmp((*(const struct param *const *)x)->name, (*(const struct param *const *)y)->name);
}

/*
 * The compiler's arguments that decide the code, into sb, one a line:
 * linker options (-Wl,..., -Xlinker X: a build id or an rpath changes the
 * file, not the code), the output and dependency paths, the kernel file's
 * own path (its content is hashed; a copy under another name is the same
 * code) and the compiler's path are left out; the compiler's executable
 * counts by its contents' hash (code.compiler.exe); the arguments' part
 * alone is hashed into flags.
 */
static void add_argv(struct strbuf *sb, json_t *compiler, const char *kernel, char flags[SHA256_HEX_LEN + 1])
{
	size_t from = sb->len;
	json_t *argv = json_object_get(compiler, "argv");
	size_t n = json_array_size(argv);
	for (size_t i = 1; i < n; i++) {
		const char *a = json_string_value(json_array_get(argv, i));
		if (!a)
			continue;
		if (!strncmp(a, "-Wl,", 4))
			continue;
		if ((!strcmp(a, "-Xlinker") || !strcmp(a, "-o") || !strcmp(a, "-MF")) && i + 1 < n) {
			i++;
			continue;
		}
		if ((kernel && !strcmp(a, kernel)) || !strcmp(a, "@OUT@") || !strcmp(a, "@DEPS@"))
			continue;
		strbuf_addf(sb, "%s\n", a);
	}
	/* (the arguments alone: code_id.flags) */
	sha256_hex(sb->buf ? sb->buf + from : "", sb->len - from, flags);
	const char *v = json_string_value(json_object_get(compiler, "version"));
	strbuf_addf(sb, "version %s\n", v ? v : "?");
	/* the executable that ran (red team 70: a wrapper named cc added a
	 * flag under cc's argv and version); records from before it was kept
	 * have none */
	const char *x = json_string_value(json_object_get(json_object_get(compiler, "exe"), "sha256"));
	if (x)
		strbuf_addf(sb, "compiler %s\n", x);
}

/*
 * A row's identity is its first run's that was timed (has a cache mode
 * and a clock), else its first run's: a repeat that failed before its
 * first timed sample has no timing, and so no way of timing to match
 * (red team 63's firstfail: a reference that crashed at a correctness
 * seed in repeat 0 of its fast batch, ok and fast in the others, had that
 * whole row skipped by the drift rule; eval promoted 9 of 18 copies of
 * its fast path).
 */
int code_identity(struct query *q, const struct batch_row *row, struct code_id *id)
{
	const struct run_record *r = query_row_run(q, row);
	if (r && (!r->cache || !r->clock) && row->n_runs > 1) {
		const struct run_record **runs;
		size_t n = query_row_runs(q, row, &runs);
		for (size_t k = 0; k < n; k++)
			if (runs[k]->cache && runs[k]->clock && runs[k]->binary_sha256) {
				r = runs[k];
				break;
			}
		free(runs);
	}
	return r && code_identity_run(r, row->params, row->n_params, id);
}

/* A path named as a shared object (NAME.so, NAME.so.N...): a library
 * records from before the "loaded" mark (build.c object_libraries) say
 * by their name only.  Taking a header so named for one only keeps two
 * objects apart that their hashes would merge. */
static int shared_object_name(const char *path)
{
	if (!path)
		return 0;
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	for (const char *p = strstr(base, ".so"); p; p = strstr(p + 1, ".so"))
		if (p[3] == 0 || p[3] == '.')
			return 1;
	return 0;
}

/* The kernel file's content of r (the source at its kernel path, else the
 * first: the compiler's input), or NULL. */
static const char *family_sha(const struct run_record *r)
{
	for (size_t i = 0; i < r->n_sources; i++)
		if (r->kernel && r->sources[i].path && !strcmp(r->sources[i].path, r->kernel))
			return r->sources[i].sha256;
	return r->n_sources ? r->sources[0].sha256 : NULL;
}

/* code_id.libs of r, whose kernel file's content is fam */
static void libs_hash(const struct run_record *r, const char *fam, char out[SHA256_HEX_LEN + 1])
{
	const char **lv = xcalloc(r->n_sources + 1, sizeof(*lv));
	size_t nl = 0;
	for (size_t i = 0; i < r->n_sources; i++)
		if (r->sources[i].sha256 && r->sources[i].sha256 != fam &&
		    (r->sources[i].loaded || shared_object_name(r->sources[i].path)))
			lv[nl++] = r->sources[i].sha256;
	/* and the system's libraries it loads (code.compiler.toolchain, since
	 * red team 204: one object with a library of /usr changed between
	 * runs ran two ways); records before it have none */
	json_t *tcf = json_object_get(json_object_get(r->compiler, "toolchain"), "files"), *f;
	size_t i;
	lv = xrealloc(lv, (r->n_sources + json_array_size(tcf) + 1) * sizeof(*lv));
	json_array_foreach(tcf, i, f)
		if (json_is_true(json_object_get(f, "loaded")) && json_string_value(json_object_get(f, "sha256")))
			lv[nl++] = json_string_value(json_object_get(f, "sha256"));
	qsort(lv, nl, sizeof(*lv), cmp_str);
	struct strbuf lb = STRBUF_INIT;
	for (size_t i = 0; i < nl; i++)
		strbuf_addf(&lb, "library %s\n", lv[i]);
	free(lv);
	sha256_hex(lb.buf ? lb.buf : "", lb.len, out);
	strbuf_release(&lb);
}

void code_libs_of(const struct run_record *r, char out[SHA256_HEX_LEN + 1])
{
	libs_hash(r, family_sha(r), out);
}

/*
 * code_id.job of r: what of its job the kernel can read beside its code.
 * The worker's job descriptor (backends/job.h) holds the knobs it acts on
 * (correctness.seeds and the timing knobs; job.c job_for_worker blanks
 * the rest), the kernel runs in its process and can read them, or count
 * its own launches and time; a fixed correctness.seed gives the same
 * inputs every batch, which a kernel can recognise by content; and the
 * runner's process as the box passes it on (settings.environment_sha256:
 * the variables the box lets through, a user's LC_* or EVIDENT_* (not EVIDENT_STORE) among
 * them, LD_LIBRARY_PATH, the directory, the nice value and CPU set: job.c
 * worker_process_digest, red team 182), and what the worker saw of its
 * own process before the kernel loaded (settings.box_self_sha256:
 * backends/worker.c worker_self_hash, red teams 185, 187, 188) are
 * readable too.
 * Red team 180's knobtag read "warmup_ms" from its descriptor and ran
 * fast at 7 ms only: one object, one file, one load image, so one code,
 * and its warmup_ms 7 batch was eval's "fastest the reference's code ran"
 * (an honest 3.8x challenger held 2 of 3).  Records before the seed and
 * environment were kept hash them as unknown, alike.
 */
static void job_hash(const struct run_record *r, char out[SHA256_HEX_LEN + 1], char knobs[SHA256_HEX_LEN + 1],
		     char env_out[SHA256_HEX_LEN + 1])
{
	/* the knobs by section and name (record_run_setting's "SECTION.NAME") */
	static const char *const keys[][2] = { { "correctness", "seeds" },     { "timing", "warmup_ms" },
					       { "timing", "samples" },        { "timing", "max_seconds" },
					       { "timing", "min_seconds" },    { "timing", "stdrel" },
					       { "timing", "batch" } };
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		char key[64];
		snprintf(key, sizeof(key), "%s.%s", keys[i][0], keys[i][1]);
		double num = 0;
		const char *str = NULL;
		if (!record_run_setting(r, key, &num, &str))
			strbuf_addf(&sb, "%s ?\n", key);
		else if (str)
			strbuf_addf(&sb, "%s %s\n", key, str);
		else
			strbuf_addf(&sb, "%s %.17g\n", key, num);
	}
	json_t *seed = json_object_get(r->settings, "seed");
	if (json_is_integer(seed))
		strbuf_addf(&sb, "seed %lld\n", (long long)json_integer_value(seed));
	/* (the spec's part alone: code_id.knobs) */
	if (knobs)
		sha256_hex(sb.buf ? sb.buf : "", sb.len, knobs);
	const char *env = json_string_value(json_object_get(r->settings, "environment_sha256"));
	strbuf_addf(&sb, "environment %s\n", env ? env : "?");
	const char *self = json_string_value(json_object_get(r->settings, "box_self_sha256"));
	strbuf_addf(&sb, "box %s\n", self ? self : "?");
	sha256_hex(sb.buf, sb.len, out);
	/* (the runner's process part alone, where the record has it:
	 * code_id.env) */
	if (env_out) {
		env_out[0] = 0;
		if (env && self) {
			char *e = xstrfmt("environment %s\nbox %s\n", env, self);
			sha256_hex(e, strlen(e), env_out);
			free(e);
		}
	}
	strbuf_release(&sb);
}

int code_identity_run(const struct run_record *r, const struct param *params, size_t n_params, struct code_id *id)
{
	if (!r->binary_sha256)
		return 0;
	id->bin = r->binary_sha256;
	id->dev = r->device_name ? r->device_name : r->cpu;
	id->cache = r->cache;
	id->executor = r->judge ? json_string_value(json_object_get(r->judge, "executor")) : NULL;
	id->exec_kind = r->exec.kind && strcmp(r->exec.kind, "local") ? r->exec.kind : NULL;
	id->slots = id->exec_kind ? r->exec.slots : 1;
	id->clock = r->clock;
	id->bin_whole = r->backend && !strcmp(r->backend, "host");
	id->neutral = id->bin_whole ? r->echo_neutral_sha256 : NULL;
	id->load = r->load_sha256;
	id->file = r->file_sha256;
	if (r->clock && !strcmp(r->clock, "cupti")) {
		/* the first window-clock run (commit ccb4904a, an H200 on
		 * 2026-11-29) wrote no kernel_clock key yet */
		const char *k = json_string_value(json_object_get(r->timing_method, "kernel_clock"));
		int window = (k && !strcmp(k, "window")) || (r->git.commit && !strncmp(r->git.commit, "ccb4904a", 8));
		id->clock = window ? "cupti window" : "cupti sum";
	}
	/* the family: the kernel file's content (the source at the record's
	 * kernel path, else the first: the compiler's input) */
	const char *fam = family_sha(r);
	sha256_hex(fam ? fam : "", fam ? strlen(fam) : 0, id->family);
	/* the libraries: loaded, never linked into the object */
	libs_hash(r, fam, id->libs);
	/* the code: every source's content (sorted: names left out), the
	 * command line and the parameters; and the sources and the
	 * parameters' values alone (code_id.src: no argument of the command
	 * line, which a kernel's author spells as he likes: red team 295's
	 * unused -DRT295_UNUSED laundered a refuted code, faster supported 3
	 * of 3, when src kept the macro arguments) */
	const char **v = xcalloc(r->n_sources + 1, sizeof(*v));
	size_t n = 0;
	for (size_t i = 0; i < r->n_sources; i++)
		if (r->sources[i].sha256)
			v[n++] = r->sources[i].sha256;
	qsort(v, n, sizeof(*v), cmp_str);
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < n; i++)
		strbuf_addf(&sb, "source %s\n", v[i]);
	free(v);
	struct strbuf src = STRBUF_INIT;
	if (sb.len)
		strbuf_add(&src, sb.buf, sb.len);
	add_argv(&sb, r->compiler, r->kernel, id->flags);
	/* the parameters sorted by name: a row's and its run's record may
	 * list them in another order */
	const struct param **pv = xcalloc(n_params + 1, sizeof(*pv));
	for (size_t i = 0; i < n_params; i++)
		pv[i] = &params[i];
	qsort(pv, n_params, sizeof(*pv), cmp_param);
	for (size_t i = 0; i < n_params; i++) {
		strbuf_addf(&sb, "param %s=%s\n", pv[i]->name, pv[i]->value);
		param_value(&src, pv[i]->name, pv[i]->value);
	}
	free(pv);
	sha256_hex(sb.buf ? sb.buf : "", sb.len, id->code);
	id->src[0] = 0;
	if (n)
		sha256_hex(src.buf, src.len, id->src);
	strbuf_release(&src);
	strbuf_release(&sb);
	job_hash(r, id->job, id->knobs, id->env);
	return id->dev != NULL;
}

/* Both load the same libraries (code_id.libs): an object's hashes are
 * of the object alone. */
static int same_libs(const struct code_id *x, const struct code_id *y)
{
	return !strcmp(x->libs, y->libs);
}

/* The object files agree where both records have their hash
 * (code_id.file): a CUDA object's bin is its device code and its load
 * hash what the loader maps, and a trust: host kernel can read the rest
 * of its file (red team 145's ondisk.h, predicted for CUDA: nvcc's
 * .symtab names the source).  backend_cuda.c links stripped, so one
 * source gives one file in every build. */
static const char *file_of(const struct code_id *x)
{
	return x->file ? x->file : x->bin_whole ? x->bin : NULL;
}

static int same_file(const struct code_id *x, const struct code_id *y)
{
	const char *fx = file_of(x), *fy = file_of(y);
	return !(fx && fy && strcmp(fx, fy));
}

/* The same binary, and the same libraries it loads.  A CUDA object's
 * binary hash is its device code's (.nv_fatbin): two objects with one
 * device image and other host code (a launch() that launches otherwise, a
 * knob init() writes) are other programs, which their load hashes say
 * (red team 60's audit: a CUDA graph variant "the same code" as its plain
 * twin, so its true 0.606x was contradicted as the machine's); nvcc's
 * loaded bytes are the same for the same code, a comment-only copy's
 * too (measured on this VM, nvcc 13.0). */
static int same_bin(const struct code_id *x, const struct code_id *y)
{
	return !strcmp(x->bin, y->bin) && same_libs(x, y) && !(x->load && y->load && strcmp(x->load, y->load)) &&
	       same_file(x, y);
}

/* Both host objects are one but for their EV_PARAM echoes: the
 * parameters they differ in reach nothing but the echo. */
static int same_neutral(const struct code_id *x, const struct code_id *y)
{
	return x->neutral && y->neutral && !strcmp(x->neutral, y->neutral) && same_libs(x, y);
}

/* Both objects map the same bytes (code.load_sha256): they differ at
 * most in what the loader leaves on disk (the source's file name, debug
 * information, the build id over them), which a kernel can read (red
 * team 180: a section of its own holding its name); so this merges only
 * where merging counts against the side that could have made the copy
 * (code_same, the head of code_identity.h). */
static int same_load(const struct code_id *x, const struct code_id *y)
{
	return x->load && y->load && !strcmp(x->load, y->load) && same_libs(x, y);
}

int code_same_libs(const struct code_id *x, const struct code_id *y)
{
	return same_libs(x, y);
}

int code_same_loaded(const struct code_id *x, const struct code_id *y)
{
	return same_load(x, y) && !same_bin(x, y) && strcmp(x->code, y->code);
}

int code_same(const struct code_id *x, const struct code_id *y)
{
	return same_bin(x, y) || !strcmp(x->code, y->code) || same_neutral(x, y) || same_load(x, y);
}

/* Timed the same way: cache mode, executor and clock. */
static int same_timing(const struct code_id *x, const struct code_id *y)
{
	return str_same(x->cache, y->cache) && str_same(x->executor, y->executor) && str_same(x->clock, y->clock);
}

/* Run the same way: timed so, on the same kind of execution (plain, a
 * pool, Slurm) of as many slots. */
static int same_way(const struct code_id *x, const struct code_id *y)
{
	return same_timing(x, y) && str_same(x->exec_kind, y->exec_kind) && x->slots == y->slots;
}

int code_outcome_says_nothing(enum outcome o)
{
	return o == OUTCOME_ABORTED || o == OUTCOME_NO_DEVICE || o == OUTCOME_BUILD_FAILED ||
	       o == OUTCOME_REFERENCE_FAILED;
}

int code_same_way(const struct code_id *x, const struct code_id *y)
{
	return code_same(x, y) && same_way(x, y);
}

/* The same sources, flags and parameters (code_id.code), where the
 * objects do not map other bytes: the code hash leaves out the kernel's
 * own file name, and a byte-identical copy under another name compiles
 * __FILE__ and __BASE_FILE__ into its object, so its loaded image differs
 * (red team 143's nametag.h: ref.c and ref_slow.c, one code hash, slept
 * 10 ms and 80 ms by __BASE_FILE__; the slow copy's batches were weighed
 * as the reference's, and eval promoted 8.291x at "4 of 6" where the
 * reference itself had beaten the candidate, a search's confirmation
 * 7.873x, the audit supported both).  Honest copies that never read
 * their name map the same bytes (one load hash) and still match.  And a
 * host object's whole file, where both are (bin_whole): red team 145's
 * ondisk.h read its own object from disk (/proc/self/maps) and found the
 * FILE symbol of .symtab, which no loader maps, so two copies with one
 * load hash slept 10 and 80 ms and eval promoted 7.787x at "4 of 6"
 * again.  The same source built in two repositories gives one object
 * (measured: tiny.yaml's naive.c, /tmp/sp and /tmp/rt144v, one binary
 * and one load hash), so reproductions still match.  The same for a CUDA
 * object's whole file (code_id.file, same_file), which backend_cuda.c
 * links stripped so that one source gives one file. */
static int same_code(const struct code_id *x, const struct code_id *y)
{
	return !strcmp(x->code, y->code) && !(x->load && y->load && strcmp(x->load, y->load)) && same_file(x, y);
}

int code_same_built(const struct code_id *x, const struct code_id *y)
{
	return same_bin(x, y) || same_code(x, y);
}

int code_same_built_way(const struct code_id *x, const struct code_id *y)
{
	return code_same_built(x, y) && same_way(x, y);
}

int code_same_built_timed(const struct code_id *x, const struct code_id *y)
{
	return code_same_built(x, y) && same_timing(x, y);
}

int code_same_job(const struct code_id *x, const struct code_id *y)
{
	return x->job[0] && !strcmp(x->job, y->job);
}

int code_same_env(const struct code_id *x, const struct code_id *y)
{
	return x->env[0] && !strcmp(x->env, y->env);
}

int code_same_history(const struct code_id *x, const struct code_id *y)
{
	return code_same_built_timed(x, y) && code_same_job(x, y);
}

int code_row_one_job(struct query *q, const struct batch_row *row, const struct code_id *id)
{
	if (row->n_runs < 2)
		return 1;
	const struct run_record **runs;
	size_t n = query_row_runs(q, row, &runs);
	int one = 1;
	for (size_t k = 0; k < n && one; k++) {
		char j[SHA256_HEX_LEN + 1];
		if (!runs[k]->cache || !runs[k]->clock || !runs[k]->binary_sha256)
			continue; /* untimed: no speed of the row's */
		job_hash(runs[k], j, NULL, NULL);
		one = !strcmp(j, id->job);
	}
	free(runs);
	return one;
}

int code_speed_drifted(double now_median, double best_median)
{
	return isfinite(now_median) && isfinite(best_median) && now_median > best_median * CODE_DRIFT_MARGIN;
}

double code_pair_drift(double fast_here, double slow_here, double fast_there, double slow_there)
{
	if (!(fast_here > 0) || !(slow_here > 0) || !(fast_there > 0) || !(slow_there > 0))
		return NAN;
	double by_speedup = (slow_here / fast_here) / (slow_there / fast_there), by_own = fast_there / fast_here;
	return by_speedup < by_own ? by_speedup : by_own;
}

int code_beats_history(double challenger_ci_hi, double best_median)
{
	return isfinite(challenger_ci_hi) && isfinite(best_median) && challenger_ci_hi * CODE_DRIFT_MARGIN < best_median;
}

int code_same_program(const struct code_id *x, const struct code_id *y)
{
	return !strcmp(x->code, y->code) || (x->bin_whole && y->bin_whole && same_bin(x, y)) ||
	       same_neutral(x, y) || same_load(x, y);
}

/* Is side (a begun marker's code.candidate or code.reference, as eval.c's
 * marker_side_code wrote it) the code of id?  code_same's clauses by the
 * object: the same binary (and loaded image where both have one), the
 * same echo-neutral object (where id has one: a host object), or the
 * same loaded image, each with the same libraries.  Only ever counts
 * against a candidate (a try that was not faster). */
int code_same_object_json(const json_t *side, const struct code_id *id)
{
	const char *bin = json_string_value(json_object_get(side, "binary_sha256"));
	const char *neu = json_string_value(json_object_get(side, "echo_neutral_sha256"));
	const char *load = json_string_value(json_object_get(side, "load_sha256"));
	const char *libs = json_string_value(json_object_get(side, "libs"));
	if (!libs || strcmp(libs, id->libs))
		return 0;
	if (bin && id->bin && !strcmp(bin, id->bin) && !(load && id->load && strcmp(load, id->load)))
		return 1;
	if (neu && id->neutral && !strcmp(neu, id->neutral))
		return 1;
	return load && id->load && !strcmp(load, id->load);
}

/* A row of id's code run the same way: by its object where narrow (the
 * incumbent's side), else by code_same (the side that could make a copy). */
static int side_same(const struct code_id *x, const struct code_id *id, unsigned narrow)
{
	return narrow ? code_same_built_way(x, id) : code_same_way(x, id);
}

/* Is side id's exact object (the same binary, the same loaded image where
 * both have one, the same libraries): the incumbent's match (CODE_NARROW_*). */
static int same_object_json_exact(const json_t *side, const struct code_id *id)
{
	const char *bin = json_string_value(json_object_get(side, "binary_sha256"));
	const char *load = json_string_value(json_object_get(side, "load_sha256"));
	const char *libs = json_string_value(json_object_get(side, "libs"));
	return libs && !strcmp(libs, id->libs) && bin && id->bin && !strcmp(bin, id->bin) &&
	       !(load && id->load && strcmp(load, id->load));
}

static int side_json(const json_t *side, const struct code_id *id, int narrow)
{
	return narrow ? same_object_json_exact(side, id) : code_same_object_json(side, id);
}

/* Does begun marker m (pending/ID.json) name codes a and b: eval's by its
 * candidate and reference, either way round; evident run's by two of its
 * variants?  A side in narrow (CODE_NARROW_A, _B) by its exact object. */
static int marker_names(const json_t *m, const struct code_id *ia, const struct code_id *ib, unsigned narrow)
{
	const json_t *code = json_object_get(m, "code");
	if (!json_is_object(code))
		return 0;
	int na = !!(narrow & CODE_NARROW_A), nb = !!(narrow & CODE_NARROW_B);
	const json_t *c = json_object_get(code, "candidate"), *r = json_object_get(code, "reference");
	if ((side_json(c, ia, na) && side_json(r, ib, nb)) || (side_json(c, ib, nb) && side_json(r, ia, na)))
		return 1;
	int xa = 0, xb = 0;
	size_t i;
	const json_t *v;
	json_array_foreach(json_object_get(code, "variants"), i, v)
	{
		xa |= side_json(v, ia, na);
		xb |= side_json(v, ib, nb);
	}
	return xa && xb;
}

int code_marker_variant(const json_t *m, const char *variant, const struct code_id *id)
{
	const json_t *code = json_object_get(m, "code");
	if (!variant || !json_is_object(code))
		return 0;
	/* eval's: the candidate under its name, the reference under its */
	const char *cn = json_string_value(json_object_get(m, "variant"));
	const char *rn = json_string_value(json_object_get(m, "reference"));
	if (cn && !strcmp(cn, variant) && code_same_object_json(json_object_get(code, "candidate"), id))
		return 1;
	if (rn && !strcmp(rn, variant) && code_same_object_json(json_object_get(code, "reference"), id))
		return 1;
	/* evident run's: a variant of that name */
	size_t i;
	const json_t *v;
	json_array_foreach(json_object_get(code, "variants"), i, v)
	{
		const char *n = json_string_value(json_object_get(v, "name"));
		if (n && !strcmp(n, variant) && code_same_object_json(v, id))
			return 1;
	}
	return 0;
}

int code_marker_names(const char *store_root, const char *batch_id, const struct code_id *ia,
		      const struct code_id *ib, unsigned narrow)
{
	char *path = xstrfmt("%s/pending/%s.json", store_root, batch_id);
	json_t *mk = json_load_file(path, 0, NULL);
	free(path);
	int r = mk && marker_names(mk, ia, ib, narrow);
	json_decref(mk);
	return r;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

static double median_of(double *x, size_t n)
{
	if (!n)
		return NAN;
	qsort(x, n, sizeof(*x), cmp_double);
	return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

size_t code_orphan_tries(struct query *q, const char *skip_id, const struct rec_problem *prob,
			 int (*same_problem)(const struct rec_problem *, const struct rec_problem *),
			 const struct code_id *ia, const struct code_id *ib, unsigned narrow, struct code_orphan **out)
{
	struct acc {
		struct code_orphan t;
		double *ma, *mb;
		size_t nma, nmb;
		int looked;
	} *o = NULL;
	size_t n = 0;
	for (size_t i = 0; i < q->n; i++) {
		const struct record_attrs *at = &q->e[i].a;
		if (at->is_batch || at->is_search || !at->batch_id || (skip_id && !strcmp(at->batch_id, skip_id)))
			continue;
		size_t k = 0;
		while (k < n && strcmp(o[k].t.batch_id, at->batch_id))
			k++;
		if (k == n) {
			if (query_find(q, at->batch_id, NULL) >= 0)
				continue; /* recorded (a batch_id once seen orphaned is looked up once) */
			o = xrealloc(o, (n + 1) * sizeof(*o));
			memset(&o[n], 0, sizeof(o[n]));
			o[n].t.batch_id = at->batch_id;
			n++;
		}
		const struct run_record *r = query_run_at(q, i);
		struct code_id id;
		if (!r || !same_problem(&r->problem, prob) || !code_identity_run(r, r->params, r->n_params, &id))
			continue;
		int xa = !strcmp(id.dev, ia->dev) && side_same(&id, ia, narrow & CODE_NARROW_A);
		int xb = !strcmp(id.dev, ib->dev) && side_same(&id, ib, narrow & CODE_NARROW_B);
		if (!xa && !xb) {
			o[k].t.n_other += !strcmp(id.dev, ia->dev);
			continue; /* a third code: says nothing against the try */
		}
		if (code_outcome_says_nothing(r->outcome))
			continue; /* not the code's */
		/* both codes one (an A/A claim): its runs are both sides' */
		o[k].t.n_a += xa;
		o[k].t.n_b += xb;
		if (r->outcome != OUTCOME_OK) {
			o[k].t.unclean++;
			continue;
		}
		double med = r->have_stats ? r->stats.median : NAN;
		if (!isfinite(med))
			continue;
		if (xa) {
			o[k].ma = xrealloc(o[k].ma, (o[k].nma + 1) * sizeof(double));
			o[k].ma[o[k].nma++] = med;
		}
		if (xb) {
			o[k].mb = xrealloc(o[k].mb, (o[k].nmb + 1) * sizeof(double));
			o[k].mb[o[k].nmb++] = med;
		}
	}
	size_t m = 0;
	*out = NULL;
	for (size_t k = 0; k < n; k++) {
		struct code_orphan t = o[k].t;
		t.med_a = median_of(o[k].ma, o[k].nma);
		t.med_b = median_of(o[k].mb, o[k].nmb);
		/* sorted by median_of */
		t.lo_a = o[k].nma ? o[k].ma[0] : NAN;
		t.hi_a = o[k].nma ? o[k].ma[o[k].nma - 1] : NAN;
		t.lo_b = o[k].nmb ? o[k].mb[0] : NAN;
		t.hi_b = o[k].nmb ? o[k].mb[o[k].nmb - 1] : NAN;
		free(o[k].ma);
		free(o[k].mb);
		if (!t.n_a && !t.n_b)
			continue;
		/* the begun marker, where it is still there (a try of one side's
		 * runs only: which codes it was of) */
		t.marker = code_marker_names(q->st.root, t.batch_id, ia, ib, narrow);
		*out = xrealloc(*out, (m + 1) * sizeof(**out));
		(*out)[m++] = t;
	}
	free(o);
	return m;
}

int code_orphan_weight(const struct code_orphan *t, int a_cand, const char *want, double thr)
{
	size_t n_cand = a_cand ? t->n_a : t->n_b, n_base = a_cand ? t->n_b : t->n_a;
	if (!n_cand && !n_base)
		return CODE_ORPHAN_NONE;
	/* one side's runs only: a try of the two codes where its marker says
	 * so; without one (a store from before evident run's marker), the
	 * candidate's runs alone, nothing else at the shape, are one still */
	if (!n_cand || !n_base)
		return t->marker || (!n_base && !t->n_other) ? CODE_ORPHAN_AGAINST : CODE_ORPHAN_NONE;
	if (t->unclean || !(t->lo_a > 0) || !(t->lo_b > 0))
		return CODE_ORPHAN_AGAINST;
	/* faster (slower): every run of a faster (slower) than every run of
	 * b, not their medians (red team 94's stop killed a session once the
	 * reference ran fast: a fast and a slow run of it have a median over
	 * the candidate's); no_difference: b's median time over a's, a's
	 * speedup over b, inside the band */
	double s = t->med_b / t->med_a;
	int its_way = !strcmp(want, "faster")   ? t->hi_a < t->lo_b
		      : !strcmp(want, "slower") ? t->lo_a > t->hi_b
						: s >= 1 - thr && s <= 1 + thr;
	return its_way ? CODE_ORPHAN_ITS_WAY : CODE_ORPHAN_AGAINST;
}

/* The median, least and greatest of the n values x (sorted here by
 * median_of); NANs when n is 0. */
static void spread_of(double *x, size_t n, double *med, double *lo, double *hi)
{
	*med = median_of(x, n);
	*lo = n ? x[0] : NAN;
	*hi = n ? x[n - 1] : NAN;
}

/*
 * An interrupted batch b (one its caller takes for a try of codes a and
 * b: the audit's stopped_try, eval's pool_interrupted_try), as
 * code_orphan_weight reads a killed one (red team 97's h2: a try
 * cut short by SIGINT or SIGTERM counted against whatever its runs
 * showed, one cut short by SIGKILL was left out when they all went the
 * claimed way): its runs of each side by their records, those that did
 * not end ok (an aborted one aside) unclean; the batch names both sides
 * as a begun marker would.  Rows match a side as narrow says
 * (code_orphan_tries).
 */
void code_interrupted_try(struct query *q, const struct batch_record *b, const struct code_id *ia,
			  const struct code_id *ib, unsigned narrow, struct code_orphan *t)
{
	memset(t, 0, sizeof(*t));
	t->batch_id = b->batch_id;
	t->marker = 1;
	double *ma = xcalloc(1, sizeof(double)), *mb = xcalloc(1, sizeof(double));
	size_t nma = 0, nmb = 0;
	for (size_t i = 0; i < b->n_rows; i++) {
		const struct batch_row *x = &b->rows[i];
		struct code_id id;
		if (!code_identity(q, x, &id))
			continue;
		int xa = !strcmp(id.dev, ia->dev) && side_same(&id, ia, narrow & CODE_NARROW_A);
		int xb = !strcmp(id.dev, ib->dev) && side_same(&id, ib, narrow & CODE_NARROW_B);
		if (!xa && !xb)
			continue;
		size_t nr = x->n_runs ? x->n_runs : 1;
		for (size_t j = 0; j < nr; j++) {
			const char *rid = x->n_runs ? x->runs[j] : x->run_id;
			long at = rid ? query_find(q, rid, NULL) : -1;
			const struct run_record *r = at >= 0 ? query_run_at(q, (size_t)at) : NULL;
			if (!r || code_outcome_says_nothing(r->outcome))
				continue;
			t->n_a += xa;
			t->n_b += xb;
			if (r->outcome != OUTCOME_OK) {
				t->unclean++;
				continue;
			}
			if (!r->have_stats || !isfinite(r->stats.median))
				continue;
			if (xa) {
				ma = xrealloc(ma, (nma + 1) * sizeof(double));
				ma[nma++] = r->stats.median;
			}
			if (xb) {
				mb = xrealloc(mb, (nmb + 1) * sizeof(double));
				mb[nmb++] = r->stats.median;
			}
		}
	}
	spread_of(ma, nma, &t->med_a, &t->lo_a, &t->hi_a);
	spread_of(mb, nmb, &t->med_b, &t->lo_b, &t->hi_b);
	free(ma);
	free(mb);
}

/* Do r's failed checks fail the rule t (atol, rtol, rel_l2) for sure,
 * by their recorded errors: a NaN or an unwritten entry, a rel L2 over
 * t's, a largest error over (atol + rtol) x the reference's scale?  A
 * check at the extra shape by the problem's rule at its drawn shape,
 * where r recorded it (red team 289: record_check_rule). */
static int checks_fail_rule(const struct run_record *r, const double t_run[3])
{
	for (size_t k = 0; k < r->n_checks; k++) {
		const struct rec_check *c = &r->checks[k];
		if (c->pass)
			continue;
		double t[3];
		record_check_rule(r, c, t_run, t);
		double most = (t[0] + t[1]) * c->ref_scale;
		if (c->nan_count > 0 || c->unwritten > 0 || (isfinite(c->rel_l2) && c->rel_l2 > t[2]) ||
		    (isfinite(c->max_abs_err) && isfinite(most) && c->max_abs_err > most))
			return 1;
	}
	return 0;
}

enum outcome code_run_refuted(const struct run_record *r)
{
	/* an `ok` whose extra shape's checks its runner judged by the run's
	 * shape's rule, not the drawn shape's (no extra_shape.tolerance: an
	 * evident older than red team 289's fix), and one of which fails the
	 * drawn shape's rule by its recorded errors, is a wrong output (red
	 * team 298 row 3: rsqrtss at a drawn C of 187, 3.7x the rule, read
	 * `ok` by such a runner in today's tree, and `faster` supported 3 of
	 * 5 stores) */
	if (r->outcome == OUTCOME_OK)
		return record_shape_pass_misjudged(r, NULL) && !query_run_bendable_judge_why(r) ? OUTCOME_WRONG_OUTPUT
												 : OUTCOME_OK;
	if (r->outcome != OUTCOME_WRONG_OUTPUT && r->outcome != OUTCOME_NAN && r->outcome != OUTCOME_UNWRITTEN_OUTPUT)
		return OUTCOME_OK;
	/* a run whose judge its environment could bend against an honest
	 * code (a third party's library on LD_LIBRARY_PATH, no box, a
	 * bubblewrap not verified: red team 229's libm) refutes nothing;
	 * one that asked fewer timed checks does (a failed check is a
	 * failure however few were drawn: red team 237's timed_checks 5
	 * left a cheat's wrong run unrefuted, promoted 9 of 14) */
	if (query_run_bendable_judge_why(r))
		return OUTCOME_OK;
	const double spec[3] = { r->atol, r->rtol, r->rel_l2 };
	const double own[3] = { r->problem_atol, r->problem_rtol, r->problem_rel_l2 };
	int tighter = 0;
	for (int k = 0; k < 3; k++) {
		if (!isfinite(own[k]))
			return OUTCOME_OK; /* no rule of the problem's recorded */
		tighter |= own[k] > 0 && spec[k] < own[k];
	}
	if (!tighter)
		return r->outcome;
	/* judged tighter than the problem's rule: refuted only where a
	 * failed check's recorded errors fail the problem's own rule too (red
	 * team 229's tolwrong: atol 0.1% under the problem's, one field, and
	 * a cheat 100x over the problem's rel L2 was refuted by nothing).  A
	 * NaN or an unwritten entry fails any rule; a rel L2 over the
	 * problem's does; so does a largest error over (atol + rtol) x the
	 * reference's scale, the most any entry is allowed */
	return checks_fail_rule(r, own) ? r->outcome : OUTCOME_OK;
}

/* The same problem name and dtype (as audit_same_kind, the plug-in aside). */
static int same_problem_name(const struct rec_problem *x, const struct rec_problem *y)
{
	return x->name && y->name && !strcmp(x->name, y->name) &&
	       ((!x->dtype && !y->dtype) || (x->dtype && y->dtype && !strcmp(x->dtype, y->dtype)));
}

static int same_dims(const struct rec_problem *x, const struct rec_problem *y)
{
	if (x->n_dims != y->n_dims)
		return 0;
	for (size_t i = 0; i < x->n_dims && i < 8; i++)
		if (x->dims[i] != y->dims[i])
			return 0;
	return 1;
}

static int same_plugin(const struct rec_problem *x, const struct rec_problem *y)
{
	return !x->plugin_sha256 || !y->plugin_sha256 || !strcmp(x->plugin_sha256, y->plugin_sha256);
}

static const char *run_dev(const struct run_record *r)
{
	return r->device_name ? r->device_name : r->cpu;
}

/* prob's build's record at r's dims that says what it judges with there
 * (rec_problem.judge_run_sha256): prob where r ran at prob's dims, else
 * a run of prob's build at r's dims; NULL where none says */
static const struct rec_problem *judge_run_of(struct query *q, const struct run_record *r,
					      const struct rec_problem *prob)
{
	if (same_dims(&r->problem, prob))
		return prob->judge_run_sha256 ? prob : NULL;
	for (size_t i = 0; prob->plugin_sha256 && i < q->n; i++) {
		const struct record_attrs *at = &q->e[i].a;
		if (at->is_batch || at->is_search)
			continue;
		const struct run_record *y = query_run_at(q, i);
		if (y && y->problem.judge_run_sha256 && y->problem.plugin_sha256 &&
		    !strcmp(y->problem.plugin_sha256, prob->plugin_sha256) && same_dims(&y->problem, &r->problem))
			return &y->problem;
	}
	return NULL;
}

/* role's hash in x's judge_run_roles, or NULL */
static const char *role_hash(const struct rec_problem *x, const char *role)
{
	json_t *e;
	size_t i;
	json_array_foreach(x->judge_run_roles, i, e) {
		const char *rn = json_string_value(json_object_get(e, "role"));
		if (rn && !strcmp(rn, role))
			return json_string_value(json_object_get(e, "sha256"));
	}
	return NULL;
}

/*
 * By the shapes r failed at (a seed or timed check: its shape, role
 * "run"; a check at the extra shape: "extra"): 1 where the current
 * build (cur) judges alike at one of them (the same hash, or cur's
 * "nondeterministic": it cannot say it judges otherwise), 0 where both
 * say and it judges otherwise at each, -1 where neither can be told
 * (red team 238: an edit at the extra shape only, inside the rule,
 * moved the combined hash and cleared a failure at the run's shape).
 * The "extra" fingerprint is at the plug-in's own extra shape, the
 * ceiling under which each run's is drawn since red team 274: a proxy
 * for the drawn one, which only the re-judge (rejudge.c, at the shape
 * the run recorded) asks at.
 */
static int judged_alike_where_failed(const struct run_record *r, const struct rec_problem *cur)
{
	int fail_run = 0, fail_extra = 0, told = 0;
	for (size_t i = 0; i < r->n_checks; i++)
		if (!r->checks[i].pass) {
			if (r->checks[i].phase && !strcmp(r->checks[i].phase, "shape"))
				fail_extra = 1;
			else
				fail_run = 1;
		}
	static const char *const roles[] = { "run", "extra" };
	for (int k = 0; k < 2; k++) {
		if (!(k ? fail_extra : fail_run))
			continue;
		const char *then = role_hash(&r->problem, roles[k]), *now = role_hash(cur, roles[k]);
		if (!then || !now)
			continue;
		if (!strcmp(now, "nondeterministic") || !strcmp(then, now))
			return 1;
		told = 1;
	}
	return told ? 0 : -1;
}

int code_other_build_counts(struct query *q, const struct run_record *r, const struct rec_problem *prob)
{
	if (!same_problem_name(&r->problem, prob))
		return 0;
	/* one plug-in object is one judge, whatever its fingerprints say
	 * (red team 235's plug-in that adds a TSC reading x 1e-30 to its
	 * reference: a new fingerprint in every process under one plug-in
	 * hash, a cheat's failure cleared 5 of 5) */
	if (same_plugin(&r->problem, prob))
		return 1;
	/* another build: asked of the two objects where the store keeps
	 * both (rejudge.c: the references at r's shape on inputs drawn now,
	 * the failure against their gap), which a fingerprint cannot be (a
	 * reference nudged by 4e-6 in one entry, inside softmax's rule,
	 * moved every hash and cleared a cheat's failure at 1e-3) */
	int rj = rejudge_counts(q, r, prob->plugin_sha256);
	if (rj >= 0)
		return rj;
	/* both say what they judge with at r's own shapes (judge_run_roles,
	 * judge_run_sha256: the fills and the reference's outputs to 20 bits
	 * there, no work counts): another judge's failures say nothing (red
	 * team 237's reference bent at C=512 only, 235's at C != 16: an
	 * honest challenger refuted for good under an unchanged fixed-shape
	 * fingerprint), the same judge's count (237's FLOP count 5 -> 4, an
	 * edit at the fixed shape only, 235's y *= 1.0 / sum: every earlier
	 * failure cleared).  By the shapes r failed at where both record
	 * them, else by the whole.  A current build whose two computations
	 * differed cannot say it judges otherwise: the failure counts. */
	const struct rec_problem *cur = r->problem.judge_run_sha256 ? judge_run_of(q, r, prob) : NULL;
	int judged;
	if (cur) {
		int alike = judged_alike_where_failed(r, cur);
		if (alike == 0 || (alike < 0 && strcmp(cur->judge_run_sha256, "nondeterministic") &&
				   strcmp(r->problem.judge_run_sha256, cur->judge_run_sha256)))
			return 0;
		judged = 1;
	} else {
		/* else the fixed shape's (judge_sha256): red team 232's
		 * reference bent to exp(1.001x), with a code it passed, held
		 * an honest challenger 10 of 10 under the heuristic below */
		judged = r->problem.judge_sha256 && prob->judge_sha256;
		if (judged && strcmp(r->problem.judge_sha256, prob->judge_sha256))
			return 0;
	}
	const char *dev = run_dev(r);
	int accepted = 0, tighter = 0, have_now = 0;
	double now[3] = { NAN, NAN, NAN };
	size_t others = 0;
	for (size_t i = 0; i < q->n; i++) {
		const struct record_attrs *at = &q->e[i].a;
		if (at->is_batch || at->is_search)
			continue;
		const struct run_record *y = query_run_at(q, i);
		if (!y || y == r || !same_problem_name(&y->problem, &r->problem) || !same_dims(&y->problem, &r->problem))
			continue;
		if (y->problem.plugin_sha256 && prob->plugin_sha256 && !strcmp(y->problem.plugin_sha256, prob->plugin_sha256)) {
			/* prob's build at r's shape: its rule there */
			const double t[3] = { y->problem_atol, y->problem_rtol, y->problem_rel_l2 };
			const double then[3] = { r->problem_atol, r->problem_rtol, r->problem_rel_l2 };
			if (!have_now && isfinite(t[0]) && isfinite(t[1]) && isfinite(t[2])) {
				memcpy(now, t, sizeof(now));
				have_now = 1;
			}
			for (int k = 0; k < 3; k++)
				tighter |= isfinite(t[k]) && (!isfinite(then[k]) || then[k] < t[k]);
			continue;
		}
		if (y->problem.plugin_sha256 && r->problem.plugin_sha256 &&
		    !strcmp(y->problem.plugin_sha256, r->problem.plugin_sha256) && dev && run_dev(y) &&
		    !strcmp(dev, run_dev(y)) && y->binary_sha256 && r->binary_sha256 &&
		    strcmp(y->binary_sha256, r->binary_sha256) && !code_outcome_says_nothing(y->outcome)) {
			others++;
			accepted |= y->outcome == OUTCOME_OK;
		}
	}
	if (judged) {
		/* one judge, another build: the failure counts, by the current
		 * build's rule where it is looser than the one r was judged by
		 * (red team 232's looser: softmax's rel L2 1e-5 made 1.00001e-5
		 * dropped a cheat's failure at 100x it, promoted 11 of 11) */
		return !tighter || !have_now || checks_fail_rule(r, now);
	}
	/* records without the judge's fingerprint: a build that failed
	 * every other code it judged there is taken for a broken reference
	 * (red team 234 laundered this with a code that writes zeros; the
	 * fingerprint closes it for new records) */
	return !tighter && (accepted || !others);
}

/*
 * The same sources by content (the kernel file and every header and
 * library its build read) at the same parameters, whatever the flags and
 * the compiler (code_id.src): the kernel file at its parameters, as
 * `validated` reads a run.  Red team 294 row 3: the code hash holds the
 * command line, so red team 273's twinbad.c P=1 SALT=1, refuted at S=32,
 * rebuilt under a spec's `flags: [-O1]` (another binary, loaded image and
 * echo-neutral object) was `faster` supported 4 of 4 and promoted by
 * eval 4 of 4 while `validated` on the same batch was contradicted by
 * the refuted runs.  A flag can change what a kernel does (fast math, an
 * -O level over undefined behaviour), but code_refuted_run only counts
 * against the side whose author picked the source, its parameters and
 * its flags.  Known on both (a record with sources).
 */
static int same_source(const struct code_id *x, const struct code_id *y)
{
	return x->src[0] && !strcmp(x->src, y->src);
}

/*
 * The first run of q (q's order) of code id's program on its device at
 * prob's problem, at any shape, that `first` picks (a cheap look at the
 * record, made before its identity is hashed) and `then` (NULL: any)
 * keeps: by code_same_program, with CODE_MATCH_SOURCE by the same
 * sources and parameters too (same_source), with CODE_MATCH_BUILT by the
 * object alone (code_same_built).  NULL where none.  The store's scan
 * that code_refuted_run and code_specialised_run share.
 */
static int code_matches(const struct code_id *rid, const struct code_id *id, enum code_match how)
{
	if (how == CODE_MATCH_BUILT)
		return code_same_built(rid, id);
	return code_same_program(rid, id) || (how == CODE_MATCH_SOURCE && same_source(rid, id));
}

static const struct run_record *code_run_where(struct query *q, const struct rec_problem *prob, const struct code_id *id,
					       enum code_match how, int (*first)(const struct run_record *),
					       int (*then)(struct query *, const struct run_record *,
							   const struct rec_problem *))
{
	for (size_t i = 0; i < q->n; i++) {
		const struct record_attrs *at = &q->e[i].a;
		if (at->is_batch || at->is_search)
			continue;
		const struct run_record *r = query_run_at(q, i);
		struct code_id rid;
		if (!r || !first(r) || !same_problem_name(&r->problem, prob) ||
		    !code_identity_run(r, r->params, r->n_params, &rid) || !rid.dev || !id->dev ||
		    strcmp(rid.dev, id->dev) || !code_matches(&rid, id, how) ||
		    (then && !then(q, r, prob)))
			continue;
		return r;
	}
	return NULL;
}

/* the outcome first: refuted runs are few, an identity costs hashes */
static int run_is_refuted(const struct run_record *r)
{
	return code_run_refuted(r) != OUTCOME_OK;
}

const struct run_record *code_refuted_run(struct query *q, const struct rec_problem *prob, const struct code_id *id)
{
	return code_run_where(q, prob, id, CODE_MATCH_SOURCE, run_is_refuted, code_other_build_counts);
}

int code_run_specialised(const struct run_record *r)
{
	return r && r->extra_shape_status && !strcmp(r->extra_shape_status, "specialised");
}

const struct run_record *code_specialised_run(struct query *q, const struct rec_problem *prob,
					      const struct code_id *id, enum code_match how)
{
	/* the status first: refusals are few.  Any build of the problem
	 * counts (no code_other_build_counts): a refusal is the kernel's
	 * word, not a judge's tolerance */
	return code_run_where(q, prob, id, how, code_run_specialised, NULL);
}

int code_specialised_held(struct query *q, const struct rec_problem *prob, const struct code_id *fast,
			  const struct code_id *slow, const struct run_record **fast_r, const struct run_record **slow_r)
{
	/* the faster side by its sources under any flags (a refusal of any
	 * build of them holds it), the slower side by its own program only:
	 * red team 298 row 1 built the reference's naive.c with one -D that
	 * wrapped its init to refuse every C but the spec's, and that one
	 * run of the same sources made the reference read "specialised", so
	 * a refusing candidate was promoted 2 of 2 and its faster claim read
	 * supported 2 of 2.  A refusal excuses the faster side only where the
	 * slower side's own object (as built for the comparison: the same
	 * binary, or the same sources, flags and parameters) refused: red
	 * team 301 built the slower side's base.c at a parameter TAG that
	 * reaches only its echo, read by its init to refuse every shape but
	 * the spec's, an echo-neutral twin of the reference; one run of it
	 * made the reference read "specialised", and a search promoted a
	 * refusing candidate 3 of 6 (3 of 3 where the confirmation read
	 * faster), eval's hold lifted 4 of 4 stores.  The faster side's
	 * wider match holds only the side whose author could make the copy;
	 * the slower side's excuse is for the program that was compared. */
	*fast_r = code_specialised_run(q, prob, fast, CODE_MATCH_SOURCE);
	*slow_r = *fast_r ? code_specialised_run(q, prob, slow, CODE_MATCH_BUILT) : NULL;
	return *fast_r && !*slow_r;
}

const char *code_refuted_how(const struct run_record *r, const struct code_id *id)
{
	struct code_id rid;
	if (!code_identity_run(r, r->params, r->n_params, &rid) || code_same_built(&rid, id))
		return NULL;
	if (!strcmp(rid.code, id->code))
		return "the same sources, flags and parameters as";
	/* (before the objects' hashes: a -g build maps the same image, and
	 * what a reader needs to know is that the build differed) */
	if (same_source(&rid, id))
		return strcmp(rid.flags, id->flags)
			       ? "the same sources and parameters, built under other flags than"
			       : "the same sources, flags and parameters, built by another compiler than";
	if (same_neutral(&rid, id))
		return "an echo-neutral twin of";
	if (same_load(&rid, id))
		return "a loaded-image copy of";
	return "the same program as";
}
