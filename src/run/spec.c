/*
 * spec.c - load and validate an experiment spec (contract in spec.h).
 *
 * libyaml builds the document tree with a start mark (line, column) on
 * every node; validation walks the tree and stops at the first problem,
 * printing it as FILE:LINE:COL.  Allowed keys are spec_keys[] below and the
 * knobs (knobs.h), so that "unknown key" can suggest the nearest allowed
 * one and `evident help spec` documents exactly what is accepted.
 */
#include "run/spec.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "backends/problem.h"
#include "record/record.h"

struct ctx {
	const char *path;
	yaml_document_t *doc;
	struct spec *s;
	const struct spec_env *env;
};

static int in_list(const char *v, const char *const *list)
{
	for (size_t i = 0; list[i]; i++)
		if (!strcmp(v, list[i]))
			return 1;
	return 0;
}

static int node_err(struct ctx *c, yaml_node_t *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int node_err(struct ctx *c, yaml_node_t *n, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (n)
		error("%s:%zu:%zu: %s", c->path, n->start_mark.line + 1, n->start_mark.column + 1,
		      sb.buf);
	else
		error("%s: %s", c->path, sb.buf);
	strbuf_release(&sb);
	return -1;
}

static yaml_node_t *get(struct ctx *c, int id)
{
	return yaml_document_get_node(c->doc, id);
}

static const char *scalar(yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static const char *type_name(yaml_node_t *n)
{
	switch (n->type) {
	case YAML_SCALAR_NODE: return "a scalar";
	case YAML_SEQUENCE_NODE: return "a list";
	case YAML_MAPPING_NODE: return "a mapping";
	default: return "empty";
	}
}

static int want_string(struct ctx *c, yaml_node_t *n, const char *key, char **out)
{
	const char *v = scalar(n);
	if (!v)
		return node_err(c, n, "'%s' must be a string, not %s", key, type_name(n));
	if (!*v)
		return node_err(c, n, "'%s' must not be empty", key);
	free(*out);
	*out = xstrdup(v);
	return 0;
}

static int want_ll(struct ctx *c, yaml_node_t *n, const char *key, long long lo, long long hi,
		   long long *out)
{
	const char *v = scalar(n);
	char *end;
	if (!v)
		return node_err(c, n, "'%s' must be an integer, not %s", key, type_name(n));
	errno = 0;
	long long x = strtoll(v, &end, 10);
	if (errno || end == v || *end)
		return node_err(c, n, "'%s' must be an integer, not '%s'", key, v);
	if (x < lo || x > hi)
		return node_err(c, n, "'%s' is %lld, out of range [%lld, %lld]", key, x, lo, hi);
	*out = x;
	return 0;
}

static int want_double(struct ctx *c, yaml_node_t *n, const char *key, double lo, double hi,
		       double *out)
{
	const char *v = scalar(n);
	char *end;
	if (!v)
		return node_err(c, n, "'%s' must be a number, not %s", key, type_name(n));
	errno = 0;
	double x = strtod(v, &end);
	if (errno || end == v || *end || !isfinite(x))
		return node_err(c, n, "'%s' must be a number, not '%s'", key, v);
	if (x < lo || x > hi)
		return node_err(c, n, "'%s' is %g, out of range [%g, %g]", key, x, lo, hi);
	*out = x;
	return 0;
}

static int want_map(struct ctx *c, yaml_node_t *n, const char *key)
{
	if (n->type != YAML_MAPPING_NODE)
		return node_err(c, n, "'%s' must be a mapping (key: value lines), not %s", key,
				type_name(n));
	return 0;
}

/* "unknown <what> 'name'<where>" with a did-you-mean from the allowed list */
static int unknown_thing(struct ctx *c, yaml_node_t *k, const char *what, const char *where,
			 const char *const *allowed)
{
	const char *name = scalar(k) ? scalar(k) : "?";
	const char *best = NULL;
	int bestd = 1 << 30;
	for (size_t i = 0; allowed[i]; i++) {
		int d = edit_distance(name, allowed[i]);
		if (d < bestd) {
			bestd = d;
			best = allowed[i];
		}
	}
	struct strbuf list = STRBUF_INIT;
	for (size_t i = 0; allowed[i]; i++)
		strbuf_addf(&list, "%s%s", i ? ", " : "", allowed[i]);
	int rc;
	if (best && bestd <= 3 && bestd < (int)strlen(name))
		rc = node_err(c, k, "unknown %s '%s'%s (did you mean '%s'?)", what, name, where, best);
	else
		rc = node_err(c, k, "unknown %s '%s'%s (allowed: %s)", what, name, where, list.buf);
	strbuf_release(&list);
	return rc;
}

static int unknown_key(struct ctx *c, yaml_node_t *k, const char *where, const char *const *allowed)
{
	return unknown_thing(c, k, "key", where, allowed);
}

/* an unknown value of a closed set: "unknown dtype 'fp8' (did you mean 'fp32'?)" */
static int unknown_value(struct ctx *c, yaml_node_t *v, const char *what, const char *const *allowed)
{
	return unknown_thing(c, v, what, "", allowed);
}

/* Find a duplicate key in a mapping; error on it. */
static int check_duplicates(struct ctx *c, yaml_node_t *map, const char *what)
{
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++)
		for (yaml_node_pair_t *q = map->data.mapping.pairs.start; q < p; q++) {
			const char *a = scalar(get(c, p->key)), *b = scalar(get(c, q->key));
			if (a && b && !strcmp(a, b))
				return node_err(c, get(c, p->key), "duplicate %s '%s' (first at line %zu)",
						what, a, get(c, q->key)->start_mark.line + 1);
		}
	return 0;
}

static int is_identifier(const char *s)
{
	if (!s || !*s || !((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || *s == '_'))
		return 0;
	for (; *s; s++)
		if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		      *s == '_'))
			return 0;
	return 1;
}

/* A value that may be passed as -DNAME=VALUE: [A-Za-z0-9_.+-], non-empty. */
static int is_macro_value(const char *s)
{
	if (!s || !*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		      *s == '_' || *s == '.' || *s == '+' || *s == '-'))
			return 0;
	return 1;
}

/* The outcome names, from the one list (record/outcome_list.h). */
static const char *const *outcomes_known(void)
{
	static const char *names[OUTCOME_COUNT + 1];
	for (unsigned i = 0; i < OUTCOME_COUNT; i++)
		names[i] = outcome_name((enum outcome)i);
	return names;
}

/*
 * Every key that is not a knob (spec.h).  The order is the order of
 * `evident help spec` and of README's spec reference; the rows with a NULL
 * name place the knobs of their section.
 */
