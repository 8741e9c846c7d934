/*
 * search.c - a search's loop (contract in search.h): plan a generation's
 * candidates from its parents, write the generation's spec (the search's
 * spec with the best so far as baseline and the candidates as variants,
 * each with its lineage), run it as one batch through run_experiment,
 * read the batch back from the store (query.h, as every reader does),
 * judge it, confirm a promotion in a batch of fresh processes (the
 * promoted candidate against the best going in: a promotion stands only
 * when that batch says faster too), choose the parents of the next one,
 * and once the generations or the budget are spent commit the search
 * record (record/search.h).
 *
 * Why a generation's spec is text rather than a struct: it is recorded
 * with the batch byte for byte (spec.object), so the batch of generation
 * g is an ordinary batch that `evident reproduce` can run again from its
 * record, without knowing it came from a search.
 */
#include "run/search.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <yaml.h>

#include "base/runcmd.h"
#include "record/search.h"
#include "report/code_identity.h"
#include "report/rejudge.h"
#include "report/lineage.h"
#include "run/cost.h"
#include "run/eval.h"
#include "run/provenance.h"
#include "run/slurm_internal.h"
#include "store/query.h"
#include "store/store.h"

/* ---- the generator and the mutations ------------------------------------- */

void search_rng_init(struct search_rng *r, unsigned long long seed, int g)
{
	r->s = (uint64_t)seed ^ (0xD1B54A32D192ED03ULL * (uint64_t)(g + 1));
}

uint64_t search_rng_next(struct search_rng *r)
{
	uint64_t z = (r->s += 0x9E3779B97F4A7C15ULL);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

/* uniform in [0, n) (n > 0; the modulo bias is below 2^-40 for n < 2^24) */
static uint64_t below(struct search_rng *r, uint64_t n)
{
	return search_rng_next(r) % n;
}

void search_params_free(struct param *p, size_t n)
{
	for (size_t i = 0; p && i < n; i++) {
		free(p[i].name);
		free(p[i].value);
	}
	free(p);
}

static int cmp_param(const void *a, const void *b)
{
	return strcmp(((const struct param *)a)->name, ((const struct param *)b)->name);
}

char *search_key(const char *kernel, const struct param *params, size_t np)
{
	struct param *s = xcalloc(np ? np : 1, sizeof(*s));
	memcpy(s, params, np * sizeof(*s));
	qsort(s, np, sizeof(*s), cmp_param);
	struct strbuf k = STRBUF_INIT;
	strbuf_addstr(&k, kernel ? kernel : "");
	for (size_t i = 0; i < np; i++)
		strbuf_addf(&k, "\n%s=%s", s[i].name, s[i].value);
	free(s);
	return strbuf_detach(&k, NULL);
}

static const char *param_of(const struct param *p, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(p[i].name, name))
			return p[i].value;
	return NULL;
}

static void set_param(struct param **p, size_t *n, const char *name, const char *value)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*p)[i].name, name)) {
			free((*p)[i].value);
			(*p)[i].value = xstrdup(value);
			return;
		}
	*p = xrealloc(*p, (*n + 1) * sizeof(**p));
	(*p)[*n].name = xstrdup(name);
	(*p)[*n].value = xstrdup(value);
	(*n)++;
}

/* A new value of tunable t for current value cur (NULL: unset), malloc'd. */
static char *mutate_value(const struct spec_tunable *t, const char *cur, struct search_rng *rng)
{
	if (!t->is_range) {
		size_t skip = t->n_choices, k;
		for (size_t i = 0; cur && i < t->n_choices; i++)
			if (!strcmp(t->choices[i], cur))
				skip = i;
		size_t n = t->n_choices - (skip < t->n_choices);
		k = (size_t)below(rng, n);
		if (skip < t->n_choices && k >= skip)
			k++;
		return xstrdup(t->choices[k]);
	}
	long long steps = (t->hi - t->lo) / t->step; /* values: lo + i step, i in [0, steps] */
	char *end;
	errno = 0;
	long long v = cur ? strtoll(cur, &end, 10) : 0;
	int on_grid = cur && !errno && end != cur && !*end && v >= t->lo && v <= t->hi && (v - t->lo) % t->step == 0;
	long long i;
	if (on_grid && below(rng, 2) == 0) {
		/* a neighbour: one step up or down, the other way at an end */
		long long at = (v - t->lo) / t->step;
		int up = at == 0 ? 1 : at == steps ? 0 : (int)below(rng, 2);
		i = up ? at + 1 : at - 1;
	} else {
		/* anywhere in the range but where it is */
		long long at = on_grid ? (v - t->lo) / t->step : -1;
		i = (long long)below(rng, (uint64_t)(steps + (at < 0)));
		if (at >= 0 && i >= at)
			i++;
	}
	return xstrfmt("%lld", t->lo + i * t->step);
}

static const char *base_name(const char *p)
{
	const char *s = p ? strrchr(p, '/') : NULL;
	return s ? s + 1 : p ? p : "?";
}

void search_mutate(const struct spec_search *ss, const char *start_kernel, const char *kernel,
		   const struct param *params, size_t np, struct search_rng *rng, char **kernel_out,
		   struct param **params_out, size_t *n_out, struct strbuf *mutation)
{
	*params_out = NULL;
	*n_out = 0;
	for (size_t i = 0; i < np; i++)
		set_param(params_out, n_out, params[i].name, params[i].value);
	*kernel_out = xstrdup(kernel);
	/* the genes: each tunable, then the kernel file when there are others */
	size_t n_genes = ss->n_tunables + (ss->n_kernels ? 1 : 0);
	size_t want = (size_t)ss->mutations < n_genes ? (size_t)ss->mutations : n_genes;
	int *picked = xcalloc(n_genes ? n_genes : 1, sizeof(int));
	for (size_t m = 0; m < want; m++) {
		size_t g = (size_t)below(rng, n_genes - m);
		for (size_t k = 0; k < n_genes; k++) /* the g-th gene not yet picked */
			if (!picked[k] && g-- == 0) {
				g = k;
				break;
			}
		picked[g] = 1;
		if (mutation->len)
			strbuf_addstr(mutation, ", ");
		if (g < ss->n_tunables) {
			const struct spec_tunable *t = &ss->tunables[g];
			const char *cur = param_of(*params_out, *n_out, t->name);
			char *nv = mutate_value(t, cur, rng);
			strbuf_addf(mutation, "%s %s->%s", t->name, cur ? cur : "(unset)", nv);
			set_param(params_out, n_out, t->name, nv);
			free(nv);
		} else {
			/* the kernel files: the start's and the listed ones, each once */
			const char **ks = xcalloc(ss->n_kernels + 1, sizeof(char *));
			size_t nk = 0;
			ks[nk++] = start_kernel;
			for (size_t i = 0; i < ss->n_kernels; i++) {
				int dup = 0;
				for (size_t j = 0; j < nk; j++)
					dup |= !strcmp(ks[j], ss->kernels[i]);
				if (!dup)
					ks[nk++] = ss->kernels[i];
			}
			size_t skip = nk;
			for (size_t i = 0; i < nk; i++)
				if (!strcmp(ks[i], *kernel_out))
					skip = i;
			size_t n = nk - (skip < nk);
			if (n) {
				size_t k = (size_t)below(rng, n);
				if (skip < nk && k >= skip)
					k++;
				strbuf_addf(mutation, "kernel %s->%s", base_name(*kernel_out), base_name(ks[k]));
				free(*kernel_out);
				*kernel_out = xstrdup(ks[k]);
			} else {
				strbuf_addstr(mutation, "kernel (no other file)");
			}
			free(ks);
		}
	}
	free(picked);
}

/* ---- the generation's spec text --------------------------------------------- */

int search_spec_text(const char *orig, const char *header, const char *baseline, const char *variants,
		     struct strbuf *out, struct strbuf *why)
{
	static const char *const drop[] = { "variants", "grid", "baseline", "params", "search", "references", NULL };
	yaml_parser_t parser;
	yaml_document_t doc;
	if (!yaml_parser_initialize(&parser)) {
		strbuf_addstr(why, "libyaml: cannot initialise the parser");
		return -1;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)orig, strlen(orig));
	if (!yaml_parser_load(&parser, &doc)) {
		strbuf_addf(why, "the spec is no YAML libyaml reads (%s)", parser.problem ? parser.problem : "?");
		yaml_parser_delete(&parser);
		return -1;
	}
	int rc = -1;
	yaml_node_t *root = yaml_document_get_root_node(&doc);
	if (!root || root->type != YAML_MAPPING_NODE || root->data.mapping.style == YAML_FLOW_MAPPING_STYLE) {
		strbuf_addstr(why, "a search needs a block-style spec (one top-level key a line), not a flow mapping {...}");
		goto out;
	}
	size_t np = (size_t)(root->data.mapping.pairs.top - root->data.mapping.pairs.start);
	size_t *first = xcalloc(np + 1, sizeof(size_t));
	int *keep = xcalloc(np + 1, sizeof(int));
	for (size_t i = 0; i < np; i++) {
		yaml_node_t *k = yaml_document_get_node(&doc, root->data.mapping.pairs.start[i].key);
		first[i] = k->start_mark.line;
		const char *name = k->type == YAML_SCALAR_NODE ? (const char *)k->data.scalar.value : "";
		keep[i] = 1;
		for (size_t d = 0; drop[d]; d++)
			if (!strcmp(name, drop[d]))
				keep[i] = 0;
		if (k->start_mark.column != 0) {
			strbuf_addf(why, "the spec's top-level key '%s' does not start its line (line %zu)", name,
				    first[i] + 1);
			free(first);
			free(keep);
			goto out;
		}
	}
	strbuf_addstr(out, header);
	size_t line = 0;
	for (const char *p = orig; *p;) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) + 1 : strlen(p);
		/* the pair whose range holds this line: the last key at or before it */
		long owner = -1;
		for (size_t i = 0; i < np; i++)
			if (first[i] <= line)
				owner = (long)i;
		if (owner < 0 || keep[owner]) {
			strbuf_add(out, p, len);
			if (!eol)
				strbuf_addch(out, '\n');
		}
		p += len;
		line++;
	}
	strbuf_addf(out, "baseline: %s\nvariants:\n%s", baseline, variants);
	free(first);
	free(keep);
	rc = 0;
out:
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	return rc;
}

/* s as a YAML double-quoted scalar */
static void add_quoted(struct strbuf *sb, const char *s)
{
	strbuf_addch(sb, '"');
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			strbuf_addf(sb, "\\%c", c);
		else if (c < 0x20)
			strbuf_addf(sb, "\\x%02x", c);
		else
			strbuf_addch(sb, (char)c);
	}
	strbuf_addch(sb, '"');
}

/* ---- the search's state ---------------------------------------------------- */

/* One candidate of one generation, planned, then judged from its batch. */
struct cand {
	char *id, *kernel;
	struct param *params;
	size_t n_params;
	char *parent, *parent_run, *mutation;
	int elite;                   /* 1: the best so far, the batch's baseline */
	const struct spec_lineage *spec_lineage; /* generation 0's elite: the start variant's own */
	/* judged */
	int ran;                     /* its row is in the batch */
	char *outcome, *reason, *run, *binary;
	char *neutral;               /* the echo-neutral object's hash (host, with parameters), or NULL */
	char *load;                  /* what the loader maps of its object (code.load_sha256), or NULL */
	char *libs;                  /* the libraries it loads (code_identity.h code_id.libs), or NULL */
	double median_us, median_ci[2];
	int have_cmp;
	double speedup, speedup_ci[2], p_adjusted;
	char *verdict, *verdict_reason;
	char *no_effect, *note;
	int weak;                    /* a run of its row judged by a weaker judge (query_row_weak_judge_why) */
	double stress_slow;          /* batch_row_stress_slow of its row: over 3x, a cost the time leaves out */
	int promoted;
};

