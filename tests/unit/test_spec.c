/*
 * test_spec.c - unit tests of spec loading: defaults, grid expansion and
 * order, baseline-first invariants, per-variant kernels and references;
 * the key tables help and README print.
 * (Each error message is pinned by a CLI test, tests/cli/t001x-spec-*.)
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <unistd.h>
#include <glob.h>

#include "run/spec.h"

static char *write_tmp(const char *text)
{
	char tmpl[] = "/tmp/evident-spec-XXXXXX";
	int fd = mkstemp(tmpl);
	assert_true(fd >= 0);
	assert_int_equal(write_all(fd, text, strlen(text)), 0);
	close(fd);
	return xstrdup(tmpl);
}

static void test_defaults(void **state)
{
	(void)state;
	char *p = write_tmp("name: d\nproblem: attention_fwd\nshape: {B: 1, H: 2, S: 3, D: 4}\n"
			    "kernel: k.cu\n");
	struct spec s;
	assert_int_equal(spec_load(p, NULL, &s), 0);
	assert_string_equal(s.backend, "cuda");
	assert_string_equal(s.dtype, "fp16");
	assert_int_equal(s.n_variants, 1);
	assert_string_equal(s.baseline, "default");
	assert_int_equal(s.k.seeds, 5);
	assert_string_equal(knob_values_cache[s.k.cache], "cold");
	assert_int_equal(s.k.repeats, 3); /* the cuda backend's default */
	assert_true(s.k.timeout_s == 60 + 2 * 15);
	assert_true(isnan(s.k.atol)); /* the problem's rule decides */
	assert_int_equal(s.n_dims, 4);
	assert_int_equal(s.dims[0] * 1000 + s.dims[1] * 100 + s.dims[2] * 10 + s.dims[3], 1234);
	assert_string_equal(s.dim_names[2], "S");
	assert_false(s.seed_given);
	spec_release(&s);
	unlink(p);
	free(p);
}

/* The host default is the cuda one: 3 repeats, the fewest whose verdicts
 * can see past one process (stats.h, rule 0); one used to be the host's. */
static void test_host_default_repeats(void **state)
{
	(void)state;
	char *p = write_tmp("name: h\nproblem: attention_fwd\nbackend: host\nshape: {B: 1, H: 2, S: 3, D: 4}\n"
			    "kernel: k.c\n");
	struct spec s;
	assert_int_equal(spec_load(p, NULL, &s), 0);
	assert_string_equal(s.backend, "host");
	assert_int_equal(s.k.repeats, 3);
	spec_release(&s);
	unlink(p);
	free(p);
}

static void test_grid_and_params(void **state)
{
	(void)state;
	char *p = write_tmp("name: g\nproblem: attention_fwd\nshape: {B: 1, H: 1, S: 8, D: 8}\n"
			    "kernel: k.c\nbaseline: A-1_B-x\nparams: {C: 7}\n"
			    "grid: {A: [1, 2, 3], B: [x, y]}\n"
			    "variants:\n  extra: {A: 9, kernel: other.c, expect: crashed}\n"
			    "references: [ref1]\ncorrectness: {seed: 99}\n");
	struct spec s;
	assert_int_equal(spec_load(p, NULL, &s), 0);
	assert_int_equal(s.n_variants, 1 + 6 + 1);
	assert_string_equal(s.variants[0].name, "extra");
	assert_string_equal(s.variants[0].kernel, "other.c");
	assert_string_equal(s.variants[0].expect, "crashed");
	assert_string_equal(spec_param(&s.variants[0], "C"), "7");
	assert_string_equal(s.variants[1].name, "A-1_B-x");
	assert_string_equal(s.variants[2].name, "A-1_B-y"); /* last key fastest */
	assert_string_equal(s.variants[6].name, "A-3_B-y");
	assert_string_equal(spec_param(&s.variants[6], "A"), "3");
	assert_string_equal(spec_param(&s.variants[6], "C"), "7");
	assert_string_equal(s.variants[7].kernel, "kernels/reference/ref1.c");
	assert_true(s.variants[7].is_reference);
	assert_true(s.seed_given);
	assert_int_equal(s.seed, 99);
	spec_release(&s);
	unlink(p);
	free(p);
}