const struct spec_key spec_keys[] = {
	{ "top", "name", "letters, digits, _ . -", "required", "the experiment's name, in every record of it" },
	{ "top", "question", "text", "none", "the question the experiment answers, printed and recorded" },
	{ "top", "problem", "a problem's name", "required",
	  "what the kernels compute: problems/NAME.c defines its tensors, inputs, reference, FLOPs, bytes and "
	  "tolerance (evident help problems)" },
	{ "top", "backend", "host, cuda", "from the first kernel's extension (.c host, .cu cuda)",
	  "where the kernels run: compiled by cc on the CPU, or by nvcc for the GPU" },
	{ "top", "kernel", "path", "none",
	  "the kernel of every variant that names none, relative to the repository root "
	  "(docs/writing-a-kernel.md)" },
	{ "top", "shape", "mapping KEY: size", "required",
	  "every shape key of the problem, e.g. {R: 1024, C: 4096} (evident help problems)" },
	{ "top", "dtype", "fp32, fp16, bf16", "the backend's: fp32 host, fp16 cuda",
	  "the element type of every tensor; the host backend computes in fp32 only" },
	{ "top", "baseline", "a variant's name", "the only variant",
	  "the variant the others are compared with; required with more than one variant" },
	{ "top", "params", "mapping NAME: value", "none",
	  "parameters of every variant, each compiled in as -DNAME=VALUE (a C macro name; a value of letters, "
	  "digits and _ . + -); a variant's own value wins" },
	{ "top", "variants", "mapping NAME: {PARAM: value, ...}", "one, named default, of kernel",
	  "the variants to compare; besides parameters a variant may hold the keys below" },
	{ "variant", "kernel", "path", "the top-level kernel", "this variant's kernel" },
	{ "variant", "expect", "an outcome, or a list", "ok",
	  "the outcome this variant must end as (evident help outcomes), or a list of outcomes any of which "
	  "is expected (a cheat a race lets two mechanisms catch); evident run exits 0 when every variant "
	  "ends as expected" },
	{ "variant", "trust", "sealed or host", "sealed on cuda (references: host)",
	  "sealed: the kernel's host code runs only in a sandboxed planner, which records its launches; the "
	  "timing worker replays them from the object's device code. host: the kernel's host code runs in the "
	  "(sandboxed) timing worker, for launches that depend on data or library kernels; the record says "
	  "which" },
	{ "variant", "lineage", "mapping {parent, mutation, origin, search, generation}", "none",
	  "where this variant came from, recorded in each of its runs (evident show --lineage RUN follows the "
	  "parents through the store); a search writes it for its candidates" },
	{ "variant/lineage", "parent", "text", "none",
	  "the parent: a run id (or a unique prefix), a search candidate's id, or a variant's name (of the same "
	  "batch first, else the newest of the experiment)" },
	{ "variant/lineage", "mutation", "text", "none", "what changed from the parent, e.g. \"BLOCK_M 64->128\"" },
	{ "variant/lineage", "origin", "text", "none",
	  "who or what proposed it, free-form: a prompt hash, a model's name, \"search gen 2\"" },
	{ "variant/lineage", "search", "a search id", "none", "the search that made this candidate (set by a search)" },
	{ "variant/lineage", "generation", "integer 0..1000000", "none", "the search's generation it belongs to" },
	{ "top", "grid", "mapping PARAM: [values]", "none",
	  "more variants: the cartesian product of the lists, first key slowest, named PARAM-value_PARAM-value "
	  "(at most 4096)" },
	{ "top", "references", "list of names", "none",
	  "more variants: kernels/reference/NAME.cu (.c on host) each, e.g. [cudnn_sdpa]" },
	{ "top", NULL, NULL, NULL, NULL },
	{ "top", "gpus", "all, a count, or indices 0,2,5", "one GPU",
	  "checked and kept for a multi-GPU runner; this one runs on one GPU (evident run --device N)" },
	{ "correctness", NULL, NULL, NULL, NULL },
	{ "correctness", "seed", "integer 0..2^62", "random per run",
	  "fix the first correctness seed (seed i = seed + i); recorded either way" },
	{ "timing", NULL, NULL, NULL, NULL },
	{ "limits", NULL, NULL, NULL, NULL },
	{ "top", "sanitize", "list of memcheck, racecheck, initcheck, synccheck", "none",
	  "run each variant once more under compute-sanitizer per tool: cuda, the main job's seeds, warm-up and "
	  "timed samples, every launch instrumented (sealed: the timed plan replayed); host, its seeds; its output "
	  "judged" },
	{ "top", "arch", "sm_NN or sm_NNa", "the device's own (sm_90 without a device)",
	  "the CUDA target; a kernel's own // evident: arch line wins" },
	{ "top", "flags", "list of strings", "none",
	  "extra compiler flags, after the -D parameters (part of the build key), each in a form the build "
	  "allows (src/backends/build_flags.c; --dry-run checks them)" },
	{ "cost", "price_usd_per_h", "number 0..1e6", "data/gpu-prices.yaml for the GPU",
	  "the GPU's price per hour, for the record's cost" },
	{ "cost", "source", "text", "none", "where that price comes from, recorded beside it" },
	{ "search", "population", "integer 1..64", "4",
	  "a search (README \"Searches\"): new candidates per generation, each a mutation of a parent; the spec's "
	  "one variant is where it starts" },
	{ "search", "generations", "integer 1..100", "3",
	  "generations at most, each one batch: the best so far (its baseline) and the candidates" },
	{ "search", "seed", "integer 0..2^62", "random per search, recorded",
	  "the mutations' seed: the same seed and the same verdicts give the same candidates" },
	{ "search", "elite", "integer 1..population", "1",
	  "parents of the next generation: the best so far and up to elite - 1 runners-up (ok, not slower, and "
	  "not a knob that missed the binary)" },
	{ "search", "mutations", "integer 1..8", "1", "tunables (and the kernel file) changed per candidate" },
	{ "search", "tunables", "mapping NAME: {range: [lo, hi], step: s} or {choices: [...]}",
	  "required (or kernels)", "the parameters a mutation may change, each compiled in as -DNAME=VALUE" },
	{ "search/tunables/NAME", "range", "[lo, hi], integers", "none",
	  "NAME takes lo, lo + step, ..., up to hi; a mutation moves one step, or jumps anywhere in the range" },
	{ "search/tunables/NAME", "step", "integer 1..2^40", "1", "the range's step" },
	{ "search/tunables/NAME", "choices", "list of values", "none",
	  "NAME takes one of these (instead of a range), e.g. [0, 1] or [4, 8, 16]" },
	{ "search", "kernels", "list of paths", "none",
	  "kernel files a mutation may switch to, besides the start variant's own" },
	{ "search", "budget", "mapping with one of cpu_s, gpu_s, usd", "none (the generations alone)",
	  "no generation starts that would, at the last one's cost per run, its confirmation among its runs, take the "
	  "total over it; no further confirmation runs that would" },
	{ "search/budget", "cpu_s", "number > 0", "none",
	  "host: CPU-seconds, the wall time of the runs (each holds one CPU)" },
	{ "search/budget", "gpu_s", "number > 0", "none", "cuda: GPU-seconds as the runs record them (cost.gpu_s)" },
	{ "search/budget", "usd", "number > 0", "none", "cuda: dollars, from the runs' price (cost.usd)" },
	{ NULL, NULL, NULL, NULL, NULL },
};


/* The keys of spec_keys[] in section, then the knobs of section,
 * NULL-terminated, in buf (of cap entries). */
static const char *const *section_keys(const char *section, const char **buf, size_t cap)
{
	size_t n = 0;
	for (const struct spec_key *k = spec_keys; k->section && n + 1 < cap; k++)
		if (k->name && !strcmp(k->section, section))
			buf[n++] = k->name;
	const char *const *kk = knob_section_keys(section);
	for (size_t i = 0; kk && kk[i] && n + 1 < cap; i++)
		buf[n++] = kk[i];
	buf[n] = NULL;
	return buf;
}

/* Keys a variant reserves besides its parameters. */
static const char *const *variant_reserved(void)
{
	static const char *keys[8];
	return keys[0] ? keys : section_keys("variant", keys, ARRAY_SIZE(keys));
}

/* A lowercase key one or two edits from a reserved one is a typo, not a
 * parameter: parameters are C macro names, by habit in UPPER_CASE. */
static const char *reserved_typo(const char *name)
{
	int upper = 0;
	for (const char *p = name; *p; p++)
		upper |= *p >= 'A' && *p <= 'Z';
	if (upper)
		return NULL;
	const char *const *reserved = variant_reserved();
	for (size_t i = 0; reserved[i]; i++)
		if (edit_distance(name, reserved[i]) <= 2)
			return reserved[i];
	return NULL;
}

static void add_param(struct spec_variant *v, const char *name, const char *value)
{
	for (size_t i = 0; i < v->n_params; i++)
		if (!strcmp(v->params[i].name, name)) {
			free(v->params[i].value);
			v->params[i].value = xstrdup(value);
			return;
		}
	v->params = xrealloc(v->params, (v->n_params + 1) * sizeof(*v->params));
	v->params[v->n_params].name = xstrdup(name);
	v->params[v->n_params].value = xstrdup(value);
	v->n_params++;
}

static struct spec_variant *new_variant(struct spec *s, const char *name)
{
	s->variants = xrealloc(s->variants, (s->n_variants + 1) * sizeof(*s->variants));
	struct spec_variant *v = &s->variants[s->n_variants++];
	memset(v, 0, sizeof(*v));
	v->name = xstrdup(name);
	return v;
}

/* Parameters shared by every variant (top-level params:). */
struct base_params {
	struct spec_variant holder;
};