struct gen {
	struct cand *c;              /* c[0] the elite */
	size_t n;
	char *batch, *why;
	int promoted;
	size_t best_out;             /* index into c */
	long long runs;
	double wall_s, gpu_s, usd, cpu_s;
	int unpriced;                /* runs with GPU time and no price */
	long long holm_comparisons;
	/* a promotion's confirmation (confirm_promotion): conf[0] the best
	 * going in, conf[1] the promoted candidate, measured again in a batch
	 * of fresh processes; n_conf 0 when nothing was promoted */
	int confirming;              /* 1: this gen is such a batch (origin text) */
	struct cand *conf;
	size_t n_conf;
	char *conf_batch;
	int confirmed;
	char *conf_said;             /* why the last confirmation did not keep its challenger, or NULL */
	int conf_own;                /* 1: that was the challenger's own doing (not the best going in's, nor the store's) */
	/* earlier confirmations of this generation (confirm_generation, red
	 * team 284): each a candidate the batch read faster whose own
	 * confirmation did not keep it, before the next one was tried */
	struct conf_try *tries;
	size_t n_tries;
};

/* One confirmation that did not keep its challenger (its conf[0] the best
 * going in, conf[1] the challenger, as gen.conf), its batch, and why. */
struct conf_try {
	struct cand *conf;
	size_t n_conf;
	char *batch, *said;
};

struct search {
	const struct spec *s;
	const struct spec_search *ss;
	const struct run_options *o;
	char *id;
	unsigned long long seed;
	char started[40];
	struct store st;
	char spec_object[SHA256_HEX_LEN + 1];
	char diff_hex[SHA256_HEX_LEN + 1];
	struct prov_git prov;
	struct prov_runner runner;   /* the evident writing the search record (red team 279) */
	struct gen *g;
	size_t n_gens;
	char **seen;                 /* search_key of every candidate planned */
	size_t n_seen;
	char **bins;                 /* binary hash -> the first candidate id with it */
	char **bin_ids;
	size_t n_bins;
	json_t *notes;
	double spent;
	int repeats;
	const char *stopped;
	char *stop_reason;
	int budget_stopped;
	struct eval_pool *pool;      /* the store's batches as read for drift checks (lazily made) */
};

static void cand_release(struct cand *c)
{
	free(c->id);
	free(c->kernel);
	search_params_free(c->params, c->n_params);
	free(c->parent);
	free(c->parent_run);
	free(c->mutation);
	free(c->outcome);
	free(c->reason);
	free(c->run);
	free(c->binary);
	free(c->neutral);
	free(c->load);
	free(c->libs);
	free(c->verdict);
	free(c->verdict_reason);
	free(c->no_effect);
	free(c->note);
	memset(c, 0, sizeof(*c));
}

static void search_release(struct search *x)
{
	for (size_t i = 0; i < x->n_gens; i++) {
		for (size_t k = 0; k < x->g[i].n; k++)
			cand_release(&x->g[i].c[k]);
		free(x->g[i].c);
		for (size_t k = 0; k < x->g[i].n_conf; k++)
			cand_release(&x->g[i].conf[k]);
		free(x->g[i].conf);
		free(x->g[i].conf_batch);
		free(x->g[i].conf_said);
		for (size_t k = 0; k < x->g[i].n_tries; k++) {
			struct conf_try *ct = &x->g[i].tries[k];
			for (size_t j = 0; j < ct->n_conf; j++)
				cand_release(&ct->conf[j]);
			free(ct->conf);
			free(ct->batch);
			free(ct->said);
		}
		free(x->g[i].tries);
		free(x->g[i].batch);
		free(x->g[i].why);
	}
	free(x->g);
	for (size_t i = 0; i < x->n_seen; i++)
		free(x->seen[i]);
	free(x->seen);
	for (size_t i = 0; i < x->n_bins; i++) {
		free(x->bins[i]);
		free(x->bin_ids[i]);
	}
	free(x->bins);
	free(x->bin_ids);
	free(x->id);
	free(x->stop_reason);
	json_decref(x->notes);
	eval_pool_free(x->pool);
	prov_git_release(&x->prov);
	store_release(&x->st);
}

static int seen(const struct search *x, const char *key)
{
	for (size_t i = 0; i < x->n_seen; i++)
		if (!strcmp(x->seen[i], key))
			return 1;
	return 0;
}

static void add_seen(struct search *x, char *key)
{
	x->seen = xrealloc(x->seen, (x->n_seen + 1) * sizeof(char *));
	x->seen[x->n_seen++] = key;
}

static void note(struct search *x, char *text)
{
	json_array_append_new(x->notes, json_string(text));
	free(text);
}

/* A copy of c as the next generation's elite: the same code, measured again. */
static void elite_of(const struct cand *c, struct cand *e)
{
	memset(e, 0, sizeof(*e));
	e->id = xstrdup(c->id);
	e->kernel = xstrdup(c->kernel);
	for (size_t i = 0; i < c->n_params; i++)
		set_param(&e->params, &e->n_params, c->params[i].name, c->params[i].value);
	e->parent = xstrdup(c->id);
	e->parent_run = c->run ? xstrdup(c->run) : NULL;
	e->mutation = xstrdup("none: the best so far, measured again");
	e->elite = 1;
}

/* ---- planning a generation -------------------------------------------------- */

/* 1 when a Slurm batch of the experiment not yet gathered has a variant
 * `name` of other code (slurm_pending_holder: its runs reach the store
 * only when its tasks record them, so free_name's query cannot see them) */
static int pending_holds(struct search *x, const char *name, const char *kernel, const struct param *params,
			 size_t np)
{
	char *held = slurm_pending_holder(x->st.root, x->s->name, name, kernel, params, np);
	int h = held != NULL;
	free(held);
	return h;
}

/*
 * The name of generation gi's candidate k: gNcK, unless the experiment's
 * store holds that name for other code (another search of the same spec,
 * or an eval candidate sent before eval refused gNcK names: red team 76's
 * twice and squat, where a second search's g0c1, a wrong kernel, turned
 * the first one's best g0c1 `validated` claim to contradicted) or a live
 * claim of another session does (two searches of one spec started
 * together: store.h, "Names in flight"), then gNcK-2, gNcK-3, ...  q: the
 * store, read once a generation under cl, the names lock (NULL where it
 * could not be read: then the claims alone).  The name is claimed in cl.
 * malloc'd, or NULL after error() when the claim could not be written.
 */
static char *free_name(struct search *x, struct query *q, struct store_claims *cl, int gi, size_t k,
		       const char *kernel, const struct param *params, size_t np)
{
	char *name = xstrfmt("g%dc%zu", gi, k);
	char ksha[SHA256_HEX_LEN + 1];
	int saved = util_quiet;
	util_quiet = 1;
	int hashed = sha256_file_hex(kernel, ksha) == 0;
	util_quiet = saved;
	char *code = query_code_text(kernel, hashed ? ksha : NULL, params, np);
	for (int m = 2; m < 1000 && (store_claims_other(cl, x->s->name, name, code, NULL) ||
				     (q && hashed && query_name_other_code(q, x->s->name, name, kernel, ksha, params, np, NULL)) ||
				     pending_holds(x, name, kernel, params, np));
	     m++) {
		free(name);
		name = xstrfmt("g%dc%zu-%d", gi, k, m);
	}
	if (store_claims_add(cl, x->s->name, name, code) < 0) {
		free(name);
		name = NULL;
	}
	free(code);
	return name;
}

/*
 * Generation gi's candidates, after its elite (already in g->c[0]), from
 * parents[] (the elite first).  Parent k % n_parents is mutated until a
 * candidate nobody has judged comes out (200 draws at most).  Their names
 * are claimed in *claims (the caller drops it once the generation's batch
 * is recorded).  0, or -1 after error() when the names could not be
 * locked or claimed (then *claims is NULL and the caller stops).
 */
static int plan_generation(struct search *x, int gi, struct gen *g, const struct cand *const *parents,
			   size_t n_parents, struct store_claims **claims)
{
	struct search_rng rng;
	search_rng_init(&rng, x->seed, gi);
	const char *start_kernel = x->s->variants[0].kernel;
	size_t made = 0;
	int failed = 0;
	/* the live claims, then the names the store holds, for free_name */
	struct store_claims *cl = store_claims_lock(&x->st);
	*claims = NULL;
	if (!cl)
		return -1;
	struct query q = QUERY_INIT;
	int saved = util_quiet;
	util_quiet = 1;
	int q_open = query_open(&q, x->o->store_root) == 0;
	util_quiet = saved;
	rejudge_drawn_rule_setup(q.st.root); /* red team 298 row 3 */
	for (long long k = 0; k < x->ss->population && !failed; k++) {
		const struct cand *p = parents[(size_t)k % n_parents];
		int ok = 0;
		for (int attempt = 0; attempt < 200 && !ok && !failed; attempt++) {
			char *kernel;
			struct param *params;
			size_t np;
			struct strbuf mut = STRBUF_INIT;
			search_mutate(x->ss, start_kernel, p->kernel, p->params, p->n_params, &rng, &kernel, &params, &np,
				      &mut);
			char *key = search_key(kernel, params, np);
			if (seen(x, key)) {
				free(key);
				free(kernel);
				search_params_free(params, np);
				strbuf_release(&mut);
				continue;
			}
			add_seen(x, key);
			char *id = free_name(x, q_open ? &q : NULL, cl, gi, made, kernel, params, np);
			if (!id) {
				free(kernel);
				search_params_free(params, np);
				strbuf_release(&mut);
				failed = 1;
				break;
			}
			made++;
			struct cand *c = &g->c[g->n++];
			memset(c, 0, sizeof(*c));
			c->id = id;
			c->kernel = kernel;
			c->params = params;
			c->n_params = np;
			c->parent = xstrdup(p->id);
			/* a parent in this batch (the elite) is named by its variant there;
			 * a runner-up of the last generation by its run */
			c->parent_run = p == parents[0] || !p->run ? NULL : xstrdup(p->run);
			c->mutation = strbuf_detach(&mut, NULL);
			ok = 1;
		}
	}
	if (q_open)
		query_release(&q);
	store_claims_unlock(cl);
	if (failed) {
		store_claims_drop(cl);
		return -1;
	}
	*claims = cl;
	if ((long long)made < x->ss->population)
		note(x, xstrfmt("generation %d: %zu new candidate(s) of %lld; the mutations of its parents gave "
				"nothing that was not judged already",
				gi, made, x->ss->population));
	return 0;
}