static void test_error_leaves_no_state(void **state)
{
	(void)state;
	char *p = write_tmp("name: e\nproblem: attention_fwd\nshape: {B: 1, H: 1, S: 8, D: 8}\n"
			    "kernel: k.c\ntiming: {samples: -1}\n");
	struct spec s;
	util_quiet = 1;
	assert_int_equal(spec_load(p, NULL, &s), -1);
	util_quiet = 0;
	spec_release(&s); /* safe after a failure */
	unlink(p);
	free(p);
}

/* expect: a list of outcomes is stored as "a or b"; a list with ok, an
 * outcome twice, an unknown name or an empty list is refused. */
static void test_expect_list(void **state)
{
	(void)state;
	char *p = write_tmp("name: x\nproblem: attention_fwd\nshape: {B: 1, H: 1, S: 8, D: 8}\n"
			    "baseline: b\nvariants:\n  a: {kernel: k.c, expect: [flaky, escaped_work]}\n"
			    "  b: {kernel: k.c, expect: nan}\n");
	struct spec s;
	assert_int_equal(spec_load(p, NULL, &s), 0);
	assert_string_equal(s.variants[0].expect, "flaky or escaped_work");
	assert_string_equal(s.variants[1].expect, "nan");
	spec_release(&s);
	unlink(p);
	free(p);
	const char *bad[] = { "[ok, flaky]", "[flaky, flaky]", "[flaky, sometimes]", "[]", "[[flaky]]" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char text[256];
		snprintf(text, sizeof(text), "name: x\nproblem: attention_fwd\nshape: {B: 1, H: 1, S: 8, D: 8}\n"
			 "baseline: a\nvariants:\n  a: {kernel: k.c, expect: %s}\n", bad[i]);
		p = write_tmp(text);
		util_quiet = 1;
		assert_int_equal(spec_load(p, NULL, &s), -1);
		util_quiet = 0;
		spec_release(&s);
		unlink(p);
		free(p);
	}
}

/* Every knob in the table parses from its section, and a typo of a
 * reserved variant key is named, not taken for a parameter. */
static void test_knobs_and_typos(void **state)
{
	(void)state;
	char *p = write_tmp("name: k\nproblem: attention_fwd\nshape: {B: 1, H: 1, S: 8, D: 8}\n"
			    "kernel: k.c\nrepeats: 4\ncorrectness: {rel_l2: 0.01, timed_checks: 3}\n"
			    "timing: {clock: events, stdrel: 0.02, cache: hot}\nlimits: {timeout_s: 9}\n");
	struct spec s;
	assert_int_equal(spec_load(p, NULL, &s), 0);
	assert_int_equal(s.k.repeats, 4);
	assert_true(s.k.rel_l2 == 0.01);
	assert_int_equal(s.k.timed_checks, 3);
	assert_string_equal(knob_values_clock[s.k.clock], "events");
	assert_string_equal(knob_values_cache[s.k.cache], "hot");
	assert_true(s.k.stdrel == 0.02);
	assert_true(s.k.timeout_s == 9);
	assert_int_equal(s.k.samples, 100); /* untouched default */
	spec_release(&s);
	unlink(p);
	free(p);
	p = write_tmp("name: k\nproblem: attention_fwd\nshape: {B: 1}\nkernel: k.c\nbaseline: a\n"
		      "variants:\n  a: {expct: crashed}\n");
	util_quiet = 1;
	assert_int_equal(spec_load(p, NULL, &s), -1);
	util_quiet = 0;
	spec_release(&s);
	unlink(p);
	free(p);
}

/* A variant's lineage is read whole; a misspelled key of it, a
 * lineage that names nothing and a lineage in params: are refused. */