static int parse_param_value(struct ctx *c, yaml_node_t *k, yaml_node_t *val, const char **out)
{
	const char *name = scalar(k);
	if (!is_identifier(name))
		return node_err(c, k, "parameter '%s' is not a C macro name ([A-Za-z_][A-Za-z0-9_]*)",
				name ? name : "?");
	const char *v = scalar(val);
	if (!v)
		return node_err(c, val, "parameter '%s' must be a scalar, not %s", name, type_name(val));
	if (!is_macro_value(v))
		return node_err(c, val,
				"parameter '%s' value '%s' may only hold letters, digits and _ . + -",
				name, v);
	*out = v;
	return 0;
}

static int check_keys(struct ctx *c, yaml_node_t *map, const char *where, const char *const *allowed);
static yaml_node_t *lookup(struct ctx *c, yaml_node_t *map, const char *key, yaml_node_t **knode);


/*
 * A variant's expect: one outcome, or a list of outcomes any of which is
 * as expected ([flaky, escaped_work]: a cheat that a race lets either of
 * two mechanisms catch).  A list is stored as "flaky or escaped_work",
 * the form outcome_as_expected() reads.  A list may not hold ok (a cheat
 * "caught or not" is no expectation) nor an outcome twice.
 */
static int parse_expect(struct ctx *c, yaml_node_t *val, struct spec_variant *v)
{
	enum outcome o;
	if (val->type != YAML_SEQUENCE_NODE) {
		if (want_string(c, val, "expect", &v->expect) < 0)
			return -1;
		if (outcome_parse(v->expect, &o) < 0)
			return unknown_value(c, val, "outcome", outcomes_known());
		return 0;
	}
	size_t len = (size_t)(val->data.sequence.items.top - val->data.sequence.items.start);
	if (!len)
		return node_err(c, val, "'expect' is an empty list: name one outcome, or several any of which is expected");
	struct strbuf sb = STRBUF_INIT;
	unsigned seen = 0;
	for (size_t i = 0; i < len; i++) {
		yaml_node_t *it = get(c, val->data.sequence.items.start[i]);
		const char *s = scalar(it);
		if (!s) {
			strbuf_release(&sb);
			return node_err(c, it, "'expect' list items must be outcomes, not %s", type_name(it));
		}
		if (outcome_parse(s, &o) < 0) {
			strbuf_release(&sb);
			return unknown_value(c, it, "outcome", outcomes_known());
		}
		if (o == OUTCOME_OK && len > 1) {
			strbuf_release(&sb);
			return node_err(c, it, "'expect' lists ok beside other outcomes: a variant either must "
					"end ok or must be caught; list only the outcomes that catch it");
		}
		if (seen & (1u << o)) {
			strbuf_release(&sb);
			return node_err(c, it, "'expect' lists '%s' twice", s);
		}
		seen |= 1u << o;
		strbuf_addf(&sb, "%s%s", i ? " or " : "", s);
	}
	free(v->expect);
	v->expect = strbuf_detach(&sb, NULL);
	return 0;
}
/* A variant's lineage: {parent, mutation, origin, search, generation}. */
static int parse_lineage(struct ctx *c, yaml_node_t *n, struct spec_variant *v)
{
	static const char *keys[8];
	if (!keys[0])
		section_keys("variant/lineage", keys, ARRAY_SIZE(keys));
	char where[160];
	snprintf(where, sizeof(where), " in 'lineage' of variant '%s'", v->name);
	if (want_map(c, n, "lineage") < 0 || check_keys(c, n, where, keys) < 0)
		return -1;
	struct spec_lineage *l = xcalloc(1, sizeof(*l));
	l->generation = -1;
	v->lineage = l;
	yaml_node_t *x;
	if ((x = lookup(c, n, "parent", NULL)) && want_string(c, x, "parent", &l->parent) < 0)
		return -1;
	if ((x = lookup(c, n, "mutation", NULL)) && want_string(c, x, "mutation", &l->mutation) < 0)
		return -1;
	if ((x = lookup(c, n, "origin", NULL)) && want_string(c, x, "origin", &l->origin) < 0)
		return -1;
	if ((x = lookup(c, n, "search", NULL))) {
		if (want_string(c, x, "search", &l->search) < 0)
			return -1;
		if (!is_safe_name(l->search))
			return node_err(c, x, "'search' is a search id (letters, digits and _ . -), not '%s'", l->search);
	}
	if ((x = lookup(c, n, "generation", NULL)) && want_ll(c, x, "generation", 0, 1000000, &l->generation) < 0)
		return -1;
	if (!l->parent && !l->mutation && !l->origin && !l->search)
		return node_err(c, n, "'lineage' of variant '%s' names nothing: give at least one of parent, mutation, "
				"origin or search", v->name);
	return 0;
}

static int parse_variant_body(struct ctx *c, yaml_node_t *body, struct spec_variant *v)
{
	if (body->type == YAML_SCALAR_NODE && !*scalar(body))
		return 0; /* "name:" with nothing: no parameters */
	if (want_map(c, body, v->name) < 0 || check_duplicates(c, body, "parameter") < 0)
		return -1;
	for (yaml_node_pair_t *p = body->data.mapping.pairs.start; p < body->data.mapping.pairs.top; p++) {
		yaml_node_t *k = get(c, p->key), *val = get(c, p->value);
		const char *name = scalar(k);
		if (name && !strcmp(name, "kernel")) {
			if (want_string(c, val, "kernel", &v->kernel) < 0)
				return -1;
			continue;
		}
		if (name && !strcmp(name, "trust")) {
			static const char *const trusts[] = { "sealed", "host", NULL };
			if (want_string(c, val, "trust", &v->trust) < 0)
				return -1;
			if (!in_list(v->trust, trusts))
				return unknown_value(c, val, "trust", trusts);
			continue;
		}
		if (name && !strcmp(name, "lineage")) {
			if (parse_lineage(c, val, v) < 0)
				return -1;
			continue;
		}
		if (name && !strcmp(name, "expect")) {
			if (parse_expect(c, val, v) < 0)
				return -1;
			continue;
		}
		const char *typo = name ? reserved_typo(name) : NULL;
		if (typo)
			return node_err(c, k, "unknown key '%s' in variant '%s' (did you mean '%s'?); parameters "
					"are C macro names, usually UPPER_CASE", name, v->name, typo);
		const char *value;
		if (parse_param_value(c, k, val, &value) < 0)
			return -1;
		add_param(v, name, value);
	}
	return 0;
}

static int parse_variants(struct ctx *c, yaml_node_t *n, const struct spec_variant *base)
{
	if (want_map(c, n, "variants") < 0 || check_duplicates(c, n, "variant") < 0)
		return -1;
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
		yaml_node_t *k = get(c, p->key);
		const char *name = scalar(k);
		if (!is_safe_name(name))
			return node_err(c, k, "variant name '%s' may only hold letters, digits and _ . -",
					name ? name : "?");
		if (spec_variant(c->s, name))
			return node_err(c, k, "duplicate variant '%s'", name);
		struct spec_variant *v = new_variant(c->s, name);
		for (size_t i = 0; i < base->n_params; i++)
			add_param(v, base->params[i].name, base->params[i].value);
		if (parse_variant_body(c, get(c, p->value), v) < 0)
			return -1;
	}
	return 0;
}