/* The generation's variants as spec lines (the elite first). */
static void variant_lines(const struct search *x, int gi, const struct gen *g, struct strbuf *out)
{
	for (size_t i = 0; i < g->n; i++) {
		const struct cand *c = &g->c[i];
		strbuf_addf(out, "  %s: {kernel: ", c->id);
		add_quoted(out, c->kernel);
		for (size_t k = 0; k < c->n_params; k++) { /* quoted: a value such as "-" is no plain scalar */
			strbuf_addf(out, ", %s: ", c->params[k].name);
			add_quoted(out, c->params[k].value);
		}
		strbuf_addstr(out, ", lineage: {");
		const char *parent = c->parent_run ? c->parent_run : c->elite ? NULL : c->parent;
		const char *mutation = c->mutation;
		if (c->spec_lineage) { /* the start keeps what its spec said of it */
			parent = c->spec_lineage->parent;
			mutation = c->spec_lineage->mutation;
		}
		if (parent) {
			strbuf_addstr(out, "parent: ");
			add_quoted(out, parent);
			strbuf_addstr(out, ", ");
		}
		if (mutation) {
			strbuf_addstr(out, "mutation: ");
			add_quoted(out, mutation);
			strbuf_addstr(out, ", ");
		}
		struct strbuf origin = STRBUF_INIT;
		if (c->spec_lineage && c->spec_lineage->origin)
			strbuf_addf(&origin, "%s; ", c->spec_lineage->origin);
		if (g->confirming)
			strbuf_addf(&origin, "search %s generation %d, confirmation: %s", x->id, gi,
				    c->elite ? "the best going in" : "the candidate its batch promoted");
		else
			strbuf_addf(&origin, "search %s generation %d: %s", x->id, gi,
				    c->elite ? (gi ? "the best so far" : "the start") : "a candidate");
		strbuf_addstr(out, "origin: ");
		add_quoted(out, origin.buf);
		strbuf_release(&origin);
		strbuf_addf(out, ", search: %s, generation: %d}}\n", x->id, gi);
	}
}