static void test_lineage(void **state)
{
	(void)state;
	char *p = write_tmp("name: l\nproblem: attention_fwd\nshape: {B: 1}\nkernel: k.c\nbaseline: a\n"
			    "variants:\n  a: {X: 1}\n"
			    "  b: {X: 2, lineage: {parent: a, mutation: 'X 1->2', origin: model-7, search: s-1, generation: 3}}\n");
	struct spec s;
	assert_int_equal(spec_load(p, NULL, &s), 0);
	assert_null(s.variants[0].lineage);
	const struct spec_lineage *l = s.variants[1].lineage;
	assert_non_null(l);
	assert_string_equal(l->parent, "a");
	assert_string_equal(l->mutation, "X 1->2");
	assert_string_equal(l->origin, "model-7");
	assert_string_equal(l->search, "s-1");
	assert_int_equal(l->generation, 3);
	assert_int_equal(s.variants[1].n_params, 1); /* lineage is no parameter */
	spec_release(&s);
	unlink(p);
	free(p);
	static const char *const bad[] = {
		"  b: {lineage: {parnet: a}}\n",
		"  b: {lineage: {}}\n",
		"  b: {lineage: {parent: a, generation: -1}}\n",
		"  b: {lineage: {search: 'a b'}}\n",
		"  b: {lineage: parent}\n",
		"  b: {linage: {parent: a}}\n",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *t = xstrfmt("name: l\nproblem: attention_fwd\nshape: {B: 1}\nkernel: k.c\nbaseline: a\n"
				  "variants:\n  a: {X: 1}\n%s", bad[i]);
		p = write_tmp(t);
		util_quiet = 1;
		if (spec_load(p, NULL, &s) != -1)
			fail_msg("accepted: %s", bad[i]);
		util_quiet = 0;
		spec_release(&s);
		unlink(p);
		free(p);
		free(t);
	}
	p = write_tmp("name: l\nproblem: attention_fwd\nshape: {B: 1}\nkernel: k.c\n"
		      "params: {lineage: {parent: a}}\n");
	util_quiet = 1;
	assert_int_equal(spec_load(p, NULL, &s), -1);
	util_quiet = 0;
	spec_release(&s);
	unlink(p);
	free(p);
}

/* search: read whole; a search's spec starts from one variant, takes no
 * references, and its budget's unit fits the backend. */