/* grid: {A: [1,2], B: [x,y]} -> the cartesian product, first key slowest. */
static int parse_grid(struct ctx *c, yaml_node_t *n, const struct spec_variant *base)
{
	if (want_map(c, n, "grid") < 0 || check_duplicates(c, n, "grid parameter") < 0)
		return -1;
	size_t nk = (size_t)(n->data.mapping.pairs.top - n->data.mapping.pairs.start);
	if (!nk)
		return node_err(c, n, "'grid' is empty: give each parameter a list of values");
	size_t total = 1;
	yaml_node_pair_t *pairs = n->data.mapping.pairs.start;
	for (size_t i = 0; i < nk; i++) {
		yaml_node_t *k = get(c, pairs[i].key), *list = get(c, pairs[i].value);
		if (!is_identifier(scalar(k)))
			return node_err(c, k, "grid parameter '%s' is not a C macro name",
					scalar(k) ? scalar(k) : "?");
		if (list->type != YAML_SEQUENCE_NODE)
			return node_err(c, list, "grid parameter '%s' must be a list like [1, 2, 4], not %s",
					scalar(k), type_name(list));
		size_t len = (size_t)(list->data.sequence.items.top - list->data.sequence.items.start);
		if (!len)
			return node_err(c, list, "grid parameter '%s' has no values", scalar(k));
		for (size_t j = 0; j < len; j++) {
			const char *v;
			if (parse_param_value(c, k, get(c, list->data.sequence.items.start[j]), &v) < 0)
				return -1;
		}
		total *= len;
		if (total > 4096)
			return node_err(c, n, "'grid' expands to more than 4096 variants");
	}
	size_t *idx = xcalloc(nk, sizeof(size_t));
	int rc = 0;
	for (size_t t = 0; t < total && !rc; t++) {
		struct strbuf name = STRBUF_INIT;
		for (size_t i = 0; i < nk; i++) {
			yaml_node_t *list = get(c, pairs[i].value);
			strbuf_addf(&name, "%s%s-%s", i ? "_" : "", scalar(get(c, pairs[i].key)),
				    scalar(get(c, list->data.sequence.items.start[idx[i]])));
		}
		if (spec_variant(c->s, name.buf)) {
			rc = node_err(c, n, "duplicate variant '%s' from 'grid'", name.buf);
		} else {
			struct spec_variant *v = new_variant(c->s, name.buf);
			for (size_t i = 0; i < base->n_params; i++)
				add_param(v, base->params[i].name, base->params[i].value);
			for (size_t i = 0; i < nk; i++) {
				yaml_node_t *list = get(c, pairs[i].value);
				add_param(v, scalar(get(c, pairs[i].key)),
					  scalar(get(c, list->data.sequence.items.start[idx[i]])));
			}
		}
		strbuf_release(&name);
		for (size_t i = nk; i-- > 0;) { /* odometer, last key fastest */
			yaml_node_t *list = get(c, pairs[i].value);
			size_t len = (size_t)(list->data.sequence.items.top - list->data.sequence.items.start);
			if (++idx[i] < len)
				break;
			idx[i] = 0;
		}
	}
	free(idx);
	return rc;
}

static int parse_string_list(struct ctx *c, yaml_node_t *n, const char *key,
			     const char *const *allowed, char ***out)
{
	if (n->type != YAML_SEQUENCE_NODE)
		return node_err(c, n, "'%s' must be a list like [a, b], not %s", key, type_name(n));
	size_t len = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
	char **list = xcalloc(len + 1, sizeof(char *));
	*out = list;
	for (size_t i = 0; i < len; i++) {
		yaml_node_t *it = get(c, n->data.sequence.items.start[i]);
		const char *v = scalar(it);
		if (!v || !*v)
			return node_err(c, it, "'%s' items must be strings", key);
		if (allowed) {
			int ok = 0;
			for (size_t j = 0; allowed[j]; j++)
				ok |= !strcmp(allowed[j], v);
			if (!ok) {
				char what[64];
				snprintf(what, sizeof(what), "%s tool", key);
				return unknown_value(c, it, what, allowed);
			}
		}
		list[i] = xstrdup(v);
	}
	return 0;
}

/* The top-level keys: spec_keys[]'s and the top knobs, then every section
 * a knob or a key lives in (static storage). */
static const char *const *top_keys(void)
{
	static const char *keys[64];
	if (keys[0])
		return keys;
	size_t n = 0;
	section_keys("top", keys, ARRAY_SIZE(keys) - 16);
	while (keys[n])
		n++;
	/* a section with a slash is nested in another (variant/lineage): not top-level */
	for (const struct spec_key *k = spec_keys; k->section && n + 1 < ARRAY_SIZE(keys); k++)
		if (strcmp(k->section, "top") && strcmp(k->section, "variant") && !strchr(k->section, '/') &&
		    !in_list(k->section, keys))
			keys[n++] = k->section;
	for (size_t i = 0; i < knob_count && n + 1 < ARRAY_SIZE(keys); i++)
		if (strcmp(knob_defs[i].section, "top") && !in_list(knob_defs[i].section, keys))
			keys[n++] = knob_defs[i].section;
	keys[n] = NULL;
	return keys;
}
static const char *const sanitize_tools[] = { "memcheck", "racecheck", "initcheck", "synccheck",
					      NULL };

/* The backends' names (backend.h's list). */
static const char *const *backend_names(void)
{
	static const char *names[8];
	for (size_t i = 0; backends_all[i] && i < 7; i++)
		names[i] = backends_all[i]->name;
	return names;
}


static yaml_node_t *lookup(struct ctx *c, yaml_node_t *map, const char *key, yaml_node_t **knode)
{
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		const char *k = scalar(get(c, p->key));
		if (k && !strcmp(k, key)) {
			if (knode)
				*knode = get(c, p->key);
			return get(c, p->value);
		}
	}
	return NULL;
}

static int check_keys(struct ctx *c, yaml_node_t *map, const char *where, const char *const *allowed)
{
	if (check_duplicates(c, map, "key") < 0)
		return -1;
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		yaml_node_t *k = get(c, p->key);
		if (!scalar(k) || !in_list(scalar(k), allowed))
			return unknown_key(c, k, where, allowed);
	}
	return 0;
}

/* One knob's value from node v, checked against its type and range. */
static int parse_knob(struct ctx *c, yaml_node_t *v, const struct knob_def *d)
{
	if (d->type == KNOB_ENUM) {
		const char *x = scalar(v);
		if (!x)
			return node_err(c, v, "'%s' must be one of its names, not %s", d->name, type_name(v));
		for (int i = 0; d->values[i]; i++)
			if (!strcmp(d->values[i], x)) {
				knob_set(&c->s->k, d, i);
				return 0;
			}
		char what[64];
		snprintf(what, sizeof(what), "%s value", d->name);
		return unknown_value(c, v, what, d->values);
	}
	if (d->type == KNOB_INT) {
		long long x;
		if (want_ll(c, v, d->name, (long long)d->lo, (long long)d->hi, &x) < 0)
			return -1;
		knob_set(&c->s->k, d, (double)x);
		return 0;
	}
	double x;
	if (want_double(c, v, d->name, d->lo, d->hi, &x) < 0)
		return -1;
	knob_set(&c->s->k, d, x);
	return 0;
}

/* Every knob of section found in mapping n (others are checked before). */
static int parse_knob_section(struct ctx *c, yaml_node_t *n, const char *section)
{
	for (size_t i = 0; i < knob_count; i++) {
		if (strcmp(knob_defs[i].section, section))
			continue;
		yaml_node_t *v = lookup(c, n, knob_defs[i].name, NULL);
		if (v && parse_knob(c, v, &knob_defs[i]) < 0)
			return -1;
	}
	return 0;
}