/* ---- judging a generation from its batch ----------------------------------- */

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* What decides "the same code" for a candidate: its echo-neutral hash
 * when its record has one (a host object but for its EV_PARAM echo: two
 * parameter sets that differ only in what the kernel
 * echoes are one code), else what the loader maps of it (host and device
 * code: a CUDA binary hash is its device code's alone), else its
 * binary's.  Borrowed from c. */
static const char *code_hash(const struct cand *c)
{
	return c->neutral ? c->neutral : c->load ? c->load : c->binary;
}

/* code_hash with the libraries it loads (another library is another
 * program: search_same_code), malloc'd: the caller frees. */
static char *code_key(const struct cand *c)
{
	return xstrfmt("%s libs %s", code_hash(c), c->libs ? c->libs : "-");
}

/* The first candidate id the search saw with binary hash h, or NULL; records h for id. */
static const char *binary_seen(struct search *x, const char *h, const char *id)
{
	for (size_t i = 0; i < x->n_bins; i++)
		if (!strcmp(x->bins[i], h))
			return x->bin_ids[i];
	x->bins = xrealloc(x->bins, (x->n_bins + 1) * sizeof(char *));
	x->bin_ids = xrealloc(x->bin_ids, (x->n_bins + 1) * sizeof(char *));
	x->bins[x->n_bins] = xstrdup(h);
	x->bin_ids[x->n_bins++] = xstrdup(id);
	return NULL;
}

/* Fill g's candidates from batch batch_id; 0, or -1 after error(). */
static int read_batch(struct search *x, struct gen *g, const char *batch_id)
{
	struct query q = QUERY_INIT;
	struct strbuf why = STRBUF_INIT;
	int rc = -1;
	if (query_open(&q, x->o->store_root) < 0)
		goto out;
	rejudge_drawn_rule_setup(q.st.root); /* red team 298 row 3 */
	long bi = query_find(&q, batch_id, &why);
	const struct batch_record *b = bi >= 0 ? query_batch_at(&q, (size_t)bi) : NULL;
	if (!b) {
		error("the batch of this generation, '%s', cannot be read back from '%s'", batch_id, q.st.root);
		goto out;
	}
	g->holm_comparisons = b->holm_comparisons;
	for (size_t i = 0; i < g->n; i++) {
		struct cand *c = &g->c[i];
		const struct batch_row *row = batch_find_row(b, c->id);
		if (!row)
			continue;
		c->ran = 1;
		c->outcome = dup_or_null(row->outcome_text);
		c->reason = dup_or_null(row->reason);
		c->run = dup_or_null(row->n_runs ? row->runs[0] : row->run_id);
		c->median_us = row->have_stats ? row->stats.median : NAN;
		c->median_ci[0] = row->have_stats ? row->stats.median_ci[0] : NAN;
		c->median_ci[1] = row->have_stats ? row->stats.median_ci[1] : NAN;
		if (row->have_cmp) {
			c->have_cmp = 1;
			c->speedup = row->cmp.speedup;
			c->speedup_ci[0] = row->cmp.speedup_ci[0];
			c->speedup_ci[1] = row->cmp.speedup_ci[1];
			c->p_adjusted = row->cmp.p_adjusted;
			c->verdict = dup_or_null(row->cmp.verdict);
			c->verdict_reason = dup_or_null(row->cmp.verdict_reason);
		}
		c->weak = query_row_weak_judge_why(&q, row) != NULL;
		c->stress_slow = batch_row_stress_slow(b, row);
		const struct run_record **runs;
		size_t nr = query_row_runs(&q, row, &runs);
		for (size_t k = 0; k < nr; k++) {
			const struct run_record *r = runs[k];
			g->runs++;
			g->wall_s += isfinite(r->wall_s) ? r->wall_s : 0;
			g->cpu_s += isfinite(r->wall_s) ? r->wall_s : 0;
			g->gpu_s += isfinite(r->cost.gpu_s) ? r->cost.gpu_s : 0;
			if (r->cost.have_usd)
				g->usd += r->cost.usd;
			else if (r->cost.gpu_s > 0)
				g->unpriced++;
			if (k == 0 && r->binary_sha256)
				c->binary = xstrdup(r->binary_sha256);
			if (k == 0 && r->echo_neutral_sha256)
				c->neutral = xstrdup(r->echo_neutral_sha256);
			if (k == 0 && r->load_sha256)
				c->load = xstrdup(r->load_sha256);
			if (k == 0) {
				char lh[SHA256_HEX_LEN + 1];
				code_libs_of(r, lh);
				c->libs = xstrdup(lh);
			}
			if (k == 0 && json_array_size(r->not_echoed)) {
				struct strbuf ne = STRBUF_INIT;
				size_t j;
				json_t *v;
				json_array_foreach(r->not_echoed, j, v) if (json_is_string(v))
					strbuf_addf(&ne, "%s%s", ne.len ? ", " : "", json_string_value(v));
				if (ne.len)
					c->note = xstrfmt("not echoed by the kernel (compiled_params): %s", ne.buf);
				strbuf_release(&ne);
			}
		}
		free(runs);
	}
	rc = 0;
out:
	strbuf_release(&why);
	query_release(&q);
	return rc;
}

/* 1 when v may become the best: it ran ok, its knob reached the binary,
 * the batch's verdict against the best is faster, neither side ran in
 * a weaker box (eval's rule, red team 134: no promotion from unverified
 * or absent boxes), and no stress distribution ran it over 3x slower than
 * its time (eval's rule, red team 145: a cost the time leaves out). */
static int promotable(const struct search_verdict *v)
{
	return v->outcome && !strcmp(v->outcome, "ok") && !v->no_effect && v->verdict && !strcmp(v->verdict, "faster") &&
	       !v->weak && !(v->stress_slow > 0);
}

size_t search_pick(const struct search_verdict *v, size_t n, size_t *n_faster)
{
	size_t best = 0;
	*n_faster = 0;
	for (size_t i = 1; i < n; i++) {
		if (!promotable(&v[i]))
			continue;
		(*n_faster)++;
		if (best == 0 || v[i].speedup_lo > v[best].speedup_lo ||
		    (v[i].speedup_lo == v[best].speedup_lo && v[i].speedup > v[best].speedup))
			best = i;
	}
	return best;
}

enum search_same search_same_code(const char *kernel_a, const char *binary_a, const char *neutral_a,
				  const char *load_a, const char *libs_a, const char *kernel_b, const char *binary_b,
				  const char *neutral_b, const char *load_b, const char *libs_b)
{
	if (!kernel_a || !kernel_b || strcmp(kernel_a, kernel_b))
		return SEARCH_OTHER_CODE;
	/* an object's hashes are of the object alone: another library is
	 * another program (code_identity.c same_libs, as eval reads it) */
	if (libs_a && libs_b && strcmp(libs_a, libs_b))
		return SEARCH_OTHER_CODE;
	/* a CUDA object's binary hash is its device code's: a knob read only
	 * by its host code (a launch's grid, a split in launch()) changes
	 * what is loaded, not the device image, and is no twin (code_identity.c
	 * same_bin) */
	if (binary_a && binary_b && !strcmp(binary_a, binary_b) && !(load_a && load_b && strcmp(load_a, load_b)))
		return SEARCH_SAME_BINARY;
	if (neutral_a && neutral_b && !strcmp(neutral_a, neutral_b))
		return SEARCH_SAME_ECHO;
	if (load_a && load_b && !strcmp(load_a, load_b))
		return SEARCH_SAME_LOAD;
	return SEARCH_OTHER_CODE;
}

int search_reserved_name(const char *name)
{
	const char *p = name;
	if (*p++ != 'g' || !isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p++ != 'c' || !isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p == '-' && isdigit((unsigned char)p[1]))
		for (p++; isdigit((unsigned char)*p); p++)
			;
	return *p == 0;
}

int search_lineage_stalled(double challenger_median, double lineage_best_median)
{
	return isfinite(challenger_median) && isfinite(lineage_best_median) && challenger_median >= lineage_best_median;
}

int search_incumbent_drifted(double now_median, double best_median)
{
	return code_speed_drifted(now_median, best_median);
}

int search_confirms(const char *incumbent_outcome, const char *challenger_outcome, const char *verdict,
		    int interrupted)
{
	return !interrupted && incumbent_outcome && !strcmp(incumbent_outcome, "ok") && challenger_outcome &&
	       !strcmp(challenger_outcome, "ok") && verdict && !strcmp(verdict, "faster");
}

static struct search_verdict verdict_of(const struct cand *c)
{
	struct search_verdict v = { c->outcome, c->have_cmp ? c->verdict : NULL, c->no_effect != NULL, c->speedup,
				    c->speedup_ci[0], c->weak, c->stress_slow };
	return v;
}

static void add_ratio(struct strbuf *sb, const struct cand *c)
{
	strbuf_addf(sb, "%.3fx [%.3f, %.3f], p ", c->speedup, c->speedup_ci[0], c->speedup_ci[1]);
	if (isnan(c->p_adjusted))
		strbuf_addstr(sb, "n/a");
	else if (c->p_adjusted < 1e-3)
		strbuf_addf(sb, "%.1e", c->p_adjusted);
	else
		strbuf_addf(sb, "%.2g", c->p_adjusted);
}

/* g's candidates' verdicts as search_pick reads them (g->n of them, c[0]
 * the elite's); the caller frees the array (its strings are g's). */
static struct search_verdict *gen_verdicts(const struct gen *g)
{
	struct search_verdict *vs = xcalloc(g->n, sizeof(*vs));
	for (size_t i = 0; i < g->n; i++) {
		vs[i] = verdict_of(&g->c[i]);
		vs[i].weak |= g->c[0].weak; /* the best going in, weakly judged, judges no one */
	}
	return vs;
}

/*
 * Judge generation g: knobs that missed the binary, the best after it and
 * why.  Returns 0, or -1 when the elite did not run ok (nothing in the
 * generation can be compared).
 */
static int judge(struct search *x, int gi, struct gen *g)
{
	struct cand *e = &g->c[0];
	if (e->binary) {
		char *k = code_key(e);
		binary_seen(x, k, e->id);
		free(k);
	}
	for (size_t i = 1; i < g->n; i++) {
		struct cand *c = &g->c[i];
		if (!c->binary)
			continue;
		enum search_same same = search_same_code(c->kernel, c->binary, c->neutral, c->load, c->libs, e->kernel,
							 e->binary, e->neutral, e->load, e->libs);
		if (same == SEARCH_SAME_BINARY) {
			c->no_effect = xstrfmt("%s did not reach the binary: its device code is the best's (%s, "
					       "binary %.12s)",
					       c->mutation ? c->mutation : "its mutation", e->id, c->binary);
			continue;
		}
		if (same == SEARCH_SAME_ECHO) {
			c->no_effect = xstrfmt("%s reached only the echo of its parameters: with every EV_PARAM echo held "
					       "constant its object is the best's (%s, echo-neutral %.12s)",
					       c->mutation ? c->mutation : "its mutation", e->id, c->neutral);
			continue;
		}
		if (same == SEARCH_SAME_LOAD) {
			c->no_effect = xstrfmt("%s reached only what the loader leaves on disk (debug information, "
					       "symbol names): the image its object loads is the best's (%s, loaded "
					       "image %.12s)",
					       c->mutation ? c->mutation : "its mutation", e->id, c->load);
			continue;
		}
		char *key = code_key(c);
		const char *twin = binary_seen(x, key, c->id);
		free(key);
		if (twin) {
			char *more = xstrfmt("the same code as %s (what the loader maps of it, and its libraries): "
					     "what differs between them never reached it%s",
					     twin, c->neutral ? " (or reached only its echo of the parameters)" : "");
			if (c->note) {
				char *both = xstrfmt("%s; %s", c->note, more);
				free(more);
				free(c->note);
				more = both;
			}
			c->note = more;
		}
	}
	int elite_ok = e->outcome && !strcmp(e->outcome, "ok");
	size_t n_faster = 0;
	size_t nd = 0, inc = 0, slow = 0, failed = 0, noeff = 0, weak = 0, stressed = 0;
	struct search_verdict *vs = gen_verdicts(g);
	size_t best = search_pick(vs, g->n, &n_faster);
	free(vs);
	for (size_t i = 1; i < g->n; i++) {
		const struct cand *c = &g->c[i];
		if (c->no_effect)
			noeff++;
		else if (!c->outcome || strcmp(c->outcome, "ok"))
			failed++;
		else if (c->have_cmp && c->verdict && !strcmp(c->verdict, "faster") && (c->weak || e->weak))
			weak++; /* the others counted by search_pick, or held for their stress */
		else if (c->have_cmp && c->verdict && !strcmp(c->verdict, "faster"))
			stressed += c->stress_slow > 0;
		else if (c->verdict && !strcmp(c->verdict, "no_difference"))
			nd++;
		else if (c->verdict && !strcmp(c->verdict, "slower"))
			slow++;
		else
			inc++;
	}
	struct strbuf why = STRBUF_INIT;
	if (!elite_ok) {
		strbuf_addf(&why, "%s kept, unjudged: the best so far ended %s when measured again (%s), so no candidate "
			    "could be compared with it",
			    e->id, e->outcome ? e->outcome : "without a record", e->reason ? e->reason : "no reason recorded");
		best = 0;
	} else if (best) {
		struct cand *c = &g->c[best];
		c->promoted = 1;
		g->promoted = 1;
		strbuf_addf(&why, "%s promoted: faster than %s, ", c->id, e->id);
		add_ratio(&why, c);
		strbuf_addf(&why, " (Holm over %lld comparison%s); ", g->holm_comparisons,
			    g->holm_comparisons == 1 ? "" : "s");
		if (n_faster > 1)
			strbuf_addf(&why, "the largest lower CI bound of %zu faster candidates", n_faster);
		else
			strbuf_addstr(&why, "the only faster candidate");
	} else {
		strbuf_addf(&why, "%s kept: no candidate was faster (", e->id);
		const char *sep = "";
#define COUNT(n, what)                                              \
	if (n) {                                                    \
		strbuf_addf(&why, "%s%zu %s", sep, (size_t)(n), what); \
		sep = ", ";                                         \
	}
		COUNT(nd, "no_difference");
		COUNT(inc, "inconclusive");
		COUNT(slow, "slower");
		COUNT(failed, "failed");
		COUNT(noeff, noeff == 1 ? "knob that missed the binary" : "knobs that missed the binary");
		COUNT(weak, "faster on runs of a weaker judge (no box, boxes of a bubblewrap the runner could not "
			    "verify, or fewer than 10 timed checks a run): no claim or promotion counts them");
		COUNT(stressed, "faster by the time, but a stress distribution ran it over 3x slower than its time (the "
				"batch's notes): a cost the time leaves out");
#undef COUNT
		if (!*sep)
			strbuf_addstr(&why, "no candidates");
		strbuf_addch(&why, ')');
	}
	if (!elite_ok)
		e->promoted = 0;
	else if (!best)
		e->promoted = 1; /* the elite stays the best */
	g->best_out = best;
	g->why = strbuf_detach(&why, NULL);
	(void)gi;
	return elite_ok ? 0 : -1;
}

/*
 * Write g's spec (the search's spec, header hdr, baseline g->c[0], g's
 * candidates as variants) under the store's tmp (file name ending in
 * suffix), load it and unlink it, and run it as one batch through
 * run_experiment.  0 with *rt filled (rt->batch_id is the caller's to
 * free); -1 after error() with *err set: *spec_failed 1 when the spec
 * could not be written or loaded (nothing ran), 0 when the batch could
 * not run (rt->batch_id, if any, is still the caller's).
 */
static int run_gen_batch(struct search *x, int gi, const struct gen *g, const char *hdr, const char *suffix,
			 struct run_totals *rt, enum run_error *err, int *spec_failed)
{
	const struct spec *s = x->s;
	struct strbuf vl = STRBUF_INIT, text = STRBUF_INIT, why = STRBUF_INIT;
	memset(rt, 0, sizeof(*rt));
	*spec_failed = 1;
	variant_lines(x, gi, g, &vl);
	int trc = search_spec_text(s->text, hdr, g->c[0].id, vl.buf, &text, &why);
	strbuf_release(&vl);
	if (trc < 0) {
		error("%s: %s", s->path, why.buf);
		strbuf_release(&text);
		strbuf_release(&why);
		*err = RUN_USAGE;
		return -1;
	}
	strbuf_release(&why);
	char *tmp_spec = xstrfmt("%s/tmp/%s-g%d%s.yaml", x->st.root, x->id, gi, suffix);
	struct spec gs;
	memset(&gs, 0, sizeof(gs));
	int fd = open(tmp_spec, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int lrc = fd < 0 || write_all(fd, text.buf, text.len) < 0 ? -1 : 0;
	if (fd >= 0 && close(fd) < 0)
		lrc = -1;
	if (lrc < 0)
		error("cannot write '%s': %s", tmp_spec, strerror(errno));
	strbuf_release(&text);
	lrc = lrc < 0 ? -1 : run_spec_load(tmp_spec, s->path, x->o->cache_dir, &gs);
	unlink(tmp_spec);
	free(tmp_spec);
	if (lrc < 0) {
		spec_release(&gs);
		error("generation %d of search %s: its spec could not be written or loaded (above)", gi, x->id);
		*err = RUN_ENV;
		return -1;
	}
	*spec_failed = 0;
	/* the plan's seed (order, correctness inputs) is drawn as for any
	 * batch, never derived from the search's: the spec is readable by the
	 * kernels it judges, and their inputs must not be predictable from it */
	struct run_options go = *x->o;
	go.only = NULL;
	go.on_batch = NULL;
	int r = run_experiment(&gs, &go, rt, err);
	spec_release(&gs);
	return r < 0 ? -1 : 0;
}

/* A copy of c for a confirmation batch: its id, code and lineage, none of
 * its measurements; elite 1 for the batch's baseline. */
static void cand_copy_code(const struct cand *c, struct cand *d, int elite)
{
	memset(d, 0, sizeof(*d));
	d->id = xstrdup(c->id);
	d->kernel = xstrdup(c->kernel);
	for (size_t i = 0; i < c->n_params; i++)
		set_param(&d->params, &d->n_params, c->params[i].name, c->params[i].value);
	d->parent = c->parent ? xstrdup(c->parent) : NULL;
	d->parent_run = c->run ? xstrdup(c->run) : NULL; /* the run it confirms */
	d->mutation = xstrdup(elite ? "none: the best going in, measured again to confirm a promotion"
				    : "none: the promoted candidate, measured again to confirm its promotion");
	d->elite = elite;
}

static void add_gen_cost(struct gen *to, const struct gen *from)
{
	to->runs += from->runs;
	to->wall_s += from->wall_s;
	to->cpu_s += from->cpu_s;
	to->gpu_s += from->gpu_s;
	to->usd += from->usd;
	to->unpriced += from->unpriced;
}

/* The fastest an earlier best of a search's lineage (not the incumbent)
 * was recorded at: its median in its generation's batch or, lower,
 * anywhere in the store (eval_fastest_elsewhere); its id (a candidate's,
 * or a run's before the search) and that batch, copied (the query they
 * came from is released before they are printed). */
struct lineage_best {
	double median; /* NAN: none */
	char id[96];
	char batch[96];
};

/* Take the row variant of batch at its fastest into *out
 * when it is faster than what *out holds (lineage_fastest); id borrowed
 * from the caller. */
static void lineage_take(struct search *x, struct query *q, const char *batch, const char *variant, const char *id,
			 struct lineage_best *out)
{
	struct eval_fastest af;
	if (eval_fastest_elsewhere(q, x->pool, batch, variant, &af) < 0)
		return;
	/* the row's own speed as the decision layer reads it (query_row_speed:
	 * a run judged by a weaker judge, or refuted by its checks, speaks for
	 * none), not its batch median (red team 78: a wrong kernel ok under a
	 * loosened tolerance, 77.91 us, named as a parent, held a search's
	 * 3.839x challenger) */
	struct strbuf why = STRBUF_INIT;
	const struct batch_record *b = query_batch(q, NULL, batch, NULL, &why);
	strbuf_release(&why);
	const struct batch_row *row = b ? batch_find_row(b, variant) : NULL;
	double m = row ? query_row_speed(q, row) : NAN;
	const char *mb = batch;
	if (isfinite(af.best_median) && !(af.best_median >= m)) {
		m = af.best_median;
		mb = af.best_batch;
	}
	if (isfinite(m) && (isnan(out->median) || m < out->median)) {
		out->median = m;
		snprintf(out->id, sizeof(out->id), "%s", id);
		snprintf(out->batch, sizeof(out->batch), "%s", mb);
	}
}

/* Does ancestor row id, of batch b, speak for the search's problem as its
 * confirmation batch cb ran it: the same problem, dtype and shape, on the
 * same device, timed the same way (cache mode, clock) as the incumbent
 * inc?  A lineage names its parent in free text (a spec's
 * lineage.parent, an eval candidate's `parent`), and an ancestor at
 * another shape, problem or device has a median of its own (red team 76:
 * an eval candidate's parent at S=8, 341.6 us, held a search's 3.88x
 * challenger of 4125 us as "not faster than an earlier best of its
 * lineage"). */
static int lineage_comparable(const struct batch_record *b, const struct batch_record *cb, const struct code_id *id,
			      const struct code_id *inc)
{
	const struct rec_problem *x = &b->problem, *y = &cb->problem;
	if (!x->name || !y->name || strcmp(x->name, y->name) || !str_same(x->dtype, y->dtype) || x->n_dims != y->n_dims)
		return 0;
	for (size_t i = 0; i < x->n_dims && i < 8; i++)
		if (x->dims[i] != y->dims[i])
			return 0;
	return !inc || (str_same(id->dev, inc->dev) && str_same(id->cache, inc->cache) && str_same(id->clock, inc->clock));
}

/*
 * The start's ancestors before this search: the runs its lineage names,
 * parent after parent (lineage_chain: a search started from another's
 * best names that best's run as its parent), each of a code other than
 * the incumbent's (its row incumbent of batch conf_batch), taken into
 * *out (red team 65's chain: five one-generation searches, each started
 * from the last one's best, confirmed five within-margin steps of 1.21x,
 * 2.63x compounded, where the sixth against the first read 1.002x).
 */
static void lineage_before(struct search *x, struct query *q, const char *conf_batch, const char *incumbent,
			   struct lineage_best *out)
{
	const char *start_run = x->n_gens && x->g[0].n ? x->g[0].c[0].run : NULL;
	long si = start_run ? query_find(q, start_run, NULL) : -1;
	if (si < 0)
		return;
	struct strbuf why = STRBUF_INIT;
	const struct batch_record *cb = conf_batch ? query_batch(q, NULL, conf_batch, NULL, &why) : NULL;
	const struct batch_row *ir = cb ? batch_find_row(cb, incumbent) : NULL;
	struct code_id inc;
	int have_inc = ir && code_identity(q, ir, &inc);
	size_t *chain = NULL;
	size_t n = lineage_chain(q, (size_t)si, &chain, &why);
	for (size_t k = 1; k < n; k++) {
		const struct run_record *r = query_run_at(q, chain[k]);
		const struct batch_record *b = r ? query_batch_of(q, r) : NULL;
		const struct batch_row *row = b && r->variant ? batch_find_row(b, r->variant) : NULL;
		struct code_id id;
		if (!row || !code_identity(q, row, &id) || (have_inc && code_same_built_timed(&id, &inc)) ||
		    !cb || !lineage_comparable(b, cb, &id, have_inc ? &inc : NULL))
			continue;
		lineage_take(x, q, b->run_id, r->variant, r->run_id, out);
	}
	free(chain);
	strbuf_release(&why);
}

/* Fill *out with the fastest of the bests generations 0..gi-1 went in
 * with, the incumbent (id incumbent) aside, and of the start's ancestors
 * before this search (lineage_before): the lineage a challenger must beat
 * (search_lineage_stalled). */
static void lineage_fastest(struct search *x, struct query *q, int gi, const char *incumbent, struct lineage_best *out)
{
	lineage_before(x, q, x->g[gi].conf_batch, incumbent, out);
	for (int j = 0; j < gi; j++) {
		const struct gen *pg = &x->g[j];
		if (!pg->batch || !pg->n || !pg->c[0].id || !strcmp(pg->c[0].id, incumbent))
			continue;
		lineage_take(x, q, pg->batch, pg->c[0].id, pg->c[0].id, out);
	}
}

/*
 * A promotion stands only when fresh processes confirm it (red team 48:
 * one batch's `faster` can be luck, e.g. every repeat of the best drawing
 * a slow process and every repeat of a candidate a fast one).  g's batch
 * promoted g->c[g->best_out] over g->c[0]: run the two again in a batch of
 * their own (new processes, the same repeats, a new plan seed) and keep
 * the promotion only when that batch's verdict is `faster` too; otherwise
 * undo it (the best going in stays) and say why.  Both batches are in
 * the record (the generation's, and its confirmation).  The cost is one
 * batch of 2 variants x repeats per promotion, counted in the
 * generation's cost.  0, or -1 with *err set when the batch could not run
 * (the promotion is undone: an unconfirmed promotion never stands).
 */
/* Did a and b run the same code: one object, load image and libraries
 * (an unread hash on both sides is no difference)? */
static int cand_same_code(const struct cand *a, const struct cand *b)
{
	const char *x[3] = { a->binary, a->load, a->libs }, *y[3] = { b->binary, b->load, b->libs };
	for (int i = 0; i < 3; i++)
		if ((x[i] || y[i]) && (!x[i] || !y[i] || strcmp(x[i], y[i])))
			return 0;
	return 1;
}

/* c's object hash for a message, "?" where unread */
static const char *conf_bin(const struct cand *c)
{
	return c->binary ? c->binary : "?";
}

static int confirm_promotion(struct search *x, int gi, struct gen *g, struct search_totals *t, enum run_error *err)
{
	struct cand *e = &g->c[0], *c = &g->c[g->best_out];
	struct gen cg;
	memset(&cg, 0, sizeof(cg));
	cg.confirming = 1;
	cg.c = xcalloc(2, sizeof(*cg.c));
	cg.n = 2;
	cand_copy_code(e, &cg.c[0], 1);
	cand_copy_code(c, &cg.c[1], 0);
	struct strbuf hdr = STRBUF_INIT;
	strbuf_addf(&hdr, "# confirmation of generation %d of search %s, written by evident from %s:\n"
			  "# %s (promoted by the generation's batch) against %s (the best going in), in fresh processes\n",
		    gi, x->id, x->s->path, c->id, e->id);
	printf("search %s, generation %d: confirming %s against %s in fresh processes\n", x->id, gi, c->id, e->id);
	fflush(stdout);
	struct run_totals rt;
	int spec_failed = 0, rc = 0;
	int r = run_gen_batch(x, gi, &cg, hdr.buf, "-confirm", &rt, err, &spec_failed);
	strbuf_release(&hdr);
	g->conf_batch = rt.batch_id;
	rt.batch_id = NULL;
	if (r == 0 && g->conf_batch && read_batch(x, &cg, g->conf_batch) < 0) {
		*err = RUN_STORE;
		r = -1;
	}
	if (rt.interrupted)
		t->interrupted = 1;
	add_gen_cost(g, &cg);
	const struct cand *cc = &cg.c[1];
	g->confirmed = r == 0 && search_confirms(cg.c[0].outcome, cc->outcome, cc->have_cmp ? cc->verdict : NULL,
						 rt.interrupted);
	/* both sides the code the generation's batch measured: a file
	 * rewritten between the two batches makes the confirmation one of
	 * other code (red team 222's searchswap: g0c0 "confirmed 1.278x" by
	 * a batch where its binary was another's) */
	const struct cand *changed = NULL;
	if (r == 0) {
		if (e->binary && cg.c[0].binary && !cand_same_code(e, &cg.c[0]))
			changed = e;
		else if (c->binary && cg.c[1].binary && !cand_same_code(c, &cg.c[1]))
			changed = c;
		if (changed)
			g->confirmed = 0;
	}
	/* the best going in, measured in the confirmation, against the
	 * fastest its code was recorded at anywhere in the store (this search's
	 * generations, earlier batches, other experiments: eval.h
	 * eval_fastest_elsewhere): slower by the margin, its speed moved with
	 * its history, and a challenger may be only newer (red team 51: a
	 * kernel counting its own runs in the host's page cache ran 8x slower
	 * after its sixth; the start took 75 us in generation 0 and 630 us in
	 * generation 3, and the promotions were "confirmed"; red team 59: a
	 * start whose fast batch had a wide CI, or was outside the search, was
	 * not seen, and searches confirmed 8.49x and 10.24x).  A store that
	 * cannot be read again confirms nothing. */
	const struct cand *ic = &cg.c[0];
	struct eval_fastest fst = { NAN, NAN, "" };
	int drifted = 0, unread = 0, beats = 0, stalled = 0, outvoted = 0, cand_hist = 0, job_held = 0, unseen_held = 0;
	struct eval_pooled pooled = EVAL_POOLED_INIT;
	struct lineage_best anc = { NAN, "", "" };
	if (g->confirmed) {
		struct query q = QUERY_INIT;
		if (!x->pool)
			x->pool = eval_pool_new();
		if (query_open(&q, x->o->store_root) < 0 || (rejudge_drawn_rule_setup(q.st.root), 0) ||
		    eval_fastest_elsewhere(&q, x->pool, g->conf_batch, ic->id, &fst) < 0) {
			g->confirmed = 0;
			unread = 1;
		}
		drifted = g->confirmed && search_incumbent_drifted(fst.now_median, fst.best_median);
		/* a challenger faster than the incumbent's code ever ran is
		 * faster whatever the incumbent's drift (red team 62 d) */
		beats = drifted && code_beats_history(cc->median_ci[1], fst.best_median);
		drifted = drifted && !beats;
		if (g->confirmed && !drifted) {
			lineage_fastest(x, &q, gi, ic->id, &anc);
			stalled = search_lineage_stalled(cc->median_us, anc.median);
		}
		/* eval's rule: faster in more than half of the store's batches
		 * of the two codes at this configuration, the generation's and
		 * the confirmation's among them (red team 140: a search run
		 * again promoted a candidate 2.048x whose four earlier searches
		 * had measured it 0.617-0.653x; eval weighed the same store 3 of
		 * 7 and did not) */
		if (g->confirmed && !drifted && !stalled) {
			if (eval_pool_batches(&q, x->pool, g->conf_batch, cc->id, ic->id, &pooled) < 0) {
				g->confirmed = 0;
				unread = 1;
			} else {
				outvoted = !eval_pooled_promotes(&pooled);
				/* and the candidate's own history, as eval's
				 * (red team 225's stwsearch: a time-window tunable
				 * promoted and confirmed 2 of 2 where eval held it) */
				cand_hist = !outvoted && eval_pooled_cand_held(&pooled);
				/* and the start's code at its fastest under another
				 * job (eval.c ref_fastest_other_job), as eval's: red
				 * team 285 row 2c, a search run under
				 * OMP_NUM_THREADS=1 slowed only its threaded start and
				 * promoted and confirmed greedy.c 1.97x 3 of 3, where
				 * eval held the same pair */
				job_held = !outvoted && !cand_hist && pooled.ref_job_held;
				/* or under another process at another shape only
				 * (eval.c ref_job_unseen, red team 287 row 2s: the
				 * search under OMP_NUM_THREADS=1 at S 17 for the
				 * history's 16 confirmed 4 of 6) */
				unseen_held = !outvoted && !cand_hist && !job_held && pooled.ref_unseen_held;
			}
		}
		query_release(&q);
	}
	/* a stress distribution of the problem over 3x the confirmation's
	 * time: a cost the time leaves out (eval's rule, and search_pick's for
	 * the generation's batch; red team 145) */
	double stress_x = cc->stress_slow > 0 ? cc->stress_slow : 0;
	/* or in any batch of the two codes the majority weighed (red team
	 * 153's giant: a rare cost only some batches draw) */
	if (pooled.stress_x > stress_x)
		stress_x = pooled.stress_x;
	int stressed = g->confirmed && stress_x > 0;
	if (drifted || stalled || outvoted || stressed || cand_hist || job_held || unseen_held)
		g->confirmed = 0;
	struct strbuf why = STRBUF_INIT;
	strbuf_addstr(&why, g->why);
	if (g->confirmed) {
		strbuf_addf(&why, "; confirmed in fresh processes (batch %s): ", g->conf_batch);
		add_ratio(&why, cc);
		if (beats)
			strbuf_addf(&why, "; %s ran %.2fx slower than at its fastest measurement in the store (batch %s: "
					  "median %.4g us then), but %s's median CI [%.4g, %.4g] us lies under even that: "
					  "%.3fx against that median (the confirmation's speedup carries the drift)",
				    ic->id, fst.now_median / fst.best_median, fst.best_batch, fst.best_median, cc->id,
				    cc->median_ci[0], cc->median_ci[1], fst.best_median / cc->median_us);
	} else {
		c->promoted = 0;
		g->promoted = 0;
		g->best_out = 0;
		e->promoted = 1;
		struct strbuf said = STRBUF_INIT;
		if (changed)
			strbuf_addf(&said, "%s's code is not the code the generation's batch measured (object %.12s there, "
					   "%.12s here): its file changed between the two batches, so neither confirms the "
					   "other",
				    changed->id, changed->binary ? changed->binary : "?",
				    conf_bin(changed == e ? &cg.c[0] : &cg.c[1]));
		else if (cand_hist && pooled.cand_refuted_batch[0])
			strbuf_addf(&said, "%s faster than %s, but its code was %s in an earlier batch or try (%s%s%s%s): a code "
					   "the judge refuted once promotes nothing, as eval's",
				    cc->id, ic->id, pooled.cand_refuted_outcome, pooled.cand_refuted_batch,
				    pooled.cand_refuted_how ? "; it is " : "",
				    pooled.cand_refuted_how ? pooled.cand_refuted_how : "",
				    pooled.cand_refuted_how ? " the refuted run's object" : "");
		else if (cand_hist && pooled.cand_specialised_held)
			strbuf_addf(&said, "%s faster than %s, but specialised: its init refused the extra shape (%s; %s), so "
					   "it was checked at the spec's shape only, where %s was checked at every shape drawn: "
					   "a code never checked at the drawn shape promotes nothing, as eval's (red team 296)",
				    cc->id, ic->id, pooled.cand_specialised_reason, pooled.cand_specialised_batch, ic->id);
		else if (cand_hist)
			strbuf_addf(&said, "%s faster than %s, %.2fx more than in an earlier batch of the two codes, where it "
					   "also ran that much slower itself (%s): its speed moved with its history, as eval "
					   "reads it",
				    cc->id, ic->id, pooled.cand_drift, pooled.cand_least_batch);
		else if (job_held)
			strbuf_addf(&said, "%s faster than %s, but %s's code ran %.2fx faster under another job (batch %s: "
					   "median %.4g us there, %.4g us here) and %s's median CI does not lie under that: "
					   "the search's job may be what slowed it, and %s was not timed under that job, as "
					   "eval reads it; run the search under the start's job to decide",
				    cc->id, ic->id, ic->id, pooled.ref_median / pooled.ref_job_median, pooled.ref_job_batch,
				    pooled.ref_job_median, pooled.ref_median, cc->id, cc->id);
		else if (unseen_held)
			strbuf_addf(&said, "%s faster than %s, but %s's code ran under another runner's process at another "
					   "shape (batch %s, %s), a process never compared with the search's (%s): the "
					   "search's process may be what slowed it, as eval reads it; run %s at this shape "
					   "under that process, or the search under it, to decide",
				    cc->id, ic->id, ic->id, pooled.ref_unseen_batch, pooled.ref_unseen_shape,
				    isfinite(pooled.ref_unseen_ratio) ? "slower there by the margin" : "never run there",
				    ic->id);
		else if (stressed)
			strbuf_addf(&said, "%s faster by its time, but a stress distribution of the problem ran it %.2fx slower "
					   "than its timing median (the batch's notes): a cost the time leaves out",
				    cc->id, stress_x);
		else if (outvoted && 2 * pooled.k <= pooled.n)
			strbuf_addf(&said, "%s faster than %s, but faster in only %zu of the store's %zu batches of the two "
					   "codes at this configuration (%zu earlier%s%s): a promotion needs more than half, "
					   "as eval's",
				    cc->id, ic->id, pooled.k, pooled.n, pooled.n_earlier, pooled.others.len ? "; " : "",
				    pooled.others.buf);
		else if (outvoted)
			strbuf_addf(&said, "%s faster than %s, but %s with its p adjusted over the %zu configurations the two "
					   "kernels were tried in, as eval weighs it",
				    cc->id, ic->id, pooled.verdict_configs ? pooled.verdict_configs : "no comparison",
				    pooled.configs);
		else if (stalled)
			strbuf_addf(&said, "%s faster than %s, but not faster than %s, an earlier best of its lineage, at "
					   "its fastest (batch %s: median %.4g us; %s %.4g us now): a lineage whose best does "
					   "not get faster than its ancestors is the incumbent's drift, not progress",
				    cc->id, ic->id, anc.id, anc.batch, anc.median, cc->id, cc->median_us);
		else if (drifted)
			strbuf_addf(&said, "%s faster, but %s itself ran %.2fx slower than at its fastest measurement in "
					   "the store (batch %s: median %.4g us then, %.4g us now): its speed moved with "
					   "its history, so %s may be only newer",
				    cc->id, ic->id, fst.now_median / fst.best_median, fst.best_batch, fst.best_median,
				    fst.now_median, cc->id);
		else if (unread)
			strbuf_addf(&said, "the store could not be read again to check %s against its fastest "
					   "measurement", ic->id);
		else if (r < 0)
			strbuf_addstr(&said, "it could not run (the error was printed)");
		else if (rt.interrupted)
			strbuf_addstr(&said, "it was interrupted");
		else if (!cc->outcome || strcmp(cc->outcome, "ok") || !cg.c[0].outcome || strcmp(cg.c[0].outcome, "ok"))
			strbuf_addf(&said, "%s ended %s and %s ended %s", cc->id, cc->outcome ? cc->outcome : "unrecorded",
				    cg.c[0].id, cg.c[0].outcome ? cg.c[0].outcome : "unrecorded");
		else if (!cc->have_cmp || !cc->verdict)
			strbuf_addstr(&said, "no comparison could be computed");
		else {
			strbuf_addf(&said, "%s, ", cc->verdict);
			add_ratio(&said, cc);
		}
		char *old = strbuf_detach(&why, NULL);
		strbuf_addf(&why, "%s kept: not confirmed: the confirmation batch of fresh processes (%s) said %s; the "
				  "generation's batch had said: %s",
			    e->id, g->conf_batch ? g->conf_batch : "none", said.buf, old);
		free(old);
		/* whether another faster candidate of the generation may be
		 * confirmed in its place (confirm_generation): not when the
		 * best going in moved or changed, or the batch or the store
		 * failed, which would hold any challenger alike */
		free(g->conf_said);
		g->conf_said = strbuf_detach(&said, NULL);
		g->conf_own = r == 0 && !rt.interrupted && !unread && !drifted && !job_held && !unseen_held && changed != e;
		if (r < 0)
			rc = -1;
	}
	strbuf_release(&pooled.others);
	free(g->why);
	g->why = strbuf_detach(&why, NULL);
	g->conf = cg.c;
	g->n_conf = cg.n;
	return rc;
}

static double gen_cost(const struct search *x, const struct gen *g);

/* at most this many confirmations a generation: its pick, then the next
 * faster candidates in pick order (confirm_generation) */
#define SEARCH_CONFIRM_TRIES 3

/*
 * Confirm generation g's promotion (confirm_promotion), and where fresh
 * processes do not keep the pick for a reason of its own, the next
 * candidate the generation's batch read faster, in search_pick's order
 * (the largest lower CI bound), up to SEARCH_CONFIRM_TRIES confirmations.
 *
 * Red team 284 row 1 (DENIAL): a decoy kernel honestly fastest under the
 * search's job took the pick, and its confirmation's pooled weigh held it
 * (its author's side batches under OMP_NUM_THREADS=1, "faster in only 2
 * of 4"); the generation's honest 1.99x candidate was never confirmed,
 * and a judged candidate is never drawn again, so the search ended "base
 * kept", exhausted, 3 of 3, against records saying g0c0 faster.  One
 * unconfirmed pick no longer takes the generation's other faster
 * candidates down with it: each is confirmed in its own batch of fresh
 * processes, as the pick was, by the same rules.  The cap bounds what a
 * generation can cost (a confirmation is a batch of 2 variants x the
 * repeats); the why says which candidates were tried, why each was not
 * kept, and how many faster ones the cap left untried.  Each earlier try
 * is in the record (generations[].confirmation.earlier_tries).
 * 0, or confirm_promotion's -1.
 */
static int confirm_generation(struct search *x, int gi, struct gen *g, struct search_totals *t, enum run_error *err)
{
	char *tried = xcalloc(g->n, 1);
	int rc = 0;
	for (int k = 1;; k++) {
		size_t at = g->best_out;
		tried[at] = 1;
		rc = confirm_promotion(x, gi, g, t, err);
		if (rc < 0 || g->confirmed || t->interrupted || !g->conf_own)
			break;
		struct search_verdict *vs = gen_verdicts(g);
		size_t left = 0, n_faster = 0;
		search_pick(vs, g->n, &n_faster);
		for (size_t i = 1; i < g->n; i++)
			if (tried[i])
				vs[i].verdict = NULL; /* confirmed once: not again */
		size_t next = search_pick(vs, g->n, &left);
		free(vs);
		if (!next)
			break;
		/* the next confirmation at this generation's cost a run, over the
		 * budget: not run (red team 285 row 3: up to 2 more batches of
		 * 2 x repeats the generation's estimate left out) */
		double per_run = g->runs > 0 ? gen_cost(x, g) / (double)g->runs : NAN;
		if (x->ss->budget_unit && k < SEARCH_CONFIRM_TRIES && isfinite(per_run) &&
		    x->spent + gen_cost(x, g) + per_run * 2.0 * x->repeats > x->ss->budget) {
			char *old = g->why;
			g->why = xstrfmt("%s; %zu more candidate(s) the generation's batch read faster left unconfirmed "
					 "(another confirmation would take the spending to about %.4g %s, over the budget of "
					 "%.4g)",
					 old, left, x->spent + gen_cost(x, g) + per_run * 2.0 * x->repeats,
					 x->ss->budget_unit, x->ss->budget);
			free(old);
			break;
		}
		if (k >= SEARCH_CONFIRM_TRIES) {
			char *old = g->why;
			g->why = xstrfmt("%s; %zu more candidate(s) the generation's batch read faster left unconfirmed "
					 "(at most %d confirmations a generation)",
					 old, left, SEARCH_CONFIRM_TRIES);
			free(old);
			break;
		}
		/* the try that did not keep its challenger, into the record */
		const struct cand *prev = &g->c[at];
		g->tries = xrealloc(g->tries, (g->n_tries + 1) * sizeof(*g->tries));
		struct conf_try *ct = &g->tries[g->n_tries++];
		ct->conf = g->conf;
		ct->n_conf = g->n_conf;
		ct->batch = g->conf_batch;
		ct->said = g->conf_said;
		g->conf = NULL;
		g->n_conf = 0;
		g->conf_batch = NULL;
		g->conf_said = NULL;
		g->conf_own = 0;
		/* the next one, promoted by the generation's batch as the pick was */
		struct cand *e = &g->c[0], *c = &g->c[next];
		c->promoted = 1;
		e->promoted = 0;
		g->promoted = 1;
		g->best_out = next;
		struct strbuf why = STRBUF_INIT;
		strbuf_addf(&why, "%s promoted: faster than %s, ", c->id, e->id);
		add_ratio(&why, c);
		strbuf_addf(&why, " (Holm over %lld comparison%s); the next of %zu faster candidates by the largest lower "
				  "CI bound (confirmation %d of at most %d), as %s before it was not confirmed (batch %s: %s)",
			    g->holm_comparisons, g->holm_comparisons == 1 ? "" : "s", n_faster, k + 1,
			    SEARCH_CONFIRM_TRIES, prev->id, ct->batch ? ct->batch : "none", ct->said ? ct->said : "?");
		free(g->why);
		g->why = strbuf_detach(&why, NULL);
		printf("search %s, generation %d: %s not confirmed; the next faster candidate of the generation is %s\n",
		       x->id, gi, prev->id, c->id);
		fflush(stdout);
		note(x, xstrfmt("generation %d: %s, the generation's %s, was not confirmed in fresh processes (batch %s); "
				"%s, the next candidate its batch read faster, was tried in its place",
				gi, prev->id, k == 1 ? "pick" : "next faster candidate", ct->batch ? ct->batch : "none",
				c->id));
	}
	free(tried);
	return rc;
}

/* ---- the record ------------------------------------------------------------ */

static void fill_candidate(const struct cand *c, struct rec_candidate *r)
{
	memset(r, 0, sizeof(*r));
	r->id = c->id;
	r->role = c->elite ? "elite" : "candidate";
	r->kernel = c->kernel;
	r->params = c->params;
	r->n_params = c->n_params;
	r->parent = c->elite && !c->parent_run ? (c->spec_lineage ? c->spec_lineage->parent : NULL) : c->parent;
	r->parent_run = c->parent_run;
	r->mutation = c->spec_lineage ? c->spec_lineage->mutation : c->mutation;
	r->outcome = c->ran ? c->outcome : "not_run";
	r->reason = c->ran ? c->reason : "its generation's batch has no row for it";
	r->run = c->run;
	r->binary_sha256 = c->binary;
	r->median_us = c->median_us;
	r->median_ci[0] = c->median_ci[0];
	r->median_ci[1] = c->median_ci[1];
	r->have_cmp = c->have_cmp;
	r->speedup = c->speedup;
	r->speedup_ci[0] = c->speedup_ci[0];
	r->speedup_ci[1] = c->speedup_ci[1];
	r->p_adjusted = c->p_adjusted;
	r->verdict = c->verdict;
	r->verdict_reason = c->verdict_reason;
	r->no_effect = c->no_effect;
	r->note = c->note;
	r->promoted = c->promoted;
}

static int commit_record(struct search *x, char finished[40])
{
	const struct spec *s = x->s;
	const struct spec_search *ss = x->ss;
	struct search_record r;
	memset(&r, 0, sizeof(r));
	r.run_id = x->id;
	r.experiment = s->name;
	r.question = s->question;
	r.backend = s->backend;
	r.started_utc = x->started;
	r.finished_utc = finished;
	r.spec_path = s->path;
	r.spec_object = x->spec_object;
	r.git.is_repo = x->prov.is_repo;
	r.git.commit = x->prov.commit;
	r.git.branch = x->prov.branch;
	r.git.dirty = x->prov.dirty;
	r.git.n_changed = (long long)x->prov.n_changed;
	r.git.untracked = x->prov.untracked;
	r.git.note = x->prov.why;
	r.git.diff_object = x->prov.diff ? x->diff_hex : NULL;
	/* its batches' records name their runner and its worker; the search
	 * record names the runner (no worker of its own) */
	r.runner.have = 1;
	r.runner.commit = x->runner.commit;
	r.runner.dirty = x->runner.dirty;
	r.runner.sha256 = x->runner.sha256[0] ? x->runner.sha256 : NULL;
	r.population = ss->population;
	r.generations = ss->generations;
	r.elite = ss->elite;
	r.mutations = ss->mutations;
	r.seed = x->seed;
	r.seed_given = ss->seed_given;
	r.tunables = xcalloc(ss->n_tunables + 1, sizeof(*r.tunables));
	r.n_tunables = ss->n_tunables;
	for (size_t i = 0; i < ss->n_tunables; i++) {
		const struct spec_tunable *t = &ss->tunables[i];
		r.tunables[i] = (struct rec_search_tunable){ t->name, t->is_range, t->lo, t->hi, t->step,
							     (const char **)t->choices, t->n_choices };
	}
	r.kernels = (const char **)ss->kernels;
	r.n_kernels = ss->n_kernels;
	r.budget_unit = ss->budget_unit;
	r.budget_limit = ss->budget;
	r.budget_spent = x->spent;
	r.budget_stopped = x->budget_stopped;
	r.gens = xcalloc(x->n_gens + 1, sizeof(*r.gens));
	r.n_gens = x->n_gens;
	r.best_generation = -1;
	r.best_median_us = r.best_median_ci[0] = r.best_median_ci[1] = NAN;
	r.t_usd = 0;
	int unpriced = 0;
	for (size_t i = 0; i < x->n_gens; i++) {
		const struct gen *g = &x->g[i];
		struct rec_generation *rg = &r.gens[i];
		rg->generation = (int)i;
		rg->batch = g->batch;
		rg->best_in = g->c[0].id;
		rg->best_out = g->why ? g->c[g->best_out].id : NULL;
		rg->promoted = g->promoted;
		rg->why = g->why;
		const struct cand *bo = &g->c[g->best_out];
		rg->best_median_us = g->why ? bo->median_us : NAN;
		rg->best_median_ci[0] = g->why ? bo->median_ci[0] : NAN;
		rg->best_median_ci[1] = g->why ? bo->median_ci[1] : NAN;
		rg->runs = g->runs;
		rg->wall_s = g->wall_s;
		rg->gpu_s = g->gpu_s;
		rg->usd = g->unpriced ? NAN : g->usd;
		rg->cpu_s = g->cpu_s;
		rg->c = xcalloc(g->n + 1, sizeof(*rg->c));
		rg->n = g->n;
		for (size_t k = 0; k < g->n; k++)
			fill_candidate(&g->c[k], &rg->c[k]);
		if (g->n_conf == 2) {
			rg->have_confirm = 1;
			rg->confirm_batch = g->conf_batch;
			rg->confirm_challenger = g->conf[1].id;
			rg->confirmed = g->confirmed;
			fill_candidate(&g->conf[1], &rg->confirm_c);
			rg->confirm_incumbent_median_us = g->conf[0].median_us;
			rg->tries = xcalloc(g->n_tries + 1, sizeof(*rg->tries));
			rg->n_tries = g->n_tries;
			for (size_t k = 0; k < g->n_tries; k++) {
				const struct conf_try *ct = &g->tries[k];
				struct rec_confirm_try *rt = &rg->tries[k];
				rt->batch = ct->batch;
				rt->why = ct->said;
				rt->incumbent_median_us = ct->n_conf == 2 ? ct->conf[0].median_us : NAN;
				if (ct->n_conf == 2) {
					fill_candidate(&ct->conf[1], &rt->c);
					rt->challenger = ct->conf[1].id;
				}
			}
		}
		for (size_t k = 1; k < g->n; k++) {
			r.t_candidates++;
			if (g->c[k].outcome && !strcmp(g->c[k].outcome, "ok"))
				r.t_ok++;
			else
				r.t_failed++;
		}
		r.t_wall_s = (i ? r.t_wall_s : 0) + g->wall_s;
		r.t_gpu_s = (i ? r.t_gpu_s : 0) + g->gpu_s;
		r.t_usd += g->usd;
		unpriced += g->unpriced;
		if (g->why) {
			r.best_id = bo->id;
			r.best_run = bo->run;
			r.best_generation = (int)i;
			r.best_median_us = bo->median_us;
			r.best_median_ci[0] = bo->median_ci[0];
			r.best_median_ci[1] = bo->median_ci[1];
		}
	}
	if (!x->n_gens)
		r.t_wall_s = r.t_gpu_s = 0;
	if (unpriced || !(r.t_gpu_s > 0))
		r.t_usd = NAN;
	r.stopped = x->stopped;
	r.stop_reason = x->stop_reason;
	r.notes = x->notes;
	json_t *m = record_search_json(&r);
	int rc = store_commit(&x->st, x->id, m);
	json_decref(m);
	for (size_t i = 0; i < r.n_gens; i++) {
		free(r.gens[i].c);
		free(r.gens[i].tries);
	}
	free(r.gens);
	free(r.tunables);
	return rc;
}

/* ---- the loop ----------------------------------------------------------------- */

static double gen_cost(const struct search *x, const struct gen *g)
{
	const char *u = x->ss->budget_unit;
	return !u ? 0 : !strcmp(u, "cpu_s") ? g->cpu_s : !strcmp(u, "gpu_s") ? g->gpu_s : g->usd;
}

static void print_generation(const struct search *x, int gi, const struct gen *g)
{
	printf("\nsearch %s, generation %d: %s\n", x->id, gi, g->why ? g->why : "not judged");
	for (size_t i = 1; i < g->n; i++) {
		const struct cand *c = &g->c[i];
		printf("  %-8s %-34s %s", c->id, c->mutation ? c->mutation : "", c->ran ? c->outcome : "not run");
		if (c->have_cmp && c->verdict)
			printf(", %.3fx %s", c->speedup, c->verdict);
		if (c->promoted)
			printf(", PROMOTED");
		printf("\n");
		if (c->no_effect)
			printf("           no effect: %s; never promoted\n", c->no_effect);
		if (c->note)
			printf("           note: %s\n", c->note);
	}
	if (x->ss->budget_unit)
		printf("  cost %.4g %s (spent %.4g of %.4g)\n", gen_cost(x, g), x->ss->budget_unit, x->spent,
		       x->ss->budget);
	fflush(stdout);
}

static void set_stop(struct search *x, const char *why, char *reason)
{
	x->stopped = why;
	free(x->stop_reason);
	x->stop_reason = reason;
}

int run_search(const struct spec *s, const struct run_options *o, struct search_totals *t, enum run_error *err)
{
	struct search x;
	memset(&x, 0, sizeof(x));
	memset(t, 0, sizeof(*t));
	*err = RUN_OK;
	x.s = s;
	x.ss = s->search;
	x.o = o;
	x.notes = json_array();
	int rc = -1;
	if (!x.ss || s->n_variants != 1 || o->only) {
		*err = RUN_USAGE;
		error("internal: run_search wants a spec with search: and one variant, and no --only");
		goto out;
	}
	/* no device: say so before anything is written (run_open says it the same way) */
	const struct backend *be = backend_find(s->backend);
	struct strbuf pwhy = STRBUF_INIT;
	if (be && be->probe(&pwhy) < 0) {
		error("no_device: experiment '%s' needs the %s backend, which cannot run here: %s", s->name, s->backend,
		      pwhy.buf);
		strbuf_release(&pwhy);
		*err = RUN_NO_DEVICE;
		goto out;
	}
	strbuf_release(&pwhy);
	x.seed = x.ss->seed_given ? x.ss->seed : random_secret_u64() & ((1ULL << 62) - 1);
	char *rid = store_new_run_id(s->name);
	x.id = xstrfmt("%s-search", rid);
	free(rid);
	utc_now_iso(x.started, sizeof(x.started));
	x.repeats = o->repeats > 0 ? o->repeats : s->k.repeats;
	if (store_open(&x.st, o->store_root, 1) < 0) {
		*err = RUN_STORE;
		goto out;
	}
	char *prefix = o->store_root[0] != '/' && strncmp(o->store_root, "..", 2) ? xstrfmt("%s/", o->store_root) : NULL;
	int grc = prov_git(prefix, &x.prov);
	prov_runner(NULL, &x.runner);
	free(prefix);
	if (grc < 0 || store_put(&x.st, s->text, strlen(s->text), x.spec_object) < 0 ||
	    (x.prov.diff && store_put(&x.st, x.prov.diff, x.prov.diff_len, x.diff_hex) < 0)) {
		*err = RUN_STORE;
		goto out;
	}
	fprintf(stderr, "search %s: up to %lld generations of %lld candidate(s) and the best so far, %d repeat(s) "
			"each; seed %llu%s",
		x.id, x.ss->generations, x.ss->population, x.repeats, x.seed, x.ss->seed_given ? "" : " (drawn)");
	if (x.ss->budget_unit)
		fprintf(stderr, "; budget %g %s", x.ss->budget, x.ss->budget_unit);
	fprintf(stderr, "\n");
	if (x.repeats < 2)
		warning("1 repeat: every comparison is inconclusive (one process a side), so no candidate can be "
			"promoted; use --repeats 3 or more");
	fflush(stderr);

	/* the start: the spec's one variant */
	x.g = xcalloc((size_t)x.ss->generations, sizeof(*x.g));
	struct cand start;
	memset(&start, 0, sizeof(start));
	start.id = xstrdup(s->variants[0].name);
	start.kernel = xstrdup(s->variants[0].kernel);
	for (size_t i = 0; i < s->variants[0].n_params; i++)
		set_param(&start.params, &start.n_params, s->variants[0].params[i].name, s->variants[0].params[i].value);
	start.elite = 1;
	start.spec_lineage = s->variants[0].lineage;
	add_seen(&x, search_key(start.kernel, start.params, start.n_params));
	const struct cand **parents = xcalloc((size_t)x.ss->elite + 1, sizeof(*parents));
	struct cand *elite = &start;
	size_t n_parents = 1;
	parents[0] = &start;
	x.stopped = "generations";
	x.stop_reason = xstrfmt("all %lld generation(s) ran", x.ss->generations);
	for (int gi = 0; gi < x.ss->generations; gi++) {
		struct gen *g = &x.g[gi];
		if (gi > 0 && runcmd_interrupted) { /* a signal between two generations */
			t->interrupted = 1;
			set_stop(&x, "interrupted", xstrfmt("interrupted before generation %d", gi));
			break;
		}
		g->c = xcalloc((size_t)x.ss->population + 1, sizeof(*g->c));
		g->n = 1;
		if (gi == 0) {
			g->c[0] = start; /* moved: start's strings now belong to the generation */
			memset(&start, 0, sizeof(start));
			parents[0] = &g->c[0];
		} else {
			elite_of(elite, &g->c[0]);
		}
		struct store_claims *names = NULL; /* g's candidates' names, until its batch is recorded */
		if (plan_generation(&x, gi, g, parents, n_parents, &names) < 0) {
			*err = RUN_STORE;
			t->failed = 1;
			set_stop(&x, "failed", xstrfmt("generation %d: its candidates' names could not be claimed in the "
						       "store (the error was printed)",
						       gi));
			if (gi == 0)
				goto out_parents; /* nothing ran: no record */
			break;
		}
		if (g->n == 1) {
			store_claims_drop(names);
			cand_release(&g->c[0]);
			free(g->c);
			g->c = NULL;
			g->n = 0;
			set_stop(&x, "exhausted",
				 xstrfmt("generation %d has no new candidate: every mutation of its parents was judged already", gi));
			break;
		}
		/* the budget: this generation at the cost per run of the last one
		 * (or of the newest batch), its promotion's confirmation (2
		 * variants x the repeats) among its runs; further confirmations
		 * are held to the budget left as they come (confirm_generation:
		 * red team 285 row 3, they were left out of the estimate) */
		if (x.ss->budget_unit) {
			double per_run = NAN;
			long long runs = (long long)(g->n + 2) * x.repeats;
			if (gi > 0 && x.g[gi - 1].runs > 0)
				per_run = gen_cost(&x, &x.g[gi - 1]) / (double)x.g[gi - 1].runs;
			else if (gi == 0) {
				struct cost_estimate e;
				cost_estimate(o->store_root, s->name, (size_t)runs, &e);
				if (e.have) {
					double v = !strcmp(x.ss->budget_unit, "cpu_s")	? e.wall_s
						   : !strcmp(x.ss->budget_unit, "gpu_s") ? e.gpu_s
											  : e.usd;
					per_run = v / (double)runs;
				}
			}
			double est = isfinite(per_run) ? per_run * (double)runs : 0;
			if (x.spent + est > x.ss->budget) {
				store_claims_drop(names);
				for (size_t k = 0; k < g->n; k++)
					cand_release(&g->c[k]);
				free(g->c);
				g->c = NULL;
				g->n = 0;
				x.budget_stopped = 1;
				set_stop(&x, "budget",
					 xstrfmt("generation %d would take the spending to about %.4g %s (%.4g spent, %lld runs at "
						 "%.4g %s a run), over the budget of %.4g",
						 gi, x.spent + est, x.ss->budget_unit, x.spent, runs, per_run, x.ss->budget_unit,
						 x.ss->budget));
				break;
			}
		}
		x.n_gens = (size_t)gi + 1;
		/* the generation's spec, run as one batch */
		struct strbuf hdr = STRBUF_INIT;
		strbuf_addf(&hdr, "# generation %d of search %s (seed %llu), written by evident from %s:\n"
				  "# the best so far (the baseline) and %zu candidate(s), each a mutation of a parent\n",
			    gi, x.id, x.seed, s->path, g->n - 1);
		printf("\nsearch %s, generation %d of %lld: %s (the best so far) and %zu candidate(s)\n", x.id, gi,
		       x.ss->generations, g->c[0].id, g->n - 1);
		fflush(stdout);
		struct run_totals rt;
		enum run_error rerr;
		int spec_failed = 0;
		int r = run_gen_batch(&x, gi, g, hdr.buf, "", &rt, &rerr, &spec_failed);
		store_claims_drop(names); /* the batch is recorded (or never ran): its runs hold the names now */
		strbuf_release(&hdr);
		if (r < 0 && spec_failed) {
			*err = rerr;
			x.n_gens = (size_t)gi;
			goto out_parents;
		}
		if (r < 0) {
			free(rt.batch_id);
			*err = rerr;
			x.n_gens = (size_t)gi;
			t->failed = 1;
			set_stop(&x, "failed", xstrfmt("generation %d could not run (the error was printed)", gi));
			if (gi == 0)
				goto out_parents; /* nothing ran: no record */
			break;
		}
		g->batch = rt.batch_id;
		t->generations = gi + 1;
		if (read_batch(&x, g, g->batch) < 0) {
			*err = RUN_STORE;
			goto out_parents;
		}
		if (rt.interrupted) {
			t->interrupted = 1;
			set_stop(&x, "interrupted", xstrfmt("interrupted during generation %d; its batch is partial and "
							    "was not judged",
							    gi));
			x.spent += gen_cost(&x, g);
			break;
		}
		int jrc = judge(&x, gi, g);
		int crc = jrc == 0 && g->promoted ? confirm_generation(&x, gi, g, t, &rerr) : 0;
		x.spent += gen_cost(&x, g);
		print_generation(&x, gi, g);
		if (jrc < 0) {
			t->failed = 1;
			set_stop(&x, "failed", xstrfmt("generation %d: %s", gi, g->why));
			break;
		}
		if (crc < 0) {
			*err = rerr;
			t->failed = 1;
			set_stop(&x, "failed", xstrfmt("generation %d: its promotion's confirmation batch could not run (the "
						       "error was printed)",
						       gi));
			break;
		}
		if (t->interrupted) {
			set_stop(&x, "interrupted", xstrfmt("interrupted during generation %d's confirmation batch; its "
							    "promotion was not confirmed",
							    gi));
			break;
		}
		if (x.ss->budget_unit && !strcmp(x.ss->budget_unit, "usd") && g->unpriced) {
			set_stop(&x, "budget", xstrfmt("generation %d: %d run(s) have GPU time and no price, so a budget in "
						       "usd cannot be kept; give cost.price_usd_per_h or a budget in gpu_s",
						       gi, g->unpriced));
			x.budget_stopped = 1;
			break;
		}
		/* the parents of the next generation: the best, then runners-up */
		elite = &g->c[g->best_out];
		parents[0] = elite;
		n_parents = 1;
		for (long long k = 1; k < x.ss->elite; k++) {
			const struct cand *pick = NULL;
			for (size_t i = 1; i < g->n; i++) {
				const struct cand *c = &g->c[i];
				int taken = 0;
				for (size_t j = 0; j < n_parents; j++)
					taken |= parents[j] == c;
				if (taken || c->promoted || c->no_effect || !c->outcome || strcmp(c->outcome, "ok") ||
				    !c->have_cmp || (c->verdict && !strcmp(c->verdict, "slower")))
					continue;
				if (!pick || c->speedup > pick->speedup)
					pick = c;
			}
			if (pick)
				parents[n_parents++] = pick;
		}
	}
	if (x.n_gens == 0 && !x.budget_stopped && strcmp(x.stopped, "exhausted")) {
		error("search %s ran no generation", x.id);
		*err = RUN_ENV;
		goto out_parents;
	}
	char finished[40];
	utc_now_iso(finished, sizeof(finished));
	if (commit_record(&x, finished) < 0) {
		*err = RUN_STORE;
		goto out_parents;
	}
	t->search_id = xstrdup(x.id);
	/* the summary */
	printf("\nsearch %s: %zu generation(s); stopped: %s (%s)\n", x.id, x.n_gens, x.stopped, x.stop_reason);
	for (size_t i = 0; i < x.n_gens; i++) {
		const struct gen *g = &x.g[i];
		if (!g->why)
			continue;
		const struct cand *b = &g->c[g->best_out];
		printf("  generation %zu: best %s, %.2f us [%.2f, %.2f]%s\n", i, b->id, b->median_us, b->median_ci[0],
		       b->median_ci[1], g->promoted ? " (promoted)" : " (kept)");
	}
	if (x.ss->budget_unit)
		printf("  budget: %.4g of %.4g %s spent%s\n", x.spent, x.ss->budget, x.ss->budget_unit,
		       x.budget_stopped ? "; it stopped the search" : "");
	for (size_t i = 0; i < json_array_size(x.notes); i++)
		printf("  note: %s\n", json_string_value(json_array_get(x.notes, i)));
	printf("the tree: evident show --lineage %s\n", x.id);
	fflush(stdout);
	rc = 0;
out_parents:
	free(parents);
	cand_release(&start);
out:
	x.n_gens = x.g ? (size_t)x.ss->generations : 0; /* release every generation planned */
	search_release(&x);
	return rc;
}