static void test_search_block(void **state)
{
	(void)state;
	const char *head = "name: s\nproblem: attention_fwd\nbackend: host\nshape: {B: 1}\nkernel: k.c\n";
	char *t = xstrfmt("%svariants:\n  base: {BM: 16}\nsearch:\n  population: 3\n  generations: 2\n  seed: 9\n"
			  "  elite: 2\n  tunables:\n    BM: {range: [16, 64], step: 16}\n    VW: {choices: [4, 8]}\n"
			  "  kernels: [k2.c]\n  budget: {cpu_s: 30}\n", head);
	char *p = write_tmp(t);
	struct spec s;
	assert_int_equal(spec_load(p, NULL, &s), 0);
	const struct spec_search *x = s.search;
	assert_non_null(x);
	assert_int_equal(x->population, 3);
	assert_int_equal(x->generations, 2);
	assert_int_equal(x->elite, 2);
	assert_int_equal(x->mutations, 1);
	assert_true(x->seed_given && x->seed == 9);
	assert_int_equal(x->n_tunables, 2);
	assert_true(x->tunables[0].is_range && x->tunables[0].lo == 16 && x->tunables[0].hi == 64 &&
		    x->tunables[0].step == 16);
	assert_int_equal(x->tunables[1].n_choices, 2);
	assert_string_equal(x->tunables[1].choices[1], "8");
	assert_int_equal(x->n_kernels, 1);
	assert_string_equal(x->budget_unit, "cpu_s");
	assert_true(x->budget == 30);
	spec_release(&s);
	unlink(p);
	free(p);
	free(t);
	/* each refused with its own reason (stderr caught in a file) */
	static const char *const bad[][2] = {
		{ "baseline: a\nvariants:\n  a: {BM: 1}\n  b: {BM: 2}\nsearch: {tunables: {BM: {choices: [1, 2]}}}\n",
		  "a search starts from one variant, its baseline; the spec has 2" },
		{ "variants:\n  a: {BM: 1}\nreferences: [r]\nbaseline: a\nsearch: {tunables: {BM: {choices: [1, 2]}}}\n",
		  "a search cannot carry references" },
		{ "variants:\n  a: {BM: 1}\nsearch: {tunables: {BM: {choices: [1, 2]}}, budget: {gpu_s: 5}}\n",
		  "the host backend records no GPU time or price" },
		{ "variants:\n  a: {BM: 1}\nsearch: {population: 2, elite: 3, tunables: {BM: {choices: [1, 2]}}}\n",
		  "'elite' is 3, above 'population' (2)" },
		{ "variants:\n  g0c1: {BM: 1}\nsearch: {tunables: {BM: {choices: [1, 2]}}}\n",
		  "is named like a search's candidates" },
		{ "variants:\n  a: {BM: 1}\nsearch: {tunables: {BM: {choices: [1, 2], range: [1, 4]}}}\n",
		  "has both 'range' and 'choices'" },
		{ "variants:\n  a: {BM: 1}\nsearch: {tunables: {BM: {range: [4, 4]}}}\n", "hi must be above lo" },
		{ "variants:\n  a: {BM: 1}\nsearch: {tunables: {BM: {range: [1, 4], step: 4}}}\n", "takes one value only" },
		{ "variants:\n  a: {BM: 1}\nsearch: {population: 2}\n", "'search' has nothing to mutate" },
		{ "variants:\n  a: {BM: 1}\nsearch: {tunables: {BM: {choices: [1, 1]}}}\n", "lists '1' twice" },
		{ "variants:\n  a: {BM: 1}\nsearch: {tunables: {BM: {choise: [1, 2]}}}\n", "(did you mean 'choices'?)" },
		{ "variants:\n  a: {BM: 1}\nsearch: {tunables: {BM: {choices: [1, 2]}}, budget: {cpu_s: 1, usd: 2}}\n",
		  "takes one unit, not 2" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		t = xstrfmt("%s%s", head, bad[i][0]);
		p = write_tmp(t);
		char errp[] = "/tmp/evident-spec-err-XXXXXX";
		int efd = mkstemp(errp);
		assert_true(efd >= 0);
		fflush(stderr);
		int saved = dup(2);
		dup2(efd, 2);
		int rc = spec_load(p, NULL, &s);
		fflush(stderr);
		dup2(saved, 2);
		close(saved);
		close(efd);
		struct strbuf err = STRBUF_INIT;
		assert_int_equal(read_file(errp, &err), 0);
		if (rc != -1 || !strstr(strbuf_str(&err), bad[i][1]))
			fail_msg("case %zu: rc %d, wanted '%s' in: %s", i, rc, bad[i][1], strbuf_str(&err));
		strbuf_release(&err);
		unlink(errp);
		spec_release(&s);
		unlink(p);
		free(p);
		free(t);
	}
}

/* The tables `evident help spec` prints (and README's spec reference is):
 * every row complete, every knob section placed exactly once, and every
 * derived knob's doc ending in "(default: HOW)", which help prints as its
 * default. */
/* A recorded spec's variants, as the unmarked-eval rule reads them
 * (store/query.c): grid, per-variant kernels and references, from text
 * alone; NULL for a text that does not load. */
static void test_variants_of_text(void **state)
{
	(void)state;
	json_t *v = spec_variants_of_text("name: g\nproblem: attention_fwd\nshape: {B: 1, H: 1, S: 8, D: 8}\n"
					  "kernel: k.c\nbaseline: A-1\nparams: {C: 7}\n"
					  "grid: {A: [1, 2]}\n"
					  "variants:\n  extra: {A: 9, kernel: other.c, expect: crashed}\n"
					  "references: [ref1]\n");
	assert_non_null(v);
	assert_int_equal(json_object_size(v), 4);
	json_t *x = json_object_get(v, "extra");
	assert_string_equal(json_string_value(json_object_get(x, "kernel")), "other.c");
	assert_string_equal(json_string_value(json_object_get(json_object_get(x, "params"), "A")), "9");
	assert_string_equal(json_string_value(json_object_get(json_object_get(x, "params"), "C")), "7");
	x = json_object_get(v, "A-2");
	assert_string_equal(json_string_value(json_object_get(x, "kernel")), "k.c");
	assert_int_equal(json_object_size(json_object_get(x, "params")), 2);
	x = json_object_get(v, "ref1");
	assert_string_equal(json_string_value(json_object_get(x, "kernel")), "kernels/reference/ref1.c");
	json_decref(v);
	int saved = util_quiet;
	assert_null(spec_variants_of_text("name: g\nproblem: [\n"));
	assert_null(spec_variants_of_text("name: g\nwarmpu: 1\n"));
	assert_int_equal(util_quiet, saved);
}

/* What a spec defines its variants' runs to be (spec_definition_of_text,
 * the stale check's: store/query.c query_spec_defines): edits of what
 * every variant runs under (flags, shape, cache) change it, edits of how
 * much is run (samples, repeats, seeds, timeout) and of words do not (red
 * team 126). */
static void test_definition_of_text(void **state)
{
	(void)state;
	static const char base[] = "name: g\nquestion: q?\nproblem: attention_fwd\nbackend: host\n"
				   "shape: {B: 1, H: 1, S: 8, D: 8}\nkernel: k.c\nbaseline: a\n"
				   "variants:\n  a: {X: 1}\n  b: {X: 2}\ntiming: {samples: 20, cache: hot}\n";
	json_t *d0 = spec_definition_of_text(base);
	assert_non_null(d0);
	json_t *a = json_object_get(json_object_get(d0, "variants"), "a");
	assert_string_equal(json_string_value(json_object_get(a, "kernel")), "k.c");
	assert_string_equal(json_string_value(json_object_get(json_object_get(a, "params"), "X")), "1");
	assert_string_equal(json_string_value(json_object_get(a, "trust")), "host");
	json_t *sp = json_object_get(d0, "spec");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(sp, "shape"), "S")), 8);
	assert_string_equal(json_string_value(json_object_get(json_object_get(sp, "knobs"), "cache")), "hot");
	assert_null(json_object_get(json_object_get(sp, "knobs"), "samples"));
	assert_null(json_object_get(json_object_get(sp, "knobs"), "repeats"));
	static const char *const same[] = {
		"# a comment\nname: g\nquestion: other words?\nproblem: attention_fwd\nbackend: host\n"
		"shape: {B: 1, H: 1, S: 8, D: 8}\nkernel: k.c\nbaseline: a\nvariants:\n  a: {X: 1}\n  b: {X: 2}\n"
		"timing: {samples: 40, cache: hot}\nrepeats: 5\ncorrectness: {seeds: 2}\nlimits: {timeout_s: 9}\n",
	};
	static const char *const other[] = {
		"flags: [-DINVERT]\n", "shape: {B: 1, H: 1, S: 16, D: 8}\n", "timing: {samples: 20, cache: cold}\n",
		"correctness: {atol: 0.5}\n",
	};
	json_t *d = spec_definition_of_text(same[0]);
	assert_true(json_equal(d, d0));
	json_decref(d);
	for (size_t i = 0; i < sizeof(other) / sizeof(other[0]); i++) {
		/* the base with one line more, or one line replaced */
		char *t = NULL;
		const char *key = other[i];
		size_t kl = strcspn(key, ":");
		const char *at = strstr(base, "\ntiming:");
		if (!strncmp(key, "shape", kl))
			t = xstrfmt("%.*s%s%s", (int)(strstr(base, "shape:") - base), base, key,
				    strchr(strstr(base, "shape:"), '\n') + 1);
		else if (!strncmp(key, "timing", kl))
			t = xstrfmt("%.*s\n%s", (int)(at - base), base, key);
		else
			t = xstrfmt("%s%s", base, key);
		d = spec_definition_of_text(t);
		assert_non_null(d);
		if (json_equal(d, d0))
			print_error("the definition did not change with: %s", key);
		assert_false(json_equal(d, d0));
		json_decref(d);
		free(t);
	}
	json_decref(d0);
	assert_null(spec_definition_of_text("name: g\nwarmpu: 1\n"));
}