/* One tunable of search.tunables: {range: [lo, hi], step: s} or {choices: [...]}. */
static int parse_tunable(struct ctx *c, yaml_node_t *k, yaml_node_t *v, struct spec_tunable *t)
{
	static const char *keys[8];
	if (!keys[0])
		section_keys("search/tunables/NAME", keys, ARRAY_SIZE(keys));
	const char *name = scalar(k);
	if (!is_identifier(name))
		return node_err(c, k, "tunable '%s' is not a C macro name ([A-Za-z_][A-Za-z0-9_]*)", name ? name : "?");
	t->name = xstrdup(name);
	char where[160];
	snprintf(where, sizeof(where), " in tunable '%s' of 'search'", name);
	if (v->type != YAML_MAPPING_NODE)
		return node_err(c, v, "tunable '%s' must be {range: [lo, hi], step: s} or {choices: [a, b, ...]}, not %s",
				name, type_name(v));
	if (check_keys(c, v, where, keys) < 0)
		return -1;
	yaml_node_t *r = lookup(c, v, "range", NULL), *st = lookup(c, v, "step", NULL),
		    *ch = lookup(c, v, "choices", NULL);
	if (r && ch)
		return node_err(c, ch, "tunable '%s' has both 'range' and 'choices': give one", name);
	if (!r && !ch)
		return node_err(c, v, "tunable '%s' needs 'range: [lo, hi]' (with 'step') or 'choices: [a, b, ...]'", name);
	if (ch) {
		if (st)
			return node_err(c, st, "tunable '%s': 'step' goes with 'range', not with 'choices'", name);
		if (ch->type != YAML_SEQUENCE_NODE)
			return node_err(c, ch, "'choices' of tunable '%s' must be a list like [4, 8, 16], not %s", name,
					type_name(ch));
		size_t len = (size_t)(ch->data.sequence.items.top - ch->data.sequence.items.start);
		t->choices = xcalloc(len + 1, sizeof(char *));
		for (size_t i = 0; i < len; i++) {
			yaml_node_t *it = get(c, ch->data.sequence.items.start[i]);
			const char *val;
			if (parse_param_value(c, k, it, &val) < 0)
				return -1;
			for (size_t j = 0; j < t->n_choices; j++)
				if (!strcmp(t->choices[j], val))
					return node_err(c, it, "tunable '%s' lists '%s' twice", name, val);
			t->choices[t->n_choices++] = xstrdup(val);
		}
		if (t->n_choices < 2)
			return node_err(c, ch, "tunable '%s' needs at least two choices, or there is nothing to mutate", name);
		return 0;
	}
	t->is_range = 1;
	if (r->type != YAML_SEQUENCE_NODE || r->data.sequence.items.top - r->data.sequence.items.start != 2)
		return node_err(c, r, "'range' of tunable '%s' must be [lo, hi], two integers", name);
	if (want_ll(c, get(c, r->data.sequence.items.start[0]), "range", -(1LL << 40), 1LL << 40, &t->lo) < 0 ||
	    want_ll(c, get(c, r->data.sequence.items.start[1]), "range", -(1LL << 40), 1LL << 40, &t->hi) < 0)
		return -1;
	t->step = 1;
	if (st && want_ll(c, st, "step", 1, 1LL << 40, &t->step) < 0)
		return -1;
	if (t->hi <= t->lo)
		return node_err(c, r, "'range' of tunable '%s' is [%lld, %lld]: hi must be above lo", name, t->lo, t->hi);
	if ((t->hi - t->lo) / t->step < 1)
		return node_err(c, st ? st : r, "tunable '%s' takes one value only ([%lld, %lld] by %lld): nothing to mutate",
				name, t->lo, t->hi, t->step);
	return 0;
}

/* search: (spec.h's struct spec_search); after the variants and the backend. */
static int parse_search(struct ctx *c, yaml_node_t *root, yaml_node_t *n)
{
	struct spec *s = c->s;
	const char *keys[24];
	if (want_map(c, n, "search") < 0 || check_keys(c, n, " in 'search'", section_keys("search", keys, 24)) < 0)
		return -1;
	struct spec_search *x = xcalloc(1, sizeof(*x));
	s->search = x;
	x->population = 4;
	x->generations = 3;
	x->elite = 1;
	x->mutations = 1;
	yaml_node_t *v, *en = NULL;
	if ((v = lookup(c, n, "population", NULL)) && want_ll(c, v, "population", 1, 64, &x->population) < 0)
		return -1;
	if ((v = lookup(c, n, "generations", NULL)) && want_ll(c, v, "generations", 1, 100, &x->generations) < 0)
		return -1;
	if ((en = lookup(c, n, "elite", NULL)) && want_ll(c, en, "elite", 1, 64, &x->elite) < 0)
		return -1;
	if (x->elite > x->population)
		return node_err(c, en, "'elite' is %lld, above 'population' (%lld)", x->elite, x->population);
	if ((v = lookup(c, n, "mutations", NULL)) && want_ll(c, v, "mutations", 1, 8, &x->mutations) < 0)
		return -1;
	long long seed;
	if ((v = lookup(c, n, "seed", NULL))) {
		if (want_ll(c, v, "seed", 0, (1LL << 62), &seed) < 0)
			return -1;
		x->seed = (unsigned long long)seed;
		x->seed_given = 1;
	}
	yaml_node_t *tn = lookup(c, n, "tunables", NULL);
	if (tn) {
		if (want_map(c, tn, "tunables") < 0 || check_duplicates(c, tn, "tunable") < 0)
			return -1;
		size_t nt = (size_t)(tn->data.mapping.pairs.top - tn->data.mapping.pairs.start);
		x->tunables = xcalloc(nt ? nt : 1, sizeof(*x->tunables));
		for (yaml_node_pair_t *p = tn->data.mapping.pairs.start; p < tn->data.mapping.pairs.top; p++)
			if (parse_tunable(c, get(c, p->key), get(c, p->value), &x->tunables[x->n_tunables++]) < 0)
				return -1;
	}
	yaml_node_t *kn = lookup(c, n, "kernels", NULL);
	if (kn) {
		if (parse_string_list(c, kn, "kernels", NULL, &x->kernels) < 0)
			return -1;
		while (x->kernels[x->n_kernels])
			x->n_kernels++;
		if (!x->n_kernels)
			return node_err(c, kn, "'kernels' of 'search' is empty: list the kernel files a mutation may switch to");
	}
	if (!x->n_tunables && !x->n_kernels)
		return node_err(c, n, "'search' has nothing to mutate: give 'tunables' (or 'kernels')");
	yaml_node_t *bn = lookup(c, n, "budget", NULL);
	if (bn) {
		const char *bk[8];
		if (want_map(c, bn, "budget") < 0 ||
		    check_keys(c, bn, " in 'budget' of 'search'", section_keys("search/budget", bk, 8)) < 0)
			return -1;
		size_t nb = (size_t)(bn->data.mapping.pairs.top - bn->data.mapping.pairs.start);
		if (nb != 1)
			return node_err(c, bn, "'budget' of 'search' takes one unit, not %zu: cpu_s (host), gpu_s or usd (cuda)", nb);
		yaml_node_t *uk = get(c, bn->data.mapping.pairs.start->key);
		static const char *const units[] = { "cpu_s", "gpu_s", "usd", NULL };
		for (size_t i = 0; units[i]; i++)
			if (!strcmp(scalar(uk), units[i]))
				x->budget_unit = units[i];
		if (want_double(c, get(c, bn->data.mapping.pairs.start->value), x->budget_unit, 1e-9, 1e12, &x->budget) < 0)
			return -1;
		const struct backend *be = backend_find(s->backend);
		if (be->uses_gpu && !strcmp(x->budget_unit, "cpu_s"))
			return node_err(c, uk, "a budget in cpu_s is for the host backend; on %s give gpu_s or usd (the cost "
					"the runs record)", s->backend);
		if (!be->uses_gpu && strcmp(x->budget_unit, "cpu_s"))
			return node_err(c, uk, "the host backend records no GPU time or price: give the budget as cpu_s "
					"(the runs' wall time)");
	}
	/* where it starts: one variant, no references */
	size_t nv = 0;
	for (size_t i = 0; i < s->n_variants; i++) {
		if (s->variants[i].is_reference)
			return node_err(c, lookup(c, root, "references", NULL),
					"a search cannot carry references: each generation would run them again; compare "
					"with a reference in a spec of its own");
		nv++;
	}
	if (nv != 1)
		return node_err(c, n, "a search starts from one variant, its baseline; the spec has %zu (keep one in "
				"'variants', or no 'grid')", nv);
	const char *b = s->baseline, *q = b;
	if (*q == 'g' && isdigit((unsigned char)q[1])) {
		for (q++; isdigit((unsigned char)*q); q++)
			;
		if (*q == 'c' && isdigit((unsigned char)q[1])) {
			for (q++; isdigit((unsigned char)*q); q++)
				;
			if (!*q)
				return node_err(c, n, "the start variant '%s' is named like a search's candidates (gNcK); "
						"rename it", b);
		}
	}
	for (size_t i = 0; i < x->n_tunables; i++)
		if (!strcmp(x->tunables[i].name, "kernel"))
			return node_err(c, tn, "'kernel' is no parameter: list kernel files under 'kernels' of 'search'");
	return 0;
}

