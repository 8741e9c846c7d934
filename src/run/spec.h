/*
 * spec.h - the declarative experiment spec (experiments/NAME.yaml).
 *
 * spec_load() parses YAML with libyaml's document API and validates every
 * key, reporting the first problem as one line
 *   error: experiments/x.yaml:7:3: unknown key 'warmpu' (did you mean 'warmup_ms'?)
 * A spec that fails to load has run nothing and written nothing.  What is
 * allowed is two tables: the knobs (backends/knobs.h: numbers and enums
 * with their defaults and ranges) and spec_keys[] below (every other key);
 * `evident help spec` prints both, and README.md's "Spec reference" is that
 * text (tests/cli/t0082 compares them).
 */
#ifndef EVIDENT_SPEC_H
#define EVIDENT_SPEC_H

#include "backends/backend.h"
#include "backends/knobs.h"

/*
 * Where a variant came from (its `lineage:` key), carried into every run
 * record of it (record.h's rec_lineage): parent, a run id, a search
 * candidate's id or a variant's name (evident show --lineage resolves it
 * in the store); mutation, what changed from the parent ("BLOCK_M
 * 64->128", "kernel file"); origin, free-form (a prompt hash, a model, a
 * search); search and generation, set by a search (run/search.h) for its
 * candidates.  Strings NULL when not given; generation -1 when not given.
 */
struct spec_lineage {
	char *parent, *mutation, *origin, *search;
	long long generation;
};

struct spec_variant {
	char *name;
	char *kernel;            /* path relative to the repository root */
	struct param *params;    /* in the order written (grid: grid order) */
	size_t n_params;
	char *expect;            /* expected outcome ("crashed", ...) or NULL */
	int is_reference;        /* from references: */
	char *trust;             /* "sealed" | "host" as written, or NULL (spec_trust gives the default) */
	struct spec_lineage *lineage; /* as written, or NULL (owned; spec_release frees it) */
};

/* How a variant's kernel runs on the cuda backend: "sealed" (its host
 * code never runs in the timing process: run/kexec.h) unless the variant
 * says `trust: host` or is a reference (cuDNN, cuBLAS: library kernels a
 * plan cannot replay).  On the host backend: "host" (the parent's clock
 * times the kernel, whose code runs in the worker). */
struct spec;
const char *spec_trust(const struct spec *s, const struct spec_variant *v);

#define SPEC_MAX_DIMS 8

/*
 * A search (`search:`, run/search.h): generations of candidates, each a
 * mutation of a parent over the tunables below (and the kernel files),
 * judged in one batch a generation against the best so far.
 */
struct spec_tunable {
	char *name;                  /* a parameter (C macro name) */
	int is_range;                /* 1: lo, lo + step, ..., hi; 0: choices */
	long long lo, hi, step;
	char **choices;              /* NULL-terminated values, or NULL for a range */
	size_t n_choices;
};

struct spec_search {
	long long population;        /* new candidates a generation */
	long long generations;       /* at most */
	long long elite;             /* parents kept: the best and elite - 1 runners-up */
	long long mutations;         /* genes changed per candidate */
	int seed_given;              /* 0: a random seed, drawn once and recorded */
	unsigned long long seed;
	struct spec_tunable *tunables;
	size_t n_tunables;
	char **kernels;              /* NULL-terminated kernel files a mutation may switch to, or NULL */
	size_t n_kernels;
	const char *budget_unit;     /* "cpu_s" | "gpu_s" | "usd" (static storage), NULL: no budget */
	double budget;               /* in budget_unit */
};

struct spec {
	char *path;              /* as given */
	char *text;              /* the YAML source, byte for byte */
	char *name, *question, *problem, *backend, *kernel, *dtype, *baseline, *arch;
	/* the shape, in the problem's key order */
	int n_dims;
	char *dim_names[SPEC_MAX_DIMS];
	long long dims[SPEC_MAX_DIMS];
	struct spec_variant *variants;
	size_t n_variants;
	/* every numeric and enumerated setting, with its one default (knobs.h);
	 * derived defaults (repeats, timeout_s) are filled by spec_load, the
	 * tolerance defaults (NAN here) by the problem's rule in the plan */
	struct knobs k;
	int seed_given;          /* 1: correctness.seed fixed by the spec; 0: fresh random per run */
	unsigned long long seed;
	char *gpus;              /* "all", "2", "0,2,5" or NULL (one GPU) */
	/* extras */
	char **sanitize;         /* NULL-terminated tool names, or NULL */
	char **flags;            /* NULL-terminated extra compiler flags, or NULL */
	double price_usd_per_h;  /* < 0: not overridden by the spec */
	char *price_source;
	struct spec_search *search; /* `search:`, or NULL: one batch (owned) */
};