static void test_key_tables(void **state)
{
	(void)state;
	size_t rows = 0;
	for (const struct spec_key *k = spec_keys; k->section; k++, rows++)
		if (k->name)
			assert_true(k->type && *k->type && k->def && *k->def && k->doc && *k->doc);
	assert_true(rows > 20);
	for (size_t i = 0; i < knob_count; i++) {
		const struct knob_def *d = &knob_defs[i];
		int placed = 0;
		for (const struct spec_key *k = spec_keys; k->section; k++)
			placed += !k->name && !strcmp(k->section, d->section);
		if (placed != 1)
			fail_msg("knob section '%s' is placed %d times in spec_keys[] (once, as a row with name NULL)",
				 d->section, placed);
		if (isnan(d->def)) {
			const char *how = strstr(d->doc, " (default: ");
			if (!how || d->doc[strlen(d->doc) - 1] != ')')
				fail_msg("derived knob '%s': its doc must end in \"(default: HOW)\"", d->name);
		}
	}
}

/*
 * Every spec the repository commits loads: the fixtures the CLI and GPU
 * tests run (tests/fixtures/specs), the experiments and the dist
 * examples, with their kernel files present.  Most CUDA fixtures run only
 * on a GPU, so nothing else parses them on a machine without one (four
 * of them stopped loading unseen: cuda-redteam3, -39, -72 and -72-hide,
 * an `expect` of ok beside other outcomes, 2026-12-04).  The shape keys
 * are taken as written (no problem plug-in is loaded: t0011 and the GPU
 * runs check them).  Specs made to fail to load are named
 * tests/fixtures/specs/bad-*.yaml; each of those must fail.  Templates
 * whose placeholders a red team sed'ed (REPEATS, FLAGS) end in .yaml.in
 * and are not read.
 */