static int parse_sections(struct ctx *c, yaml_node_t *root)
{
	struct spec *s = c->s;
	yaml_node_t *n, *k;

	if (!(n = lookup(c, root, "name", NULL)))
		return node_err(c, root, "missing required key 'name' (the experiment's name)");
	if (want_string(c, n, "name", &s->name) < 0)
		return -1;
	if (!is_safe_name(s->name))
		return node_err(c, n, "'name' may only hold letters, digits and _ . -");
	if ((n = lookup(c, root, "question", NULL)) && want_string(c, n, "question", &s->question) < 0)
		return -1;
	if (!(n = lookup(c, root, "problem", NULL)))
		return node_err(c, root, "missing required key 'problem' (e.g. attention_fwd)");
	if (want_string(c, n, "problem", &s->problem) < 0)
		return -1;
	yaml_node_t *pnode = n;
	if ((n = lookup(c, root, "kernel", NULL)) && want_string(c, n, "kernel", &s->kernel) < 0)
		return -1;
	if ((n = lookup(c, root, "backend", NULL))) {
		if (want_string(c, n, "backend", &s->backend) < 0)
			return -1;
		if (!backend_find(s->backend))
			return unknown_value(c, n, "backend", backend_names());
	}

	/* shape: checked against the problem's keys last (spec_load), since
	 * that may build the problem's plug-in: nothing is built for a spec
	 * that is wrong anywhere else */
	if (!(n = lookup(c, root, "shape", NULL)))
		return node_err(c, root, "missing required key 'shape' (the problem's dimensions, e.g. {B: 4, H: 8, S: 512, D: 64})");
	if (want_map(c, n, "shape") < 0 || check_duplicates(c, n, "key") < 0)
		return -1;
	(void)pnode;

	/* params / variants / grid / references */
	struct spec_variant base = { 0 };
	int rc = 0;
	if ((n = lookup(c, root, "params", NULL))) {
		base.name = "params";
		rc = parse_variant_body(c, n, &base);
		if (!rc && (base.kernel || base.expect || base.trust || base.lineage))
			rc = node_err(c, n, "'params' holds parameters only; 'kernel'/'expect'/'trust'/'lineage' go at "
				      "the top or in a variant");
	}
	yaml_node_t *vn = lookup(c, root, "variants", NULL), *gn = lookup(c, root, "grid", NULL);
	if (!rc && vn)
		rc = parse_variants(c, vn, &base);
	if (!rc && gn)
		rc = parse_grid(c, gn, &base);
	for (size_t i = 0; i < base.n_params; i++) {
		free(base.params[i].name);
		free(base.params[i].value);
	}
	free(base.params);
	spec_lineage_free(base.lineage);
	if (rc)
		return -1;
	if ((n = lookup(c, root, "references", NULL))) {
		char **refs = NULL;
		rc = parse_string_list(c, n, "references", NULL, &refs);
		for (size_t i = 0; !rc && refs && refs[i]; i++) {
			if (!is_safe_name(refs[i]))
				rc = node_err(c, n, "reference '%s' is not a plain name", refs[i]);
			else if (spec_variant(s, refs[i]))
				rc = node_err(c, n, "duplicate variant '%s' (a reference of that name)", refs[i]);
			else {
				/* its kernel path waits until the backend is known */
				struct spec_variant *v = new_variant(s, refs[i]);
				v->is_reference = 1;
			}
		}
		for (size_t i = 0; refs && refs[i]; i++)
			free(refs[i]);
		free(refs);
		if (rc)
			return -1;
	}
	if (!s->n_variants) {
		if (!s->kernel)
			return node_err(c, root, "nothing to run: give 'kernel' and 'variants' or 'grid'");
		new_variant(s, "default");
	}
	for (size_t i = 0; i < s->n_variants; i++) {
		if (s->variants[i].is_reference)
			continue;
		if (!s->variants[i].kernel && !s->kernel)
			return node_err(c, vn ? vn : root,
					"variant '%s' has no kernel: give a top-level 'kernel' or 'kernel:' in the variant",
					s->variants[i].name);
		if (!s->variants[i].kernel)
			s->variants[i].kernel = xstrdup(s->kernel);
	}
	/* backend from the kernel's extension when not given */
	if (!s->backend) {
		const char *first = s->kernel;
		for (size_t i = 0; !first && i < s->n_variants; i++)
			first = s->variants[i].kernel;
		const char *dot = first ? strrchr(first, '.') : NULL;
		for (size_t i = 0; !s->backend && dot && backends_all[i]; i++)
			if (!strcmp(backends_all[i]->source_ext, dot))
				s->backend = xstrdup(backends_all[i]->name);
		if (!s->backend)
			s->backend = xstrdup("cuda");
	}
	const struct backend *be = backend_find(s->backend);
	for (size_t i = 0; i < s->n_variants; i++)
		if (s->variants[i].is_reference)
			s->variants[i].kernel = xstrfmt("kernels/reference/%s%s", s->variants[i].name, be->source_ext);

	/* baseline */
	if ((n = lookup(c, root, "baseline", &k))) {
		if (want_string(c, n, "baseline", &s->baseline) < 0)
			return -1;
		if (!spec_variant(s, s->baseline)) {
			struct strbuf names = STRBUF_INIT;
			for (size_t i = 0; i < s->n_variants && i < 12; i++)
				strbuf_addf(&names, "%s%s", i ? ", " : "", s->variants[i].name);
			node_err(c, n, "baseline '%s' is not among the variants (%s%s)", s->baseline,
				 names.buf, s->n_variants > 12 ? ", ..." : "");
			strbuf_release(&names);
			return -1;
		}
	} else {
		if (s->n_variants > 1)
			return node_err(c, root, "missing required key 'baseline' (the variant the others are compared with)");
		s->baseline = xstrdup(s->variants[0].name);
	}

	/* dtype: what the backend runs */
	if ((n = lookup(c, root, "dtype", NULL))) {
		if (want_string(c, n, "dtype", &s->dtype) < 0)
			return -1;
		static const char *const dts[] = { "fp32", "fp16", "bf16", NULL };
		if (!in_list(s->dtype, dts))
			return unknown_value(c, n, "dtype", dts);
		if (!in_list(s->dtype, be->dtypes))
			return node_err(c, n, "the %s backend computes in %s only, not %s", be->name,
					be->dtypes[0], s->dtype);
	} else {
		s->dtype = xstrdup(be->default_dtype);
	}

	/* the knobs: correctness, timing, limits, repeats */
	knobs_init(&s->k);
	const char *keys[40];
	if ((n = lookup(c, root, "correctness", NULL))) {
		if (want_map(c, n, "correctness") < 0 ||
		    check_keys(c, n, " in 'correctness'", section_keys("correctness", keys, 40)) < 0 ||
		    parse_knob_section(c, n, "correctness") < 0)
			return -1;
		yaml_node_t *v;
		long long seed;
		if ((v = lookup(c, n, "seed", NULL))) {
			if (want_ll(c, v, "seed", 0, (1LL << 62), &seed) < 0)
				return -1;
			s->seed = (unsigned long long)seed;
			s->seed_given = 1;
		}
	}
	if ((n = lookup(c, root, "timing", NULL))) {
		if (want_map(c, n, "timing") < 0 ||
		    check_keys(c, n, " in 'timing'", section_keys("timing", keys, 40)) < 0 ||
		    parse_knob_section(c, n, "timing") < 0)
			return -1;
		if (s->k.min_seconds > s->k.max_seconds)
			return node_err(c, n, "'min_seconds' (%g) is above 'max_seconds' (%g)", s->k.min_seconds,
					s->k.max_seconds);
	}
	if ((n = lookup(c, root, "limits", NULL))) {
		if (want_map(c, n, "limits") < 0 ||
		    check_keys(c, n, " in 'limits'", section_keys("limits", keys, 40)) < 0 ||
		    parse_knob_section(c, n, "limits") < 0)
			return -1;
	}
	if (parse_knob_section(c, root, "top") < 0)
		return -1;
	knobs_derive(&s->k, be->default_repeats);
	if ((n = lookup(c, root, "gpus", NULL))) {
		if (want_string(c, n, "gpus", &s->gpus) < 0)
			return -1;
		if (strspn(s->gpus, "0123456789,") != strlen(s->gpus) && strcmp(s->gpus, "all"))
			return node_err(c, n, "'gpus' is 'all', a count (2) or a list of indices (0,2,5), not '%s'",
					s->gpus);
	}

	if ((n = lookup(c, root, "sanitize", NULL)) &&
	    parse_string_list(c, n, "sanitize", sanitize_tools, &s->sanitize) < 0)
		return -1;
	if ((n = lookup(c, root, "flags", NULL)) && parse_string_list(c, n, "flags", NULL, &s->flags) < 0)
		return -1;
	if ((n = lookup(c, root, "arch", NULL))) {
		if (want_string(c, n, "arch", &s->arch) < 0)
			return -1;
		if (strncmp(s->arch, "sm_", 3) || !is_safe_name(s->arch))
			return node_err(c, n, "'arch' must look like sm_90 or sm_90a, not '%s'", s->arch);
	}
	s->price_usd_per_h = -1;
	if ((n = lookup(c, root, "cost", NULL))) {
		if (want_map(c, n, "cost") < 0 || check_keys(c, n, " in 'cost'", section_keys("cost", keys, 40)) < 0)
			return -1;
		yaml_node_t *v;
		if ((v = lookup(c, n, "price_usd_per_h", NULL)) &&
		    want_double(c, v, "price_usd_per_h", 0, 1e6, &s->price_usd_per_h) < 0)
			return -1;
		if ((v = lookup(c, n, "source", NULL)) && want_string(c, v, "source", &s->price_source) < 0)
			return -1;
	}
	if ((n = lookup(c, root, "search", NULL)) && parse_search(c, root, n) < 0)
		return -1;
	return 0;
}