/*
 * Every spec key that is not a knob, once: where it lives, what it takes,
 * its default and its meaning.  spec.c accepts exactly these keys plus the
 * knobs, and `evident help spec` prints both in this order.  section is
 * "top" (a top-level key), "variant" (a key a variant reserves besides its
 * parameters: variants.NAME.kernel), "variant/lineage" (a key of a
 * variant's lineage: variants.NAME.lineage.parent) or the mapping it lives
 * in ("correctness", "cost").  A row with name NULL places the knobs of its
 * section (knobs.h) in the printed order.  The list ends with a row whose
 * section is NULL.
 */
struct spec_key {
	const char *section, *name;
	const char *type;        /* what it takes, in words: "path", "fp32, fp16, bf16" */
	const char *def;         /* the default, in words: "required", "none", ... */
	const char *doc;         /* one line */
};
extern const struct spec_key spec_keys[];

/* What spec_load may consult besides the file. */
struct spec_env {
	int check_files;         /* require kernel files to exist (cwd = the repository root) */
	/*
	 * The shape keys of a problem, in its order (e.g. by loading its
	 * plug-in), or NULL with the reason in why.  NULL function: every
	 * problem is accepted with the keys in the order written (unit tests).
	 */
	const char *const *(*problem_keys)(const char *problem, int *n, struct strbuf *why, void *ctx);
	/* Optional: told the spec's shape as written (its keys and integer
	 * values, n of them) just before problem_keys is asked, so that a
	 * loader may answer for that shape at once (problem_spec_shape_hint) */
	void (*shape_hint)(const char *const *names, const long long *vals, int n, void *ctx);
	void *ctx;
};

/*
 * Load and validate the spec at path into s (which the caller releases
 * with spec_release even on failure).  Returns 0, or -1 after printing
 * one error line FILE:LINE:COL: message.
 */
int spec_load(const char *path, const struct spec_env *env, struct spec *s);
/* The same from text (path names it in messages). */
int spec_load_text(const char *path, const char *text, const struct spec_env *env, struct spec *s);
/* The variants a spec's text declares, {NAME: {"kernel", "params"}} (a new
 * JSON object), loaded quietly with no file looked at; NULL when it does
 * not load.  store/query.h's query_spec_variants (set in main). */
json_t *spec_variants_of_text(const char *text);
/*
 * What a spec's text defines its variants' runs to be, as spec_load
 * resolves it (quietly, no file looked at): {"spec": {name, problem,
 * backend, dtype, baseline, arch, shape: {DIM: N}, flags: [...], sanitize:
 * [...], seed (null: drawn per run), knobs: the knobs of what is timed
 * and passed, cache, clock, batch, warmup_ms, atol, rtol, rel_l2, and any
 * knob added later}, "variants": {NAME: {kernel, params: {NAME: VALUE},
 * trust, reference}}}, a new object; NULL when it does not load.  What is
 * left out changes how much is run, not what: repeats, samples,
 * correctness.seeds, timed_checks, max_seconds, min_seconds, stdrel,
 * timeout_s, the GPUs, the question's words, a price, a search's
 * space and budget, a variant's expected outcome and lineage.  store/query.h's query_spec_definition
 * (set in main): a claim's evidence is stale once its spec defines the
 * variant otherwise (red team 126).
 */
json_t *spec_definition_of_text(const char *text);
void spec_release(struct spec *s);
/* Free a lineage (NULL is fine). */
void spec_lineage_free(struct spec_lineage *l);

/* The variant called name, or NULL. */
const struct spec_variant *spec_variant(const struct spec *s, const char *name);
/* Value of param `name` in v, or NULL. */
const char *spec_param(const struct spec_variant *v, const char *name);

#endif /* EVIDENT_SPEC_H */