static void test_committed_specs_load(void **state)
{
	(void)state;
	static const char *const pats[] = {"tests/fixtures/specs/*.yaml", "experiments/*.yaml", "experiments/*/*.yaml"};
	struct spec_env env = {.check_files = 1};
	size_t n = 0, bad = 0, wrong = 0;
	for (size_t p = 0; p < sizeof pats / sizeof pats[0]; p++) {
		glob_t g;
		if (glob(pats[p], 0, NULL, &g) != 0)
			continue;
		for (size_t i = 0; i < g.gl_pathc; i++) {
			const char *path = g.gl_pathv[i];
			const char *base = strrchr(path, '/') + 1;
			int want_bad = !strncmp(base, "bad-", 4);
			struct spec s;
			int rc = spec_load(path, &env, &s);
			spec_release(&s);
			n++;
			bad += want_bad;
			if ((rc == 0) == want_bad) {
				fprintf(stderr, "test_committed_specs_load: %s %s\n", path,
					want_bad ? "loads, but its name (bad-*) says it must not" : "does not load (the line above says why)");
				wrong++;
			}
		}
		globfree(&g);
	}
	/* run from the repository's root (make test-unit does) */
	if (n < 100)
		fail_msg("found %zu committed specs from %s; run from the repository's root", n, getcwd((char[4096]){0}, 4096));
	if (wrong)
		fail_msg("%zu of %zu committed specs load otherwise than their names say (%zu named bad-*)", wrong, n, bad);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_host_default_repeats),
		cmocka_unit_test(test_knobs_and_typos),
		cmocka_unit_test(test_grid_and_params),
		cmocka_unit_test(test_error_leaves_no_state),
		cmocka_unit_test(test_expect_list),
		cmocka_unit_test(test_key_tables),
		cmocka_unit_test(test_lineage),
		cmocka_unit_test(test_search_block),
		cmocka_unit_test(test_variants_of_text),
		cmocka_unit_test(test_definition_of_text),
		cmocka_unit_test(test_committed_specs_load),
	};
	return cmocka_run_group_tests_name("spec", tests, NULL, NULL);
}