/* Where variant's kernel path is written: its own "kernel:", else the top-level one (references: their list). */
static yaml_node_t *kernel_node(struct ctx *c, yaml_node_t *root, const struct spec_variant *v)
{
	yaml_node_t *vs = lookup(c, root, "variants", NULL), *body, *k;
	if (v->is_reference && (k = lookup(c, root, "references", NULL)))
		return k;
	if (vs && vs->type == YAML_MAPPING_NODE && (body = lookup(c, vs, v->name, NULL)) &&
	    body->type == YAML_MAPPING_NODE && (k = lookup(c, body, "kernel", NULL)))
		return k;
	k = lookup(c, root, "kernel", NULL);
	return k ? k : root;
}

/* Lexically, does relative path climb above its directory ("../x", "a/../../x")? */
static int climbs_out(const char *path)
{
	int depth = 0;
	for (const char *p = path; *p;) {
		const char *e = strchr(p, '/');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		if (n == 2 && !strncmp(p, "..", 2)) {
			if (--depth < 0)
				return 1;
		} else if (n && !(n == 1 && *p == '.')) {
			depth++;
		}
		if (!e)
			break;
		p = e + 1;
	}
	return 0;
}

/*
 * Where kernel path k really is, every symlink resolved, against the
 * repository root (the current directory): 0 inside, 1 outside (*target:
 * where it leads, malloc'd, caller frees; NULL when it does not exist), -1
 * when it does not exist.
 */
static int kernel_place(const char *k, char **target)
{
	*target = NULL;
	char *real = realpath(k, NULL), *root = realpath(".", NULL);
	int rc;
	if (!real || !root) {
		rc = k[0] == '/' || climbs_out(k) ? 1 : -1;
	} else {
		size_t rl = strlen(root);
		rc = !(!strncmp(real, root, rl) && (real[rl] == '/' || !strcmp(root, "/")));
		if (rc) {
			*target = real;
			real = NULL;
		}
	}
	free(real);
	free(root);
	return rc;
}

/*
 * Every kernel must be a file inside the repository: code outside it has
 * no commit and no diff, so its runs could never be reproduced or audited
 * (a symlink that leads out counts as outside), and its path must be
 * relative to the root, as records name it on every clone.
 */
/* The shape as written, to env->shape_hint: each key whose value is a
 * whole number in the range parse_shape takes (a hint: nothing here is
 * an error; parse_shape says what is wrong with the rest). */
static void shape_hint(struct ctx *c, yaml_node_t *n)
{
	const char *names[SPEC_MAX_DIMS];
	long long vals[SPEC_MAX_DIMS];
	int k = 0;
	for (yaml_node_pair_t *p = n && n->type == YAML_MAPPING_NODE ? n->data.mapping.pairs.start : NULL;
	     p && p < n->data.mapping.pairs.top && k < SPEC_MAX_DIMS; p++) {
		const char *key = scalar(get(c, p->key)), *v = scalar(get(c, p->value));
		char *end = NULL;
		errno = 0;
		long long x = key && v ? strtoll(v, &end, 10) : 0;
		if (!key || !v || !*v || *end || errno || x < 1 || x > 1LL << 31)
			continue;
		names[k] = key;
		vals[k++] = x;
	}
	c->env->shape_hint(names, vals, k, c->env->ctx);
}

/* The shape against the problem's keys, in the problem's order. */
static int parse_shape(struct ctx *c, yaml_node_t *root)
{
	struct spec *s = c->s;
	yaml_node_t *n = lookup(c, root, "shape", NULL), *pnode = lookup(c, root, "problem", NULL);
	int nk = 0;
	const char *const *sk = NULL;
	if (c->env && c->env->problem_keys) {
		struct strbuf why = STRBUF_INIT;
		if (c->env->shape_hint)
			shape_hint(c, n);
		sk = c->env->problem_keys(s->problem, &nk, &why, c->env->ctx);
		if (!sk) {
			node_err(c, pnode, "%s", why.buf);
			strbuf_release(&why);
			return -1;
		}
		strbuf_release(&why);
		const char *allowed[SPEC_MAX_DIMS + 1];
		for (int i = 0; i < nk && i < SPEC_MAX_DIMS; i++)
			allowed[i] = sk[i];
		allowed[nk < SPEC_MAX_DIMS ? nk : SPEC_MAX_DIMS] = NULL;
		char where[96];
		snprintf(where, sizeof(where), " in 'shape' of problem '%s'", s->problem);
		if (check_keys(c, n, where, allowed) < 0)
			return -1;
		for (int i = 0; i < nk && i < SPEC_MAX_DIMS; i++) {
			yaml_node_t *v = lookup(c, n, sk[i], NULL);
			if (!v) {
				struct strbuf all = STRBUF_INIT;
				for (int j = 0; j < nk; j++)
					strbuf_addf(&all, "%s%s", j ? ", " : "", sk[j]);
				node_err(c, n, "'shape' lacks '%s' (problem '%s' needs %s)", sk[i], s->problem,
					 all.buf);
				strbuf_release(&all);
				return -1;
			}
			s->dim_names[i] = xstrdup(sk[i]);
			if (want_ll(c, v, sk[i], 1, 1LL << 31, &s->dims[i]) < 0)
				return -1;
			s->n_dims = i + 1;
		}
	} else {
		for (yaml_node_pair_t *p = n->data.mapping.pairs.start;
		     p < n->data.mapping.pairs.top && s->n_dims < SPEC_MAX_DIMS; p++) {
			const char *key = scalar(get(c, p->key));
			if (!key)
				return node_err(c, get(c, p->key), "'shape' keys must be names");
			s->dim_names[s->n_dims] = xstrdup(key);
			if (want_ll(c, get(c, p->value), key, 1, 1LL << 31, &s->dims[s->n_dims]) < 0)
				return -1;
			s->n_dims++;
		}
	}

	return 0;
}

/* One kernel path: inside the repository, relative, present, of the
 * backend's kind.  who: "variant 'NAME'" or "'kernels' of 'search'". */
static int check_kernel_file(struct ctx *c, yaml_node_t *root, yaml_node_t *at, const char *k, const char *who)
{
	struct spec *s = c->s;
	char *target;
	int place = kernel_place(k, &target);
	if (place == 1) {
		int leads = target && strcmp(target, k);
		int rc = node_err(c, at,
				  "kernel '%s' (%s) is outside the repository%s%s%s; code there has no commit or diff, so its runs could not be reproduced: move it under the repository root",
				  k, who, leads ? " (it leads to '" : "", leads ? target : "", leads ? "')" : "");
		free(target);
		return rc;
	}
	if (place < 0)
		return node_err(c, at, "kernel file '%s' (%s) does not exist; paths are relative to the repository root",
				k, who);
	if (k[0] == '/')
		return node_err(c, at,
				"kernel '%s' (%s) is an absolute path; give it relative to the repository root, as the records name it",
				k, who);
	const char *dot = strrchr(k, '.');
	const struct backend *be = backend_find(s->backend);
	if (!dot || strcmp(dot, be->source_ext)) {
		yaml_node_t *n = lookup(c, root, "backend", NULL);
		return node_err(c, n ? n : at, "kernel '%s' does not fit backend '%s' (it builds %s files)", k, s->backend,
				be->source_ext);
	}
	return 0;
}

static int check_kernel_files(struct ctx *c, yaml_node_t *root)
{
	struct spec *s = c->s;
	for (size_t i = 0; i < s->n_variants; i++) {
		const struct spec_variant *v = &s->variants[i];
		char *who = xstrfmt("variant '%s'", v->name);
		int rc = check_kernel_file(c, root, kernel_node(c, root, v), v->kernel, who);
		free(who);
		if (rc < 0)
			return -1;
	}
	if (s->search) {
		yaml_node_t *sn = lookup(c, root, "search", NULL), *kn = sn ? lookup(c, sn, "kernels", NULL) : NULL;
		for (size_t i = 0; i < s->search->n_kernels; i++)
			if (check_kernel_file(c, root, kn ? kn : root, s->search->kernels[i], "'kernels' of 'search'") < 0)
				return -1;
	}
	return 0;
}

int spec_load(const char *path, const struct spec_env *env, struct spec *s)
{
	struct strbuf text = STRBUF_INIT;
	if (read_file(path, &text) < 0) {
		memset(s, 0, sizeof(*s));
		return -1;
	}
	int rc = spec_load_text(path, strbuf_str(&text), env, s);
	strbuf_release(&text);
	return rc;
}

int spec_load_text(const char *path, const char *text, const struct spec_env *env, struct spec *s)
{
	memset(s, 0, sizeof(*s));
	s->path = xstrdup(path);
	s->price_usd_per_h = -1;
	s->text = xstrdup(text);

	yaml_parser_t parser;
	yaml_document_t doc;
	struct ctx c = { path, &doc, s, env };
	int rc = -1;
	if (!yaml_parser_initialize(&parser))
		return error("libyaml: cannot initialise the parser");
	yaml_parser_set_input_string(&parser, (const unsigned char *)s->text, strlen(s->text));
	if (!yaml_parser_load(&parser, &doc)) {
		error("%s:%zu:%zu: %s%s%s", path, parser.problem_mark.line + 1,
		      parser.problem_mark.column + 1, parser.problem ? parser.problem : "invalid YAML",
		      parser.context ? " " : "", parser.context ? parser.context : "");
		yaml_parser_delete(&parser);
		return -1;
	}
	yaml_node_t *root = yaml_document_get_root_node(&doc);
	if (!root) {
		error("%s:1:1: the spec is empty; see README.md 'Spec reference'", path);
		goto out;
	}
	if (root->type != YAML_MAPPING_NODE) {
		node_err(&c, root, "the spec must be a mapping of keys (name:, problem:, ...)");
		goto out;
	}
	if (check_keys(&c, root, "", top_keys()) < 0 || parse_sections(&c, root) < 0)
		goto out;
	if (env && env->check_files && check_kernel_files(&c, root) < 0)
		goto out;
	if (parse_shape(&c, root) < 0)
		goto out;
	rc = 0;
out:
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	return rc;
}

json_t *spec_variants_of_text(const char *text)
{
	struct spec s;
	struct spec_env env = { 0 }; /* no file is looked at; every problem's keys as written */
	int saved = util_quiet;
	util_quiet = 1;
	int rc = spec_load_text("(recorded spec)", text, &env, &s);
	util_quiet = saved;
	json_t *out = rc == 0 ? json_object() : NULL;
	for (size_t i = 0; out && i < s.n_variants; i++) {
		const struct spec_variant *v = &s.variants[i];
		json_t *p = json_object();
		for (size_t k = 0; k < v->n_params; k++)
			json_object_set_new(p, v->params[k].name, json_string(v->params[k].value));
		json_object_set_new(out, v->name, json_pack("{s:s?, s:o}", "kernel", v->kernel, "params", p));
	}
	spec_release(&s);
	return out;
}

/* NULL-terminated strings as a JSON array ([] for NULL). */
static json_t *str_list_json(char *const *l)
{
	json_t *a = json_array();
	for (size_t i = 0; l && l[i]; i++)
		json_array_append_new(a, json_string(l[i]));
	return a;
}

json_t *spec_definition_of_text(const char *text)
{
	struct spec s;
	struct spec_env env = { 0 }; /* as spec_variants_of_text: no file looked at */
	int saved = util_quiet;
	util_quiet = 1;
	int rc = spec_load_text("(recorded spec)", text, &env, &s);
	util_quiet = saved;
	if (rc < 0) {
		spec_release(&s);
		return NULL;
	}
	json_t *shape = json_object();
	for (int i = 0; i < s.n_dims; i++)
		json_object_set_new(shape, s.dim_names[i], json_integer((json_int_t)s.dims[i]));
	/* every knob but those of how much is run: processes, samples, inputs
	 * checked and time allowed (a knob added later is compared) */
	static const char *const amount[] = { "repeats", "timeout_s", "samples", "max_seconds", "min_seconds",
					       "stdrel", "seeds", "timed_checks" };
	json_t *knobs = knobs_to_json(&s.k);
	for (size_t i = 0; i < ARRAY_SIZE(amount); i++)
		json_object_del(knobs, amount[i]);
	json_t *all = json_pack("{s:s?, s:s?, s:s?, s:s?, s:s?, s:s?, s:o, s:o, s:o, s:o, s:o}", "name", s.name,
				"problem", s.problem, "backend", s.backend, "dtype", s.dtype, "baseline", s.baseline,
				"arch", s.arch, "shape", shape, "flags", str_list_json(s.flags), "sanitize",
				str_list_json(s.sanitize), "seed",
				s.seed_given ? json_integer((json_int_t)s.seed) : json_null(), "knobs", knobs);
	json_t *vs = json_object();
	for (size_t i = 0; all && i < s.n_variants; i++) {
		const struct spec_variant *v = &s.variants[i];
		json_t *p = json_object();
		for (size_t k = 0; k < v->n_params; k++)
			json_object_set_new(p, v->params[k].name, json_string(v->params[k].value));
		json_object_set_new(vs, v->name,
				    json_pack("{s:s?, s:o, s:s, s:b}", "kernel", v->kernel, "params", p, "trust",
					      spec_trust(&s, v), "reference", v->is_reference));
	}
	spec_release(&s);
	if (!all) {
		json_decref(vs);
		return NULL;
	}
	return json_pack("{s:o, s:o}", "spec", all, "variants", vs);
}

const struct spec_variant *spec_variant(const struct spec *s, const char *name)
{
	for (size_t i = 0; i < s->n_variants; i++)
		if (!strcmp(s->variants[i].name, name))
			return &s->variants[i];
	return NULL;
}

const char *spec_param(const struct spec_variant *v, const char *name)
{
	for (size_t i = 0; i < v->n_params; i++)
		if (!strcmp(v->params[i].name, name))
			return v->params[i].value;
	return NULL;
}

void spec_lineage_free(struct spec_lineage *l)
{
	if (!l)
		return;
	free(l->parent);
	free(l->mutation);
	free(l->origin);
	free(l->search);
	free(l);
}

static void free_list(char **l)
{
	for (size_t i = 0; l && l[i]; i++)
		free(l[i]);
	free(l);
}

void spec_release(struct spec *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n_variants; i++) {
		struct spec_variant *v = &s->variants[i];
		for (size_t j = 0; j < v->n_params; j++) {
			free(v->params[j].name);
			free(v->params[j].value);
		}
		free(v->params);
		free(v->name);
		free(v->kernel);
		free(v->expect);
		free(v->trust);
		spec_lineage_free(v->lineage);
	}
	free(s->variants);
	free(s->path);
	free(s->text);
	free(s->name);
	free(s->question);
	free(s->problem);
	free(s->backend);
	free(s->kernel);
	free(s->dtype);
	free(s->baseline);
	free(s->arch);
	free(s->gpus);
	for (int i = 0; i < s->n_dims; i++)
		free(s->dim_names[i]);
	free(s->price_source);
	free_list(s->sanitize);
	free_list(s->flags);
	if (s->search) {
		for (size_t i = 0; i < s->search->n_tunables; i++) {
			free(s->search->tunables[i].name);
			free_list(s->search->tunables[i].choices);
		}
		free(s->search->tunables);
		free_list(s->search->kernels);
		free(s->search);
	}
	memset(s, 0, sizeof(*s));
}

const char *spec_trust(const struct spec *s, const struct spec_variant *v)
{
	const struct backend *be = backend_find(s->backend);
	if (!be || !be->uses_gpu)
		return "host";
	if (v->trust)
		return v->trust;
	return v->is_reference ? "host" : "sealed";
}
